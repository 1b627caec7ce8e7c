import DeskDomain

/// Pages of books in sort order (keyset paging), with their open loans, and the counts of the
/// lists' filters.
extension BookStore {
  /// One page of the book list, sorted by author and title, with whole records (for export and
  /// the command line).
  ///
  /// `search` keeps books where each of its words starts a word of the inventory number,
  /// author, title, publisher or ISBN, in any order.
  public func page(
    filter: BookFilter = .all, search: String = "", position: PagePosition = .first, limit: Int = 40
  ) throws(StoreError) -> [BookWithLoan] {
    try bookPage(
      columns: LibraryStore.bookColumns, columnCount: BookColumn.count, filter: filter, search: search,
      order: .sortKey(position), limit: limit
    ) { row, loan, offered in BookWithLoan(book: try LibraryStore.decodeBook(row), loan: loan, hasLookupOffer: offered)
    }
  }

  /// One page of books for an export: whole records, each with what its import kept.
  public func booksToExport(
    filter: BookFilter = .all, search: String = "", position: PagePosition = .first, limit: Int = 1000
  ) throws(StoreError) -> [(listing: BookWithLoan, kept: IRBISKeptRecord?, onHoldShelf: Bool)] {
    try bookPage(
      columns: BookStore.exportColumns, columnCount: BookStore.exportColumnCount, filter: filter,
      search: search, order: .sortKey(position), limit: limit, decode: BookStore.decodeExported
    ).map { ($0.listing, $0.kept, $0.onHoldShelf) }
  }

  /// One page of the whole catalogue for an export, in the order the books were entered (as IRBIS
  /// numbers its records), after the book of `entry` (0: from the first); each row with its entry
  /// for the next page. The rows lie in the table in this order: a million books read in the
  /// list's order instead (a row on a page of its own, read at random) took 6.8 s in `sqlite3`
  /// against 3.3 s.
  public func booksToExportInEntryOrder(after entry: Int64, limit: Int = 1000)
    throws(StoreError) -> [(listing: BookWithLoan, kept: IRBISKeptRecord?, onHoldShelf: Bool, entry: Int64)]
  {
    try bookPage(
      columns: BookStore.exportColumns + ", b.id", columnCount: BookStore.exportColumnCount + 1,
      filter: .all, search: "", order: .entry(after: entry), limit: limit
    ) { row, loan, offered in
      let exported = try BookStore.decodeExported(row, loan, offered)
      return (exported.listing, exported.kept, exported.onHoldShelf, row.int64(BookStore.exportColumnCount))
    }
  }

  private static let exportColumns = LibraryStore.bookColumns + ", " + KeptColumn.list + ", " + onHoldShelf
  private static let exportColumnCount = BookColumn.count + KeptColumn.count + 1

  private static func decodeExported(_ row: Row, _ loan: CurrentLoan?, _ offered: Bool) throws
    -> (listing: BookWithLoan, kept: IRBISKeptRecord?, onHoldShelf: Bool)
  {
    (
      BookWithLoan(book: try LibraryStore.decodeBook(row), loan: loan, hasLookupOffer: offered),
      LibraryStore.decodeKept(row, from: BookColumn.count), row.bool(BookColumn.count + KeptColumn.count)
    )
  }

  /// One page of the full-screen book list: what its rows show, read from the list's covering
  /// index (`book_list`) without touching the records themselves.
  public func listRows(
    filter: BookFilter = .all, search: String = "", position: PagePosition = .first, limit: Int = 40
  ) throws(StoreError) -> [BookListRow] {
    try bookPage(
      columns: BookStore.briefColumns, columnCount: BriefColumn.count,
      filter: filter, search: search, order: .sortKey(position), limit: limit
    ) { row, loan, offered in
      BookListRow(book: LibraryStore.decodeBrief(row), loan: loan, hasLookupOffer: offered)
    }
  }

  static let briefColumns = BriefColumn.list
  /// Written once: a list made from the cases names each column anew (a few microseconds, at
  /// every page and every stage of a search).
  static let holderColumns = HolderColumn.list

