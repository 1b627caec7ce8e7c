import DeskDomain
import DeskTestSupport
import Testing

@_spi(Connection) @testable import DeskStorage

/// A library's first import writes with a rollback journal, and the file is in WAL again after it,
/// whether the import ends well or fails; a library that holds anything, or that another
/// connection has open, stays in WAL throughout.
@Suite struct FirstImportTests {
  let folder = TemporaryFolder()

  private func mode(_ store: LibraryStore) throws -> String {
    try store.database.queryFirst("PRAGMA journal_mode") { $0.string(0) } ?? ""
  }

  @Test func aNewLibraryIsWrittenWithARollbackJournalThenWALAgain() throws {
    let store = try LibraryStore(path: folder.file("new.sqlite"), clock: TestClock())
    #expect(try mode(store) == "wal")
    let during = try store.asFirstImport {
      try store.addingBooksInBulk { try store.books.add(bookDraft("1", "Война и мир", surname: "Толстой")) }
      return try mode(store)
    }
    #expect(during == "delete")
    #expect(try mode(store) == "wal")
    #expect(try store.books.book(inventory: "1") != nil)
    // Now it holds a book: the next import keeps WAL.
    #expect(try store.asFirstImport { try mode(store) } == "wal")
  }

  @Test func aFailedFirstImportLeavesTheFileEmptyAndInWAL() throws {
    let path = folder.file("failed.sqlite")
    let store = try LibraryStore(path: path, clock: TestClock())
    struct Broken: Error {}
    #expect(throws: StoreError.self) {
      try store.asFirstImport {
        try store.write {
          try store.books.add(bookDraft("1", "Война и мир"))
          throw Broken()
        }
      }
    }
    #expect(try mode(store) == "wal")
    let again = try LibraryStore(path: path, clock: TestClock())
    #expect(try again.database.scalarInt("SELECT count(*) FROM book") == 0)
  }

  @Test func anotherConnectionKeepsTheLibraryInWAL() throws {
    let path = folder.file("shared.sqlite")
    let store = try LibraryStore(path: path, clock: TestClock())
    let desk = try LibraryStore(path: path, clock: TestClock())
    _ = try desk.database.scalarInt("SELECT count(*) FROM book")
    #expect(try store.asFirstImport { try mode(store) } == "wal")
  }
}
