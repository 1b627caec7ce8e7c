import CSQLite
import DeskDomain
import DeskTestSupport
import Testing

@_spi(Connection) @testable import DeskStorage

/// The SQLite layer on a real file: transactions and savepoints, arguments, the mapping of
/// errors, and the statements an operation runs.
@Suite struct DatabaseTests {
  let folder = TemporaryFolder()
  let database: Database

  init() throws {
    database = try Database(path: folder.file("plain.sqlite"))
    try database.executeScript("CREATE TABLE shelf(name TEXT PRIMARY KEY)")
  }

  func names() throws -> [String] {
    try database.query("SELECT name FROM shelf ORDER BY name") { $0.string(0) }
  }

  struct Refused: Error {}

  /// A library opened with a clock set off (a simulated desk's) has SQLite's 'now' run as far
  /// off, and writes its file as any other: a connection on the machine's time reads it, and
  /// its own time stays the machine's.
  @Test func aLibraryWithItsClockSetOffHasSQLitesTimeOffAsFar() throws {
    let day: Int64 = 86_400_000
    let path = folder.file("ahead.sqlite")
    let now = SystemClock().now().instant.millisecondsSinceEpoch
    let ahead = try LibraryStore(path: path, clock: ShiftedClock(SystemClock(), by: day))
    let behind = try LibraryStore(path: folder.file("behind.sqlite"), clock: ShiftedClock(SystemClock(), by: -day))
    #expect(abs(try ahead.sync.wallClockReading() - now - day) < 60_000)
    #expect(abs(try behind.sync.wallClockReading() - now + day) < 60_000)
    var draft = BookDraft()
    (draft.inventoryNumber, draft.authorSurname, draft.title) = ("A-1", "Толстой", "Война и мир")
    try ahead.books.add(draft)
    let plain = try LibraryStore(path: path)
    #expect(abs(try plain.sync.wallClockReading() - now) < 60_000)
    #expect(try plain.books.book(inventory: "A-1")?.title == "Война и мир")
  }

