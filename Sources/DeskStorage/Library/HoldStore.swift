import DeskDomain

/// Holds placed, listed, suspended and cancelled.
extension HoldStore {
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
  public func place(ticket: String, on target: HoldTarget, until: LocalDate? = nil) throws(StoreError)
    -> HoldRecord
  {
    let moment = clock.now()
    return try write {
      guard let (readerRowID, reader) = try store.circulation.readerRow(ticket: ticket.identifierForm) else {
        throw StoreError.refused([.unknownReader(ticket)])
      }
      let named: CirculationStore.BookRef
      var copyRowID: Int64?
      switch target {
      case .copy(let inventory), .titleOf(let inventory):
        guard let ref = try store.circulation.bookRef(inventory: inventory.identifierForm) else {
          throw StoreError.refused([.unknownBook(inventory)])
        }
        named = ref
        if case .copy = target { copyRowID = ref.rowID }
      case .isbn(let isbn):
        guard let first = try store.books.copies(isbn: isbn).first,
          let ref = try store.circulation.bookRef(inventory: first.inventoryNumber)
        else {
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
      guard let category = try store.policy.categories().first(where: { $0.code == reader.category }) else {
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
        """, id.text, readerRowID, book.titleKey, copyRowID, label, now, until?.iso,
        try store.policy.deskName(), now, now)
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
        AND NOT EXISTS (\(HoldStore.contested(copy: "b.id")))
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
  func copiesOfTitle(of book: Book) throws -> [CirculationStore.BookRef] {
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
        OR EXISTS (\(HoldStore.contestedCopy))
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
      guard let found = try database.queryFirst(HoldStore.holdSQL + " WHERE h.id = ?", number, read: Self.decodeHold)
      else { throw StoreError.refused([.unknownHold(number)]) }
      return found
    }
  }

  /// A reader's holds: waiting first, then queued in the order placed, then the ended ones, newest first.
  public func list(ofReader ticket: String) throws(StoreError) -> [HoldRecord] {
    try read {
      try database.query(
        HoldStore.holdSQL + """
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
  public func queue(forBook inventory: String) throws(StoreError) -> [HoldRecord] {
    try read {
      guard let (rowID, book) = try store.circulation.bookRef(inventory: inventory.identifierForm) else {
        throw StoreError.refused([.unknownBook(inventory)])
      }
      var position = 0
      return try database.query(
        HoldStore.holdSQL + """
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

  public func list(_ filter: HoldListFilter = .active) throws(StoreError) -> [HoldRecord] {
    let today = self.today.iso
    return try read {
      switch filter {
      case .active:
        return try database.query(
          HoldStore.holdSQL
            + " WHERE h.state IN ('queued', 'waiting') ORDER BY h.state = 'queued', h.placed_at, h.id",
          read: Self.decodeHold
        )
      case .waiting:
        return try database.query(
          HoldStore.holdSQL
            + " WHERE h.state = 'waiting' AND h.pickup_desk = \(HoldStore.thisDesk) ORDER BY h.pickup_by",
          read: Self.decodeHold)
      case .waitingTooLong:
        return try database.query(
          HoldStore.holdSQL + """
             WHERE h.state = 'waiting' AND h.pickup_desk = \(HoldStore.thisDesk) AND h.pickup_by < ?1
              OR h.state = 'queued' AND h.not_wanted_after < ?1
            ORDER BY h.state = 'queued', h.pickup_by, h.placed_at
            """, today, read: Self.decodeHold)
      }
    }
  }

  /// How many copies wait on this desk's hold shelf, and how many of them waited too long: read
  /// from the index of waiting holds, whatever the size of the library.
  public func shelfCounts() throws(StoreError) -> (waiting: Int, tooLong: Int) {
    let today = self.today.iso
    return try read {
      (
        try database.scalarInt(
          "SELECT count(*) FROM hold INDEXED BY hold_waiting WHERE state = 'waiting' AND pickup_desk = \(HoldStore.thisDesk)"
        ),
        try database.scalarInt(
          """
          SELECT count(*) FROM hold INDEXED BY hold_waiting
          WHERE state = 'waiting' AND pickup_desk = \(HoldStore.thisDesk) AND pickup_by < ?
          """, today)
      )
    }
  }

  /// Cancels an active hold. A copy that waited for it on this desk's hold shelf is put aside for
  /// the next hold (`next`), or goes back to the shelf (`next` nil): `freed` names it. A copy on
  /// another desk's shelf (`shelf`) is passed on by that desk when it hears of the cancellation.
  @discardableResult
  public func cancel(number: Int) throws(StoreError) -> (freed: String?, next: HoldTrap?, shelf: String?) {
    try write {
      let hold = try self.hold(number: number)
      return (hold.waitingCopy, try end(number, as: .cancelled), hold.shelfElsewhere)
    }
  }

  /// Suspends a queued hold until a date (it keeps its place, and is passed over until then), or
  /// resumes it with nil.
  public func suspend(number: Int, until: LocalDate?) throws(StoreError) {
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
}
