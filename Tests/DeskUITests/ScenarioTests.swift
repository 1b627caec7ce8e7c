import DeskDomain
@_spi(Connection) import DeskStorage
import DeskTestSupport
import Testing

@testable import DeskUI

/// Key-driven scenarios on the desk's state machine, against a real library file.
@Suite struct ScenarioTests {
  @Test func addingABookRefusesAMissingThenADuplicateInventoryNumber() throws {
    let desk = try DeskHarness()
    desk.press(.character("b"), .character("n"))
    // Title first: the inventory number is left empty.
    desk.press(.tab, .tab, .tab, .tab)
    desk.type("Маскарад")
    desk.press(.function(2))
    var screen = desk.shown
    #expect(screen.contains("Cannot save"))
    #expect(screen.contains("Inventory number is required"))
    #expect(try desk.store.books.count() == 6, "nothing saved")
    desk.press(.enter)
    let form = try #require(desk.app.top as? BookFormScreen)
    #expect(form.focusedField == .inventoryNumber, "the cursor is on the field to fix")
    #expect(form.editors[.title]?.text == "Маскарад", "what was typed is kept")

    desk.type("100234")
    desk.press(.function(2))
    screen = desk.shown
    #expect(screen.contains("Inventory number 100234 is already used by «Герой нашего времени»"))
    #expect(try desk.store.books.count() == 6)
    desk.press(.enter)
    #expect(form.editors[.title]?.text == "Маскарад")
    #expect(form.editors[.inventoryNumber]?.text == "100234")

    desk.press(.control("u"))
    desk.type("100240")
    desk.press(.function(2))
    #expect(try desk.store.books.count() == 7)
    let list = desk.screen()
    #expect(desk.app.top is BookListScreen, "back in the list")
    #expect(list.text.contains("Saved: 100240 Маскарад"))
    let row = try #require((0..<24).first { list.text(row: $0).contains("100240") })
    #expect(list.style(row: row, of: "100240")?.reverse == true, "the new book is selected")
  }

  @Test func theStatusLineFollowsOtherDesksAndTheDay() throws {
    let desk = try DeskHarness()
    desk.press(.character("b"))
    #expect(desk.shown.contains("6 books, 2 out, 1 overdue · 2 readers"))
    // Another desk on the same file adds a book: the next key shows it.
    let other = try LibraryStore(path: desk.folder.file("library.sqlite"), clock: desk.clock)
    try other.books.add(bookDraft("100300", "Новая книга"))
    desk.press(.down)
    #expect(desk.shown.contains("7 books, 2 out, 1 overdue"))
    // Weeks later, nothing written meanwhile: the other loan has fallen due too.
    desk.clock.advance(days: 40)
    desk.press(.down)
    #expect(desk.shown.contains("7 books, 2 out, 2 overdue"))
  }

  @Test func editingFromTheListOpensTheWholeRecord() throws {
    let desk = try DeskHarness()
    desk.press(.character("b"), .down)
    #expect(desk.screen().style(row: 4, of: "100239")?.reverse == true)
    desk.press(.up, .character("e"))
    let form = try #require(desk.app.top as? BookFormScreen)
    #expect(form.editors[.inventoryNumber]?.text == "100238")
    #expect(form.editors[.isbn]?.text == "978-0-14-143951-8", "a field the list does not show")
  }

  @Test func aScannerEnterNeverSavesAForm() throws {
    let desk = try DeskHarness()
    desk.press(.character("b"), .character("n"))
    desk.type("100241")
    desk.press(.enter)
    desk.type("9785170795857")
    desk.press(.enter)
    #expect(desk.app.top is BookFormScreen)
    #expect(try desk.store.books.count() == 6)
  }

