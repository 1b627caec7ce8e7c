import DeskDomain
import DeskStorage
import DeskTestSupport
import Foundation
import Testing

@testable import DeskUI

/// Whole visits at the counter, scanned as a wedge scanner sends them, on a real library file.
@Suite struct VisitScenarioTests {
  /// The small library, with two more copies of «Герой нашего времени» (same ISBN as 100234).
  static func seedWithCopies(_ store: LibraryStore) throws {
    try DeskHarness.seedSmallLibrary(store)
    for inventory in ["100240", "100241"] {
      var draft = bookDraft(inventory, "Герой нашего времени", surname: "Лермонтов", isbn: "978-5-17-079585-7")
      draft.place = "Зал 2, полка \(inventory.suffix(1))"
      try store.books.add(draft)
    }
  }

  func open(_ ticket: String, in desk: DeskHarness) throws -> [String] {
    let reader = try #require(try desk.store.readers.reader(ticket: ticket))
    return try desk.store.circulation.loans(ofReader: reader).filter(\.loan.isOpen).map(\.inventory).sorted()
  }

  /// The loan chosen at the Desk stays chosen when a renewal moves it down the list: a second w
  /// renews the same book (or is refused for it), never the book that took its place.
  @Test func aChosenLoanStaysChosenWhenARenewalMovesIt() throws {
    let desk = try DeskHarness()
    desk.press(.character("d"))
    desk.scan("17")  // Иванова holds 100235
    desk.scan("100234")
    #expect(try open("17", in: desk) == ["100234", "100235"])
    desk.press(.down, .character("w"), .character("w"))
    let reader = try #require(try desk.store.readers.reader(ticket: "17"))
    let renewed = try desk.store.circulation.loans(ofReader: reader).filter { $0.loan.isOpen && $0.loan.renewals > 0 }
    #expect(renewed.count == 1, "one book renewed, twice or once and then refused: \(desk.shown)")
  }

  /// On a reader's screen a book taken back leaves the choice on the next book still out: a pile
  /// goes back r after r.
  @Test func aPileIsTakenBackROnAReadersScreen() throws {
    let desk = try DeskHarness()
    try desk.store.circulation.issue(ticket: "17", inventories: ["100234", "100238"])
    _ = desk.text(rows: 30, columns: 100, opening: ReaderDetailScreen(ticket: "17"))
    desk.press(.character("r"), .character("r"), .character("r"))
    #expect(try open("17", in: desk) == [], "\(desk.shown)")
  }

