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

  /// What the librarian does with the copy, in English (the command line's words).
  public var englishLine: String {
    let why =
      switch cause {
      case .notCollected: "not collected by \(fromReader)"
      case .endedElsewhere: "the hold of \(fromReader) ended at another desk"
      case .settled: "no longer for \(fromReader) (a conflict settled)"
      }
    return "\(inventory) \(label): \(why): "
      + (next.map { "keep it on the hold shelf for \($0.readerName) (ticket \($0.readerTicket))" }
        ?? "put it back on the shelf")
  }
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
      return "CASE WHEN h.state = 'waiting' AND h.pickup_desk <> \(LibraryStore.thisDesk) THEN h.pickup_desk END"
    default: return column(of: "h")
    }
  }
}

extension LibraryStore {
  static let holdSQL = "SELECT \(HoldColumn.list) FROM hold h JOIN reader r ON r.id = h.reader_id"

  /// This desk's name as its hold shelf is known (empty at a desk on its own).
  static let thisDesk = "coalesce((SELECT value FROM setting WHERE key = 'desk_name'), '')"

  static func decodeHold(_ row: Row) throws -> HoldRecord {
    HoldRecord(
      number: row.int(HoldColumn.id), id: RecordID(row.string(HoldColumn.uuid)),
      state: HoldState(rawValue: row.string(HoldColumn.state)) ?? .cancelled,
      readerTicket: row.string(HoldColumn.ticket),
      readerName: Reader.shortName(
        surname: row.string(HoldColumn.surname), firstName: row.string(HoldColumn.firstName),
        patronymic: row.string(HoldColumn.patronymic)),
      label: row.string(HoldColumn.label), copy: row.optionalString(HoldColumn.copy),
      waitingCopy: row.optionalString(HoldColumn.waitingCopy), placed: try row.timestamp(HoldColumn.placedAt),
      notWantedAfter: try row.optionalDate(HoldColumn.notWantedAfter),
      suspendedUntil: try row.optionalDate(HoldColumn.suspendedUntil),
      pickupBy: try row.optionalDate(HoldColumn.pickupBy),
      shelfElsewhere: row.optionalString(HoldColumn.shelfElsewhere),
      position: row.optionalInt(HoldColumn.position))
  }

  /// Places a hold for the reader. Refused when the reader already holds the title or has it on
  /// loan, when a copy is on the shelf to be issued instead, or beyond the category's limit.
  @discardableResult
  public func placeHold(ticket: String, on target: HoldTarget, until: LocalDate? = nil) throws(StoreError)
    -> HoldRecord
  {
    let moment = clock.now()
    return try write {
      guard let (readerRowID, reader) = try readerRow(ticket: ticket.identifierForm) else {
        throw StoreError.refused([.unknownReader(ticket)])
      }
      let named: BookRef
      var copyRowID: Int64?
      switch target {
      case .copy(let inventory), .titleOf(let inventory):
        guard let ref = try bookRef(inventory: inventory.identifierForm) else {
          throw StoreError.refused([.unknownBook(inventory)])
        }
        named = ref
        if case .copy = target { copyRowID = ref.rowID }
      case .isbn(let isbn):
        guard let first = try books(isbn: isbn).first, let ref = try bookRef(inventory: first.inventoryNumber) else {
          throw StoreError.refused([.isbnNotInLibrary(isbn.hyphenated)])
        }
        named = ref
      }
      let book = named.book
      let label = book.holdLabel
      var refusals: [CirculationRefusal] = []
      if let until, until < moment.date { refusals.append(.holdDateInPast(until)) }
      // A copy that cannot circulate is not waited for: it does not come back to be lent.
      if copyRowID != nil, !book.status.circulates {
        refusals.append(.notForLoan(book: book.title, inventory: book.inventoryNumber, status: book.status))
      }
      // The reader's own loans, not the title's copies: a title may have thousands of copies.
      for copy in try openLoanBooks(readerRowID: readerRowID) where copy.titleKey == book.titleKey {
        refusals.append(.alreadyHasTitle(reader: reader.shortName, book: copy.title, inventory: copy.inventoryNumber))
      }
      if try activeHold(readerRowID: readerRowID, titleKey: book.titleKey) {
        refusals.append(.alreadyHolds(reader: reader.shortName, book: label))
      }
      let onShelf =
        copyRowID == nil
        ? try copyOnShelf(ofTitle: book) : (try isOnShelf(rowID: named.rowID, book: book) ? book : nil)
      if let copy = onShelf {
        refusals.append(.copyOnShelf(book: copy.title, inventory: copy.inventoryNumber))
      }
      guard let category = try categories().first(where: { $0.code == reader.category }) else {
        throw StoreError.categoryNotFound(reader.category)
      }
      let active = try database.scalarInt(
        "SELECT count(*) FROM hold WHERE reader_id = ? AND state IN ('queued', 'waiting')", readerRowID)
      if active >= category.holdLimit {
        refusals.append(.holdLimitReached(reader: reader.shortName, limit: category.holdLimit, category: category))
      }
      guard refusals.isEmpty else { throw StoreError.refused(refusals) }
      let id = RecordID.random()
      let now = moment.instant.iso
      try database.execute(
        """
        INSERT INTO hold(uuid, reader_id, title_key, book_id, label, placed_at, not_wanted_after, desk, created_at,
          updated_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """, id.text, readerRowID, book.titleKey, copyRowID, label, now, until?.iso, try policy().deskName, now, now)
      return try hold(number: Int(database.lastInsertedRowID))
    }
  }