  @Test func cancellingAFormAsksWhenSomethingWasTyped() throws {
    let desk = try DeskHarness()
    desk.press(.character("b"), .character("n"), .escape)
    #expect(desk.app.top is BookListScreen, "nothing typed: closes at once")
    desk.press(.character("n"))
    desk.type("1")
    desk.press(.escape)
    #expect(desk.shown.contains("Close the form and lose what was typed?"))
    desk.press(.character("n"))
    #expect(desk.app.top is BookFormScreen)
    desk.press(.function(10))
    #expect(desk.shown.contains("A form holds changes that are not saved. Quit and lose them?"))
    desk.press(.character("n"))
    #expect(!desk.app.isFinished)
    // Ctrl-C (a byte, not a signal: the terminal is raw) asks just as F10 does.
    desk.send([0x03])
    #expect(desk.shown.contains("A form holds changes that are not saved. Quit and lose them?"))
    desk.press(.character("n"))
    #expect(!desk.app.isFinished)
    desk.press(.escape, .character("y"))
    #expect(desk.app.top is BookListScreen)
    // A stray q in a list goes back; only Home's q quits.
    desk.press(.character("q"))
    #expect(desk.app.top is HomeScreen)
    #expect(!desk.app.isFinished)
    desk.press(.character("q"))
    #expect(!desk.app.isFinished, "Home's q asks first")
    #expect(desk.shown.contains("Quit the desk?"))
    desk.press(.character("y"))
    #expect(desk.app.isFinished)
  }

  @Test func editingAReaderWithADuplicateTicketKeepsTheInput() throws {
    let desk = try DeskHarness()
    desk.press(.character("r"), .character("n"))
    desk.type("17")
    desk.press(.tab)
    desk.type("Сидоров")
    desk.press(.function(2))
    #expect(desk.shown.contains("Reader ticket 17 is already used by Иванова М."))
    desk.press(.enter)
    let form = try #require(desk.app.top as? ReaderFormScreen)
    #expect(form.focusedField == .ticket)
    #expect(form.editors[.surname]?.text == "Сидоров")
  }

  @Test func aPhoneWithAnAddressFillsTheAddressIn() throws {
    let desk = try DeskHarness(seed: { store in
      var first = readerDraft("17", "Иванова", phone: "+7 343 210-11-01")
      first.street = "ул. Ленина"
      first.house = "5"
      try store.readers.add(first)
    })
    desk.press(.character("r"), .character("n"))
    desk.type("19")
    desk.press(.tab)
    desk.type("Иванов")
    for _ in 0..<4 { desk.press(.tab) }  // first name, patronymic, birth year, phone
    desk.type("+7 343 210 11 01")
    desk.press(.tab)
    let form = try #require(desk.app.top as? ReaderFormScreen)
    #expect(form.editors[.street]?.text == "ул. Ленина")
    #expect(desk.shown.contains("This phone's address filled in: ул. Ленина, 5"))
    desk.press(.function(2))
    #expect(try desk.store.readers.reader(ticket: "19")?.address?.street == "ул. Ленина")
  }

  @Test func issuingAndReturningAtTheDesk() throws {
    let desk = try DeskHarness()
    desk.press(.character("d"))
    desk.type("17")
    desk.press(.enter)
    #expect(desk.shown.contains("Reader 17: Иванова Мария (Adult)"))
    desk.type("100234")
    desk.press(.enter)
    var screen = desk.shown
    #expect(screen.contains("Issued 100234 «Герой нашего времени» to Иванова М., due 2026-12-14"))
    #expect(screen.contains("Books out (2)"))
    #expect(try desk.store.books.count(filter: .issued) == 3)

    // A book out to another reader: the desk asks, and "no" leaves everything as it was.
    desk.type("100236")
    desk.press(.enter)
    screen = desk.shown
    #expect(screen.contains("Out to another reader"))
    #expect(screen.contains("«Преступление и наказание» (100236) is out to Петров И. (18) since 2026-11-10"))
    desk.press(.character("n"))
    #expect(desk.shown.contains("Left as it was: 100236"))
    #expect(try desk.store.books.count(filter: .issued) == 3)

    // With no reader, a book is taken back.
    desk.press(.escape)
    desk.type("100236")
    desk.press(.enter)
    #expect(desk.shown.contains("Returned 100236 «Преступление и наказание» from Петров И. — 6 days late"))
    #expect(try desk.store.books.count(filter: .issued) == 2)

    // The last action can be undone; only the last: a second F8 never reaches back to the issue.
    desk.press(.function(8))
    #expect(desk.shown.contains("Undone: the return of 100236"))
    #expect(try desk.store.books.count(filter: .issued) == 3)
    desk.press(.function(8))
    #expect(desk.shown.contains("Undone already: only the last change can be undone"))
    #expect(try desk.store.books.count(filter: .issued) == 3)
    let issued = try #require(try desk.store.books.book(inventory: "100234"))
    #expect(try desk.store.books.currentLoan(ofBook: issued) != nil)
  }