  /// A transaction inside another is a savepoint: its failure undoes its own work only, and the
  /// outer transaction commits the rest.
  @Test func aFailedInnerTransactionRollsBackItsOwnWorkOnly() throws {
    try database.inTransaction {
      try database.execute("INSERT INTO shelf VALUES (?)", "outer")
      #expect(throws: Refused.self) {
        try database.inTransaction {
          try database.execute("INSERT INTO shelf VALUES (?)", "inner")
          throw Refused()
        }
      }
      try database.execute("INSERT INTO shelf VALUES (?)", "after")
    }
    #expect(try names() == ["after", "outer"])
    #expect(database.isAutocommit)
  }

  /// A dry run inside a transaction rolls back to its savepoint: the outer commit never takes it.
  @Test func aDryRunInsideATransactionNeverCommits() throws {
    let seen = try database.inTransaction {
      try database.execute("INSERT INTO shelf VALUES (?)", "kept")
      return try database.inTransaction(commit: false) {
        try database.execute("INSERT INTO shelf VALUES (?)", "tried")
        return try names()
      }
    }
    #expect(seen == ["kept", "tried"], "the dry run saw its own work")
    #expect(try names() == ["kept"])
    try database.inTransaction(commit: false) { try database.execute("INSERT INTO shelf VALUES (?)", "alone") }
    #expect(try names() == ["kept"])
  }

  /// A failure deep inside three levels undoes only the innermost level; an outer failure undoes
  /// everything, the inner levels that succeeded included.
  @Test func savepointsNest() throws {
    try database.inTransaction {
      try database.execute("INSERT INTO shelf VALUES ('1')")
      try database.inTransaction {
        try database.execute("INSERT INTO shelf VALUES ('2')")
        try? database.inTransaction {
          try database.execute("INSERT INTO shelf VALUES ('3')")
          throw Refused()
        }
      }
    }
    #expect(try names() == ["1", "2"])
    #expect(throws: Refused.self) {
      try database.inTransaction {
        try database.inTransaction { try database.execute("INSERT INTO shelf VALUES ('4')") }
        throw Refused()
      }
    }
    #expect(try names() == ["1", "2"])
  }

  @Test func argumentsMustMatchTheParameters() throws {
    do {
      try database.execute("INSERT INTO shelf VALUES (?)", "a", "b")
      Issue.record("two arguments for one parameter were taken")
    } catch let error as DatabaseError {
      #expect(error.code == SQLITE_RANGE)
      #expect(error.message == "the statement takes 1 arguments, 2 were given")
      #expect(error.sql == "INSERT INTO shelf VALUES (?)")
    }
    #expect(try names() == [])
    // The statement is cached and still usable with the right count.
    try database.execute("INSERT INTO shelf VALUES (?)", "a")
    #expect(try names() == ["a"])
  }

  @Test func aUniqueViolationIsToldApart() throws {
    try database.execute("INSERT INTO shelf VALUES (?)", "a")
    do {
      try database.execute("INSERT INTO shelf VALUES (?)", "a")
      Issue.record("a duplicate key was taken")
    } catch let error as DatabaseError {
      #expect(error.isUniqueViolation)
      #expect(!error.isBusy && !error.isReadOnly)
    }
    do {
      try database.execute("INSERT INTO nowhere VALUES (?)", "a")
    } catch let error as DatabaseError {
      #expect(!error.isUniqueViolation)
      #expect(error.message == "no such table: nowhere")
    }
  }

  /// What an issue costs, pinned: the statements it runs, one write transaction, no scan of a
  /// table that grows with the library. A change that adds a statement to every issue shows here.
  /// A title changed in a library of books without ISBNs reads the copies of its old title as a
  /// range of the list's index, not every book without an ISBN through the ISBN index.
  @Test func aTitleChangedReadsNoBookWithoutAnISBNBesideItsOwnTitle() throws {
    let store = try LibraryStore(path: folder.file("library.sqlite"), clock: TestClock())
    try store.transaction {
      for number in 1...50 { try store.books.add(bookDraft("\(number)", "Книга \(number)")) }
    }
    let (_, statements) = try store.database.recordingStatements {
      try store.books.update(inventory: "7") { $0.title = "Другая книга" }
    }
    var plans: [String] = []
    for sql in statements where sql.hasPrefix("SELECT") {
      let count = Int(sqlite3_bind_parameter_count(try Statement(database: store.database, sql: sql).handle))
      let arguments = Array(repeating: "" as any DatabaseValueConvertible, count: count)
      plans += try store.database.query("EXPLAIN QUERY PLAN " + sql, arguments: arguments) { $0.string(3) }
    }
    #expect(!plans.contains { $0.contains("book_isbn13") }, "\(plans)")
    #expect(plans.contains { $0.hasPrefix("SEARCH b USING INDEX book_list (sort_key>? AND sort_key<?)") }, "\(plans)")
  }

  @Test func anIssueRunsAKnownSetOfStatements() throws {
    let store = try LibraryStore(path: folder.file("library.sqlite"), clock: TestClock())
    try store.books.add(bookDraft("100", "Книга"))
    try store.readers.add(readerDraft("7", "Иванова"))
    _ = try store.policy.current()
    let (_, statements) = try store.database.recordingStatements {
      try store.circulation.issue(ticket: "7", inventories: ["100"])
    }
    #expect(statements.first == "BEGIN IMMEDIATE")
    #expect(statements.last == "COMMIT")
    #expect(statements.filter { $0.hasPrefix("BEGIN") || $0.hasPrefix("SAVEPOINT") }.count == 1)
    #expect(statements.filter { $0.contains("INSERT INTO loan") }.count == 1)
    // The reader, the book, the policy (settings, holidays, categories: a few rows each), the
    // book's open loan, whether it waits on the hold shelf, the reader's loans, the book's last
    // return (an issue is dated after it), the insert, the reader's hold on it fulfilled, and the
    // reader's visit noted for the work diary.
    #expect(statements.count == 14, "\(statements.joined(separator: "\n"))")
    #expect(statements.filter { $0.contains("INSERT OR IGNORE INTO visit") }.count == 1)
    var plans: [String] = []
    for sql in statements where sql.hasPrefix("SELECT") || sql.hasPrefix("WITH") {
      let count = Int(sqlite3_bind_parameter_count(try Statement(database: store.database, sql: sql).handle))
      let arguments = Array(repeating: "" as any DatabaseValueConvertible, count: count)
      plans += try store.database.query("EXPLAIN QUERY PLAN " + sql, arguments: arguments) { $0.string(3) }
    }
    let growing = ["book", "reader", "loan", "address", "hold", "h"].map { "SCAN \($0)" }
    #expect(!plans.contains { plan in growing.contains { plan == $0 || plan.hasPrefix($0 + " ") } }, "\(plans)")
    #expect(plans.contains("SEARCH b USING INDEX book_inventory (inventory=?)"), "\(plans)")
  }
  /// A date in the file that does not parse is an error naming the column and the value, never
  /// 1970: the file was written by something else, or is damaged.
  @Test func aDateThatDoesNotParseIsAnErrorNot1970() throws {
    let store = try LibraryStore(path: folder.file("library.sqlite"), clock: TestClock())
    try store.books.add(bookDraft("100", "Книга"))
    try store.readers.add(readerDraft("7", "Иванова"))
    try store.circulation.issue(ticket: "7", inventories: ["100"])
    try store.database.execute("UPDATE loan SET due_date = 'скоро'")
    do {
      _ = try store.books.book(inventory: "100").map { try store.books.currentLoan(ofBook: $0) }
      Issue.record("a due date «скоро» was read")
    } catch let error as StoreError {
      #expect(
        error.english
          == "l.due_date holds «скоро», not a date like 2026-11-30: the library file was changed outside circdesk, "
          + "or is damaged")
    }
    try store.database.execute("UPDATE book SET created_at = '1 Jan'")
    #expect(throws: StoreError.self) { try store.books.book(inventory: "100") }
    #expect(throws: StoreError.self) { try store.books.page() }
  }
}