  /// The books the reader has out.
  private func openLoanBooks(readerRowID: Int64) throws -> [Book] {
    try database.query(
      """
      SELECT \(LibraryStore.bookColumns) FROM loan l JOIN book b ON b.id = l.book_id
      WHERE l.reader_id = ? AND l.returned_at IS NULL AND l.deleted = 0
      """, readerRowID, read: { try LibraryStore.decodeBook($0) })
  }

  /// A copy of the title that may be issued now (other than `excluded`), found by one statement
  /// that stops at the first: the copies of a title are read only while they are all out.
  func copyOnShelf(ofTitle book: Book, excluding excluded: Int64? = nil) throws -> Book? {
    let free = """
      b.deleted = 0 AND b.status = 'available' AND b.id IS NOT ?
        AND NOT EXISTS (SELECT 1 FROM loan WHERE book_id = b.id AND returned_at IS NULL AND deleted = 0)
        AND NOT EXISTS (SELECT 1 FROM hold WHERE trapped_book_id = b.id AND state = 'waiting')
        AND NOT EXISTS (\(LibraryStore.contested(copy: "b.id")))
      """
    if let isbn = book.isbn {
      return try database.queryFirst(
        "SELECT \(LibraryStore.bookColumns) FROM book b WHERE b.isbn13 = ? AND \(free) LIMIT 1", isbn.isbn13, excluded,
        read: { try LibraryStore.decodeBook($0) })
    }
    let prefix = book.sortPrefix
    return try database.queryFirst(
      """
      SELECT \(LibraryStore.bookColumns) FROM book b
      WHERE b.sort_key >= ? AND b.sort_key < ? AND +b.isbn13 IS NULL AND b.year IS ? AND \(free) LIMIT 1
      """, prefix, String(prefix.dropLast()) + "\u{2}", book.year, excluded, read: { try LibraryStore.decodeBook($0) })
  }