  @Test func anUnknownCodeIsALoudErrorAndCreatesNothing() throws {
    let desk = try DeskHarness()
    desk.press(.character("d"))
    desk.type("X-404")
    desk.press(.enter)
    #expect(desk.shown.contains("Unknown code «X-404»: no reader has this ticket and no book has this inventory number."))
    #expect(try desk.store.books.count() == 6)
    #expect(try desk.store.readers.count() == 2)
  }

  @Test func refusalsFromTheDetailScreensAreDialogs() throws {
    let desk = try DeskHarness()
    desk.press(.character("b"), .down, .down, .enter)  // Булгаков, out to Иванова
    desk.press(.character("d"))
    #expect(desk.shown.contains("«Мастер и Маргарита» (100235) is issued to Иванова М. (17): take it back"))
    desk.press(.enter, .character("w"))
    #expect(desk.shown.contains("Renewed 100235 «Мастер и Маргарита», due 2026-12-25"))
    desk.press(.character("r"))
    #expect(desk.shown.contains("Returned 100235 «Мастер и Маргарита» from Иванова М."))
    desk.press(.character("i"))
    desk.type("18")
    desk.press(.enter)
    #expect(desk.shown.contains("Петров И. has 1 overdue book: take it back before issuing or renewing"))
  }

  @Test func theReaderDetailListsTheirLoans() throws {
    let desk = try DeskHarness()
    desk.press(.character("r"), .enter)  // Иванова
    let screen = desk.shown
    #expect(screen.contains("Books out (1)"))
    #expect(screen.contains("* 100235  Булгаков М. А. Мастер и Маргарита  issued 2026-11-27, due 2026-12-11"))
    desk.press(.character("r"))
    #expect(desk.shown.contains("History (1)"))
  }

