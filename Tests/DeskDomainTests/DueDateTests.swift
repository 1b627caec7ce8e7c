import Testing

@testable import DeskDomain

/// Koha's own test case: closed on Saturdays, Sundays, 1 January, 25 December and 2012-07-04.
@Suite struct DueDateTests {
  let calendar = LibraryCalendar(
    closedWeekdays: [.saturday, .sunday],
    holidays: [
      LocalDate(year: 2012, month: 1, day: 1)!, LocalDate(year: 2012, month: 12, day: 25)!,
      LocalDate(year: 2012, month: 7, day: 4)!,
    ])

  func date(_ text: String) -> LocalDate { LocalDate(iso: text)! }

  @Test func oneDayLoanOverAHoliday() {
    let issued = date("2012-07-03")
    #expect(DueDateMode.days.dueDate(issuedOn: issued, loanDays: 1, calendar: calendar) == date("2012-07-04"))
    #expect(DueDateMode.calendar.dueDate(issuedOn: issued, loanDays: 1, calendar: calendar) == date("2012-07-05"))
    #expect(DueDateMode.datedue.dueDate(issuedOn: issued, loanDays: 1, calendar: calendar) == date("2012-07-05"))
    #expect(issued == date("2012-07-03"), "the issue date is not modified")
  }

  @Test func weekLoanFromAMonday() {
    let issued = date("2012-07-23")
    #expect(issued.weekday == .monday)
    #expect(DueDateMode.datedue.dueDate(issuedOn: issued, loanDays: 7, calendar: calendar) == date("2012-07-30"))
    #expect(DueDateMode.calendar.dueDate(issuedOn: issued, loanDays: 7, calendar: calendar) == date("2012-08-01"))
    #expect(DueDateMode.days.dueDate(issuedOn: issued, loanDays: 7, calendar: calendar) == date("2012-07-30"))
  }

  @Test func holidaysIgnoreTheTimeOfDay() {
    let lateEvening = Timestamp(date: date("2012-07-04"), hour: 23, minute: 59)
    #expect(!calendar.isOpen(lateEvening.utcDate))
    #expect(calendar.isOpen(Timestamp(date: date("2012-07-05"), hour: 0).utcDate))
  }

  @Test func aCalendarClosedEveryDayDoesNotLoopForever() {
    let closed = LibraryCalendar(closedWeekdays: Set(Weekday.allCases))
    #expect(
      DueDateMode.calendar.dueDate(issuedOn: date("2026-01-01"), loanDays: 3, calendar: closed) == date("2026-01-04"))
    #expect(
      DueDateMode.datedue.dueDate(issuedOn: date("2026-01-01"), loanDays: 3, calendar: closed) == date("2026-01-04"))
  }

  @Test func renewalCountsFromTheOldDueDateOrFromToday() {
    let category = ReaderCategory(code: "adult", name: "Adult", loanDays: 14, loanLimit: 10, renewalLimit: 2)
    var policy = CirculationPolicy(dueDateMode: .days, calendar: LibraryCalendar())
    policy.renewalBase = .dueDate
    #expect(
      policy.renewedDueDate(oldDue: date("2026-12-10"), today: date("2026-12-01"), category: category)
        == date("2026-12-24"))
    // An overdue loan renewed "from the due date" still gets a full period from today.
    #expect(
      policy.renewedDueDate(oldDue: date("2026-11-20"), today: date("2026-12-01"), category: category)
        == date("2026-12-15"))
    policy.renewalBase = .today
    #expect(
      policy.renewedDueDate(oldDue: date("2026-12-10"), today: date("2026-12-01"), category: category)
        == date("2026-12-15"))
  }
}
