import DeskDomain
import DeskStorage
import DeskTestSupport
import Foundation
import Testing

@testable import DeskUI

/// No key loses finished work: undo reaches no further back than the last act, a form's Ctrl-Z
/// undoes typing, Ctrl-C asks during a visit, and scans and bursts are never dropped. Each fed the
/// bytes and timings a terminal and a scanner produce.
@Suite struct FinishedWorkScenarioTests {
  /// The open loans of a reader, by inventory number.
  func open(_ ticket: String, in desk: DeskHarness) throws -> [String] {
    guard let reader = try desk.store.readers.reader(ticket: ticket) else { return [] }
    return try desk.store.circulation.loans(ofReader: reader).filter(\.loan.isOpen).map(\.inventory).sorted()
  }

  /// Two visits at the Desk: 17 takes 100234; 18 brings back 100236 and takes 100238.
  func twoVisits(_ desk: DeskHarness) {
    desk.press(.character("d"))
    desk.scan("17")
    desk.scan("100234")
    desk.scan("18")
    desk.scan("100236")
    desk.scan("100238")
    desk.press(.escape)  // 18 leaves
  }

  @Test func ctrlZAndF8InANewBookFormUndoTheTypingNeverAVisit() throws {
    let desk = try DeskHarness()
    twoVisits(desk)
    #expect(try open("17", in: desk) == ["100234", "100235"])
    #expect(try open("18", in: desk) == ["100238"])
    desk.press(.escape, .character("b"), .character("n"))
    let form = try #require(desk.app.top as? BookFormScreen)
    // Ctrl-Z as the terminal sends it (0x1A), twice, and F8 twice: nothing typed, nothing undone.
    desk.send([0x1A])
    desk.send([0x1A])
    desk.press(.function(8), .function(8))
    #expect(desk.shown.contains("Nothing typed in this field to undo"))
    #expect(desk.app.dialog == nil)
    #expect(try open("17", in: desk) == ["100234", "100235"])
    #expect(try open("18", in: desk) == ["100238"])
    // Typing, then Ctrl-Z: the typing goes, a word at a time; the form stays.
    desk.type("KX-12")
    desk.press(.tab)
    desk.type("978")
    desk.send([0x1A])
    #expect(form.editors[.isbn]?.text == "")
    #expect(form.editors[.inventoryNumber]?.text == "KX-12", "another field's typing stays")
    #expect(desk.app.top === form)
  }

  @Test func undoOnTheDeskTakesBackTheVisitsLastActAndAsksAboutAnEarlierVisit() throws {
    let desk = try DeskHarness()
    twoVisits(desk)
    // A third reader at the counter: the last act was 18's, so the desk asks, and no keeps it.
    desk.scan("17")
    desk.press(.function(8))
    #expect(desk.shown.contains("The last change was made at 10:00, in an earlier visit (another reader). Undo it?"))
    #expect(desk.app.dialog?.lines.contains { $0.contains("Issued 100238 «Pride and Prejudice» to Петров И.") } == true)
    desk.press(.character("n"))
    #expect(try open("18", in: desk) == ["100238"])
    // 17's own act of this visit goes at once, and only it.
    desk.scan("100237")
    #expect(try open("17", in: desk) == ["100234", "100235", "100237"])
    desk.press(.function(8))
    #expect(desk.app.dialog == nil)
    #expect(desk.shown.contains("Undone: the issue of 100237"))
    #expect(try open("17", in: desk) == ["100234", "100235"])
    desk.press(.function(8))
    #expect(desk.shown.contains("Undone already: only the last change can be undone"))
    #expect(try open("18", in: desk) == ["100238"], "never a second step back")
    #expect(try open("17", in: desk) == ["100234", "100235"])
  }

  @Test func anUndoneIssueStaysInTheHistoryAsUndone() throws {
    let desk = try DeskHarness()
    desk.press(.character("d"))
    desk.scan("17")
    desk.scan("100237")
    desk.clock.advance(seconds: 40)
    desk.press(.function(8))
    #expect(desk.shown.contains("Undone: the issue of 100237"))
    desk.press(.escape, .escape, .character("b"))
    desk.type("Ёлкин")
    desk.press(.enter, .enter)
    #expect(desk.app.top is BookDetailScreen)
    let shown = desk.shown
    #expect(shown.contains("Loan history (1)"))
    #expect(shown.contains("Иванова М. (17)  issued 2026-11-30, due 2026-12-14, UNDONE 2026-11-30 10:00, never a loan"))
    #expect(shown.contains("On the shelf: available"), "no loan: the book is on the shelf")
    // The reader's screen lists it under the history, never among the books out.
    desk.press(.escape, .escape, .escape, .character("r"), .enter)
    let reader = desk.shown
    #expect(reader.contains("Books out (1)"))
    #expect(reader.contains("History (1)"))
    #expect(reader.contains("UNDONE 2026-11-30 10:00"))
  }

