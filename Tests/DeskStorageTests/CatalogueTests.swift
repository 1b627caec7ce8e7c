import DeskDomain
import DeskTestSupport
import Testing

@_spi(Connection) @testable import DeskStorage

@Suite struct CatalogueTests {
  let folder = TemporaryFolder()
  let clock = TestClock()
  let store: LibraryStore

  init() throws {
    store = try LibraryStore(path: folder.file("library.sqlite"), clock: clock)
  }

  @Test func refusesADuplicateInventoryNumberNamingTheOtherBook() throws {
    try store.books.add(bookDraft("100234", "Герой нашего времени", surname: "Лермонтов"))
    #expect(
      errorLines { try store.books.add(bookDraft(" 100234 ", "Другая книга")) } == [
        "Inventory number 100234 is already used by «Герой нашего времени»"
      ])
    #expect(try store.books.count() == 1)
    try store.books.add(bookDraft("100235", "Другая книга"))
    #expect(
      errorLines { try store.books.update(inventory: "100235") { $0.inventoryNumber = "100234" } } == [
        "Inventory number 100234 is already used by «Герой нашего времени»"
      ])
    #expect(try store.books.book(inventory: "100235")?.title == "Другая книга")
  }

  /// «Й-1» typed as one character and as «И» with a combining breve is one number: stored
  /// composed, found either way, and a second book with it is refused.
  @Test func identifiersAreOneNumberWhicheverWayTheirLettersAreComposed() throws {
    let decomposed = "И\u{306}-1"
    let composed = "Й-1"
    #expect(Array(decomposed.unicodeScalars) != Array(composed.unicodeScalars))
    try store.books.add(bookDraft(decomposed, "Идиот"))
    let stored = try #require(try store.books.book(inventory: composed))
    #expect(Array(stored.inventoryNumber.unicodeScalars) == Array(composed.unicodeScalars))
    #expect(try store.books.book(inventory: decomposed)?.title == "Идиот")
    #expect(
      errorLines { try store.books.add(bookDraft(composed, "Другая книга")) } == [
        "Inventory number Й-1 is already used by «Идиот»"
      ])
    try store.readers.add(readerDraft("Е\u{308}7", "Иванова", firstName: "Мария"))
    #expect(try store.readers.reader(ticket: "Ё7")?.surname == "Иванова")
    #expect(try store.resolve("И\u{306}-1") == .book(stored))
  }

  @Test func refusesAMissingInventoryNumberAndSavesNothing() throws {
    #expect(errorLines { try store.books.add(bookDraft("  ", "Книга")) } == ["Inventory number is required"])
    #expect(try store.books.count() == 0)
  }

  @Test func editsKeepIdentityAndFindByISBN() throws {
    let book = try store.books.add(bookDraft("1", "Герой", isbn: "5-17-079585-8"))
    clock.advance(days: 1)
    let edited = try store.books.update(inventory: "1") { $0.title = "Герой нашего времени" }
    #expect(edited.id == book.id)
    #expect(edited.updated > book.updated)
    #expect(try store.books.book(inventory: "1")?.title == "Герой нашего времени")
    #expect(try store.books.copies(isbn: ISBN("978-5-17-079585-7")).map(\.inventoryNumber) == ["1"])
  }

  @Test func deletingLeavesATombstoneAndFreesTheNumber() throws {
    let book = try store.books.add(bookDraft("1", "Книга"))
    try store.books.delete(inventory: "1")
    #expect(try store.books.book(inventory: "1") == nil)
    #expect(try store.database.scalarInt("SELECT deleted FROM book WHERE uuid = ?", book.id.text) == 1)
    try store.books.add(bookDraft("1", "Новая книга"))
    #expect(
      errorLines { try store.books.delete(inventory: "2") } == [
        "No book has inventory number 2: check the label, or add the book first"
      ])
  }

  @Test func sortsCyrillicAndLatinCaseInsensitivelyWithYoAsYe() throws {
    let books = [
      ("1", "Ёлкин", "Зима"), ("2", "ежов", "Лето"), ("3", "Абрамов", "Весна"), ("4", "zola", "Nana"),
      ("5", "Émile", "Été"), ("6", "Ели", "Осень"), ("7", "", "Азбука"), ("8", "Adams", "Z"),
      ("9", "Елкин", "Антология"),
    ]
    for (inventory, surname, title) in books {
      try store.books.add(bookDraft(inventory, title, surname: surname))
    }
    let order = try store.books.page().map(\.book.inventoryNumber)
    // Latin before Cyrillic; ё sorts with е; case does not matter; no author files under the title.
    #expect(order == ["8", "5", "4", "3", "7", "2", "6", "9", "1"])
  }

  @Test func pagesByKeysetInBothDirections() throws {
    for number in 1...95 {
      try store.books.add(bookDraft(String(format: "%03d", number), "Книга \(number)", surname: "Автор"))
    }
    let all = try store.books.page(limit: 1000).map(\.book.inventoryNumber)
    #expect(all.count == 95)
    var pages: [[String]] = []
    var position = PagePosition.first
    while true {
      let page = try store.books.page(position: position, limit: 40)
      guard !page.isEmpty else { break }
      pages.append(page.map(\.book.inventoryNumber))
      position = .after(page.last!.book.sortKey)
    }
    #expect(pages.map(\.count) == [40, 40, 15])
    #expect(pages.flatMap { $0 } == all)
    let last = try store.books.page(position: .last, limit: 40)
    #expect(last.map(\.book.inventoryNumber) == Array(all.suffix(40)))
    let before = try store.books.page(position: .before(last.first!.book.sortKey), limit: 40)
    #expect(before.map(\.book.inventoryNumber) == Array(all.dropLast(40).suffix(40)))
  }

  @Test func theFullScreenListReadsOnlyItsCoveringIndex() throws {
    let positions: [PagePosition] = [.first, .after("м"), .before("м"), .from("м"), .last]
    for position in positions {
      let query = try store.books.bookPageQuery(
        columns: BookStore.briefColumns, filter: .all, search: "", order: .sortKey(position), limit: 40)
      let plan = try store.database.query("EXPLAIN QUERY PLAN " + query.sql, arguments: query.arguments) {
        $0.string(3)
      }
      #expect(plan.contains { $0.contains("COVERING INDEX book_list") }, "\(position): \(plan)")
      #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "no sorting: \(plan)")
    }
  }

  @Test func searchesByWordPrefixesInAnyOrder() throws {
    try store.books.add(bookDraft("100", "Герой нашего времени", surname: "Лермонтов", initials: "М. Ю."))
    try store.books.add(bookDraft("101", "Ёлка и другие рассказы", surname: "Зощенко"))
    try store.books.add(bookDraft("102", "Les Misérables", surname: "Hugo", isbn: "978-0-14-044430-8"))
    #expect(try store.books.page(search: "врем лерм").map(\.book.inventoryNumber) == ["100"])
    #expect(try store.books.page(search: "ЕЛКА").map(\.book.inventoryNumber) == ["101"])
    #expect(try store.books.page(search: "miserables").map(\.book.inventoryNumber) == ["102"])
    // Codes are found exactly, by the search that puts them first.
    #expect(try store.books.search("101").all.map(\.book.inventoryNumber) == ["101"])
    #expect(try store.books.search("9780140444308").all.map(\.book.inventoryNumber) == ["102"])
    #expect(try store.books.page(search: "ерой").isEmpty, "a word must start with the query")
    #expect(try store.books.page(search: "%").count == 3, "punctuation is not a pattern")
  }

  @Test func householdsShareAnAddressKeptByPhone() throws {
    var first = readerDraft("1", "Иванова", phone: "+7 343 210-11-01")
    first.addressCity = "Екатеринбург"
    first.street = "ул. Ленина"
    first.house = "5"
    first.flat = "12"
    let mother = try store.readers.add(first)
    let son = try store.readers.add(readerDraft("2", "Иванов", phone: "8 (343) 210 11 01".replacingFirst("8", "+7")))
    #expect(son.address == mother.address)
    #expect(try store.readers.address(phone: "+73432101101")?.street == "ул. Ленина")

    var stranger = readerDraft("3", "Петров", phone: "+7 343 210-11-01")
    stranger.street = "ул. Мира"
    #expect(
      errorLines { try store.readers.add(stranger) } == [
        "Phone +7 343 210-11-01 already has another address (Екатеринбург, ул. Ленина, 5-12); "
          + "leave the address empty to use it, or correct it there first"
      ])
    #expect(try store.readers.count() == 2)

    // The household moves: a reader who lives there may change the shared address.
    try store.readers.update(ticket: "2") {
      $0.street = "ул. Мира"; $0.house = "1"; $0.flat = ""
    }
    #expect(try store.readers.reader(ticket: "1")?.address?.singleLine == "Екатеринбург, ул. Мира, 1")
  }

  @Test func refusesADuplicateTicket() throws {
    try store.readers.add(readerDraft("17", "Иванова", firstName: "Мария"))
    #expect(
      errorLines { try store.readers.add(readerDraft("17", "Петров")) } == [
        "Reader ticket 17 is already used by Иванова М."
      ])
  }
}