  @Test func aBlockedReaderReturnsTakesAndMovesBooksInOneVisit() throws {
    let desk = try DeskHarness()
    desk.press(.character("d"))
    desk.scan("18")  // Петров holds 100236, overdue
    #expect(desk.shown.contains("! 1 overdue book: scan it to take it back"))
    // Blocked: the refusal rings and says what the screen offers.
    desk.scan("100234")
    #expect(desk.app.takeBell(), "a refusal rings the bell")
    #expect(desk.shown.contains("Петров И. has 1 overdue book: take it back before issuing or renewing"))
    desk.press(.enter)
    // The overdue book comes back on the same screen, and the warning goes.
    desk.scan("100236")
    var screen = desk.shown
    #expect(screen.contains("Returned 100236 «Преступление и наказание» from Петров И. — 6 days late"))
    #expect(!screen.contains("overdue book: scan it"))
    #expect(!desk.app.takeBell())
    desk.scan("100234")
    #expect(desk.shown.contains("Issued 100234 «Герой нашего времени» to Петров И., due 2026-12-14"))
    // A book out to Иванова: asked first; yes returns it from her and issues it here at once.
    desk.scan("100235")
    screen = desk.shown
    #expect(
      screen.contains("«Мастер и Маргарита» (100235) is out to Иванова М. (17) since 2026-11-27, due 2026-12-11."))
    #expect(screen.contains("Return it from Иванова М. and issue it to Петров И.?"))
    desk.press(.character("y"))
    #expect(desk.shown.contains("Returned 100235 «Мастер и Маргарита» from Иванова М. and issued it to Петров И."))
    #expect(try open("18", in: desk) == ["100234", "100235"])
    #expect(try open("17", in: desk) == [])
    // The reader brings one of them straight back: scanning it again returns it.
    desk.scan("100234")
    #expect(desk.shown.contains("Returned 100234 «Герой нашего времени» from Петров И."))
    #expect(try open("18", in: desk) == ["100235"])
  }

  @Test func renewingOnTheDeskAndUndoingIt() throws {
    let desk = try DeskHarness()
    desk.press(.character("d"))
    desk.scan("17")
    desk.scan("100234")
    // ↓ chooses a loan (due dates order them: 100235 due 12-11, then 100234 due 12-14).
    desk.press(.down)
    #expect(desk.screen().style(row: 7, of: "100235")?.reverse == true)
    desk.press(.character("w"))
    #expect(desk.shown.contains("Renewed 100235 «Мастер и Маргарита», due 2026-12-25"))
    desk.press(.function(8))
    #expect(desk.shown.contains("Undone: the renewal of 100235 «Мастер и Маргарита»; due 2026-12-11 again"))
    let reader = try #require(try desk.store.readers.reader(ticket: "17"))
    #expect(
      try desk.store.circulation.loans(ofReader: reader).first { $0.inventory == "100235" }?.loan.due.iso
        == "2026-12-11")
    // F7 renews every loan that may be renewed.
    desk.press(.escape, .function(7))
    #expect(desk.shown.contains("Renewed 2 books"))
    #expect(
      try desk.store.circulation.loans(ofReader: reader).filter(\.loan.isOpen).allSatisfy { $0.loan.renewals == 1 })
    // Typing after choosing a loan goes back to the code field.
    desk.press(.down)
    desk.type("1002")
    desk.press(.character("3"), .character("5"), .enter)
    #expect(desk.shown.contains("Returned 100235 «Мастер и Маргарита» from Иванова М."))
  }

  @Test func anISBNAsksWhichCopyAndAScanOfTheInventoryNumberChoosesIt() throws {
    let desk = try DeskHarness(seed: VisitScenarioTests.seedWithCopies)
    desk.press(.character("d"))
    desk.scan("17")
    desk.scan("9785170795857")
    var screen = desk.shown
    #expect(screen.contains("Which copy of 978-5-17-079585-7?"))
    #expect(screen.contains("100234  (no place given)"))
    #expect(screen.contains("100240  Зал 2, полка 0"))
    #expect(try open("17", in: desk) == ["100235"], "nothing issued before the choice")
    desk.scan("100241")  // the copy in hand, scanned: chosen, not yet confirmed
    #expect(desk.shown.contains("> 100241  Зал 2, полка 1"))
    desk.press(.enter)
    #expect(desk.shown.contains("Issued 100241 «Герой нашего времени» to Иванова М."))
    // To return, with nobody selected and two copies out: the librarian chooses among them.
    desk.press(.escape)
    desk.scan("18")
    desk.scan("100236")  // back first, so that Петров may borrow
    desk.scan("9785170795857")
    desk.press(.enter)  // the first copy on the shelf, in catalogue order
    #expect(desk.shown.contains("Issued 100240 «Герой нашего времени» to Петров И."))
    desk.press(.escape)
    desk.scan("9785170795857")
    screen = desk.shown
    #expect(screen.contains("Which copy of 978-5-17-079585-7 came back?"))
    #expect(screen.contains("100240  Петров И. (18), due 2026-12-14"))
    #expect(screen.contains("100241  Иванова М. (17), due 2026-12-14"))
    #expect(!screen.contains("100234  "), "a copy on the shelf did not come back")
    desk.press(.down, .enter)
    #expect(desk.shown.contains("Returned 100241 «Герой нашего времени» from Иванова М."))
    #expect(try open("18", in: desk) == ["100240"])
    // With the reader who holds one copy selected, the ISBN returns that one without asking.
    desk.scan("18")
    desk.scan("9785170795857")
    #expect(desk.shown.contains("Returned 100240 «Герой нашего времени» from Петров И."))
  }

  @Test func aTypedNameFindsTheReaderAndTheLogOutlivesTheScreen() throws {
    let desk = try DeskHarness()
    desk.press(.character("d"))
    desk.type("Иванова")
    desk.press(.enter)
    #expect(desk.app.top is ReaderListScreen)
    #expect(desk.shown.contains("Иванова Мария"))
    #expect(!desk.shown.contains("Unknown code"))
    desk.press(.enter)
    #expect(desk.app.top is DeskCirculationScreen)
    #expect(desk.shown.contains("Reader 17: Иванова Мария (Adult)"))
    desk.scan("100234")
    // Opening one of the reader's books and coming back: the reader is still at the counter.
    desk.press(.down, .enter)
    #expect(desk.app.top is BookDetailScreen)
    desk.press(.escape)
    #expect(desk.shown.contains("Reader 17: Иванова Мария (Adult)"), "the reader stays selected")
    // Leaving the Desk altogether and coming back: the log is still there.
    desk.press(.escape, .escape, .escape)  // the loan, the visit, the Desk
    #expect(desk.app.top is HomeScreen)
    desk.press(.character("d"))
    #expect(desk.shown.contains("Issued 100234 «Герой нашего времени» to Иванова М."))
  }

  @Test func findingAReaderWithF3TakesTypingOrACardAtOnce() throws {
    let desk = try DeskHarness()
    desk.press(.character("d"), .function(3))
    desk.type("Петр")  // no '/' needed; the 'т' is not the key for a new reader here
    #expect(desk.app.top is ReaderListScreen)
    #expect(!desk.shown.contains("Иванова Мария"))
    desk.press(.enter, .enter)
    #expect(desk.shown.contains("Reader 18: Петров Илья (Adult)"))
    // A card scanned into the list chooses its reader for the Desk.
    try desk.store.readers.add(readerDraft("4455", "Сидоров", firstName: "Пётр"))
    desk.press(.function(3))
    desk.scan("4455")
    #expect(desk.app.top is DeskCirculationScreen)
    #expect(desk.shown.contains("Reader 4455: Сидоров Пётр (Adult)"))
  }

  @Test func aBadCodeInTheIssuePromptHoldsBackNoOtherBook() throws {
    let desk = try DeskHarness()
    desk.press(.character("r"), .enter)  // Иванова
    desk.press(.character("i"))
    desk.scan("100237")
    desk.scan("555555")
    desk.scan("100238")
    desk.press(.enter)
    #expect(desk.shown.contains("Issued 2 books to Иванова М."))
    #expect(desk.shown.contains("Unknown code «555555»"))
    #expect(try open("17", in: desk) == ["100235", "100237", "100238"])
  }

  @Test func undoOnAnotherScreenAsksFirstAndTakesBackOnlyTheLastAct() throws {
    let desk = try DeskHarness()
    desk.press(.character("r"), .down, .enter)  // Петров, holding 100236
    #expect(desk.app.top is ReaderDetailScreen)
    desk.press(.character("r"))
    #expect(desk.shown.contains("Returned 100236 «Преступление и наказание» from Петров И."))
    desk.press(.escape, .escape)  // back at Home
    desk.press(.function(8))
    // Made on another screen: the desk says what and when, and asks.
    #expect(desk.shown.contains("The last change was made at 10:00, on another screen. Undo it?"))
    #expect(
      desk.app.dialog?.lines.last?.hasPrefix("  Returned 100236 «Преступление и наказание» from Петров И.") == true)
    #expect(try open("18", in: desk) == [])
    desk.press(.character("y"))
    #expect(
      desk.shown.contains("Undone: the return of 100236 «Преступление и наказание»; it is out to Петров И. again"))
    #expect(try open("18", in: desk) == ["100236"])
    desk.press(.function(8))
    #expect(desk.shown.contains("Undone already"))
  }

  @Test func undoOnTheScreenOfTheActTakesItBackAtOnce() throws {
    let desk = try DeskHarness()
    desk.press(.character("r"), .down, .enter)  // Петров, holding 100236
    desk.press(.character("r"))
    desk.press(.control("z"))
    #expect(desk.app.dialog == nil)
    #expect(desk.shown.contains("Undone: the return of 100236"))
    #expect(try open("18", in: desk) == ["100236"])
    // Older than two minutes, even here: asked first, and "no" leaves it.
    desk.press(.character("r"))
    desk.clock.advance(seconds: 180)
    desk.press(.function(8))
    #expect(desk.shown.contains("over 2 minutes ago. Undo it?"))
    desk.press(.character("n"))
    #expect(try open("18", in: desk) == [])
  }

  @Test func theReadersLoanListKeepsTheRenewedBookSelectedAndTheIssuePromptCollectsScans() throws {
    let desk = try DeskHarness()
    try desk.store.circulation.issue(ticket: "17", inventories: ["100234"])  // due 12-14, after 100235 (12-11)
    desk.press(.character("r"), .enter)  // Иванова
    #expect(desk.app.top is ReaderDetailScreen)
    // 100235 is first (due soonest); renewing it moves it below 100234, and the selection follows.
    desk.press(.character("w"))
    #expect(desk.shown.contains("Renewed 100235 «Мастер и Маргарита», due 2026-12-25"))
    let row = try #require((0..<24).first { desk.screen().text(row: $0).contains("100235") })
    #expect(desk.screen().style(row: row, of: "100235")?.reverse == true, "still on the renewed book")
    desk.press(.character("w"))
    let reader = try #require(try desk.store.readers.reader(ticket: "17"))
    let loans = try desk.store.circulation.loans(ofReader: reader).filter(\.loan.isOpen)
    #expect(loans.first { $0.inventory == "100235" }?.loan.renewals == 2, "the second w renews the same book")
    #expect(loans.first { $0.inventory == "100234" }?.loan.renewals == 0)
    // The issue prompt takes several scans, one after another.
    desk.press(.character("i"))
    desk.scan("100237")
    desk.scan("100238")
    #expect(desk.app.dialog?.lines.isEmpty == false)
    desk.press(.enter)
    #expect(try open("17", in: desk) == ["100234", "100235", "100237", "100238"])
  }

  @Test func theBellCanBeTurnedOff() throws {
    let desk = try DeskHarness()
    desk.press(.character("d"))
    desk.scan("X-404")
    #expect(desk.app.takeBell())
    desk.press(.enter)
    var policy = try desk.store.policy.current()
    policy.bell = false
    try desk.store.policy.setCurrent(policy)
    desk.scan("X-405")
    #expect(desk.shown.contains("Unknown code «X-405»"))
    #expect(!desk.app.takeBell())
  }

  @Test func theVisitsReceiptIsWrittenToAFile() throws {
    let desk = try DeskHarness()
    try desk.store.policy.setLibraryContacts(LibraryContacts(name: "Библиотека № 3", phone: "+7 343 200-00-00"))
    desk.press(.character("d"))
    desk.scan("100236")  // returned before the card: part of this visit
    desk.scan("18")
    desk.scan("100234")
    desk.press(.down, .character("w"), .escape)  // renewed: under issued and under renewed
    desk.scan("100238")
    desk.press(.function(8))  // the last issue undone: not on the receipt
    desk.press(.function(4))
    let path = desk.folder.file("receipt.txt")
    desk.press(.control("u"))
    desk.type(path)
    desk.press(.enter)
    #expect(desk.shown.contains("Receipt written to \(path)"))
    let receipt = try String(contentsOfFile: path, encoding: .utf8)
    #expect(
      receipt == """
        Библиотека № 3
        +7 343 200-00-00
        Receipt, 2026-11-30 10:00
        Reader 18: Петров Илья

        Issued:
          100234  Лермонтов М. Ю. «Герой нашего времени»  due 2026-12-14

        Renewed:
          100234  Лермонтов М. Ю. «Герой нашего времени»  due 2026-12-28

        Returned:
          100236  Достоевский Ф. М. «Преступление и наказание»

        Thank you!

        """)
    // The reader leaves: F4 still gives their receipt, until the next reader comes.
    desk.press(.escape)
    desk.press(.function(4))
    desk.press(.control("u"))
    desk.type(path + ".again")
    desk.press(.enter)
    #expect(try String(contentsOfFile: path + ".again", encoding: .utf8) == receipt)
    desk.scan("17")
    desk.press(.function(4))
    #expect(desk.shown.contains("Nothing issued, renewed or returned in this visit yet"))
  }

  @Test func theOverdueScreenListsReadersLongestOverdueFirst() throws {
    let desk = try DeskHarness()
    desk.clock.advance(days: 14)  // Иванова's book has fallen due too
    desk.press(.character("o"))
    #expect(desk.app.top is OverdueScreen)
    #expect(try matchesGolden(desk.text(), "overdue-80x24.txt"))
    desk.press(.enter)
    #expect(desk.shown.contains("Петров Илья"))
    #expect(desk.app.top is ReaderDetailScreen)
  }

  @Test func theReaderListFilterNeverMixesInRecentReaders() throws {
    let desk = try DeskHarness()
    desk.press(.character("r"), .enter, .escape)  // Иванова opened lately; she has nothing overdue
    #expect(desk.shown.contains("Opened lately"))
    desk.press(.character("f"))
    let screen = desk.shown
    #expect(screen.contains("Readers: with overdue books"))
    #expect(!screen.contains("Opened lately"))
    #expect(!screen.contains("Иванова"))
    #expect(screen.contains("Петров Илья"))
  }
}
