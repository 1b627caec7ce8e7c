import DeskDomain
import DeskTestSupport
import Foundation
import Testing

@_spi(Connection) @testable import DeskStorage

/// Indexes put off by a bulk write (`LibraryStore.puttingOffIndexes`) come back as they were: at
/// the write's end, failed or not, and at the next opening of a file whose write was cut.
@Suite struct PutOffIndexesTests {
  let folder = TemporaryFolder()
  let path: String
  let store: LibraryStore

  init() throws {
    path = folder.file("library.sqlite")
    store = try LibraryStore(path: path, clock: TestClock())
    try store.books.add(bookDraft("1", "Война и мир", surname: "Толстой"))
    try store.readers.add(readerDraft("1001", "Смирнова"))
  }

  private static func indexes(_ store: LibraryStore) throws -> [String] {
    try store.database.query("SELECT sql FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL ORDER BY name") {
      $0.string(0)
    }
  }

  /// A bulk write puts indexes off when it brings at least the minimum of new records and twice
  /// what the library holds (here one book and one reader).
  @Test func aWriteThatBringsMostOfTheLibraryPutsIndexesOff() throws {
    #expect(try store.putsOffIndexes(bringing: 10_000))
    #expect(try !store.putsOffIndexes(bringing: 9_999), "below the minimum")
    #expect(try store.putsOffIndexes(bringing: 4, minimum: 4))
    #expect(try !store.putsOffIndexes(bringing: 3, minimum: 3), "less than twice the two records there")
  }

  @Test func theIndexesComeBackAsTheyWereWhenTheWriteEndsOrFails() throws {
    let before = try PutOffIndexesTests.indexes(store)
    try store.puttingOffIndexes {
      #expect(try store.database.scalarInt("SELECT count(*) FROM put_off_index") == 3)
      #expect(try PutOffIndexesTests.indexes(store).count == before.count - 3)
      try store.books.add(bookDraft("2", "Анна Каренина", surname: "Толстой"))
    }
    #expect(try PutOffIndexesTests.indexes(store) == before)
    struct Failed: Error {}
    #expect(throws: Failed.self) {
      try store.puttingOffIndexes { throw Failed() }
    }
    #expect(try PutOffIndexesTests.indexes(store) == before)
    #expect(try store.database.scalarInt("SELECT count(*) FROM put_off_index") == 0)
    #expect(try store.books.page(search: "каренина").map(\.book.inventoryNumber) == ["2"])
    #expect(try store.integrityCheck() == ["ok"])
  }

  /// The indexes are sorted with the temporary store on disk (a million books' keys in memory took
  /// an import from 79 to 207 MiB), which is back in memory after them, for the desk's statements.
  @Test func theIndexesAreMadeSortingOnDisk() throws {
    let (_, statements) = try store.database.recordingStatements {
      try store.puttingOffIndexes { try store.books.add(bookDraft("2", "Анна Каренина", surname: "Толстой")) }
    }
    let made = statements.indices.filter { statements[$0].hasPrefix("CREATE INDEX") }
    let onDisk = try #require(statements.firstIndex { $0.contains("temp_store = FILE") })
    let inMemory = try #require(statements.lastIndex { $0.contains("temp_store = MEMORY") })
    #expect(made.count == 3 && made.allSatisfy { onDisk < $0 && $0 < inMemory }, "\(statements)")
    #expect(try store.database.scalarInt("PRAGMA temp_store") == 2)
  }

  /// The file as a kill would leave it in the middle of the write (its committed state, copied
  /// with its log), and the file opened by another program meanwhile: each opening makes the
  /// indexes again, and the write still under way ends well.
  @Test func theNextOpeningOfAFileWhoseWriteWasCutMakesThemAgain() throws {
    let before = try PutOffIndexesTests.indexes(store)
    let cut = folder.file("cut.sqlite")
    try store.puttingOffIndexes {
      try store.books.add(bookDraft("2", "Анна Каренина", surname: "Толстой"))
      for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: path + suffix) {
        try FileManager.default.copyItem(atPath: path + suffix, toPath: cut + suffix)
      }
      let other = try LibraryStore(path: path, clock: TestClock())
      #expect(try PutOffIndexesTests.indexes(other) == before)
      try store.books.add(bookDraft("3", "Воскресение", surname: "Толстой"))
    }
    #expect(try PutOffIndexesTests.indexes(store) == before)
    #expect(try store.integrityCheck() == ["ok"])

    let reopened = try LibraryStore(path: cut, clock: TestClock())
    #expect(try PutOffIndexesTests.indexes(reopened) == before)
    #expect(try reopened.database.scalarInt("SELECT count(*) FROM put_off_index") == 0)
    #expect(try reopened.books.page().map(\.book.inventoryNumber) == ["2", "1"])
    #expect(try reopened.integrityCheck() == ["ok"])
  }

  /// A file opened while another program writes it (an import with its indexes put off) opens at
  /// once, its indexes left to that writer: the opening does not wait for the write lock. The
  /// writer here lets go after a second, well within the busy timeout that a waiting opening
  /// would have waited through and then made the indexes.
  @Test func anOpeningDuringTheWriteLeavesTheIndexesToTheWriter() throws {
    try store.database.execute(
      "INSERT INTO put_off_index(name, sql) SELECT name, sql FROM sqlite_schema WHERE name = 'book_isbn13'")
    try store.database.executeScript("DROP INDEX book_isbn13")
    let writer = try Database(path: path)
    try writer.executeScript("BEGIN IMMEDIATE")
    let released = DispatchSemaphore(value: 0)
    DispatchQueue.global().asyncAfter(deadline: .now() + 1) {
      try? writer.executeScript("COMMIT")
      released.signal()
    }
    let during = try LibraryStore(path: path, clock: TestClock())
    #expect(try during.database.scalarInt("SELECT count(*) FROM put_off_index") == 1, "left to the writer")
    released.wait()
    let after = try LibraryStore(path: path, clock: TestClock())
    #expect(try after.database.scalarInt("SELECT count(*) FROM put_off_index") == 0)
    #expect(try PutOffIndexesTests.indexes(after).contains { $0.hasPrefix("CREATE INDEX book_isbn13 ON ") })
  }

  /// What the opening runs is one index's own statement: a row of `put_off_index` written by
  /// something else (a file from elsewhere) is dropped unrun, whatever its SQL says.
  @Test func theOpeningRunsNothingButThoseIndexesOwnStatements() throws {
    try store.circulation.issue(ticket: "1001", inventories: ["1"])
    try store.database.execute(
      "INSERT INTO put_off_index(name, sql) VALUES (?, ?), (?, ?)", "book_list",
      "CREATE INDEX book_list ON book(sort_key); DELETE FROM loan", "loan_book",
      "CREATE INDEX loan_book ON loan(book_id)")
    let reopened = try LibraryStore(path: path, clock: TestClock())
    #expect(try reopened.database.scalarInt("SELECT count(*) FROM put_off_index") == 0)
    #expect(try reopened.database.scalarInt("SELECT count(*) FROM loan") == 1)
    #expect(
      try PutOffIndexesTests.indexes(reopened).contains { $0.hasPrefix("CREATE INDEX book_list ON book(sort_key, ") })
    #expect(LibraryStore.isPutOffIndex("reader_sort", "CREATE INDEX reader_sort ON reader(sort_key) WHERE deleted = 0"))
  }
}
