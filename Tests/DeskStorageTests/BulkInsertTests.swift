import DeskDomain
import DeskTestSupport
import Testing

@_spi(Connection) @testable import DeskStorage

/// Books added in bulk are indexed and counted as if added one by one, and the schema comes out
/// of it as it went in, whether the bulk insert ends well or fails.
@Suite struct BulkInsertTests {
  let folder = TemporaryFolder()
  let clock = TestClock()
  let store: LibraryStore

  init() throws {
    store = try LibraryStore(path: folder.file("library.sqlite"), clock: clock)
  }

  private func triggers() throws -> [String] {
    try store.database.query("SELECT name FROM sqlite_schema WHERE type = 'trigger' ORDER BY name") { $0.string(0) }
  }

  private func row(_ inventory: String, _ title: String, surname: String = "") throws -> BookRow {
    let moment = clock.now()
    return BookRow(
      try bookDraft(inventory, title, surname: surname).validated(base: nil, today: moment.date, now: moment.instant))
  }

  /// FTS5's own check that the index matches the table, row for row.
  private func fullTextIndexIsConsistent() -> Bool {
    (try? store.database.executeScript("INSERT INTO book_fts(book_fts, rank) VALUES ('integrity-check', 1)")) != nil
  }

  @Test func indexesAndCountsWhatItAdded() throws {
    try store.books.add(bookDraft("1", "Война и мир", surname: "Толстой"))
    try store.books.add(bookDraft("20", "Воскресение", surname: "Толстой"))
    let before = try triggers()
    // Indexed two books a statement, so that the slices meet.
    try store.addingBooksInBulk(indexSlice: 2) {
      // A book indexed before, changed twice in bulk: indexed again once, with its last words.
      try store.books.update(inventory: "20") { $0.title = "Крейцерова соната" }
      try store.books.update(inventory: "20") { $0.title = "Хаджи-Мурат" }
      try store.books.add(row("2", "Анна Каренина", surname: "Толстой"))
      try store.books.add(row("3", "Отцы и дети", surname: "Тургенев"))
      // A book added in this bulk insert and changed in it: indexed before the change.
      try store.books.update(inventory: "3") { $0.title = "Дворянское гнездо" }
      try store.books.add(row("4", "Вишнёвый сад", surname: "Чехов"))
      try store.books.delete(inventory: "4")
      // A bulk insert inside this one joins it: the books before, in and after it are all indexed.
      try store.books.add(row("13", "Нос", surname: "Гоголь"))
      try store.addingBooksInBulk {
        for number in 6...12 { try store.books.add(row("\(number)", "Повесть \(number)", surname: "Гоголь")) }
      }
      try store.books.add(row("14", "Шинель", surname: "Гоголь"))
    }
    #expect(try triggers() == before)
    #expect(try store.books.count() == 13)
    #expect(try store.books.page(search: "хаджи").map(\.book.inventoryNumber) == ["20"])
    #expect(try store.books.page(search: "воскресен").isEmpty && store.books.page(search: "крейцер").isEmpty)
    #expect(try store.books.page(search: "повесть").count == 7)
    #expect(try store.books.page(search: "нос").map(\.book.inventoryNumber) == ["13"])
    #expect(try store.books.page(search: "шинель").map(\.book.inventoryNumber) == ["14"])
    #expect(try store.books.page(search: "толст").map(\.book.inventoryNumber) == ["2", "1", "20"])
    #expect(try store.books.page(search: "гнезд").map(\.book.inventoryNumber) == ["3"])
    #expect(try store.books.page(search: "отцы").isEmpty)
    #expect(fullTextIndexIsConsistent())
    // The triggers work again for the next book added one by one.
    try store.books.add(bookDraft("5", "Мёртвые души", surname: "Гоголь"))
    #expect(try store.books.count() == 14)
    #expect(try store.books.page(search: "мертв").map(\.book.inventoryNumber) == ["5"])
  }

  /// An import indexes what it added while it goes on, once enough waits: found inside the bulk
  /// insert then, and indexed and counted once.
  @Test func indexesWhatWaitsWhenAsked() throws {
    try store.addingBooksInBulk {
      for number in 1...3 { try store.books.add(row("\(number)", "Повесть \(number)", surname: "Гоголь")) }
      try store.indexBooksAddedInBulk(whenWaiting: 4)
      #expect(try store.books.page(search: "повесть").isEmpty)
      try store.books.add(row("4", "Повесть 4", surname: "Гоголь"))
      try store.indexBooksAddedInBulk(whenWaiting: 4)
      #expect(try store.books.page(search: "повесть").count == 4)
      try store.books.add(row("5", "Шинель", surname: "Гоголь"))
    }
    #expect(try store.books.count() == 5)
    #expect(try store.books.page(search: "гоголь").count == 5)
    #expect(fullTextIndexIsConsistent())
    // Outside a bulk insert there is nothing to index: the triggers did it.
    try store.indexBooksAddedInBulk(whenWaiting: 1)
    #expect(try store.books.count() == 5)
  }

  /// The triggers wait for the end by a row of `bulk_write` in the transaction, not dropped and
  /// made again: the schema is not changed, and no connection to the file prepares its statements
  /// again after a bulk write (a tenth of a desk's work among fifty syncing was that).
  @Test func changesNoSchema() throws {
    try store.books.add(bookDraft("1", "Война и мир"))
    let schema = try store.database.scalarInt("PRAGMA schema_version")
    try store.addingBooksInBulk { try store.books.add(row("2", "Анна Каренина")) }
    #expect(try store.database.scalarInt("PRAGMA schema_version") == schema)
    #expect(try store.database.scalarInt("SELECT count(*) FROM bulk_write") == 0)
    #expect(try store.books.page(search: "анна").map(\.book.inventoryNumber) == ["2"])
    #expect(try store.books.count() == 2)
    #expect(fullTextIndexIsConsistent())
  }

  /// A row of `bulk_write` committed from outside the program (it never commits one) is gone at
  /// the next opening: the books added after it are indexed and counted.
  @Test func aStrayRowOfBulkWriteIsGoneAtTheNextOpening() throws {
    try store.database.executeScript("INSERT INTO bulk_write(id) VALUES (1)")
    let reopened = try LibraryStore(path: folder.file("library.sqlite"), clock: clock)
    #expect(try reopened.database.scalarInt("SELECT count(*) FROM bulk_write") == 0)
    try reopened.books.add(bookDraft("1", "Война и мир"))
    #expect(try reopened.books.count() == 1)
    #expect(try reopened.books.page(search: "война").map(\.book.inventoryNumber) == ["1"])
  }

  @Test func refusesATakenNumberAsAddBookDoes() throws {
    try store.books.add(bookDraft("1", "Война и мир"))
    let lines = errorLines {
      try store.addingBooksInBulk { try store.books.add(row("1", "Другая книга")) }
    }
    #expect(lines == ["Inventory number 1 is already used by «Война и мир»"])
  }

  @Test func aFailureLeavesTheLibraryAndItsTriggersAsTheyWere() throws {
    struct Interrupted: Error {}
    try store.books.add(bookDraft("1", "Война и мир"))
    let before = try triggers()
    #expect(throws: StoreError.self) {
      try store.addingBooksInBulk {
        try store.books.add(row("2", "Анна Каренина"))
        throw Interrupted()
      }
    }
    #expect(try triggers() == before)
    #expect(try store.books.count() == 1)
    #expect(try store.books.book(inventory: "2") == nil)
    try store.books.add(bookDraft("2", "Анна Каренина"))
    #expect(try store.books.count() == 2)
    #expect(fullTextIndexIsConsistent())
  }
}
