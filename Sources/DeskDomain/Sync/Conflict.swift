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

  public var title: String {
    switch self {
    case .inventory: return "same inventory number"
    case .ticket: return "same ticket"
    case .doubleIssue: return "issued twice"
    case .editAfterDelete: return "changed after deletion"
    case .trappedTwice: return "put aside twice"
    case .refusedChange: return "change not taken"
    case .renewalLimit: return "renewed past the limit"
    case .renewedAfterReturn: return "renewed after return"
    }
  }

  /// How a librarian settles conflict `number` from the command line.
  public func remedy(number: Int) -> String {
    remedy.split(separator: " ", omittingEmptySubsequences: false).map { $0 == "N" ? String(number) : String($0) }
      .joined(separator: " ")
  }

  /// How a librarian settles it from the command line (N: the conflict's number).
  public var remedy: String {
    switch self {
    case .inventory, .ticket:
      return "give one of them another number: conflicts resolve N --renumber NEW, or --duplicate when both are one"
    case .doubleIssue: return "say who holds the book: conflicts resolve N --holder TICKET"
    case .editAfterDelete: return "conflicts resolve N --restore, or --keep-deleted"
    case .trappedTwice: return "say which copy the reader collects: conflicts resolve N --copy INVENTORY"
    case .refusedChange:
      return "correct the record here, then conflicts resolve N --resend (the central refused it), or --drop"
    case .renewalLimit: return "conflicts resolve N --keep-renewals, or --take-back-renewal"
    case .renewedAfterReturn: return "the book is back: conflicts resolve N --acknowledge"
    }
  }
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
  /// One line: what happened.
  public var summary: String
  /// What each side says, a line each.
  public var sides: [String]
  /// What a librarian chooses between, a side each in the order of `sides`: for a book issued
  /// twice the ticket of each side's reader, for a hold filled twice each copy's inventory number.
  public var choices: [String]
  /// The same as `summary` and `sides`, in parts, for interfaces in other languages.
  public var facts: ConflictFacts?
  public var raised: Timestamp
  public var resolved: Timestamp?
  public var resolution: String

  public init(
    number: Int, key: String, kind: ConflictKind, entity: String, recordID: String, otherID: String = "",
    summary: String, sides: [String], choices: [String] = [], facts: ConflictFacts? = nil,
    raised: Timestamp, resolved: Timestamp?, resolution: String
  ) {
    self.number = number
    self.key = key
    self.kind = kind
    self.entity = entity
    self.recordID = recordID
    self.otherID = otherID
    self.summary = summary
    self.sides = sides
    self.choices = choices
    self.facts = facts
    self.raised = raised
    self.resolved = resolved
    self.resolution = resolution
  }
}
