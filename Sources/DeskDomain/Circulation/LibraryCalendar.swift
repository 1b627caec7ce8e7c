/// The days the library is closed: weekdays closed every week and single holiday dates.
public struct LibraryCalendar: Hashable, Sendable {
  public var closedWeekdays: Set<Weekday>
  public var holidays: Set<LocalDate>

  public init(closedWeekdays: Set<Weekday> = [], holidays: Set<LocalDate> = []) {
    self.closedWeekdays = closedWeekdays
    self.holidays = holidays
  }

  public func isOpen(_ date: LocalDate) -> Bool {
    !closedWeekdays.contains(date.weekday) && !holidays.contains(date)
  }

  /// The first open day on or after `date`. A calendar closed every weekday has no open day;
  /// then `date` itself is returned rather than searching for ever.
  public func nextOpenDay(onOrAfter date: LocalDate) -> LocalDate {
    guard closedWeekdays.count < 7 else { return date }
    var day = date
    // Holidays are single dates, so a year and a week of searching always finds an open day.
    for _ in 0..<380 {
      if isOpen(day) { return day }
      day = day.adding(days: 1)
    }
    return date
  }
}

/// How a loan period turns into a due date: Koha's three modes.
public enum DueDateMode: String, CaseIterable, Sendable {
  /// Issue date plus the loan period, closed days ignored.
  case days
  /// Only open days count towards the loan period.
  case calendar
  /// Issue date plus the period, then moved to the next open day if that day is closed.
  case datedue

  public func dueDate(issuedOn: LocalDate, loanDays: Int, calendar: LibraryCalendar) -> LocalDate {
    switch self {
    case .days:
      return issuedOn.adding(days: loanDays)
    case .datedue:
      return calendar.nextOpenDay(onOrAfter: issuedOn.adding(days: loanDays))
    case .calendar:
      guard calendar.closedWeekdays.count < 7 else { return issuedOn.adding(days: loanDays) }
      var day = issuedOn
      var counted = 0
      while counted < loanDays {
        day = day.adding(days: 1)
        if calendar.isOpen(day) { counted += 1 }
      }
      return calendar.nextOpenDay(onOrAfter: day)
    }
  }
}
