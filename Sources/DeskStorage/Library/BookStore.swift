import DeskDomain

/// A book as lists show it: the record and, when it is out, who has it and until when.
public struct BookListing: Hashable, Sendable {
  public var book: Book
  public var loan: CurrentLoan?
  /// A completed ISBN look-up offers an update to this book.
  public var hasLookupOffer: Bool

  public init(book: Book, loan: CurrentLoan?, hasLookupOffer: Bool = false) {
    self.book = book
    self.loan = loan
    self.hasLookupOffer = hasLookupOffer
  }
}

/// A book as a row of the full-screen list shows it. Not a whole record: a screen that edits or
/// exports the book reads it whole by its inventory number.
public struct BookSummary: Hashable, Sendable {
  public var inventoryNumber: String
  public var authorSurname: String
  public var authorInitials: String
  public var title: String
  public var year: Int?
  public var status: CopyStatus
  /// The key the list is sorted and paged by, as stored.
  public var sortKey: String

  public init(
    inventoryNumber: String, authorSurname: String, authorInitials: String, title: String, year: Int?,
    status: CopyStatus = .available, sortKey: String
  ) {
    self.inventoryNumber = inventoryNumber
    self.authorSurname = authorSurname
    self.authorInitials = authorInitials
    self.title = title
    self.year = year
    self.status = status
    self.sortKey = sortKey
  }

  public init(_ book: Book) {
    self.init(
      inventoryNumber: book.inventoryNumber, authorSurname: book.authorSurname, authorInitials: book.authorInitials,
      title: book.title, year: book.year, status: book.status, sortKey: book.sortKey)
  }

  public var author: String {
    Book.author(surname: authorSurname, initials: authorInitials)
  }
}

/// A row of the full-screen book list: the book's summary and, when it is out, its loan.
public struct BookListRow: Hashable, Sendable {
  public var book: BookSummary
  public var loan: CurrentLoan?
  public var hasLookupOffer: Bool

  public init(book: BookSummary, loan: CurrentLoan?, hasLookupOffer: Bool = false) {
    self.book = book
    self.loan = loan
    self.hasLookupOffer = hasLookupOffer
  }

  public init(_ listing: BookListing) {
    self.init(book: BookSummary(listing.book), loan: listing.loan, hasLookupOffer: listing.hasLookupOffer)
  }
}

/// A listing of one book, whole or summed up: what a search needs to tell books apart.
public protocol BookListed: Sendable {
  var inventoryNumber: String { get }
}

extension BookListing: BookListed {
  public var inventoryNumber: String { book.inventoryNumber }
}

extension BookListRow: BookListed {
  public var inventoryNumber: String { book.inventoryNumber }
}

/// The open loan of a book, with the reader named.
public struct CurrentLoan: Hashable, Sendable {
  public var loan: Loan
  public var readerTicket: String
  public var readerName: String

  public init(loan: Loan, readerTicket: String, readerName: String) {
    self.loan = loan
    self.readerTicket = readerTicket
    self.readerName = readerName
  }
}

public enum BookFilter: String, CaseIterable, Sendable {
  case all, issued, available, overdue
  /// Copies that may not be issued: lost, written off, in repair, in processing, reference only.
  case notForLoan
}

/// Where a page of a list starts. Lists page by their sort key (keyset paging), so the cost of a
/// page does not grow with its distance from the top.
public enum PagePosition: Hashable, Sendable {
  case first
  /// From this key on, the key itself included.
  case from(String)
  case after(String)
  case before(String)
  case last
}

extension LibraryStore {
  static let bookColumns = """
    b.id, b.uuid, b.inventory, b.isbn, b.author_surname, b.author_initials, b.title, b.publisher,
    b.city, b.year, b.pages, b.price_minor, b.bbk, b.author_mark, b.place, b.received,
    b.created_at, b.updated_at, b.status
    """
  static let bookColumnCount: Int32 = 19