extension String {
  func replacingFirst(_ target: Character, _ replacement: String) -> String {
    guard let index = firstIndex(of: target) else { return self }
    return String(self[..<index]) + replacement + String(self[self.index(after: index)...])
  }
}

@Suite struct CounterTests {
  @Test func countsFollowInsertsDeletionsAndRestores() throws {
    let folder = TemporaryFolder()
    let store = try LibraryStore(path: folder.file("library.sqlite"), clock: TestClock())
    for number in 1...5 { try store.books.add(bookDraft("\(number)", "Книга \(number)")) }
    try store.readers.add(readerDraft("1", "Иванов"))
    try store.books.delete(inventory: "2")
    #expect(try store.books.count() == 4)
    #expect(try store.readers.count() == 1)
    try store.database.execute("UPDATE book SET deleted = 0 WHERE inventory = '2'")
    #expect(try store.books.count() == 5)
    try store.database.execute("DELETE FROM book WHERE inventory = '5'")
    #expect(try store.books.count() == 4)
    #expect(try store.books.count() == store.database.scalarInt("SELECT count(*) FROM book WHERE deleted = 0"))
  }

  @Test func theCountOfBooksOutFollowsEveryLoan() throws {
    let folder = TemporaryFolder()
    let store = try LibraryStore(path: folder.file("library.sqlite"), clock: TestClock())
    for number in 1...4 { try store.books.add(bookDraft("\(number)", "Книга \(number)")) }
    try store.readers.add(readerDraft("1", "Иванов"))
    try store.circulation.issue(ticket: "1", inventories: ["1", "2", "3"])
    #expect(try store.books.count(filter: .issued) == 3)
    let loans = try store.circulation.returnBooks(inventories: ["2"])
    #expect(try store.books.count(filter: .issued) == 2)
    try store.circulation.reopenLoan(try #require(loans.first).loan.id)
    #expect(try store.books.count(filter: .issued) == 3)
    let issued = try store.circulation.issue(ticket: "1", inventories: ["4"])
    try store.circulation.cancelLoan(try #require(issued.first).loan.id)
    #expect(try store.books.count(filter: .issued) == 3)
    #expect(try store.books.count(filter: .available) == 1)
    let open = try store.database.scalarInt("SELECT count(*) FROM loan WHERE returned_at IS NULL AND deleted = 0")
    #expect(try store.books.count(filter: .issued) == open)
  }

  @Test func aFileOfTheFirstSchemaIsMigratedWithItsCounts() throws {
    let folder = TemporaryFolder()
    let path = folder.file("old.sqlite")
    do {
      let database = try Database(path: path)
      try database.executeScript(Migrations.version1)
      try database.executeScript(
        """
        INSERT INTO book(uuid, inventory, title, sort_key, search_text, created_at, updated_at)
        VALUES ('a', '1', 'Старая', 's', 's', 'n', 'n'), ('b', '2', 'Удалённая', 't', 't', 'n', 'n');
        UPDATE book SET deleted = 1 WHERE uuid = 'b';
        PRAGMA user_version = 1;
        """)
    }
    let store = try LibraryStore(path: path, clock: TestClock())
    #expect(try store.database.scalarInt("PRAGMA user_version") == LibraryStore.schemaVersion)
    #expect(try store.books.count() == 1)
    #expect(try store.readers.count() == 0)
  }
}