  @Test func ctrlCDuringAVisitAsksFirstAsF10Does() throws {
    let desk = try DeskHarness()
    desk.press(.character("d"))
    desk.scan("17")
    desk.scan("100237")
    desk.send([0x03])  // Ctrl-C as the terminal sends it in raw mode
    #expect(!desk.app.isFinished)
    #expect(desk.shown.contains("A visit is under way (Иванова М.): quitting loses the session's log"))
    desk.press(.character("n"))
    #expect(!desk.app.isFinished)
    #expect(desk.shown.contains("Issued 100237"))
    desk.press(.function(10))
    #expect(desk.shown.contains("A visit is under way"))
    desk.press(.escape)  // no
    desk.press(.escape)  // the reader leaves: nothing is lost by quitting now
    desk.send([0x03])
    #expect(desk.app.isFinished)
  }

  /// Several words start with «петров» (a surname and its longer kin, as patronymics in a real
  /// library): the spelling in the other script must be known as often as it is searched.
  @Test func aTransliteratedReaderSearchFindsTheReaderEveryTime() throws {
    let desk = try DeskHarness(seed: { store in
      try DeskHarness.seedSmallLibrary(store)
      try store.readers.add(readerDraft("19", "Петрова", firstName: "Анна"))
      try store.readers.add(readerDraft("20", "Петровский", firstName: "Олег"))
      try store.readers.add(readerDraft("22", "Ивановская", firstName: "Ольга"))
    })
    desk.press(.character("r"))
    for round in 1...3 {
      desk.send("/")
      desk.type("Petrov")  // a key every 200 ms: each prefix searched on the way
      let list = try #require(desk.app.top as? ReaderListScreen)
      #expect(list.list.rows.map(\.reader.ticket).sorted() == ["18", "19", "20"], "round \(round)")
      desk.press(.escape)  // the search cleared, the list stays
      #expect(list.query.text.isEmpty)
      desk.send("/")
      desk.type("Ivanova")
      #expect(list.list.rows.map(\.reader.ticket).sorted() == ["17"], "round \(round)")
      desk.press(.escape)
      #expect(desk.app.top === list)
    }
  }

  @Test func aSlashAndAWordArrivingTogetherSearchTheList() throws {
    let desk = try DeskHarness()
    desk.press(.character("b"))
    // Pasted, or typed faster than the scanner gap: one read of the terminal.
    desk.send("/austen")
    let list = try #require(desk.app.top as? BookListScreen)
    #expect(list.query.text == "austen")
    #expect(desk.shown.contains("Pride and Prejudice"))
    #expect(!desk.shown.contains("Мастер и Маргарита"))
    #expect(desk.app.dialog == nil, "no «Unknown code /austen»")
    // On the Russian layout the same key is «.».
    desk.press(.escape)
    desk.send(".лермонтов")
    #expect(list.query.text == "лермонтов")
    #expect(desk.shown.contains("Герой нашего времени"))
  }

  @Test func aScanDuringAQuestionWaitsForTheAnswerAndActs() throws {
    let desk = try DeskHarness()
    desk.press(.character("d"))
    desk.scan("17")
    desk.scan("100236")  // out to 18: the desk asks
    #expect(desk.shown.contains("Out to another reader"))
    desk.scan("100237")  // the next book, scanned while the question is open
    #expect(desk.shown.contains("Scanned 100237: it acts when this message closes"))
    #expect(try open("17", in: desk) == ["100235"])
    desk.press(.character("n"))
    #expect(desk.app.dialog == nil)
    #expect(try open("17", in: desk) == ["100235", "100237"], "the kept scan acted")
    #expect(try open("18", in: desk) == ["100236"])
  }

  @Test func theLabelOfABookTheLibraryHasOpensItOnTheScanImageScreen() throws {
    let desk = try DeskHarness()
    let folder = TemporaryFolder()
    let label = folder.file("label.png")
    let record = "Инвентарный номер: 100234\nФамилия автора: Лермонтов\nНазвание книги: Герой нашего времени"
    #expect(try runProgram("/usr/bin/env", ["qrencode", "-s", "6", "-o", label, record]).status == 0)
    desk.press(.character("s"))
    desk.type(label)
    desk.press(.enter)
    #expect(desk.app.dialog == nil, "no «Unknown code» alert")
    let book = try #require(desk.app.top as? BookDetailScreen)
    #expect(book.inventory == "100234")
    #expect(desk.shown.contains("The label of 100234, a book the library has"))
  }
}

/// The small things at the counter: what the bottom line says after F7, what a refusal says to do.
@Suite struct CounterWordsScenarioTests {
  @Test func aBookIssuedAndRenewedInOneVisitIsOnTheReceiptUnderBoth() throws {
    let desk = try DeskHarness()
    desk.press(.character("d"))
    desk.scan("17")
    desk.scan("100234")
    desk.press(.function(7))  // renews both of 17's books, the one just issued among them
    let receipt = try #require(ReceiptAction.receipt(context: desk.app.context))
    #expect(receipt.contains("Issued:\n  100234  Лермонтов М. Ю. «Герой нашего времени»  due 2026-12-14"), "\(receipt)")
    #expect(receipt.contains("Renewed:\n  100235"), "\(receipt)")
    #expect(receipt.contains("  100234  Лермонтов М. Ю. «Герой нашего времени»  due 2026-12-28"), "\(receipt)")
    #expect(receipt.components(separatedBy: "100234").count == 3, "once under each: \(receipt)")
  }
}

