import DeskDomain
import DeskTestSupport
import Foundation
import Testing

@_spi(Connection) @testable import DeskStorage

@Suite struct OpeningTests {
  @Test func createsTheSchemaAndReopens() throws {
    let folder = TemporaryFolder()
    let path = folder.file("nested/folder/library.sqlite")
    do {
      let store = try LibraryStore(path: path, clock: TestClock())
      #expect(try store.database.scalarInt("PRAGMA user_version") == LibraryStore.schemaVersion)
      #expect(try store.database.queryFirst("PRAGMA journal_mode") { $0.string(0) } == "wal")
      #expect(try store.database.scalarInt("PRAGMA synchronous") == 2, "FULL")
      #expect(try store.database.scalarInt("PRAGMA foreign_keys") == 1)
      try store.books.add(bookDraft("1", "Первая"))
    }
    let reopened = try LibraryStore(path: path, clock: TestClock())
    #expect(try reopened.books.count() == 1)
    #expect(try reopened.policy.categories().map(\.code) == ["adult", "child", "staff", "student"])
    #expect(try reopened.integrityCheck() == ["ok"])
  }

  @Test func bringsALibraryOfAnOlderVersionUpToDateAndSaysSo() throws {
    let folder = TemporaryFolder()
    let path = folder.file("library.sqlite")
    do {
      let store = try LibraryStore(path: path, clock: TestClock())
      try store.books.add(bookDraft("1", "Война и мир", surname: "Толстой"))
      try store.books.add(bookDraft("2", "Мирные дни", surname: "Абрамов"))
      // The file as version 6 wrote it: the list's old index, no counts of word changes.
      try store.database.executeScript(librarySchemaBeforeSync)
      try store.database.executeScript(
        """
        DROP INDEX book_list;
        CREATE INDEX book_sort ON book(sort_key) WHERE deleted = 0;
        DELETE FROM counter WHERE name IN ('book_words', 'reader_words');
        PRAGMA user_version = 6;
        """)
    }
    var told: [(Int, Int)] = []
    let store = try LibraryStore(path: path, clock: TestClock()) { told.append(($0, $1)) }
    #expect(told.map(\.0) == [6] && told.map(\.1) == [LibraryStore.schemaVersion])
    #expect(try store.database.scalarInt("SELECT count(*) FROM sqlite_schema WHERE name = 'book_list'") == 1)
    #expect(try store.database.scalarInt("SELECT count(*) FROM sqlite_schema WHERE name = 'book_sort'") == 0)
    #expect(try store.books.listRows().map(\.book.inventoryNumber) == ["2", "1"])
    #expect(try store.books.page(search: "мир").map(\.book.inventoryNumber) == ["2", "1"])
    try store.books.add(bookDraft("3", "Миргород", surname: "Гоголь"))
    #expect(try store.books.page(search: "мир").count == 3, "the vocabulary followed the new word")
    #expect(try store.integrityCheck() == ["ok"])
    // A new file is created, not upgraded: nothing to say.
    var toldNew = 0
    _ = try LibraryStore(path: folder.file("new.sqlite"), clock: TestClock()) { _, _ in toldNew += 1 }
    #expect(toldNew == 0)
  }