  static func decodeBook(_ row: Row, from start: Int32 = 0) -> Book {
    let c = { (offset: Int32) in start + offset }
    return Book(
      id: RecordID(row.string(c(1))), inventoryNumber: row.string(c(2)),
      isbn: row.optionalString(c(3)).flatMap { try? ISBN($0) },
      authorSurname: row.string(c(4)), authorInitials: row.string(c(5)), title: row.string(c(6)),
      publisher: row.string(c(7)), city: row.string(c(8)), year: row.optionalInt(c(9)),
      pages: row.optionalInt(c(10)), price: row.isNull(c(11)) ? nil : Money(minorUnits: row.int64(c(11))),
      bbk: row.string(c(12)), authorMark: row.string(c(13)), place: row.string(c(14)),
      received: row.optionalString(c(15)).flatMap(LocalDate.init(iso:)),
      status: CopyStatus(rawValue: row.string(c(18))) ?? .available,
      created: Timestamp(iso: row.string(c(16))) ?? Timestamp(millisecondsSinceEpoch: 0),
      updated: Timestamp(iso: row.string(c(17))) ?? Timestamp(millisecondsSinceEpoch: 0))
  }

  /// The book with this inventory number, or nil.
  public func book(inventory: String) throws(StoreError) -> Book? {
    try read { try findBook(inventory: inventory.identifierForm) }
  }

  func findBook(inventory: String) throws -> Book? {
    try database.queryFirst(
      "SELECT \(LibraryStore.bookColumns) FROM book b WHERE b.inventory = ? AND b.deleted = 0 ORDER BY b.clash LIMIT 1",
      inventory
    ) { LibraryStore.decodeBook($0) }
  }

  func bookRowID(inventory: String) throws -> Int64? {
    try database.queryFirst("SELECT id FROM book WHERE inventory = ? AND deleted = 0", inventory) { $0.int64(0) }
  }

  /// Books with this ISBN, in either its 10- or 13-digit form.
  public func books(isbn: ISBN) throws(StoreError) -> [Book] {
    try read {
      try database.query(
        "SELECT \(LibraryStore.bookColumns) FROM book b WHERE b.isbn13 = ? AND b.deleted = 0 ORDER BY b.sort_key",
        isbn.isbn13
      ) { LibraryStore.decodeBook($0) }
    }
  }

  /// Adds a new book. Refused with every problem at once: missing fields, bad ISBN, an inventory
  /// number that another book already has.
  @discardableResult
  public func addBook(_ draft: BookDraft) throws(StoreError) -> Book {
    let moment = clock.now()
    return try write {
      let book = try validated(draft, base: nil, moment: moment)
      try add(BookRow(book))
      return book
    }
  }

  /// Changes a book: `edit` receives the book as a draft and changes what it will.
  @discardableResult
  public func updateBook(inventory: String, _ edit: (inout BookDraft) -> Void) throws(StoreError) -> Book {
    let moment = clock.now()
    return try write {
      try catchUpBulkBooks()
      guard let current = try findBook(inventory: inventory.identifierForm) else {
        throw StoreError.bookNotFound(inventory)
      }
      var draft = BookDraft(current)
      edit(&draft)
      let book = try validated(draft, base: current, moment: moment)
      try writing(book, base: current) {
        try database.execute(
          """
          UPDATE book SET inventory = ?, isbn = ?, isbn13 = ?, author_surname = ?, author_initials = ?,
            title = ?, publisher = ?, city = ?, year = ?, pages = ?, price_minor = ?, bbk = ?,
            author_mark = ?, place = ?, received = ?, status = ?, sort_key = ?, search_text = ?, updated_at = ?
          WHERE uuid = ?
          """,
          values: LibraryStore.bookValues(book) + [.text(book.updated.iso), .text(book.id.text)])
      }
      return book
    }
  }

  /// Marks a book deleted (a tombstone that syncing desks learn of). Refused while it is out.
  public func deleteBook(inventory: String) throws(StoreError) {
    let now = clock.now().instant
    try write {
      try catchUpBulkBooks()
      guard let book = try findBook(inventory: inventory.identifierForm) else {
        throw StoreError.bookNotFound(inventory)
      }
      if let loan = try currentLoan(bookID: book.id) {
        throw StoreError.bookOnLoan(
          book: book.title, inventory: book.inventoryNumber, reader: "\(loan.readerName) (ticket \(loan.readerTicket))")
      }
      try database.execute("UPDATE book SET deleted = 1, updated_at = ? WHERE uuid = ?", now.iso, book.id.text)
    }
  }