  /// The copies of a book's title: the same ISBN, or, without one, the same author, title and year.
  func copiesOfTitle(of book: Book) throws -> [BookRef] {
    if let isbn = book.isbn {
      return try database.query(
        "SELECT \(LibraryStore.bookColumns) FROM book b WHERE b.isbn13 = ? AND b.deleted = 0", isbn.isbn13
      ) { ($0.int64(BookColumn.id), try LibraryStore.decodeBook($0)) }
    }
    // The copies of one author and title are a range of the list's index; the year is in it too.
    // (`+` keeps SQLite from reading them through the ISBN index instead, where every book
    // without an ISBN is "isbn13 = NULL": a title changed in a library of 100,000 such books
    // took 33 ms, read whole, as did `copyOnShelf`.)
    let prefix = book.sortPrefix
    return try database.query(
      """
      SELECT \(LibraryStore.bookColumns) FROM book b
      WHERE b.sort_key >= ? AND b.sort_key < ? AND b.deleted = 0 AND +b.isbn13 IS NULL AND b.year IS ?
      """, prefix, String(prefix.dropLast()) + "\u{2}", book.year
    ) { ($0.int64(BookColumn.id), try LibraryStore.decodeBook($0)) }
  }

  /// Whether the copy may be issued now: available, not out, not put aside for a hold.
  func isOnShelf(rowID: Int64, book: Book) throws -> Bool {
    guard book.status.circulates else { return false }
    let busy = try database.scalarInt(
      """
      SELECT EXISTS (SELECT 1 FROM loan WHERE book_id = ?1 AND returned_at IS NULL AND deleted = 0)
        OR EXISTS (SELECT 1 FROM hold WHERE trapped_book_id = ?1 AND state = 'waiting')
        OR EXISTS (\(LibraryStore.contestedCopy))
      """, rowID)
    return busy == 0
  }

  /// Whether the reader holds the title already, by a hold on it or on one of its copies.
  private func activeHold(readerRowID: Int64, titleKey: String) throws -> Bool {
    try database.scalarInt(
      """
      SELECT count(*) FROM hold WHERE reader_id = ? AND state IN ('queued', 'waiting') AND title_key = ?
      """, readerRowID, titleKey) > 0
  }

  /// One hold by its number, with its place in the queue when queued.
  public func hold(number: Int) throws(StoreError) -> HoldRecord {
    try read {
      guard let found = try database.queryFirst(LibraryStore.holdSQL + " WHERE h.id = ?", number, read: Self.decodeHold)
      else { throw StoreError.refused([.unknownHold(number)]) }
      return found
    }
  }

  /// A reader's holds: waiting first, then queued in the order placed, then the ended ones, newest first.
  public func holds(ofReader ticket: String) throws(StoreError) -> [HoldRecord] {
    try read {
      try database.query(
        LibraryStore.holdSQL + """
           WHERE r.ticket = ? AND r.deleted = 0
          ORDER BY CASE h.state WHEN 'waiting' THEN 0 WHEN 'queued' THEN 1 ELSE 2 END,
            CASE WHEN h.state IN ('waiting', 'queued') THEN h.placed_at END,
            CASE WHEN h.state IN ('waiting', 'queued') THEN h.id END, h.updated_at DESC
          """, ticket.identifierForm, read: Self.decodeHold
      )
    }
  }

  /// The queue of a copy's title (and of the copy itself), in the order it is served, with any
  /// copy of the title waiting on the hold shelf first.
  public func holdQueue(forBook inventory: String) throws(StoreError) -> [HoldRecord] {
    try read {
      guard let (rowID, book) = try bookRef(inventory: inventory.identifierForm) else {
        throw StoreError.refused([.unknownBook(inventory)])
      }
      var position = 0
      return try database.query(
        LibraryStore.holdSQL + """
           WHERE h.state IN ('queued', 'waiting') AND (h.title_key = ? AND h.book_id IS NULL OR h.book_id = ?)
          ORDER BY h.state = 'queued', h.placed_at, h.id
          """, book.titleKey, rowID, read: Self.decodeHold
      ).map { hold in
        var hold = hold
        if hold.state == .queued {
          position += 1
          hold.position = position
        }
        return hold
      }
    }
  }

  /// Which holds `hold list` shows.
  public enum HoldListFilter: Sendable {
    /// Queued and waiting.
    case active
    /// Copies on the hold shelf.
    case waiting
    /// Waiting past their pickup date: to be expired and moved.
    case waitingTooLong
  }

