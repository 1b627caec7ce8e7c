import DeskDomain
import DeskTestSupport
import Testing

@testable import DeskStorage

@Suite struct CirculationTests {
  let folder = TemporaryFolder()
  let clock = TestClock("2026-11-30T10:00:00Z")  // a Monday
  let store: LibraryStore

  init() throws {
    store = try LibraryStore(path: folder.file("library.sqlite"), clock: clock)
    for number in 1...12 {
      try store.books.add(bookDraft("B\(number)", "Книга \(number)", surname: "Автор"))
    }
    try store.readers.add(readerDraft("A1", "Взрослова", firstName: "Анна", category: "adult"))
    try store.readers.add(readerDraft("C1", "Детский", firstName: "Коля", category: "child"))
  }

  @Test func issuesWithTheDueDateOfTheCategory() throws {
    let loans = try store.circulation.issue(ticket: "A1", inventories: ["B1", "B2"])
    #expect(loans.map(\.loan.due.iso) == ["2026-12-14", "2026-12-14"])
    #expect(try store.books.page(filter: .issued).map(\.book.inventoryNumber) == ["B1", "B2"])
    #expect(try store.books.page(filter: .issued).first?.loan?.readerName == "Взрослова А.")
    let reader = try #require(try store.readers.reader(ticket: "A1"))
    #expect(try store.circulation.loans(ofReader: reader).count == 2)
  }

  @Test func dueDatesFollowTheCalendar() throws {
    var policy = try store.policy.current()
    policy.dueDateMode = .datedue
    policy.calendar.closedWeekdays = [.sunday]
    try store.policy.setCurrent(policy)
    try store.policy.addHoliday(LocalDate(iso: "2026-12-14")!, name: "Closed for stocktaking")
    #expect(try store.circulation.issue(ticket: "A1", inventories: ["B1"]).first?.loan.due.iso == "2026-12-15")
  }

