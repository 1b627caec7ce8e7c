import DeskDomain

extension BookStore {
  /// The book with this inventory number, or nil.
  public func book(inventory: String) throws(StoreError) -> Book? {
    try read { try findBook(inventory: inventory.identifierForm) }
  }

  func findBook(inventory: String) throws -> Book? {
    try database.queryFirst(
      "SELECT \(LibraryStore.bookColumns) FROM book b WHERE b.inventory = ? AND b.deleted = 0 ORDER BY b.clash LIMIT 1",
      inventory
    ) { try LibraryStore.decodeBook($0) }
  }

  func bookRowID(inventory: String) throws -> Int64? {
    try database.queryFirst("SELECT id FROM book WHERE inventory = ? AND deleted = 0", inventory) { $0.int64(0) }
  }

  /// The row number of the book with this inventory number, or nil: a book added later has a
  /// higher one (`nextRowNumber`).
  public func rowNumber(inventory: String) throws(StoreError) -> Int64? {
    try read {
      try database.queryFirst(
        "SELECT id FROM book WHERE inventory = ? AND deleted = 0 ORDER BY clash LIMIT 1", inventory.identifierForm
      ) { $0.int64(0) }
    }
  }

  /// The row number the next book added takes; those after it count up from it.
  public func nextRowNumber() throws(StoreError) -> Int64 {
    try read { Int64(try database.scalarInt("SELECT coalesce(max(id), 0) + 1 FROM book")) }
  }

  /// Books with this ISBN, in either its 10- or 13-digit form: as their own, or as another of
  /// their record's (`book_isbn`). Two searches by index, joined: written `isbn13 = ? OR id IN
  /// (…)`, SQLite walked the whole list index.
  public func copies(isbn: ISBN) throws(StoreError) -> [Book] {
    try read {
      try database.query(
        """
        SELECT \(LibraryStore.bookColumns) FROM book b
        WHERE b.id IN (
          SELECT id FROM book WHERE isbn13 = ?1 AND deleted = 0 UNION SELECT book_id FROM book_isbn WHERE isbn13 = ?1
        ) AND b.deleted = 0
        ORDER BY b.sort_key
        """,
        isbn.isbn13
      ) { try LibraryStore.decodeBook($0) }
    }
  }

  /// Adds a new book. Refused with every problem at once: missing fields, bad ISBN, an inventory
  /// number that another book already has.
  @discardableResult
  public func add(_ draft: BookDraft) throws(StoreError) -> Book {
    let moment = clock.now()
    return try write {
      let book = try validated(draft, base: nil, moment: moment)
      try add(BookRow(book))
      // A reader's loan of it that an import kept until it came is a loan now.
      try store.circulation.tiePendingLoans(inventory: book.inventoryNumber)
      return book
    }
  }

  /// Changes a book: `edit` receives the book as a draft and changes what it will.
  @discardableResult
  public func update(inventory: String, _ edit: (inout BookDraft) -> Void) throws(StoreError) -> Book {
    let moment = clock.now()
    return try write {
      try store.catchUpBulkBooks()
      guard let current = try findBook(inventory: inventory.identifierForm) else {
        throw StoreError.bookNotFound(inventory)
      }
      var draft = BookDraft(current)
      edit(&draft)
      let book = try validated(draft, base: current, moment: moment)
      try writing(book, base: current) {
        // Only the columns whose values change: SQLite rewrites the entry of every index that
        // holds a column the statement sets, changed or not (every column was set before). The
        // sort key and search words go with the fields they are made from (`derivedFrom`); the
        // full-text trigger still runs only when the words differ.
        let (before, after) = (LibraryStore.bookFieldValues(current), LibraryStore.bookFieldValues(book))
        var columns: [String] = []
        var values: [DatabaseValue] = []
        for index in LibraryStore.bookFieldColumns.indices where before[index] != after[index] {
          columns.append(LibraryStore.bookFieldColumns[index])
          values.append(after[index])
        }
        if columns.contains(where: { LibraryStore.derivedFrom[.book, default: []].contains($0) }) {
          columns += ["sort_key", "search_text"]
          values += [.text(book.sortKey), .text(book.searchText)]
        }
        try database.execute(
          "UPDATE book SET \((columns + ["updated_at"]).map { "\($0) = ?" }.joined(separator: ", ")) WHERE uuid = ?",
          values: values + [.text(book.updated.iso), .text(book.id.text)])
      }
      // A copy lost or sent to repair while it waited on the hold shelf no longer waits there; a
      // copy back from repair or processing fills the first hold that waits for it, as a return does.
      if let rowID = try bookRowID(inventory: book.inventoryNumber) {
        if current.titleKey != book.titleKey {
          try store.holds.moveHolds(ofCopy: rowID, from: current, to: book, at: moment.instant)
        }
        if !book.status.circulates {
          try store.holds.releaseTrappedCopy(bookRowID: rowID, at: moment.instant)
        } else if !current.status.circulates, try currentLoan(bookID: book.id) == nil {
          _ = try store.holds.trap(bookRowID: rowID)
        }
      }
      return book
    }
  }