  /// Adds a book checked already (by `BookDraft.validated`), as a row made beforehand: an import
  /// makes rows on its reading thread, the benchmark's generator makes its own. Refused as
  /// `addBook` is when its inventory number is taken.
  public func add(_ row: BookRow) throws(StoreError) {
    try write { try writing(row.book, base: nil) { try insert(row) } }
  }

  private func insert(_ row: BookRow) throws {
    try database.execute(
      """
      INSERT INTO book(inventory, isbn, isbn13, author_surname, author_initials, title, publisher,
        city, year, pages, price_minor, bbk, author_mark, place, received, status, sort_key, search_text,
        source_record, source_copy, record_group, uuid, created_at, updated_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      """,
      values: row.values + [.text(row.book.id.text), .text(row.book.created.iso), .text(row.book.updated.iso)])
  }

  fileprivate static func bookValues(_ book: Book) -> [DatabaseValue] {
    [
      .text(book.inventoryNumber), .optionalText(book.isbn?.digits), .optionalText(book.isbn?.isbn13),
      .text(book.authorSurname), .text(book.authorInitials), .text(book.title), .text(book.publisher),
      .text(book.city), .optionalInteger(book.year), .optionalInteger(book.pages),
      book.price.map { .integer($0.minorUnits) } ?? .null, .text(book.bbk), .text(book.authorMark),
      .text(book.place), .optionalText(book.received?.iso), .text(book.status.rawValue), .text(book.sortKey),
      .text(book.searchText),
    ]
  }

  /// The book a draft describes, or every problem with it at once: those of the fields, and an
  /// inventory number that another book already has. A valid draft is not looked up here: the
  /// unique index refuses a taken number on write (`writing`), which saves a query per book.
  private func validated(_ draft: BookDraft, base: Book?, moment: LocalMoment) throws -> Book {
    do throws(ValidationErrors) {
      return try draft.validated(base: base, today: moment.date, now: moment.instant)
    } catch {
      let inventory = draft.inventoryNumber.identifierForm
      let taken = try inventoryTaken(inventory, by: base).map { [$0] } ?? []
      throw StoreError.invalid(ValidationErrors(taken + error.errors))
    }
  }

  private func inventoryTaken(_ inventory: String, by base: Book?) throws -> ValidationError? {
    guard !inventory.isEmpty else { return nil }
    return try database.queryFirst(
      "SELECT title FROM book WHERE inventory = ? AND deleted = 0 AND uuid <> ?", inventory, base?.id.text ?? "",
      read: { ValidationError.duplicateInventoryNumber(inventory, title: $0.string(0)) })
  }

  /// Runs a write of `book`, turning the unique index's refusal into the librarian's message.
  private func writing(_ book: Book, base: Book?, _ body: () throws -> Void) throws {
    do {
      try body()
    } catch let error as DatabaseError where error.isUniqueViolation {
      guard let taken = try inventoryTaken(book.inventoryNumber, by: base ?? book) else { throw error }
      throw StoreError.invalid(ValidationErrors([taken]))
    }
  }

  /// The open loan of a book, if it is out.
  func currentLoan(bookID: RecordID) throws -> CurrentLoan? {
    try database.queryFirst(
      """
      SELECT \(LibraryStore.loanColumns), r.ticket, r.surname, r.first_name, r.patronymic
      FROM loan l JOIN book b ON b.id = l.book_id JOIN reader r ON r.id = l.reader_id
      WHERE b.uuid = ? AND l.returned_at IS NULL AND l.deleted = 0
      """, bookID.text
    ) { row in
      CurrentLoan(
        loan: LibraryStore.decodeLoan(row), readerTicket: row.string(LibraryStore.loanColumnCount),
        readerName: Reader.shortName(
          surname: row.string(LibraryStore.loanColumnCount + 1),
          firstName: row.string(LibraryStore.loanColumnCount + 2),
          patronymic: row.string(LibraryStore.loanColumnCount + 3)))
    }
  }

  public func currentLoan(ofBook book: Book) throws(StoreError) -> CurrentLoan? {
    try read { try currentLoan(bookID: book.id) }
  }

  /// One page of the book list, sorted by author and title, with whole records (for export and
  /// the command line).
  ///
  /// `search` keeps books where each of its words starts a word of the inventory number,
  /// author, title, publisher or ISBN, in any order.
  public func books(
    filter: BookFilter = .all, search: String = "", position: PagePosition = .first, limit: Int = 40
  ) throws(StoreError) -> [BookListing] {
    try bookPage(
      columns: LibraryStore.bookColumns, columnCount: LibraryStore.bookColumnCount, filter: filter, search: search,
      position: position, limit: limit
    ) { row, loan, offered in BookListing(book: LibraryStore.decodeBook(row), loan: loan, hasLookupOffer: offered) }
  }