  public func holds(_ filter: HoldListFilter = .active) throws(StoreError) -> [HoldRecord] {
    let today = self.today.iso
    return try read {
      switch filter {
      case .active:
        return try database.query(
          LibraryStore.holdSQL
            + " WHERE h.state IN ('queued', 'waiting') ORDER BY h.state = 'queued', h.placed_at, h.id",
          read: Self.decodeHold
        )
      case .waiting:
        return try database.query(
          LibraryStore.holdSQL
            + " WHERE h.state = 'waiting' AND h.pickup_desk = \(LibraryStore.thisDesk) ORDER BY h.pickup_by",
          read: Self.decodeHold)
      case .waitingTooLong:
        return try database.query(
          LibraryStore.holdSQL + """
             WHERE h.state = 'waiting' AND h.pickup_desk = \(LibraryStore.thisDesk) AND h.pickup_by < ?1
              OR h.state = 'queued' AND h.not_wanted_after < ?1
            ORDER BY h.state = 'queued', h.pickup_by, h.placed_at
            """, today, read: Self.decodeHold)
      }
    }
  }

  /// How many copies wait on this desk's hold shelf, and how many of them waited too long: read
  /// from the index of waiting holds, whatever the size of the library.
  public func holdShelfCounts() throws(StoreError) -> (waiting: Int, tooLong: Int) {
    let today = self.today.iso
    return try read {
      (
        try database.scalarInt(
          "SELECT count(*) FROM hold INDEXED BY hold_waiting WHERE state = 'waiting' AND pickup_desk = \(LibraryStore.thisDesk)"
        ),
        try database.scalarInt(
          """
          SELECT count(*) FROM hold INDEXED BY hold_waiting
          WHERE state = 'waiting' AND pickup_desk = \(LibraryStore.thisDesk) AND pickup_by < ?
          """, today)
      )
    }
  }

  /// Cancels an active hold. A copy that waited for it on this desk's hold shelf is put aside for
  /// the next hold (`next`), or goes back to the shelf (`next` nil): `freed` names it. A copy on
  /// another desk's shelf (`shelf`) is passed on by that desk when it hears of the cancellation.
  @discardableResult
  public func cancelHold(number: Int) throws(StoreError) -> (freed: String?, next: HoldTrap?, shelf: String?) {
    try write {
      let hold = try self.hold(number: number)
      return (hold.waitingCopy, try end(number, as: .cancelled), hold.shelfElsewhere)
    }
  }

  /// Suspends a queued hold until a date (it keeps its place, and is passed over until then), or
  /// resumes it with nil.
  public func suspendHold(number: Int, until: LocalDate?) throws(StoreError) {
    let now = clock.now()
    try write {
      let hold = try self.hold(number: number)
      if hold.state == .waiting {
        throw StoreError.refused([.holdWaitingNotSuspended(number: number, inventory: hold.waitingCopy ?? "")])
      }
      guard hold.state == .queued else { throw StoreError.refused([.holdEnded(number: number, state: hold.state)]) }
      if let until, until < now.date { throw StoreError.refused([.suspensionInPast(until)]) }
      if let until, let wanted = hold.notWantedAfter, until > wanted {
        throw StoreError.refused([.suspensionPastWanted(until: until, notWantedAfter: wanted)])
      }
      if until == nil, hold.suspendedUntil == nil { throw StoreError.refused([.holdNotSuspended(number)]) }
      try database.execute(
        "UPDATE hold SET suspended_until = ?, updated_at = ? WHERE id = ?", until?.iso, now.instant.iso, number)
    }
  }