  /// Marks a book deleted (a tombstone that syncing desks learn of). Refused while it is out.
  public func delete(inventory: String) throws(StoreError) {
    let now = clock.now().instant
    try write {
      try store.catchUpBulkBooks()
      guard let book = try findBook(inventory: inventory.identifierForm) else {
        throw StoreError.bookNotFound(inventory)
      }
      if let loan = try currentLoan(bookID: book.id) {
        throw StoreError.bookOnLoan(
          book: book.title, inventory: book.inventoryNumber, reader: "\(loan.readerName) (ticket \(loan.readerTicket))")
      }
      if let rowID = try bookRowID(inventory: book.inventoryNumber) {
        // Holds on this copy alone end; a hold whose copy waited here queues again for its title.
        try database.execute(
          """
          UPDATE hold SET state = 'cancelled', ended_at = ?1, updated_at = ?1
          WHERE book_id = ?2 AND state IN ('queued', 'waiting')
          """, now.iso, rowID)
        try store.holds.releaseTrappedCopy(bookRowID: rowID, at: now)
      }
      try database.execute("UPDATE book SET deleted = 1, updated_at = ? WHERE uuid = ?", now.iso, book.id.text)
    }
  }

  /// Up to `limit` inventory numbers that begin with `prefix`, in order: what a shell's completion
  /// offers. A range of the numbers' index, however large the catalogue.
  public func inventoryNumbers(startingWith prefix: String, limit: Int) throws(StoreError) -> [String] {
    try read {
      try database.query(
        "SELECT inventory FROM book WHERE inventory >= ? AND inventory < ? AND deleted = 0 ORDER BY inventory LIMIT ?",
        prefix, prefix + "\u{10FFFF}", limit
      ) { $0.string(0) }
    }
  }

  /// Adds a book checked already (by `BookDraft.validated`), as a row made beforehand: an import
  /// makes rows on its reading thread, the benchmark's generator makes its own. Refused as
  /// `addBook` is when its inventory number is taken.
  /// Inside a transaction it takes no savepoint: its one INSERT is undone by SQLite alone when
  /// refused. A savepoint around each row (two statements more, and a copy of every page the row
  /// touched) cost an import of 100,000 books 7.55 s against 5.0–6.1 s without.
  public func add(_ row: BookRow) throws(StoreError) {
    try writeWithin { try writing(row.book, base: nil) { try insert(row) } }
  }

  private func insert(_ row: BookRow) throws {
    try database.execute(BookStore.bookInsertion, values: row.values)
    if !row.otherISBNs.isEmpty { try store.indexOtherISBNs(row.otherISBNs, ofBook: row.book.id.text) }
  }

  /// The insert of a `BookRow`'s values.
  static let bookInsertion: String = {
    let columns = LibraryStore.bookFieldColumns + BookRow.columnsAfterFields
    return
      "INSERT INTO book(\(columns.joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))"
  }()

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
      SELECT \(CirculationStore.loanColumns), \(BookStore.holderColumns)
      FROM loan l JOIN book b ON b.id = l.book_id JOIN reader r ON r.id = l.reader_id
      WHERE b.uuid = ? AND l.returned_at IS NULL AND l.deleted = 0
      """, bookID.text
    ) { try LibraryStore.decodeCurrentLoan($0, from: 0) }
  }

  public func currentLoan(ofBook book: Book) throws(StoreError) -> CurrentLoan? {
    try read { try currentLoan(bookID: book.id) }
  }
}