  /// One page of books for an export: whole records, each with what its import kept.
  public func booksToExport(
    filter: BookFilter = .all, search: String = "", position: PagePosition = .first, limit: Int = 1000
  ) throws(StoreError) -> [(listing: BookListing, kept: IRBISKeptRecord?)] {
    try bookPage(
      columns: LibraryStore.bookColumns + ", b.source_record, b.source_copy, b.record_group",
      columnCount: LibraryStore.bookColumnCount + 3, filter: filter, search: search, position: position, limit: limit
    ) { row, loan, offered in
      let n = LibraryStore.bookColumnCount
      return (
        BookListing(book: LibraryStore.decodeBook(row), loan: loan, hasLookupOffer: offered),
        LibraryStore.decodeKept(row, from: n)
      )
    }
  }

  static func decodeKept(_ row: Row, from start: Int32) -> IRBISKeptRecord? {
    let record = row.string(start)
    let copy = row.string(start + 1)
    guard !record.isEmpty || !copy.isEmpty else { return nil }
    return IRBISKeptRecord(record: record, copy: copy, group: row.string(start + 2))
  }

  /// The copies of one imported record, in the order they came, each with what it kept and
  /// whether it is out.
  public func copies(inGroup group: String) throws(StoreError) -> [IRBISCopy] {
    try read {
      try database.query(
        """
        SELECT \(LibraryStore.bookColumns), b.source_record, b.source_copy, b.record_group,
          EXISTS (SELECT 1 FROM loan l WHERE l.book_id = b.id AND l.returned_at IS NULL AND l.deleted = 0)
        FROM book b WHERE b.record_group = ? AND b.deleted = 0 ORDER BY b.id
        """, group
      ) { row in
        let n = LibraryStore.bookColumnCount
        return IRBISCopy(
          book: LibraryStore.decodeBook(row), kept: LibraryStore.decodeKept(row, from: n), onLoan: row.bool(n + 3))
      }
    }
  }

  /// What an import keeps of a book's record, replaced (`--update`).
  public func keep(_ kept: IRBISKeptRecord?, forBook inventory: String) throws(StoreError) {
    try write {
      try database.execute(
        "UPDATE book SET source_record = ?, source_copy = ?, record_group = ? WHERE inventory = ? AND deleted = 0",
        kept?.record ?? "", kept?.copy ?? "", kept?.group ?? "", inventory)
    }
  }

  /// What an import kept of a book's record, if anything.
  public func kept(forBook inventory: String) throws(StoreError) -> IRBISKeptRecord? {
    try read {
      try database.queryFirst(
        "SELECT source_record, source_copy, record_group FROM book WHERE inventory = ? AND deleted = 0 ORDER BY clash",
        inventory
      ) { LibraryStore.decodeKept($0, from: 0) } ?? nil
    }
  }

  /// One page of the full-screen book list: what its rows show, read from the list's covering
  /// index (`book_list`) without touching the records themselves.
  public func bookListRows(
    filter: BookFilter = .all, search: String = "", position: PagePosition = .first, limit: Int = 40
  ) throws(StoreError) -> [BookListRow] {
    try bookPage(
      columns: LibraryStore.listColumns, columnCount: 7,
      filter: filter, search: search, position: position, limit: limit
    ) { row, loan, offered in
      BookListRow(
        book: BookSummary(
          inventoryNumber: row.string(1), authorSurname: row.string(2), authorInitials: row.string(3),
          title: row.string(4), year: row.optionalInt(5), status: CopyStatus(rawValue: row.string(6)) ?? .available,
          sortKey: row.string(0)),
        loan: loan, hasLookupOffer: offered)
    }
  }

  /// The columns of `book b` that the full-screen list shows, all of them in `book_list`.
  static let listColumns = "b.sort_key, b.inventory, b.author_surname, b.author_initials, b.title, b.year, b.status"

