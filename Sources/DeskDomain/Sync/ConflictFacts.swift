/// What a conflict is about, as parts an interface puts into words of its own language (records
/// named as «title» (inventory) or name (ticket …); moments already in local time).
public enum ConflictFacts: Hashable, Sendable {
  /// A number given to two records: this desk's, and the other desk's that had it first.
  case clash(number: String, here: Record, there: Record, otherDesk: String)
  /// A book issued to several readers, a loan a side.
  case doubleIssue(book: Record, loans: [IssueSide])
  /// A record deleted at one desk while it is out: `out` says to whom in English, `loans` in parts.
  case deletedWhileOut(record: Record, deletedBy: String, out: String, loans: [OutLoan])
  /// A record changed at one desk after another deleted it.
  case changedAfterDeletion(record: Record, desk: String, at: String, deletedBy: String, fields: [FieldValue])
  /// Copies put aside for one hold at several desks: the reader, the hold's label (author and
  /// «title»), a copy a side.
  case trappedTwice(reader: Record, title: String, copies: [TrapSide])
  /// A change not taken: refused by the central (`byCentral`: one made here), or set aside here
  /// (one from `desk`, pulled); `reason` in the words of whoever refused it.
  case refusedChange(record: Record, byCentral: Bool, desk: String, reason: String)
  /// A loan renewed at desks apart `count` times in all, past its category's `limit`: the
  /// renewals that met, and the due date with one renewal fewer (`dueBefore`).
  case renewedPastLimit(
    book: Record, reader: Record, count: Int, limit: Int, dueBefore: String, renewals: [RenewalSide])
  /// A loan renewed (to `due`) at desk `renewedBy` after desk `returnedBy` took the book back at
  /// `returned` (local time).
  case renewedAfterReturn(
    book: Record, reader: Record, renewedBy: String, due: String, returnedBy: String,
    returned: String)

  /// A book (title, inventory number) or a reader (name, ticket).
  public struct Record: Hashable, Sendable {
    public var isBook: Bool
    public var name: String
    public var number: String

    public init(isBook: Bool, name: String, number: String) {
      self.isBook = isBook
      self.name = name
      self.number = number
    }
  }

  /// One loan of a book issued twice.
  public struct IssueSide: Hashable, Sendable {
    public var reader: String
    public var ticket: String
    public var desk: String
    public var issued: String
    public var due: String

    public init(reader: String, ticket: String, desk: String, issued: String, due: String) {
      self.reader = reader
      self.ticket = ticket
      self.desk = desk
      self.issued = issued
      self.due = due
    }
  }

  /// An open loan of a record deleted while out: the reader's ticket, the desk, the book.
  public struct OutLoan: Hashable, Sendable {
    public var ticket: String
    public var desk: String
    public var title: String
    public var inventory: String

    public init(ticket: String, desk: String, title: String, inventory: String) {
      self.ticket = ticket
      self.desk = desk
      self.title = title
      self.inventory = inventory
    }
  }

  /// A copy put aside for a hold: at which desk, when (local time), and the last day to collect.
  public struct TrapSide: Hashable, Sendable {
    public var inventory: String
    public var desk: String
    public var at: String
    public var pickupBy: String

    public init(inventory: String, desk: String, at: String, pickupBy: String) {
      self.inventory = inventory
      self.desk = desk
      self.at = at
      self.pickupBy = pickupBy
    }
  }

  /// A renewal of a loan: at which desk, and the due date it gave.
  public struct RenewalSide: Hashable, Sendable {
    public var desk: String
    public var due: String

    public init(desk: String, due: String) {
      self.desk = desk
      self.due = due
    }
  }

  /// A field and the value a change gave it (empty for a reference to another record).
  public struct FieldValue: Hashable, Sendable {
    public var field: String
    public var value: String

    public init(field: String, value: String) {
      self.field = field
      self.value = value
    }

    /// `author surname «Толстой»`; a reference by its name alone.
    public var words: String {
      let name = field.split(separator: "_").joined(separator: " ")
      return value.isEmpty ? name : "\(name) «\(value)»"
    }
  }
}