  /// Whether the copy `b` waits on the hold shelf: one look in the index of waiting holds.
  static let onHoldShelf = "EXISTS (SELECT 1 FROM hold h WHERE h.trapped_book_id = b.id AND h.state = 'waiting')"

  /// A page of books with their open loans: `columns` of `book b` first, then the loan's
  /// (`LoanColumn`), then its holder's (`HolderColumn`).
  private func bookPage<T>(
    columns: String, columnCount: Int32, filter: BookFilter, search: String, order: BookPageOrder, limit: Int,
    decode: (Row, CurrentLoan?, Bool) throws -> T
  ) throws(StoreError) -> [T] {
    let (sql, arguments, descending) = try bookPageQuery(
      columns: columns, filter: filter, search: search, order: order, limit: limit)
    let rows = try read {
      try database.query(sql, arguments: arguments) { row -> T in
        let loanStart = columnCount
        let holder = loanStart + LoanColumn.count
        let offered = row.bool(HolderColumn.lookupOffered, from: holder)
        guard !row.isNull(LoanColumn.uuid, from: loanStart) else { return try decode(row, nil, offered) }
        return try decode(row, try LibraryStore.decodeCurrentLoan(row, from: loanStart), offered)
      }
    }
    return descending ? rows.reversed() : rows
  }

  /// The statement of a page of books: its text, its arguments, and whether it reads backwards.
  func bookPageQuery(columns: String, filter: BookFilter, search: String, order: BookPageOrder, limit: Int)
    throws(StoreError) -> (sql: String, arguments: [any DatabaseValueConvertible], descending: Bool)
  {
    let today = self.today.iso
    var conditions = ["b.deleted = 0"]
    var arguments: [any DatabaseValueConvertible] = []
    // One row per book: a book issued at two desks apart (its open loans marked with `conflict`,
    // each its own id) shows the first of them; the conflict is the detail's to show.
    let openLoan = """
      loan l ON l.book_id = b.id AND l.returned_at IS NULL AND l.deleted = 0 AND (l.conflict = 0
        OR l.conflict = (SELECT min(conflict) FROM loan WHERE book_id = b.id AND returned_at IS NULL AND deleted = 0))
      """
    // The same loan for a list that keeps books without one: one look-up in `loan_open_book`
    // (conflict is 0 or the loan's id, and unique per book) where the test above takes two and a
    // sub-query. A search's 200 books at ten million: 1.8–1.9 ms, now 1.5–1.7.
    let firstOpenLoan = """
      loan l ON l.id = (SELECT id FROM loan WHERE book_id = b.id AND returned_at IS NULL AND deleted = 0
        ORDER BY conflict LIMIT 1)
      """
    let join: String
    switch filter {
    case .all, .available:
      join = "LEFT JOIN " + firstOpenLoan
      if filter == .available {
        conditions.append(
          "l.id IS NULL AND b.status = 'available' "
            + "AND NOT EXISTS (SELECT 1 FROM hold h WHERE h.trapped_book_id = b.id AND h.state = 'waiting')")
      }
    case .notForLoan:
      join = "LEFT JOIN " + firstOpenLoan
      conditions.append("b.status <> 'available'")
    case .issued:
      join = "JOIN " + openLoan
    case .overdue:
      join = "JOIN " + openLoan
      conditions.append("l.due_date < ?")
      arguments.append(today)
    }
    if let (condition, values) = try store.searchCondition(search, table: "book", alias: "b", capped: filter == .all) {
      conditions.append(condition)
      arguments += values
    }
    var descending = false
    let orderBy: String
    switch order {
    case .sortKey(let position):
      descending = BookStore.keyset(position, alias: "b", conditions: &conditions, arguments: &arguments)
      orderBy = "b.sort_key " + (descending ? "DESC" : "ASC")
    case .entry(let entry):
      conditions.append("b.id > ?")
      arguments.append(entry)
      orderBy = "b.id"
    }
    arguments.append(max(0, limit))
    let sql = """
      SELECT \(columns), \(CirculationStore.loanColumns), \(BookStore.holderColumns)
      FROM book b \(join) LEFT JOIN reader r ON r.id = l.reader_id
      WHERE \(conditions.joined(separator: " AND "))
      ORDER BY \(orderBy) LIMIT ?
      """
    return (sql, arguments, descending)
  }