extension CounterWordsScenarioTests {
  @Test func aSecondF7ThatRenewsNothingSaysSo() throws {
    let desk = try DeskHarness()
    try desk.store.policy.setCategory(
      ReaderCategory(code: "adult", name: "Adult", loanDays: 14, loanLimit: 10, renewalLimit: 1))
    desk.press(.character("d"))
    desk.scan("17")
    desk.press(.function(7))
    #expect(desk.shown.contains("Renewed 1 book"))
    desk.press(.function(7))
    #expect(desk.app.dialog != nil)
    desk.press(.enter)
    let bottom = desk.screen().text(row: 22)
    #expect(bottom.contains("Nothing renewed"), "\(bottom)")
    #expect(!bottom.contains("Renewed 1 book"))
  }

  @Test func theLoanLimitRefusalSaysWhatToDoAndTheCategorysName() throws {
    let desk = try DeskHarness(language: .russian)
    try desk.store.policy.setCategory(
      ReaderCategory(code: "adult", name: "Adult", loanDays: 14, loanLimit: 1, renewalLimit: 2))
    desk.press(.character("в"))  // d on the Russian layout
    desk.scan("17")
    #expect(desk.shown.contains("(взрослый)"), "the category's name, not its code")
    desk.scan("100234")
    let said = desk.app.dialog?.lines.joined(separator: " ") ?? ""
    #expect(said.contains("предел категории «взрослый»: примите одну, прежде чем выдать другую"), "\(said)")
  }
}

/// In a small window a reader's screen keeps the chosen loan in view: the keys that act on it act
/// on a loan the librarian sees.
@Suite struct SmallWindowScenarioTests {
  @Test func theChosenLoanIsInViewBeforeAKeyActsOnIt() throws {
    let desk = try DeskHarness()
    _ = try desk.store.readers.update(ticket: "17") { draft in
      for (field, value) in [
        (Field.birthYear, "1980"), (.email, "ivanova@example.org"), (.postcode, "620000"),
        (.addressCity, "Екатеринбург"), (.street, "Ленина"), (.house, "1"),
      ] {
        draft[field] = value
      }
    }
    try desk.store.holds.place(ticket: "17", on: .titleOf("100236"))
    try desk.store.circulation.issue(ticket: "17", inventories: ["100234"])
    desk.resize(rows: 16, columns: 60)
    desk.press(.character("r"), .enter)  // Иванова: two books out, below her fields
    desk.press(.down)  // the second loan
    let screen = desk.screen(rows: 16, columns: 60)
    let row = try #require((0..<16).first { screen.text(row: $0).contains("* 100234") }, "\(screen.text)")
    #expect(screen.style(row: row, of: "100234")?.reverse == true, "chosen, and in view")
    desk.press(.character("r"))
    #expect(desk.shown.contains("Returned 100234"))
  }
}

extension SmallWindowScenarioTests {
  @Test func aNoticeSpeaksOfTheScreenItCameOnAndIsSaidWhole() throws {
    let desk = try DeskHarness()
    desk.press(.character("b"), .character("n"))
    desk.press(.control("z"))
    #expect(desk.screen().text(row: 22).contains("Nothing typed in this field to undo"))
    desk.type("K")
    #expect(!desk.screen().text(row: 22).contains("Nothing typed"), "typing goes on: the notice is gone")
    // A notice too long for the status line takes the key bar's row for its seconds.
    desk.press(.escape, .character("y"), .escape, .character("r"), .down, .enter)  // Петров, 100236 out
    desk.press(.character("r"))
    desk.press(.control("z"))
    let screen = desk.screen(rows: 16, columns: 60)
    let notice = screen.text(row: 14) + screen.text(row: 15)
    #expect(notice.contains("Undone: the return of 100236 «Преступление и наказание»; it is out to Петров И. again"))
  }
}

extension SmallWindowScenarioTests {
  /// However many books the reader holds, the Desk's log shows what the last scan did.
  @Test func theLastScanIsInTheDesksLogAt60x16() throws {
    let desk = try DeskHarness()
    desk.resize(rows: 16, columns: 60)
    desk.press(.character("d"))
    desk.scan("17")
    for inventory in ["100234", "100237", "100238", "100239"] { desk.scan(inventory) }
    let screen = desk.text(rows: 16, columns: 60)
    #expect(screen.contains("Books out (5)"))
    #expect(screen.contains("Issued 100239 «Азбука» to Иванова М., due"), "\(screen)")
  }
}