  /// Ends an active hold; a copy waiting for it on this desk's shelf goes to the next hold, or
  /// back to the shelf (one on another desk's shelf is that desk's to pass on).
  @discardableResult
  func end(_ number: Int, as state: HoldState) throws(StoreError) -> HoldTrap? {
    let now = clock.now().instant
    return try write {
      let hold = try self.hold(number: number)
      guard hold.state.isActive else { throw StoreError.refused([.holdEnded(number: number, state: hold.state)]) }
      if hold.shelfElsewhere != nil {
        try database.execute(
          "UPDATE hold SET state = ?, ended_at = ?, updated_at = ? WHERE id = ?", state.rawValue, now.iso, now.iso,
          number)
        return nil
      }
      let trapped =
        try database.queryFirst(
          "SELECT trapped_book_id FROM hold WHERE id = ?", number, read: { $0.optionalInt(0) }) ?? nil
      try database.execute(
        "UPDATE hold SET state = ?, ended_at = ?, updated_at = ? WHERE id = ?", state.rawValue, now.iso, now.iso,
        number)
      guard let trapped else { return nil }
      return try trap(bookRowID: Int64(trapped))
    }
  }

  /// A copy whose ISBN, author, title or year was corrected: holds on the copy, and a hold it
  /// waits for, follow it to its new title; holds on the old title follow too when no copy is
  /// left with it (the title itself was corrected). Inside the caller's write.
  func moveHolds(ofCopy rowID: Int64, from old: Book, to new: Book, at now: Timestamp) throws {
    try database.execute(
      """
      UPDATE hold SET title_key = ?1, label = ?2, updated_at = ?3
      WHERE state IN ('queued', 'waiting') AND (book_id = ?4 OR trapped_book_id = ?4)
      """, new.titleKey, new.holdLabel, now.iso, rowID)
    guard try copiesOfTitle(of: old).allSatisfy({ $0.rowID == rowID }) else { return }
    try database.execute(
      """
      UPDATE hold SET title_key = ?1, label = ?2, updated_at = ?3
      WHERE state IN ('queued', 'waiting') AND title_key = ?4
      """, new.titleKey, new.holdLabel, now.iso, old.titleKey)
  }

  /// A copy that can no longer wait on the hold shelf (lost, written off, deleted): its hold
  /// queues again in its old place. Inside the caller's write.
  func releaseTrappedCopy(bookRowID: Int64, at now: Timestamp) throws {
    try database.execute(
      """
      UPDATE hold SET state = 'queued', trapped_book_id = NULL, waiting_since = NULL, pickup_by = NULL,
        pickup_desk = '', updated_at = ?
      WHERE state = 'waiting' AND trapped_book_id = ?
      """, now.iso, bookRowID)
  }

  /// The active holds of a reader who leaves the library end; their waiting copies go to the
  /// next holds. Inside the caller's write.
  func cancelHolds(ofReader uuid: String) throws {
    let numbers = try database.query(
      """
      SELECT h.id FROM hold h JOIN reader r ON r.id = h.reader_id
      WHERE r.uuid = ? AND h.state IN ('queued', 'waiting')
      """, uuid
    ) { $0.int(0) }
    for number in numbers { try end(number, as: .cancelled) }
  }

