import DeskDomain
import DeskTestSupport
import Testing

@_spi(Connection) @testable import DeskStorage

/// The work diary from what the library records: a month of known events at the counter, in a
/// library three hours east of UTC, and every cell of the diary compared.
@Suite struct StatisticsTests {
  let folder = TemporaryFolder()
  let clock = TestClock("2026-10-01T09:00:00Z")
  let store: LibraryStore

  init() throws {
    clock.utcOffsetSeconds = 3 * 3600
    store = try LibraryStore(path: folder.file("library.sqlite"), clock: clock)
    for (inventory, index) in [("B1", "84(2Рос=Рус)6"), ("B2", "22.1"), ("B3", ""), ("B4", "75.1"), ("B5", "63.3")] {
      var draft = bookDraft(inventory, "Книга \(inventory)")
      draft.bbk = index
      try store.books.add(draft)
    }
    for (ticket, category, birthYear) in [
      ("A1", "adult", "1980"), ("C1", "child", "2015"), ("Y1", "adult", "2000"), ("N1", "adult", ""),
    ] {
      var draft = readerDraft(ticket, "Читатель \(ticket)", category: category)
      draft.birthYear = birthYear
      draft.registered = "2025-03-01"
      try store.readers.add(draft)
    }
  }

  /// The library's local noon (or `hour`) of a November day.
  func at(_ day: Int, hour: Int = 12, minute: Int = 0) {
    clock.instant = Timestamp(date: LocalDate(year: 2026, month: 11, day: day)!, hour: hour - 3, minute: minute)
  }

  /// The month of events the tests read.
  func november() throws {
    at(2)
    try store.circulation.issue(ticket: "A1", inventories: ["B1"])
    try store.circulation.issue(ticket: "C1", inventories: ["B2"])
    at(2, hour: 15)
    _ = try store.circulation.circulate("A1", reader: nil)  // the same reader again that day: one visit
    at(5)
    try store.circulation.renew(inventories: ["B1"])
    at(10)
    try store.circulation.returnBooks(inventories: ["B1"])
    try store.circulation.issue(ticket: "Y1", inventories: ["B3"])
    at(11)
    _ = try store.holds.place(ticket: "A1", on: .copy("B3"))
    // 01:30 on the 13th, the library's time: the 12th in UTC.
    at(13, hour: 1, minute: 30)
    try store.circulation.issue(ticket: "N1", inventories: ["B4"])
    at(15)
    let renewal = try #require(try store.circulation.renewals(inventories: ["B2"]).first)
    try store.circulation.undo(.renewed(renewal))
    at(16)
    let mistake = try #require(try store.circulation.issue(ticket: "Y1", inventories: ["B5"]).first)
    try store.circulation.cancelLoan(mistake.loan.id)
    at(18)
    try store.circulation.returnBooks(inventories: ["B3"])
    at(19)
    try store.circulation.issue(ticket: "A1", inventories: ["B3"])
    at(20)
    try store.readers.add(readerDraft("R1", "Новый", category: "adult"))
    at(25)
    _ = try store.circulation.circulate("R1", reader: nil)
  }

