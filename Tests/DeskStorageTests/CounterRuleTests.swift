import DeskDomain
import DeskTestSupport
import Testing

@testable import DeskStorage

/// The counter's one rule, outcome by outcome, on a real library file.
@Suite struct CounterRuleTests {
  let folder = TemporaryFolder()
  let clock = TestClock("2026-11-30T10:00:00Z")
  let store: LibraryStore
  /// Three copies of one title (one ISBN), a title with one copy, and a book without ISBN.
  static let isbn = "978-5-17-079585-7"
  static let single = "978-0-14-143951-8"

  init() throws {
    store = try LibraryStore(path: folder.file("library.sqlite"), clock: clock)
    for inventory in ["C1", "C2", "C3"] {
      var draft = bookDraft(inventory, "Герой нашего времени", surname: "Лермонтов", isbn: CounterRuleTests.isbn)
      draft.place = "Shelf \(inventory)"
      try store.books.add(draft)
    }
    try store.books.add(bookDraft("P1", "Pride and Prejudice", surname: "Austen", isbn: CounterRuleTests.single))
    try store.books.add(bookDraft("B1", "Азбука"))
    try store.readers.add(readerDraft("R1", "Иванова", firstName: "Мария"))
    try store.readers.add(readerDraft("R2", "Петров", firstName: "Илья"))
  }

  func reader(_ ticket: String) throws -> Reader { try #require(try store.readers.reader(ticket: ticket)) }

  func openLoans(_ ticket: String) throws -> [String] {
    try store.circulation.loans(ofReader: reader(ticket)).filter(\.loan.isOpen).map(\.inventory).sorted()
  }

  @Test func aTicketSelectsTheReaderAndANameFindsReaders() throws {
    #expect(try store.circulation.circulate("R1", reader: nil) == .selected(reader("R1")))
    #expect(
      try store.circulation.circulate("R2", reader: reader("R1")) == .selected(reader("R2")), "the next reader's card")
    #expect(try store.circulation.circulate("Иванова", reader: nil) == .findReader("Иванова"))
    #expect(try store.circulation.circulate("X-404", reader: nil) == .unknown("X-404"))
  }

  @Test func aBookIsIssuedToTheReaderAndReturnedWhenTheyBringItBack() throws {
    let issued = try store.circulation.circulate("B1", reader: reader("R1"))
    guard case .done(.issued(let loan)) = issued else { Issue.record("\(issued)"); return }
    #expect(loan.readerTicket == "R1" && loan.loan.due.iso == "2026-12-14")
    #expect(try openLoans("R1") == ["B1"])
    // The same reader scans it again: they are bringing it back.
    guard case .done(.returned(let back)) = try store.circulation.circulate("B1", reader: reader("R1")) else {
      Issue.record("not returned"); return
    }
    #expect(back.loan.returned != nil)
    #expect(try openLoans("R1") == [])
  }

  @Test func aBookWithNobodySelectedIsReturnedAndOneOnTheShelfIsRefused() throws {
    _ = try store.circulation.circulate("B1", reader: reader("R1"))
    guard case .done(.returned) = try store.circulation.circulate("B1", reader: nil) else {
      Issue.record("not returned"); return
    }
    #expect(errorLines { _ = try store.circulation.circulate("B1", reader: nil) } == ["«Азбука» (B1) is not on loan"])
  }

  @Test func aBookOutToAnotherReaderIsMovedOnlyWhenTheLibrarianSaysYes() throws {
    _ = try store.circulation.circulate("B1", reader: reader("R1"))
    let asked = try store.circulation.circulate("B1", reader: reader("R2"))
    guard case .confirmTransfer(let current, let to) = asked else { Issue.record("\(asked)"); return }
    #expect(current.readerTicket == "R1" && to.ticket == "R2")
    #expect(try openLoans("R1") == ["B1"], "no answer yet: nothing changed")
    let moved = try store.circulation.circulate("B1", reader: reader("R2"), transfer: true)
    guard case .done(.transferred(let returned, let issued)) = moved else { Issue.record("\(moved)"); return }
    #expect(returned.readerTicket == "R1" && returned.loan.returned != nil)
    #expect(issued.readerTicket == "R2")
    #expect(try openLoans("R1") == [] && openLoans("R2") == ["B1"])
  }