  @Test func refusesAFileThatIsNotADatabaseAndLeavesItAsItWas() throws {
    let folder = TemporaryFolder()
    let path = folder.file("notes.sqlite")
    let content = Data(repeating: 0x41, count: 8192)
    try content.write(to: URL(fileURLWithPath: path))
    #expect(
      errorLines { _ = try LibraryStore(path: path, clock: TestClock()) } == [
        "\(path) is not a library database (it is another kind of file): name another file with --db, or move this one away"
      ])
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == content)
    #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
  }

  @Test func refusesAFileFromANewerVersion() throws {
    let folder = TemporaryFolder()
    let path = folder.file("future.sqlite")
    do {
      let database = try Database(path: path)
      try database.executeScript("CREATE TABLE t(x); PRAGMA user_version = 99")
    }
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    let lines = errorLines { _ = try LibraryStore(path: path, clock: TestClock()) }
    #expect(lines.count == 1)
    #expect(lines[0].contains("written by a newer version of circdesk (schema 99"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
  }

  /// A SQLite file of another program — its own tables, a table named like the desk's, or only a
  /// user_version the desk never wrote — is refused and left byte for byte; an empty file becomes
  /// a library.
  @Test(arguments: [
    ("CREATE TABLE customers(id INTEGER, name TEXT); INSERT INTO customers VALUES (1, 'x')", "tables: customers"),
    ("CREATE TABLE book(x); PRAGMA user_version = 3", "tables: book"),
    ("PRAGMA user_version = 7", "no tables, but a user_version of 7 that circdesk did not write"),
  ])
  func refusesAFileOfAnotherProgramAndLeavesItAsItWas(script: String, says: String) throws {
    let folder = TemporaryFolder()
    let path = folder.file("other.db")
    do {
      let database = try Database(path: path)
      try database.executeScript(script)
    }
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    let lines = errorLines { _ = try LibraryStore(path: path, clock: TestClock()) }
    #expect(
      lines == [
        "\(path) is a SQLite file of another program (\(says)), not a library: it was left as it was; "
          + "name another file with --db"
      ])
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    #expect(!FileManager.default.fileExists(atPath: path + "-wal"), "not switched to WAL")
    let empty = folder.file("empty.sqlite")
    #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
    #expect(try LibraryStore(path: empty, clock: TestClock()).books.count() == 0)
  }

  @Test func waitsForALockAndThenSaysTheFileIsBusy() throws {
    let folder = TemporaryFolder()
    let path = folder.file("library.sqlite")
    let store = try LibraryStore(path: path, clock: TestClock())
    try store.books.add(bookDraft("1", "Книга"))
    let other = try Database(path: path)

    // Another desk is writing: reading goes on (WAL), writing waits and then says why.
    try other.executeScript("BEGIN IMMEDIATE")
    let waiting = try LibraryStore(path: path, clock: TestClock(), busyTimeoutMilliseconds: 200)
    #expect(try waiting.books.count() == 1)
    let lines = errorLines { try waiting.books.add(bookDraft("2", "Другая")) }
    #expect(lines.count == 1)
    #expect(lines[0].hasPrefix("The library database is busy: try again"))
    try other.executeScript("ROLLBACK")
    try waiting.books.add(bookDraft("2", "Другая"))
    #expect(try store.books.count() == 2)
  }

  @Test func saysWhenAnotherProgramHoldsTheFileExclusively() throws {
    let folder = TemporaryFolder()
    let path = folder.file("library.sqlite")
    do { _ = try LibraryStore(path: path, clock: TestClock()) }
    let other = try Database(path: path)
    try other.executeScript(
      "PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE; INSERT INTO holiday(day) VALUES ('2026-12-31')")
    let opening = errorLines { _ = try LibraryStore(path: path, clock: TestClock(), busyTimeoutMilliseconds: 200) }
    #expect(
      opening == ["\(path) is locked by another program for too long: try again, or close the program that holds it"])
    try other.executeScript("ROLLBACK")
  }

  @Test func reportsAFolderThatCannotBeCreated() throws {
    let folder = TemporaryFolder()
    let blocker = folder.file("plain-file")
    #expect(FileManager.default.createFile(atPath: blocker, contents: Data("x".utf8)))
    let lines = errorLines { _ = try LibraryStore(path: blocker + "/library.sqlite", clock: TestClock()) }
    #expect(lines.count == 1)
    #expect(lines[0].hasPrefix("Cannot open \(blocker)/library.sqlite"))
  }

  @Test func theDatabaseItselfEnforcesUniquenessAndOneOpenLoan() throws {
    let folder = TemporaryFolder()
    let store = try LibraryStore(path: folder.file("library.sqlite"), clock: TestClock())
    try store.books.add(bookDraft("100", "Книга"))
    try store.readers.add(readerDraft("1", "Иванов"))
    let database = store.database
    let insertBook = """
      INSERT INTO book(uuid, inventory, title, sort_key, search_text, created_at, updated_at)
      VALUES (?, '100', 'Копия', 'k', 'k', 'now', 'now')
      """
    #expect {
      try database.execute(insertBook, "another-uuid")
    } throws: { ($0 as? DatabaseError)?.isUniqueViolation == true }
    let insertLoan = """
      INSERT INTO loan(uuid, book_id, reader_id, issued_at, due_date, desk, created_at, updated_at)
      VALUES (?, (SELECT id FROM book), (SELECT id FROM reader), 'now', '2026-12-01', 'd', 'now', 'now')
      """
    try database.execute(insertLoan, "loan-1")
    #expect {
      try database.execute(insertLoan, "loan-2")
    } throws: { ($0 as? DatabaseError)?.isUniqueViolation == true }
    #expect {
      try database.execute(
        "INSERT INTO reader(uuid, ticket, surname, category, registered, sort_key, search_text, created_at, updated_at) VALUES ('r2', '1', 'Копия', 'adult', '2026-01-01', 'k', 'k', 'n', 'n')"
      )
    } throws: { ($0 as? DatabaseError)?.isUniqueViolation == true }
  }

  @Test func aTransactionRollsBackWhenItsBodyThrows() throws {
    let folder = TemporaryFolder()
    let store = try LibraryStore(path: folder.file("library.sqlite"), clock: TestClock())
    struct Stop: Error {}
    #expect(throws: Stop.self) {
      try store.database.inTransaction {
        try store.books.add(bookDraft("1", "Книга"))
        throw Stop()
      }
    }
    #expect(try store.books.count() == 0)
  }

  @Test func databaseErrorsCarryCodeMessageAndSQL() throws {
    let folder = TemporaryFolder()
    let database = try Database(path: folder.file("x.sqlite"))
    do {
      try database.execute("SELECT * FROM missing_table")
      Issue.record("expected an error")
    } catch {
      #expect(error.code == 1)
      #expect(error.message == "no such table: missing_table")
      #expect(error.sql == "SELECT * FROM missing_table")
    }
  }
}
