/// What two desks did that cannot both stand, found when their changes meet.
public enum ConflictKind: String, Hashable, Sendable, CaseIterable {
  /// Two books given one inventory number while their desks were apart.
  case inventory
  /// Two readers given one ticket.
  case ticket
  /// One book issued at two desks to two readers.
  case doubleIssue = "double_issue"
  /// A record changed at one desk after another desk deleted it.
  case editAfterDelete = "edit_after_delete"
  /// Copies put aside at two desks for one hold.
  case trappedTwice = "trapped_twice"
  /// A change that could not be taken: the central refused one made here (it broke a rule of its
  /// fields), or this desk set aside one pulled from the central that it could not apply. Only
  /// this desk lists it; the rest of the sync went on.
  case refusedChange = "refused_change"
  /// A loan renewed at desks apart more often, together, than its reader's category allows.
  case renewalLimit = "renewal_limit"
  /// A loan renewed at one desk after another desk had taken the book back.
  case renewedAfterReturn = "renewed_after_return"
}

/// A conflict as the librarian sees it.
public struct Conflict: Hashable, Sendable {
  /// This desk's number for it, for the command line.
  public var number: Int
  /// The same at every desk that finds it.
  public var key: String
  public var kind: ConflictKind
  public var entity: String
  public var recordID: String
  /// The other record or change it is about (for a clash of numbers: the central's record).
  public var otherID: String
  /// What a librarian chooses between, a side each in the order of the sides: for a book issued
  /// twice the ticket of each side's reader, for a hold filled twice each copy's inventory number.
  public var choices: [String]
  /// What happened, in parts: the words for it, in each language, are `LibraryWords`'.
  public var facts: ConflictFacts
  public var raised: Timestamp
  public var resolved: Timestamp?
  public var resolution: String

  public init(
    number: Int, key: String, kind: ConflictKind, entity: String, recordID: String, otherID: String = "",
    choices: [String] = [], facts: ConflictFacts,
    raised: Timestamp, resolved: Timestamp?, resolution: String
  ) {
    self.number = number
    self.key = key
    self.kind = kind
    self.entity = entity
    self.recordID = recordID
    self.otherID = otherID
    self.choices = choices
    self.facts = facts
    self.raised = raised
    self.resolved = resolved
    self.resolution = resolution
  }
}
