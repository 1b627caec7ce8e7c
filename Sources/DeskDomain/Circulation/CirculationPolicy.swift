/// The library-wide circulation settings; per-category rules live in `ReaderCategory`.
public struct CirculationPolicy: Hashable, Sendable {
  public var dueDateMode: DueDateMode
  public var calendar: LibraryCalendar
  /// Refuse issues and renewals to a reader who holds an overdue book.
  public var blockOnOverdue: Bool
  /// Whether a renewal counts the new period from today or from the old due date.
  public var renewalBase: RenewalBase
  /// The category a new reader gets when none is named.
  public var defaultCategory: String
  /// The name of this desk, written into each loan it makes.
  public var deskName: String
  /// Characters a scanner sends before a reader card's number, or printed on the cards, to tell
  /// them from book labels when the two number ranges overlap; empty for none.
  public var readerCodePrefix = ""
  /// The same for book labels.
  public var bookCodePrefix = ""
  /// The keyboard-wedge scanner: the longest gap between two keys of one scan, the shortest
  /// code, and the characters the scanner is programmed to send around each code.
  public var scannerMaximumGapMilliseconds = 50
  public var scannerMinimumLength = 4
  public var scannerPrefix = ""
  public var scannerSuffix = ""
  /// Ring the terminal's bell (or flash it) on a refusal or an unknown code at the desk.
  public var bell = true
  /// How often a desk joined to a central syncs while nothing changes here, in seconds (a change
  /// made here goes out within a second or two whatever this says).
  public var syncIntervalSeconds = 30
  /// Days a copy put aside for a hold waits on the hold shelf (Koha's `ReservesMaxPickUpDelay`).
  public var holdPickupDays = 7

  public init(
    dueDateMode: DueDateMode = .datedue, calendar: LibraryCalendar = LibraryCalendar(closedWeekdays: [.sunday]),
    blockOnOverdue: Bool = true, renewalBase: RenewalBase = .dueDate, defaultCategory: String = "adult",
    deskName: String = "desk-1"
  ) {
    self.dueDateMode = dueDateMode
    self.calendar = calendar
    self.blockOnOverdue = blockOnOverdue
    self.renewalBase = renewalBase
    self.defaultCategory = defaultCategory
    self.deskName = deskName
  }

  public func dueDate(issuedOn: LocalDate, category: ReaderCategory) -> LocalDate {
    dueDateMode.dueDate(issuedOn: issuedOn, loanDays: category.loanDays, calendar: calendar)
  }

  /// The new due date of a renewed loan.
  public func renewedDueDate(oldDue: LocalDate, today: LocalDate, category: ReaderCategory) -> LocalDate {
    let base = renewalBase == .today ? today : max(oldDue, today)
    return dueDateMode.dueDate(issuedOn: base, loanDays: category.loanDays, calendar: calendar)
  }
}

public enum RenewalBase: String, CaseIterable, Sendable {
  case today
  case dueDate = "due-date"
}