  /// A page of books with their open loans: `columns` of `book b` first, then the loan's.
  private func bookPage<T>(
    columns: String, columnCount: Int32, filter: BookFilter, search: String, position: PagePosition, limit: Int,
    decode: (Row, CurrentLoan?, Bool) -> T
  ) throws(StoreError) -> [T] {
    let (sql, arguments, descending) = try bookPageQuery(
      columns: columns, filter: filter, search: search, position: position, limit: limit)
    let rows = try read {
      try database.query(sql, arguments: arguments) { row -> T in
        let loanStart = columnCount
        let readerStart = loanStart + LibraryStore.loanColumnCount
        let offered = row.bool(readerStart + 4)
        guard !row.isNull(loanStart) else { return decode(row, nil, offered) }
        let loan = CurrentLoan(
          loan: LibraryStore.decodeLoan(row, from: loanStart), readerTicket: row.string(readerStart),
          readerName: Reader.shortName(
            surname: row.string(readerStart + 1), firstName: row.string(readerStart + 2),
            patronymic: row.string(readerStart + 3)))
        return decode(row, loan, offered)
      }
    }
    return descending ? rows.reversed() : rows
  }

  /// The statement of a page of books: its text, its arguments, and whether it reads backwards.
  func bookPageQuery(columns: String, filter: BookFilter, search: String, position: PagePosition, limit: Int)
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
    let join: String
    switch filter {
    case .all, .available:
      join = "LEFT JOIN " + openLoan
      if filter == .available { conditions.append("l.id IS NULL AND b.status = 'available'") }
    case .notForLoan:
      join = "LEFT JOIN " + openLoan
      conditions.append("b.status <> 'available'")
    case .issued:
      join = "JOIN " + openLoan
    case .overdue:
      join = "JOIN " + openLoan
      conditions.append("l.due_date < ?")
      arguments.append(today)
    }
    if let (condition, values) = try searchCondition(search, table: "book", alias: "b", capped: filter == .all) {
      conditions.append(condition)
      arguments += values
    }
    let descending = LibraryStore.keyset(position, alias: "b", conditions: &conditions, arguments: &arguments)
    arguments.append(max(0, limit))
    let sql = """
      SELECT \(columns), \(LibraryStore.loanColumns), r.ticket, r.surname, r.first_name, r.patronymic,
        EXISTS (SELECT 1 FROM lookup_offer o WHERE o.book_id = b.id)
      FROM book b \(join) LEFT JOIN reader r ON r.id = l.reader_id
      WHERE \(conditions.joined(separator: " AND "))
      ORDER BY b.sort_key \(descending ? "DESC" : "ASC") LIMIT ?
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

  public func bookCount(filter: BookFilter = .all) throws(StoreError) -> Int {
    let today = self.today.iso
    return try read {
      switch filter {
      case .all: return try database.scalarInt("SELECT value FROM counter WHERE name = 'books'")
      case .issued:
        return try database.scalarInt("SELECT value FROM counter WHERE name = 'open_loans'")
          - (try loansOfBooksOutTwice())
      case .overdue:
        return try database.scalarInt(
          "SELECT count(*) FROM loan WHERE returned_at IS NULL AND deleted = 0 AND due_date < ?", today)
      case .available:
        return try database.scalarInt("SELECT value FROM counter WHERE name = 'books'")
          - database.scalarInt("SELECT value FROM counter WHERE name = 'open_loans'") + loansOfBooksOutTwice()
          - database.scalarInt(
            """
            SELECT count(*) FROM book b INDEXED BY book_not_for_loan WHERE b.status <> 'available' AND b.deleted = 0
              AND NOT EXISTS (SELECT 1 FROM loan l WHERE l.book_id = b.id AND l.returned_at IS NULL AND l.deleted = 0)
            """)
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

/// A book's columns as the `book` table stores them, its sort and search keys computed once.
/// Made wherever there is time to spare (an import makes them on its reading thread) and
/// written by `LibraryStore.add(_:)`.
public struct BookRow: Sendable {
  public let book: Book
  fileprivate let values: [DatabaseValue]

  /// `kept`: what an import keeps of the record the book came from, for its export.
  public init(_ book: Book, kept: IRBISKeptRecord? = nil) {
    self.book = book
    values =
      LibraryStore.bookValues(book) + [
        .text(kept?.record ?? ""), .text(kept?.copy ?? ""), .text(kept?.group ?? ""),
      ]
  }
}
