import DeskDomain
import DeskTestSupport
import Testing

@_spi(Connection) @testable import DeskStorage

/// A copy's status on a real library file: only an available copy is issued, the lists and
/// counts know the others, and issued or returned stays what the loans say.
@Suite struct CopyStatusTests {
  let folder = TemporaryFolder()
  let clock = TestClock("2026-11-30T10:00:00Z")
  let store: LibraryStore
  static let isbn = "978-5-17-079585-7"

  init() throws {
    store = try LibraryStore(path: folder.file("library.sqlite"), clock: clock)
    for inventory in ["C1", "C2"] {
      try store.books.add(
        bookDraft(inventory, "Герой нашего времени", surname: "Лермонтов", isbn: CopyStatusTests.isbn))
    }
    try store.books.add(bookDraft("B1", "Азбука"))
    try store.readers.add(readerDraft("R1", "Иванова", firstName: "Мария"))
  }

  func reader(_ ticket: String) throws -> Reader { try #require(try store.readers.reader(ticket: ticket)) }

  @Test func aCopyThatIsNotAvailableIsRefusedAtIssueAndSaysWhy() throws {
    try store.books.update(inventory: "B1") { $0.status = "lost" }
    #expect(try store.books.book(inventory: "B1")?.status == .lost)
    #expect(
      errorLines { _ = try store.circulation.issue(ticket: "R1", inventories: ["B1"]) } == [
        "«Азбука» (B1) is lost and cannot be issued: if it is back on the shelf, make it available first "
          + "(s on the book's screen, or book edit --status available)"
      ])
    #expect(
      errorLines { _ = try store.circulation.circulate("B1", reader: reader("R1")) }.first?.hasPrefix(
        "«Азбука» (B1) is lost")
        == true)
    #expect(try store.circulation.loans(ofReader: reader("R1")).isEmpty, "nothing written")
    // Back on the shelf: available again, and issued.
    try store.books.update(inventory: "B1") { $0.status = "available" }
    #expect(try store.circulation.issue(ticket: "R1", inventories: ["B1"]).count == 1)
  }

  @Test func anISBNPassesOverCopiesThatMayNotBeIssued() throws {
    try store.books.update(inventory: "C1") { $0.status = "damaged" }
    let outcome = try store.circulation.circulate(CopyStatusTests.isbn, reader: reader("R1"))
    guard case .chooseCopy(_, let copies, true) = outcome else { Issue.record("\(outcome)"); return }
    #expect(copies.map(\.book.inventoryNumber) == ["C2"], "the damaged copy is not offered")
    try store.books.update(inventory: "C2") { $0.status = "reference" }
    #expect(
      errorLines { _ = try store.circulation.circulate(CopyStatusTests.isbn, reader: reader("R1")) }.first?.hasPrefix(
        "All 2 copies") == true)
  }

  @Test func listsFiltersAndCountsKnowTheStatus() throws {
    try store.circulation.issue(ticket: "R1", inventories: ["C2"])
    try store.books.update(inventory: "C1") { $0.status = "written-off" }
    // Lost while out: the loan stays open; the copy counts as out, not as not-for-loan on the shelf.
    try store.books.update(inventory: "C2") { $0.status = "lost" }
    #expect(try store.books.page(filter: .notForLoan, limit: 10).map(\.book.inventoryNumber).sorted() == ["C1", "C2"])
    #expect(try store.books.page(filter: .available, limit: 10).map(\.book.inventoryNumber) == ["B1"])
    #expect(
      try store.books.listRows(filter: .all, limit: 10).map { "\($0.book.inventoryNumber) \($0.book.status)" }
        .sorted() == ["B1 available", "C1 writtenOff", "C2 lost"])
    #expect(try store.books.count(filter: .notForLoan) == 2)
    #expect(try store.books.count(filter: .available) == 1)
    #expect(try store.books.count(filter: .issued) == 1)
    // The list reads its rows from the covering index, the status included.
    let (sql, arguments, _) = try store.books.bookPageQuery(
      columns: BookStore.briefColumns, filter: .all, search: "", order: .sortKey(.first), limit: 40)
    let plan = try store.database.query("EXPLAIN QUERY PLAN " + sql, arguments: arguments) { $0.string(3) }
    #expect(plan.contains { $0.contains("COVERING INDEX book_list") }, "\(plan)")
  }

  @Test func anUnknownStatusIsRefusedWithTheKnownOnes() throws {
    #expect(
      errorLines { try store.books.update(inventory: "B1") { $0.status = "borrowed" } } == [
        "Status «borrowed» is not known; the statuses are: available, processing, damaged, reference, lost, written-off"
      ])
    #expect(CopyStatus(word: "Withdrawn") == .writtenOff && CopyStatus(word: "not for loan") == .referenceOnly)
  }
}