  @Test func aBlockedReaderIsRefusedBeforeAnyQuestionAndMayStillReturn() throws {
    _ = try store.circulation.circulate("C1", reader: reader("R2"))
    _ = try store.circulation.circulate("B1", reader: reader("R1"))
    clock.advance(days: 20)  // R1's book is overdue
    #expect(
      errorLines { _ = try store.circulation.circulate("P1", reader: reader("R1")) } == [
        "Иванова М. has 1 overdue book: take it back before issuing or renewing"
      ])
    #expect(
      errorLines { _ = try store.circulation.circulate("C1", reader: reader("R1")) } == [
        "Иванова М. has 1 overdue book: take it back before issuing or renewing"
      ], "no question about another reader's book while the reader is blocked")
    guard case .done(.returned) = try store.circulation.circulate("B1", reader: reader("R1")) else {
      Issue.record("the overdue book is returned"); return
    }
    guard case .done(.issued) = try store.circulation.circulate("P1", reader: reader("R1")) else {
      Issue.record("issued once the overdue book is back"); return
    }
  }

  @Test func anISBNNeverPicksOneOfSeveralCopiesToIssue() throws {
    let asked = try store.circulation.circulate(CounterRuleTests.isbn, reader: reader("R1"))
    guard case .chooseCopy(_, let copies, let toIssue) = asked else { Issue.record("\(asked)"); return }
    #expect(toIssue && copies.map(\.book.inventoryNumber) == ["C1", "C2", "C3"])
    #expect(copies.map(\.book.place) == ["Shelf C1", "Shelf C2", "Shelf C3"])
    #expect(try openLoans("R1") == [], "nothing issued before the choice")
    // Chosen by its inventory number, the copy goes out.
    guard case .done(.issued) = try store.circulation.circulate("C2", reader: reader("R1")) else {
      Issue.record("C2"); return
    }
    // Only copies on the shelf are offered.
    guard
      case .chooseCopy(_, let left, true) = try store.circulation.circulate(CounterRuleTests.isbn, reader: reader("R2"))
    else {
      Issue.record("choice"); return
    }
    #expect(left.map(\.book.inventoryNumber) == ["C1", "C3"])
    // A title with one copy is that copy.
    guard case .done(.issued(let loan)) = try store.circulation.circulate(CounterRuleTests.single, reader: reader("R2"))
    else {
      Issue.record("single"); return
    }
    #expect(loan.inventory == "P1")
  }

  @Test func anISBNReturnsTheOneCopyOutOrAsksWhichOne() throws {
    _ = try store.circulation.circulate("C1", reader: reader("R1"))
    _ = try store.circulation.circulate("C3", reader: reader("R2"))
    // The reader at the counter holds one copy: that one comes back, never the other reader's.
    guard case .done(.returned(let back)) = try store.circulation.circulate(CounterRuleTests.isbn, reader: reader("R2"))
    else {
      Issue.record("returned"); return
    }
    #expect(back.inventory == "C3")
    #expect(try openLoans("R1") == ["C1"])
    // Nobody selected and exactly one copy out: that one.
    guard case .done(.returned(let other)) = try store.circulation.circulate(CounterRuleTests.isbn, reader: nil) else {
      Issue.record("returned"); return
    }
    #expect(other.inventory == "C1")
    // Two copies out, nobody selected: the librarian chooses, seeing each reader and due date.
    _ = try store.circulation.circulate("C1", reader: reader("R1"))
    _ = try store.circulation.circulate("C2", reader: reader("R2"))
    guard case .chooseCopy(_, let copies, false) = try store.circulation.circulate(CounterRuleTests.isbn, reader: nil)
    else {
      Issue.record("choice"); return
    }
    #expect(copies.map(\.book.inventoryNumber) == ["C1", "C2"])
    #expect(copies.map { $0.loan?.readerTicket } == ["R1", "R2"])
    #expect(try openLoans("R1") == ["C1"] && openLoans("R2") == ["C2"], "nothing returned before the choice")
    try store.circulation.returnBooks(inventories: ["C1", "C2"])
    #expect(
      errorLines { _ = try store.circulation.circulate(CounterRuleTests.isbn, reader: nil) } == [
        "No copy with ISBN 978-5-17-079585-7 is out: nothing to return"
      ])
  }

  @Test func refusalsSayWhatToDo() throws {
    #expect(
      errorLines { _ = try store.circulation.circulate("978-5-04-089983-8", reader: reader("R1")) } == [
        "No book with ISBN 978-5-04-089983-8 is in the library: add it first, or scan the inventory number"
      ])
    for copy in ["C1", "C2", "C3"] { _ = try store.circulation.circulate(copy, reader: reader("R2")) }
    #expect(
      errorLines { _ = try store.circulation.circulate(CounterRuleTests.isbn, reader: reader("R1")) } == [
        "All 3 copies with ISBN 978-5-17-079585-7 are out: scan the inventory number of the copy in hand"
      ])
    var child = readerDraft("K1", "Малыш", category: "child")
    child.firstName = "Кид"
    try store.readers.add(child)
    try store.policy.setCategory(
      ReaderCategory(code: "child", name: "Child", loanDays: 14, loanLimit: 1, renewalLimit: 1))
    _ = try store.circulation.circulate("B1", reader: reader("K1"))
    #expect(
      errorLines { _ = try store.circulation.circulate("P1", reader: reader("K1")) } == [
        "Малыш К. already holds 1 book, the limit for category «Child»: take one back before issuing another"
      ])
  }

  @Test func aQRLabelOfABookInTheLibraryActsOnThatBook() throws {
    let label = BookRecordLabel.text(of: try #require(try store.books.book(inventory: "B1")))
    guard case .done(.issued(let loan)) = try store.circulation.circulate(label, reader: reader("R1")) else {
      Issue.record("label issues"); return
    }
    #expect(loan.inventory == "B1")
  }

  @Test func theCommandLineIntentsActOnBooksOnly() throws {
    #expect(
      errorLines { _ = try store.circulation.circulate("R2", reader: reader("R1"), intent: .issue) } == [
        "«R2» is not a book of the library: scan the book's label"
      ])
    _ = try store.circulation.circulate("B1", reader: reader("R1"), intent: .issue)
    #expect(
      errorLines { _ = try store.circulation.circulate("B1", reader: reader("R1"), intent: .issue) } == [
        "«Азбука» (B1) is already issued to this reader, due 2026-12-14: renew it instead"
      ])
    #expect(
      errorLines { _ = try store.circulation.circulate("B1", reader: reader("R2"), intent: .issue) } == [
        "«Азбука» (B1) is already issued to Иванова М. (ticket R1), due 2026-12-14: return it first"
      ])
    guard case .done(.renewed(let renewal)) = try store.circulation.circulate("B1", reader: nil, intent: .renew) else {
      Issue.record("renewed"); return
    }
    #expect(renewal.before.loan.due.iso == "2026-12-14" && renewal.after.loan.due.iso == "2026-12-28")
    guard case .done(.returned) = try store.circulation.circulate("B1", reader: nil, intent: .giveBack) else {
      Issue.record("returned"); return
    }
  }

  @Test func renewingAllRenewsWhatMayBeAndNamesTheRest() throws {
    _ = try store.circulation.circulate("B1", reader: reader("R1"))
    _ = try store.circulation.circulate("P1", reader: reader("R1"))
    try store.circulation.renew(inventories: ["P1"])
    try store.circulation.renew(inventories: ["P1"])  // the adult limit: 2
    let (renewed, refused) = try store.circulation.renewAll(ticket: "R1")
    #expect(renewed.map(\.after.inventory) == ["B1"])
    #expect(
      refused.map(\.english) == [
        "«Pride and Prejudice» (P1) has been renewed 2 times, the limit: return it and issue it again if it may stay"
      ])
    #expect(
      errorLines { _ = try store.circulation.renewAll(ticket: "R2") } == ["Петров И. holds no books: nothing to renew"])
  }

  @Test func everyChangeCanBeTakenBack() throws {
    guard case .done(let issue) = try store.circulation.circulate("B1", reader: reader("R1")) else { return }
    clock.advance(seconds: 30)
    try store.circulation.undo(issue)
    #expect(try openLoans("R1") == [])
    // The issue undone is no loan, yet its line stays in the history, saying when it was undone.
    #expect(try store.circulation.loans(ofReader: reader("R1")).isEmpty)
    let kept = try store.circulation.loans(ofReader: reader("R1"), includingUndone: true)
    #expect(kept.map(\.inventory) == ["B1"])
    #expect(kept.first?.loan.undone?.iso == "2026-11-30T10:00:30.000Z")
    #expect(kept.first?.loan.isOpen == false && kept.first?.loan.returned == nil)
    #expect(try store.books.count(filter: .issued) == 0)
    _ = try store.circulation.circulate("B1", reader: reader("R1"))
    guard case .done(let giveBack) = try store.circulation.circulate("B1", reader: nil) else { return }
    try store.circulation.undo(giveBack)
    #expect(try openLoans("R1") == ["B1"])
    guard case .done(let renewal) = try store.circulation.circulate("B1", reader: nil, intent: .renew) else { return }
    try store.circulation.undo(renewal)
    let loan = try #require(try store.circulation.loans(ofReader: reader("R1")).first)
    #expect(loan.loan.due.iso == "2026-12-14" && loan.loan.renewals == 0 && loan.loan.lastRenewed == nil)
    guard case .done(let moved) = try store.circulation.circulate("B1", reader: reader("R2"), transfer: true) else {
      return
    }
    try store.circulation.undo(moved)
    #expect(try openLoans("R1") == ["B1"] && openLoans("R2") == [])
    // A renewal taken back after the loan changed again is refused, and nothing moves.
    guard case .done(let first) = try store.circulation.circulate("B1", reader: nil, intent: .renew) else { return }
    try store.circulation.renew(inventories: ["B1"])
    #expect(errorLines { try store.circulation.undo(first) } == [StoreError.loanChanged.english])
    #expect(try store.circulation.loans(ofReader: reader("R1")).first?.loan.renewals == 2)
  }

  @Test func overdueReadersComeLongestOverdueFirst() throws {
    _ = try store.circulation.circulate("B1", reader: reader("R2"))
    clock.advance(days: 5)
    _ = try store.circulation.circulate("C1", reader: reader("R1"))
    _ = try store.circulation.circulate("C2", reader: reader("R1"))
    clock.advance(days: 30)
    let overdue = try store.circulation.overdueReaders()
    #expect(overdue.map(\.reader.ticket) == ["R2", "R1"])
    #expect(overdue.map { $0.daysOverdue(on: clock.now().date) } == [21, 16])
    #expect(overdue[1].loans.map(\.inventory) == ["C1", "C2"])
    #expect(try store.readers.page(filter: .overdue).map(\.reader.ticket) == ["R1", "R2"])
    try store.circulation.returnBooks(inventories: ["B1"])
    #expect(try store.readers.page(filter: .overdue).map(\.reader.ticket) == ["R1"])
    #expect(try store.readers.search("Петров", filter: .overdue).all.isEmpty)
    #expect(try store.readers.search("Иванова", filter: .overdue).all.map(\.reader.ticket) == ["R1"])
  }
}