  @Test func refusesABookThatIsOutNamingTheReader() throws {
    try store.circulation.issue(ticket: "A1", inventories: ["B1"])
    #expect(
      errorLines { try store.circulation.issue(ticket: "C1", inventories: ["B1"]) } == [
        "«Книга 1» (B1) is already issued to Взрослова А. (ticket A1), due 2026-12-14: return it first"
      ])
    #expect(
      errorLines { try store.circulation.issue(ticket: "A1", inventories: ["B1"]) } == [
        "«Книга 1» (B1) is already issued to this reader, due 2026-12-14: renew it instead"
      ])
  }

  @Test func aBatchIsAllOrNothing() throws {
    #expect(
      errorLines { try store.circulation.issue(ticket: "A1", inventories: ["B1", "B404", "B2"]) } == [
        "No book has inventory number B404: check the label, or add the book first"
      ])
    #expect(try store.books.count(filter: .issued) == 0)
    try store.circulation.issue(ticket: "A1", inventories: ["B3"])
    #expect(
      errorLines { try store.circulation.returnBooks(inventories: ["B3", "B4"]) } == ["«Книга 4» (B4) is not on loan"])
    #expect(try store.books.count(filter: .issued) == 1)
  }

  @Test func limitsArePerCategory() throws {
    try store.circulation.issue(ticket: "C1", inventories: ["B1", "B2", "B3", "B4", "B5"])
    #expect(
      errorLines { try store.circulation.issue(ticket: "C1", inventories: ["B6"]) } == [
        "Детский К. already holds 5 books, the limit for category «Child»: take one back before issuing another"
      ])
    // The adult category's own limit applies to adults: seven books pass.
    try store.circulation.issue(ticket: "A1", inventories: ["B6", "B7", "B8", "B9", "B10", "B11", "B12"])
    #expect(try store.books.count(filter: .issued) == 12)
    try store.policy.setCategory(
      ReaderCategory(code: "adult", name: "Adult", loanDays: 14, loanLimit: 7, renewalLimit: 2))
    try store.circulation.returnBooks(inventories: ["B1"])
    #expect(
      errorLines { try store.circulation.issue(ticket: "A1", inventories: ["B1"]) } == [
        "Взрослова А. already holds 7 books, the limit for category «Adult»: take one back before issuing another"
      ])
  }

  @Test func overdueBooksBlockIssuesAndRenewalsWhenThePolicySaysSo() throws {
    try store.circulation.issue(ticket: "A1", inventories: ["B1", "B2"])
    clock.advance(days: 20)
    #expect(try store.books.count(filter: .overdue) == 2)
    #expect(
      errorLines { try store.circulation.issue(ticket: "A1", inventories: ["B3"]) } == [
        "Взрослова А. has 2 overdue books: take them back before issuing or renewing"
      ])
    #expect(
      errorLines { try store.circulation.renew(inventories: ["B1"]) } == [
        "Взрослова А. has 2 overdue books: take them back before issuing or renewing"
      ])
    var policy = try store.policy.current()
    policy.blockOnOverdue = false
    try store.policy.setCurrent(policy)
    #expect(try store.circulation.issue(ticket: "A1", inventories: ["B3"]).count == 1)
  }

  @Test func renewalsRespectTheLimit() throws {
    try store.circulation.issue(ticket: "C1", inventories: ["B1"])
    let renewed = try store.circulation.renew(inventories: ["B1"])
    #expect(renewed.first?.loan.renewals == 1)
    #expect(renewed.first?.loan.due.iso == "2026-12-28", "from the old due date, 2026-12-14, plus 14 days")
    #expect(
      errorLines { try store.circulation.renew(inventories: ["B1"]) } == [
        "«Книга 1» (B1) has been renewed 1 time, the limit: return it and issue it again if it may stay"
      ])
  }

  @Test func returnNeedsOnlyTheBookAndKeepsHistory() throws {
    try store.circulation.issue(ticket: "A1", inventories: ["B1"])
    clock.advance(days: 3)
    let returned = try store.circulation.returnBooks(inventories: ["B1"])
    #expect(returned.first?.loan.returned == clock.instant)
    #expect(try store.books.count(filter: .issued) == 0)
    let book = try #require(try store.books.book(inventory: "B1"))
    #expect(try store.circulation.loans(ofBook: book).count == 1)
    try store.circulation.issue(ticket: "C1", inventories: ["B1"])
    #expect(try store.circulation.loans(ofBook: book).map(\.readerTicket) == ["C1", "A1"])
  }

  @Test func refusesToDeleteWhatIsOut() throws {
    try store.circulation.issue(ticket: "A1", inventories: ["B1"])
    #expect(
      errorLines { try store.books.delete(inventory: "B1") } == [
        "«Книга 1» (B1) is issued to Взрослова А. (ticket A1): take it back before deleting it"
      ])
    #expect(
      errorLines { try store.readers.delete(ticket: "A1") } == [
        "Взрослова Анна holds 1 book: take it back before deleting the reader"
      ])
    try store.circulation.returnBooks(inventories: ["B1"])
    try store.readers.delete(ticket: "A1")
    #expect(try store.readers.reader(ticket: "A1") == nil)
  }

  @Test func refusesADueDateInThePastAndAnUnknownReader() throws {
    #expect(
      errorLines { try store.circulation.issue(ticket: "A1", inventories: ["B1"], due: LocalDate(iso: "2026-11-01")) }
        == [
          "Due date 2026-11-01 is in the past"
        ])
    #expect(
      errorLines { try store.circulation.issue(ticket: "Z9", inventories: ["B1"]) } == [
        "No reader has ticket Z9: check the card, or register the reader first"
      ])
  }

  @Test func categoriesAndHolidaysLiveInTheDatabase() throws {
    try store.policy.setCategory(
      ReaderCategory(code: "vip", name: "Honoured", loanDays: 30, loanLimit: 20, renewalLimit: 3))
    try store.readers.add(readerDraft("V1", "Почётный", category: "vip"))
    #expect(try store.circulation.issue(ticket: "V1", inventories: ["B1"]).first?.loan.due.iso == "2026-12-30")
    #expect(
      errorLines { try store.policy.removeCategory(code: "vip") } == [
        "Category «vip» has 1 readers: move them to another category first"
      ])
    #expect(errorLines { try store.policy.removeCategory(code: "adult") }.first?.contains("has 1 readers") == true)
    try store.policy.addHoliday(LocalDate(iso: "2026-12-31")!, name: "New Year's Eve")
    #expect(try store.policy.holidays().map(\.day.iso) == ["2026-12-31"])
    #expect(try store.policy.current().calendar.holidays.contains(LocalDate(iso: "2026-12-31")!))
    var policy = try store.policy.current()
    policy.calendar.closedWeekdays = Set(Weekday.allCases)
    #expect(
      errorLines { try store.policy.setCurrent(policy) } == ["The library cannot be closed on every day of the week"])
  }
}
