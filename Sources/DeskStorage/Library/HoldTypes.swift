import DeskDomain

/// What a hold is placed on: one copy, or the title of a copy (any copy of it), named by the
/// copy's inventory number or by the title's ISBN.
public enum HoldTarget: Equatable, Sendable {
  case copy(String)
  case titleOf(String)
  case isbn(ISBN)
}

/// A hold with its reader and what it holds named, and where it stands in its queue.
public struct HoldRecord: Hashable, Sendable {
  /// The hold's number at this desk, as lists show it and commands take it.
  public var number: Int
  public var id: RecordID
  public var state: HoldState
  public var readerTicket: String
  public var readerName: String
  /// The title held, as «Author «Title»».
  public var label: String
  /// The copy of a hold on one copy.
  public var copy: String?
  /// The copy put aside on the hold shelf, while the hold waits.
  public var waitingCopy: String?
  public var placed: Timestamp
  public var notWantedAfter: LocalDate?
  public var suspendedUntil: LocalDate?
  /// The last day the reader may collect the waiting copy.
  public var pickupBy: LocalDate?
  /// The desk whose hold shelf the waiting copy is on, when it is another desk's.
  public var shelfElsewhere: String?
  /// The place in the queue of a queued hold, 1 first.
  public var position: Int?
}

/// A copy put aside by a return for the first hold of its queue: the librarian puts it on the
/// hold shelf.
public struct HoldTrap: Hashable, Sendable {
  public var hold: Int
  public var inventory: String
  public var readerTicket: String
  public var readerName: String
  public var pickupBy: LocalDate
}

/// A copy on the hold shelf that no longer waits for its reader: it goes to the next hold, or
/// back to the shelf.
public struct HoldMove: Hashable, Sendable {
  public enum Cause: Hashable, Sendable {
    /// Not collected by its pickup date.
    case notCollected
    /// Its hold ended at another desk (collected there, cancelled there).
    case endedElsewhere
    /// A settlement of copies put aside twice gave the reader another copy.
    case settled
  }

  public var inventory: String
  public var label: String
  /// Whose hold it waited for.
  public var fromReader: String
  /// The next hold the copy now waits for; nil: back to the shelf.
  public var next: HoldTrap?
  public var cause: Cause = .notCollected
}

/// The columns of a hold with its reader and its copies, `holdSQL`.
enum HoldColumn: Int32, SelectedColumn {
  case id, uuid, state, label, placedAt, notWantedAfter, suspendedUntil, pickupBy
  case ticket, surname, firstName, patronymic, copy, waitingCopy, position, shelfElsewhere

  var sql: String {
    switch self {
    case .ticket, .surname, .firstName, .patronymic: return column(of: "r")
    // A queued hold's place: the queued holds of its title (on the title or on a copy, as Koha
    // ranks a title's holds in one list) placed before it,
    // those of the same millisecond in the order written; read from the queue's own index.
    case .position:
      return """
        CASE WHEN h.state = 'queued' THEN 1 + (SELECT count(*) FROM hold q WHERE q.state = 'queued'
          AND q.title_key = h.title_key
          AND (q.placed_at < h.placed_at OR q.placed_at = h.placed_at AND q.id < h.id)) END
        """
    case .copy: return "(SELECT inventory FROM book WHERE id = h.book_id)"
    case .waitingCopy: return "(SELECT inventory FROM book WHERE id = h.trapped_book_id)"
    case .shelfElsewhere:
      return "CASE WHEN h.state = 'waiting' AND h.pickup_desk <> \(HoldStore.thisDesk) THEN h.pickup_desk END"
    default: return column(of: "h")
    }
  }
}