  /// Puts the copy aside for the first hold it fills, if any: holds on the copy itself and on its
  /// title, in the order placed, passing over suspended holds and those no longer wanted. Inside
  /// the caller's write.
  func trap(bookRowID: Int64) throws -> HoldTrap? {
    guard
      let book = try database.queryFirst(
        "SELECT \(LibraryStore.bookColumns) FROM book b WHERE b.id = ?", bookRowID,
        read: { try LibraryStore.decodeBook($0) }), book.status.circulates
    else { return nil }
    let moment = clock.now()
    let today = moment.date.iso
    // The first of each queue, walked in its index's order and stopped at the first hold that
    // is wanted now: the cost does not grow with the queue.
    let wanted =
      "(suspended_until IS NULL OR suspended_until < ?) AND (not_wanted_after IS NULL OR not_wanted_after >= ?)"
    let firstForTitle = try database.queryFirst(
      """
      SELECT id, placed_at FROM hold INDEXED BY hold_queue
      WHERE state = 'queued' AND title_key = ? AND book_id IS NULL AND \(wanted) ORDER BY placed_at, id LIMIT 1
      """, book.titleKey, today, today, read: { (id: $0.int(0), placed: $0.string(1)) })
    let firstForCopy = try database.queryFirst(
      """
      SELECT id, placed_at FROM hold INDEXED BY hold_copy
      WHERE state = 'queued' AND book_id = ? AND \(wanted) ORDER BY placed_at, id LIMIT 1
      """, bookRowID, today, today, read: { (id: $0.int(0), placed: $0.string(1)) })
    let first = [firstForTitle, firstForCopy].compactMap { $0 }.min { ($0.placed, $0.id) < ($1.placed, $1.id) }
    guard let number = first?.id,
      let (ticket, name) = try database.queryFirst(
        """
        SELECT r.ticket, r.surname, r.first_name, r.patronymic FROM hold h JOIN reader r ON r.id = h.reader_id
        WHERE h.id = ?
        """, number,
        read: {
          ($0.string(0), Reader.shortName(surname: $0.string(1), firstName: $0.string(2), patronymic: $0.string(3)))
        })
    else { return nil }
    let policy = try self.policy()
    // The last day to collect is a day the library is open.
    let pickupBy = policy.calendar.nextOpenDay(onOrAfter: moment.date.adding(days: policy.holdPickupDays))
    try database.execute(
      """
      UPDATE hold SET state = 'waiting', trapped_book_id = ?, waiting_since = ?, pickup_by = ?,
        pickup_desk = \(LibraryStore.thisDesk), updated_at = ?
      WHERE id = ?
      """, bookRowID, moment.instant.iso, pickupBy.iso, moment.instant.iso, number)
    return HoldTrap(
      hold: number, inventory: book.inventoryNumber, readerTicket: ticket, readerName: name, pickupBy: pickupBy)
  }

  /// Ends the holds no longer wanted: waiting ones not collected by their pickup date (each
  /// copy goes to the next hold of its queue, or back to the shelf: the list says where to move
  /// it), and queued ones past the date after which they were not wanted.
  public func expireHolds() throws(StoreError) -> (moves: [HoldMove], lapsed: [HoldRecord]) {
    let moment = clock.now()
    let today = moment.date.iso
    return try write {
      let lapsed = try database.query(
        LibraryStore.holdSQL + " WHERE h.state = 'queued' AND h.not_wanted_after < ? ORDER BY h.placed_at", today,
        read: Self.decodeHold)
      try database.execute(
        """
        UPDATE hold SET state = 'expired', ended_at = ?1, updated_at = ?1
        WHERE state = 'queued' AND not_wanted_after < ?2
        """, moment.instant.iso, today)
      // The copies on this desk's shelf: another desk moves its own.
      let late = try database.query(
        LibraryStore.holdSQL + """
           WHERE h.state = 'waiting' AND h.pickup_desk = \(LibraryStore.thisDesk) AND h.pickup_by < ?
          ORDER BY h.pickup_by
          """, today, read: Self.decodeHold)
      var moves: [HoldMove] = []
      for hold in late {
        let trapped = try database.scalarInt("SELECT trapped_book_id FROM hold WHERE id = ?", hold.number)
        try database.execute(
          "UPDATE hold SET state = 'expired', ended_at = ?, updated_at = ? WHERE id = ?", moment.instant.iso,
          moment.instant.iso, hold.number)
        moves.append(
          HoldMove(
            inventory: hold.waitingCopy ?? "", label: hold.label, fromReader: hold.readerName,
            next: try trap(bookRowID: Int64(trapped))))
      }
      return (moves, lapsed)
    }
  }

  /// The hold a copy waits for on the hold shelf, if it does.
  public func holdWaiting(forBook inventory: String) throws(StoreError) -> HoldRecord? {
    try read {
      try database.queryFirst(
        LibraryStore.holdSQL + """
           WHERE h.state = 'waiting' AND h.trapped_book_id = (SELECT id FROM book WHERE inventory = ? AND deleted = 0)
          """, inventory.identifierForm, read: Self.decodeHold)
    }
  }