  @Test func everyCellOfAMonthByDay() throws {
    try november()
    let diary = try store.statistics.diary(
      from: LocalDate(year: 2026, month: 11, day: 1)!, to: LocalDate(year: 2026, month: 11, day: 30)!, period: .day)
    var expected: [Int: [DiaryFigure: Int]] = [
      2: [.issues: 2, .visits: 2, .reregistered: 2],
      5: [.renewals: 1],
      10: [.returns: 1, .issues: 1, .visits: 2, .reregistered: 1],
      11: [.holdsPlaced: 1],
      13: [.issues: 1, .visits: 1, .reregistered: 1],
      // The undone issue counts nowhere; the reader came.
      16: [.visits: 1],
      18: [.returns: 1, .visits: 1],
      19: [.issues: 1, .holdsFilled: 1, .visits: 1],
      20: [.registered: 1],
      25: [.visits: 1],
    ]
    // C1's book, due on the 16th (its renewal undone), is overdue from the 17th; N1's, due on the 27th, from the 28th.
    for day in 17...30 { expected[day, default: [:]][.overdue] = day >= 28 ? 2 : 1 }
    #expect(diary.rows.count == 30)
    for (index, row) in diary.rows.enumerated() {
      #expect(row.name == LocalDate(year: 2026, month: 11, day: index + 1)?.iso)
      for figure in DiaryFigure.allCases {
        #expect(row.total(figure) == expected[index + 1]?[figure] ?? 0, "\(row.name) \(figure)")
      }
    }
    let month: [DiaryFigure: Int] = [
      .registered: 1, .reregistered: 4, .visits: 9, .issues: 5, .renewals: 1, .returns: 2, .holdsPlaced: 1,
      .holdsFilled: 1, .overdue: 2,
    ]
    for figure in DiaryFigure.allCases { #expect(diary.total.total(figure) == month[figure] ?? 0, "\(figure)") }
  }

  @Test func splitByReaderBranchAndDesk() throws {
    try november()
    let (first, last) = (LocalDate(year: 2026, month: 11, day: 1)!, LocalDate(year: 2026, month: 11, day: 30)!)
    let byReader = try store.statistics.diary(from: first, to: last, period: .month, split: .category)
    #expect(byReader.rows.map(\.name) == ["2026-11"])
    // Age groups where a birth year is kept (1980, 2015, 2000), the category's name where not.
    #expect(byReader.columns == ["children", "youth", "adults", "Adult"])
    #expect(byReader.total.split[.issues] == ["adults": 2, "children": 1, "youth": 1, "Adult": 1])
    #expect(byReader.total.split[.visits] == ["adults": 3, "children": 1, "youth": 3, "Adult": 2])
    #expect(byReader.total.split[.overdue] == ["children": 1, "Adult": 1])
    let byBranch = try store.statistics.diary(from: first, to: last, period: .month, split: .branch)
    #expect(byBranch.columns == KnowledgeBranch.allCases.map(\.rawValue))
    #expect(byBranch.total.split[.issues] == ["fiction": 1, "natural": 1, "other": 2, "arts": 1])
    #expect(byBranch.total.split[.returns] == ["fiction": 1, "other": 1])
    #expect(byBranch.issuesWithoutIndex == 2)
    // Visits have no book: not split by branch.
    #expect(byBranch.total.split[.visits] == nil)
    let byDesk = try store.statistics.diary(from: first, to: last, period: .month, split: .desk)
    #expect(byDesk.total.split[.issues] == ["desk-1": 5])
    // A library's own mapping: sport apart from arts is not a column, so 75 goes where it says.
    try store.statistics.setBranches(try #require(BranchMapping(parsing: "75=social;84=fiction")))
    let mapped = try store.statistics.diary(from: first, to: last, period: .month, split: .branch)
    #expect(mapped.total.split[.issues] == ["fiction": 1, "other": 3, "social": 1])
  }
}

/// The daily sums the diary reads are kept by triggers: after each kind of change, they are what
/// a count of every event made now says, cell for cell.
@Suite struct DiarySumsTests {
  let folder = TemporaryFolder()
  let clock = TestClock("2026-10-01T09:00:00Z")
  let store: LibraryStore

  init() throws {
    clock.utcOffsetSeconds = 3 * 3600
    store = try LibraryStore(path: folder.file("library.sqlite"), clock: clock)
    for (inventory, index) in [("B1", "84(2Рос=Рус)6"), ("B2", "22.1"), ("B3", ""), ("B4", "75.1")] {
      var draft = bookDraft(inventory, "Книга \(inventory)")
      draft.bbk = index
      try store.books.add(draft)
    }
    for (ticket, category, birthYear) in [("A1", "adult", "1980"), ("C1", "child", "2015"), ("N1", "adult", "")] {
      var draft = readerDraft(ticket, "Читатель \(ticket)", category: category)
      draft.birthYear = birthYear
      draft.registered = "2025-03-01"
      try store.readers.add(draft)
    }
  }

  func at(_ month: Int, _ day: Int, hour: Int = 12) {
    clock.instant = Timestamp(date: LocalDate(year: 2026, month: month, day: day)!, hour: hour - 3, minute: 0)
  }

  func expectSumsRight(_ step: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let differing = try store.statistics.sumsDifferingFromEvents()
    #expect(differing.isEmpty, "after \(step): \(differing)", sourceLocation: sourceLocation)
  }

  @Test func theSumsAreTheEventsAfterEveryKindOfChange() throws {
    at(10, 2)
    try store.circulation.issue(ticket: "A1", inventories: ["B1", "B2"])
    try expectSumsRight("an issue")
    at(10, 10)
    try store.circulation.renew(inventories: ["B1"])
    try expectSumsRight("a renewal")
    let renewal = try #require(try store.circulation.renewals(inventories: ["B2"]).first)
    try store.circulation.undo(.renewed(renewal))
    try expectSumsRight("an undone renewal")
    at(10, 20)
    try store.circulation.returnBooks(inventories: ["B2"])
    try expectSumsRight("a return after the due date")
    let mistake = try #require(try store.circulation.issue(ticket: "C1", inventories: ["B3"]).first)
    try store.circulation.cancelLoan(mistake.loan.id)
    try expectSumsRight("an undone issue")
    at(11, 1, hour: 1)
    _ = try store.holds.place(ticket: "N1", on: .copy("B1"))
    try store.circulation.returnBooks(inventories: ["B1"])
    try store.circulation.issue(ticket: "N1", inventories: ["B1"])
    try expectSumsRight("a hold placed and filled")
    // A visit at another desk earlier in the year than the first one known: the first of the year moves.
    try store.database.execute(
      """
      INSERT INTO visit(uuid, reader_id, day, at, desk, created_at)
      SELECT 'f0000000-0000-4000-8000-000000000001', id, '2026-01-15', '2026-01-15T09:00:00.000Z', 'Reading room',
        '2026-01-15T09:00:00.000Z' FROM reader WHERE ticket = 'A1'
      """)
    try expectSumsRight("a visit arriving from another desk")
    try store.database.execute("DELETE FROM visit WHERE uuid = 'f0000000-0000-4000-8000-000000000001'")
    try expectSumsRight("a visit taken away")
    // What the figures are split by changes under them.
    _ = try store.readers.update(ticket: "C1") { $0.birthYear = "1990" }
    _ = try store.readers.update(ticket: "N1") { $0.category = "child" }
    _ = try store.readers.update(ticket: "A1") { $0.registered = "2026-05-01" }
    try expectSumsRight("readers' birth year, category and registration changed")
    _ = try store.books.update(inventory: "B1") { $0.bbk = "22.3" }
    try expectSumsRight("a book's index changed")
    try store.statistics.setBranches(try #require(BranchMapping(parsing: "22=technology;84=fiction")))
    try expectSumsRight("the library's branch mapping changed")
    at(12, 1)
    try store.readers.add(readerDraft("R9", "Новый", category: "adult"))
    try expectSumsRight("a reader registered")
  }

  /// The check finds a sum that is wrong: a count kept apart from the events would be caught.
  @Test func aSumThatDriftedIsFoundAndCountedAgain() throws {
    at(10, 2)
    try store.circulation.issue(ticket: "A1", inventories: ["B1"])
    try store.database.execute("UPDATE diary_day SET count = count + 1 WHERE figure = 'issues'")
    let differing = try store.statistics.sumsDifferingFromEvents()
    #expect(differing == ["issues 2026-10-02 desk-1 adults fiction: 2, 1"])
    try store.statistics.recountSums()
    try expectSumsRight("counting again")
  }

  /// A program that writes the file without the diary's functions is refused, and the sums stay right.
  @Test func aWriteWithoutTheDiaryFunctionsIsRefused() throws {
    at(10, 2)
    try store.circulation.issue(ticket: "A1", inventories: ["B1"])
    let plain = try Database(path: folder.file("library.sqlite"))
    #expect(throws: DatabaseError.self) {
      try plain.execute("UPDATE loan SET returned_at = '2026-10-03T09:00:00.000Z'")
    }
    try expectSumsRight("a refused write")
  }
}
