import DeskDomain
import DeskLookup
import DeskStorage
import DeskTestSupport
import Testing

@testable import DeskUI

/// Every screen at the smallest window the desk draws in (60×16), at a default terminal's (80×24)
/// and at a large one (120×40), against golden text: what gives way first in a narrow window, and
/// that titles and names stay readable.
@Suite struct FittingScreenTests {
  static let sizes = [(16, 60), (24, 80), (40, 120)]

  /// The small library, with a publisher, a loan history, a renewal, holds (one waiting on the hold
  /// shelf) and a long name.
  static func seed(_ store: LibraryStore) throws {
    try DeskHarness.seedSmallLibrary(store)
    _ = try store.books.update(inventory: "100234") { book in
      book[.publisher] = "Азбука-Аттикус"
      book[.city] = "Санкт-Петербург"
      book[.year] = "2019"
      book[.place] = "Зал 1, стеллаж 4"
    }
    try store.readers.add(readerDraft("1043", "Константинопольская-Рождественская", firstName: "Антонина"))
    let clock = try #require(store.clock as? TestClock)
    clock.advance(days: -40)
    try store.circulation.issue(ticket: "17", inventories: ["100234"])
    clock.advance(days: 10)
    try store.circulation.returnBooks(inventories: ["100234"])
    clock.advance(days: 25)
    try store.circulation.issue(ticket: "1043", inventories: ["100237"])
    try store.circulation.renew(inventories: ["100237"])
    clock.advance(days: 5)
    try store.holds.place(ticket: "17", on: .titleOf("100236"))
    // «Мастер и Маргарита» comes back from 17 and waits on the hold shelf for the long name.
    try store.holds.place(ticket: "1043", on: .titleOf("100235"))
    try store.circulation.returnBooks(inventories: ["100235"])
  }

  static let cases = [InterfaceLanguage.english, .russian].flatMap { language in
    sizes.map { (language, $0.0, $0.1) }
  }

  /// Each screen as the keys reach it, drawn at `rows`×`columns` and compared with its golden file.
  /// The keys are the English ones: the Russian desk takes them as well.
  @Test(arguments: cases)
  func everyScreenFits(language: InterfaceLanguage, rows: Int, columns: Int) throws {
    let desk = try DeskHarness(language: language, seed: FittingScreenTests.seed)
    desk.resize(rows: rows, columns: columns)
    let size = "\(language == .russian ? "ru-" : "")\(columns)x\(rows)"
    func check(_ name: String) throws {
      #expect(try matchesGolden(desk.text(rows: rows, columns: columns), "fit-\(name)-\(size).txt"), "\(name)")
    }
    try check("home")
    desk.press(.character("b"))
    try check("book-list")
    desk.press(.down, .down, .down, .down, .down, .enter)  // Лермонтов, with a history
    try check("book-detail")
    desk.press(.escape, .home, .down, .down, .down, .down, .enter)  // Ёлкин, out to the reader with the long name
    try check("book-detail-out")
    desk.press(.escape, .character("n"))
    try check("book-form")
    desk.press(.function(2))
    try check("book-form-alert")
    desk.press(.enter, .escape, .escape, .character("r"))
    try check("reader-list")
    desk.press(.enter)  // Иванова: a loan, a history, a hold
    try check("reader-detail")
    desk.press(.character("e"))
    try check("reader-form")
    desk.press(.escape, .escape, .escape, .character("d"))
    desk.scan("17")
    desk.scan("100239")
    try check("desk")
    desk.press(.function(10))
    try check("desk-quit")
    desk.press(.character("n"), .function(1))
    try check("help")
    desk.press(.escape, .escape, .escape, .character("o"))
    try check("overdue")
    desk.press(.escape, .character("w"))
    try check("hold-shelf")
    desk.press(.escape, .character("s"))
    try check("scan-image")
    desk.press(.escape, .character("t"))
    try check("statistics")
    // A check of the whole stock: a copy found, one misplaced, one the catalogue says is out, an
    // unknown number.
    _ = try desk.store.stocktakes.start(name: "Зал 1, 2026", scope: StocktakeScope())
    desk.press(.escape, .character("i"))
    desk.scan("PLACE:Зал 2")
    for code in ["100238", "100234", "100236", "555001"] { desk.scan(code) }
    try check("stocktake")
    desk.press(.function(5))
    try check("stocktake-report")
  }

  /// The New Book form with its look-up's message (no network here: a closed port on this
  /// machine), the cursor on its last field: the message never covers the field being typed in.
  @Test(arguments: sizes)
  func theLookUpsMessageNeverCoversTheFocusedField(rows: Int, columns: Int) throws {
    let desk = try DeskHarness(
      lookup: { store in
        ImmediateLookupService(
          store: store,
          lookup: ISBNLookup(providers: [.googleBooks(baseURL: "http://127.0.0.1:9/google")], timeoutMilliseconds: 500)
        )
      }, seed: FittingScreenTests.seed)
    desk.resize(rows: rows, columns: columns)
    desk.scan("9785389049345")
    let form = try #require(desk.app.top as? BookFormScreen)
    for _ in 0..<20 { desk.press(.tab) }
    #expect(form.focusedField == .received)
    let screen = desk.screen(rows: rows, columns: columns)
    let cursor = try #require(screen.cursor)
    #expect(screen.text(row: cursor.row).contains("Date received"), "the focused field is in view")
    #expect(try matchesGolden(screen.text, "fit-book-form-lookup-\(columns)x\(rows).txt"))
  }
}