  /// A search the library cannot make says why in the list's place, in the desk's language,
  /// rather than showing an empty list as if nothing matched.
  @Test(arguments: [InterfaceLanguage.english, .russian])
  func aSearchThatFailsSaysWhy(language: InterfaceLanguage) throws {
    var manual: ManualSearchService?
    let desk = try DeskHarness(
      language: language,
      search: { store in
        let service = ManualSearchService(store: store)
        manual = service
        return service
      })
    let search = try #require(manual)
    desk.press(.character(language == .russian ? "и" : "b"), .character("/"))
    desk.type("гер")
    // The search's own table is gone (a damaged file): the search fails in SQLite.
    try desk.store.database.execute("DROP TABLE book_words")
    try desk.store.database.execute("DROP TABLE book_fts")
    search.answer(try #require(search.requests.last))
    desk.app.handle(.tick(atMilliseconds: 5_000))
    let screen = desk.shown
    #expect(screen.contains(language == .russian ? "Ошибка базы данных" : "Database error"), "\(screen)")
    #expect(screen.contains("book_fts"), "\(screen)")
  }

  @Test func searchUpdatesWithEachKeyAndIgnoresStaleAnswers() throws {
    var manual: ManualSearchService?
    let desk = try DeskHarness(search: { store in
      let service = ManualSearchService(store: store)
      manual = service
      return service
    })
    let search = try #require(manual)
    desk.press(.character("b"), .character("/"))
    desk.type("гер")
    #expect(search.requests.map(\.query) == ["г", "ге", "гер"])
    #expect(desk.shown.contains("searching…"))
    // The answer to "г" arrives last: it is older than "гер" and must not be painted.
    search.answer(search.requests[2])
    desk.app.handle(.tick(atMilliseconds: 5_000))
    #expect(desk.shown.contains("1 found"))
    search.answer(search.requests[0])
    desk.app.handle(.tick(atMilliseconds: 5_100))
    let screen = desk.shown
    #expect(screen.contains("1 found"))
    #expect(screen.contains("Герой нашего времени"))
    #expect(!screen.contains("Азбука"))
    desk.press(.escape)
    #expect(desk.shown.contains("Азбука"), "Esc clears the search")
  }

  @Test func searchForgivesCaseAndYo() throws {
    let desk = try DeskHarness()
    desk.press(.character("b"), .character("/"))
    desk.type("ЕЛКА")
    #expect(desk.shown.contains("Ёлка и её друзья"))
    #expect(desk.shown.contains("1 found"))
  }

  /// A thousand books, ten by each author, inventory numbers 100000 to 100999.
  static func thousandBooks(_ store: LibraryStore) throws {
    try store.transaction {
      for number in 0..<1_000 {
        try store.books.add(bookDraft(String(100_000 + number), "Книга \(number)", surname: "Автор\(number / 10)"))
      }
    }
  }

  @Test func listsPageThroughALongCatalogue() throws {
    let desk = try DeskHarness(seed: ScenarioTests.thousandBooks)
    desk.press(.character("b"))
    _ = desk.screen()
    desk.press(.end)
    var screen = desk.screen()
    #expect(screen.text.contains("100999"), "End shows the last book")
    desk.press(.home)
    screen = desk.screen()
    #expect(screen.text(row: 3).contains("100000"), "Автор0, Книга 0 comes first")
    let list = try #require(desk.app.top as? BookListScreen)
    let order = try desk.store.books.page(limit: 1_000).map(\.book.inventoryNumber)
    for _ in 0..<30 { desk.press(.pageDown) }
    screen = desk.screen()
    #expect(list.list.rows.count <= 450, "only a window of the list is held")
    #expect(list.list.selectedRow?.book.inventoryNumber == order[570], "30 pages of 19 rows down")
    for _ in 0..<30 { desk.press(.pageUp) }
    #expect(list.list.selectedRow?.book.inventoryNumber == order[0])
  }

  /// Between keys the list reads the page after the rows it holds: a page down after a pause
  /// reads nothing from the library, where keys pressed back to back fetch rows themselves.
  @Test func aPauseBetweenKeysReadsTheNextPageAhead() throws {
    let desk = try DeskHarness(seed: ScenarioTests.thousandBooks)
    desk.press(.character("b"))
    _ = desk.screen()
    let list = try #require(desk.app.top as? BookListScreen)
    func pageDown() -> [String] {
      desk.now += 100
      return desk.store.database.recordingStatements {
        desk.app.handle(.input(TerminalBytes.xterm(.pageDown), atMilliseconds: desk.now))
        _ = desk.screen()
      }.statements.filter { $0.contains("sort_key >") }
    }
    let backToBack = (0..<8).flatMap { _ in pageDown() }
    #expect(!backToBack.isEmpty, "keys with no pause between fetch the rows they need")
    for _ in 0..<8 {
      desk.idle()
      #expect(pageDown().isEmpty, "read while the desk was idle")
    }
    let order = try desk.store.books.page(limit: 1_000).map(\.book.inventoryNumber)
    #expect(list.list.selectedRow?.book.inventoryNumber == order[16 * 19], "16 pages of 19 rows down")
    #expect(list.list.rows.count <= 450, "only a window of the list is held")
  }

  @Test func helpShowsTheKeysOfTheScreenItWasAskedFrom() throws {
    let desk = try DeskHarness()
    desk.press(.character("d"), .function(1))
    let screen = desk.shown
    #expect(screen.contains("Desk"))
    #expect(screen.contains("F8, Ctrl-Z"))
    desk.press(.escape)
    #expect(desk.app.top is DeskCirculationScreen)
  }
}