  /// The open conflicts of copies put aside twice that name the copy with row id `?1`: while one
  /// is open, each of its copies waits for that hold, whichever the merged hold names.
  static let contestedCopy = contested(copy: "?1")

  /// The same, for the copy whose row id is the SQL expression `copy`.
  static func contested(copy: String) -> String {
    """
    SELECT k.record_id FROM conflict k WHERE k.kind = 'trapped_twice' AND k.resolved_at IS NULL
      AND instr(k.other_id, (SELECT uuid FROM book WHERE id = \(copy))) > 0
    """
  }

  /// The hold a copy waits for, if it is on the hold shelf (or is one of the copies put aside for
  /// a hold at two desks, until a librarian settles which).
  func waitingHold(bookRowID: Int64) throws -> (number: Int, readerRowID: Int64, ticket: String, name: String)? {
    try database.queryFirst(
      """
      SELECT h.id, h.reader_id, r.ticket, r.surname, r.first_name, r.patronymic
      FROM hold h JOIN reader r ON r.id = h.reader_id
      WHERE h.trapped_book_id = ?1 AND h.state = 'waiting'
        OR h.uuid IN (\(LibraryStore.contestedCopy)) AND h.state IN ('queued', 'waiting')
      LIMIT 1
      """, bookRowID,
      read: {
        (
          $0.int(0), $0.int64(1), $0.string(2),
          Reader.shortName(surname: $0.string(3), firstName: $0.string(4), patronymic: $0.string(5))
        )
      })
  }

  /// After an issue of `book` to the reader: their hold on it (waiting for this copy, or queued
  /// for its title or the copy) is fulfilled. Inside the caller's write.
  func fulfilHolds(of readerRowID: Int64, book: Book, bookRowID: Int64, at now: Timestamp) throws {
    // One statement, as an issue runs it every time: the holds fulfilled say which copies
    // waited for them. Another copy of the title that waited for the reader on this desk's shelf is
    // theirs no longer (one on another desk's shelf is that desk's to pass on):
    // it goes to the next hold.
    let elsewhere = try database.query(
      """
      UPDATE hold SET state = 'fulfilled', ended_at = ?1, updated_at = ?1
      WHERE reader_id = ?2 AND state IN ('waiting', 'queued') AND (trapped_book_id = ?3 OR title_key = ?4)
      RETURNING CASE WHEN pickup_desk = \(LibraryStore.thisDesk) THEN trapped_book_id END
      """, now.iso, readerRowID, bookRowID, book.titleKey
    ) { $0.optionalInt(0).map(Int64.init) }.compactMap { $0 }.filter { $0 != bookRowID }
    for copy in elsewhere { _ = try trap(bookRowID: copy) }
  }

  /// The first reader who waits for the copy's title (or the copy) while no other copy of it is
  /// free: a renewal would keep them waiting.
  func readerWaiting(forBookRowID rowID: Int64, book: Book) throws -> (ticket: String, name: String)? {
    let today = self.today.iso
    guard
      let waiting = try database.queryFirst(
        """
        SELECT r.ticket, r.surname, r.first_name, r.patronymic FROM hold h JOIN reader r ON r.id = h.reader_id
        WHERE h.state = 'queued' AND (h.title_key = ? AND h.book_id IS NULL OR h.book_id = ?)
          AND (h.suspended_until IS NULL OR h.suspended_until < ?3) AND (h.not_wanted_after IS NULL OR h.not_wanted_after >= ?3)
        ORDER BY h.placed_at, h.id LIMIT 1
        """, book.titleKey, rowID, today,
        read: {
          (
            ticket: $0.string(0),
            name: Reader.shortName(surname: $0.string(1), firstName: $0.string(2), patronymic: $0.string(3))
          )
        })
    else { return nil }
    if try copyOnShelf(ofTitle: book, excluding: rowID) != nil { return nil }
    return waiting
  }
}