  /// Adds the condition of a page position on `alias`'s sort key; true when the page is read
  /// backwards (towards the start), to be reversed after.
  static func keyset(
    _ position: PagePosition, alias: String, conditions: inout [String],
    arguments: inout [any DatabaseValueConvertible]
  ) -> Bool {
    switch position {
    case .first: return false
    case .last: return true
    case .after(let key):
      conditions.append("\(alias).sort_key > ?")
      arguments.append(key)
      return false
    case .from(let key):
      conditions.append("\(alias).sort_key >= ?")
      arguments.append(key)
      return false
    case .before(let key):
      conditions.append("\(alias).sort_key < ?")
      arguments.append(key)
      return true
    }
  }

  public func count(filter: BookFilter = .all) throws(StoreError) -> Int {
    let today = self.today.iso
    return try read {
      switch filter {
      case .all: return try database.scalarInt("SELECT value FROM counter WHERE name = 'books'")
      case .issued:
        return try database.scalarInt("SELECT value FROM counter WHERE name = 'open_loans'")
          - (try loansOfBooksOutTwice())
      case .overdue:
        // The open loans by due date: as many rows as days, whatever the size of the library.
        return try database.scalarInt("SELECT coalesce(sum(open), 0) FROM loan_due WHERE due_date < ?", today)
      case .available:
        return try database.scalarInt("SELECT value FROM counter WHERE name = 'books'")
          - database.scalarInt("SELECT value FROM counter WHERE name = 'open_loans'") + loansOfBooksOutTwice()
          - database.scalarInt(
            """
            SELECT count(*) FROM book b INDEXED BY book_not_for_loan WHERE b.status <> 'available' AND b.deleted = 0
              AND NOT EXISTS (SELECT 1 FROM loan l WHERE l.book_id = b.id AND l.returned_at IS NULL AND l.deleted = 0)
            """)
          // Copies on the hold shelf are not there for anyone to take.
          - database.scalarInt("SELECT count(*) FROM hold INDEXED BY hold_waiting WHERE state = 'waiting'")
      case .notForLoan:
        return try database.scalarInt(
          "SELECT count(*) FROM book INDEXED BY book_not_for_loan WHERE status <> 'available' AND deleted = 0")
      }
    }
  }

  /// The open loans beyond the first of books issued at two desks while they were apart (the
  /// counter counts open loans; the screens count books).
  private func loansOfBooksOutTwice() throws -> Int {
    try database.scalarInt(
      """
      SELECT count(*) - count(DISTINCT book_id) FROM loan INDEXED BY loan_conflicted
      WHERE conflict <> 0 AND returned_at IS NULL AND deleted = 0
      """)
  }
}

/// The order a page of books is read in: the list's, by sort key from a position, or the order
/// the books were entered, from the one after an entry (a book's row id).
enum BookPageOrder {
  case sortKey(PagePosition)
  case entry(after: Int64)
}

/// After a page's loan columns: who holds the book, and whether a look-up offers an update.
enum HolderColumn: Int32, SelectedColumn {
  case ticket, surname, firstName, patronymic, lookupOffered

  var sql: String {
    self == .lookupOffered ? "EXISTS (SELECT 1 FROM lookup_offer o WHERE o.book_id = b.id)" : column(of: "r")
  }
}

extension LibraryStore {
  /// An open loan and its holder, from a loan's columns at `start` and `HolderColumn`'s after them.
  static func decodeCurrentLoan(_ row: Row, from start: Int32) throws -> CurrentLoan {
    let holder = start + LoanColumn.count
    return CurrentLoan(
      loan: try CirculationStore.decodeLoan(row, from: start),
      readerTicket: row.string(HolderColumn.ticket, from: holder),
      readerName: Reader.shortName(
        surname: row.string(HolderColumn.surname, from: holder),
        firstName: row.string(HolderColumn.firstName, from: holder),
        patronymic: row.string(HolderColumn.patronymic, from: holder)))
  }
}
