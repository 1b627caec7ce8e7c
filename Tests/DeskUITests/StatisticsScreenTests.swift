import DeskDomain
import DeskStorage
import DeskTestSupport
import Testing

@testable import DeskUI

/// The Statistics screen (Home, t): the work diary's figures of the day and the month beside a
/// year before, and the month's and the year's issues as bar charts, moving a month with ← →.
@Suite struct StatisticsScreenTests {
  /// The numbers of a figure's row: the day, a year before, the month, a year before.
  func row(_ name: String, in screen: String) -> [Int] {
    let line = screen.split(separator: "\n").first { $0.hasPrefix("  " + name + "  ") } ?? ""
    return line.split(separator: " ").compactMap { Int($0) }
  }

  @Test func theDiaryOfTheDayAndMonthWithItsCharts() throws {
    let desk = try DeskHarness()
    desk.press(.character("t"))
    #expect(desk.app.top is StatisticsScreen)
    var screen = desk.text(rows: 40, columns: 100)
    #expect(screen.contains("Statistics: November 2026"))
    // The small library: two readers registered today, two issues earlier this month.
    #expect(row("Readers registered", in: screen) == [2, 0, 2, 0], "\(screen)")
    #expect(row("Issues", in: screen) == [0, 0, 2, 0])
    // This month's chart is of the last 30 days; a month before, of that month's days.
    #expect(screen.contains("Issues per day, the last 30 days  (at most 1)"), "\(screen)")
    #expect(screen.contains("█"))
    // A visit at the Desk: the reader, a book; the screen counts them when opened again.
    desk.press(.escape, .character("d"))
    desk.scan("17")
    desk.scan("100234")
    desk.press(.escape, .escape, .escape, .character("t"))
    screen = desk.text(rows: 40, columns: 100)
    #expect(row("Issues", in: screen) == [1, 0, 3, 0], "\(screen)")
    #expect(row("Visits", in: screen) == [1, 0, 3, 0])
    // The month before; never past this one.
    desk.press(.left)
    screen = desk.text(rows: 40, columns: 100)
    #expect(screen.contains("Statistics: October 2026"))
    #expect(screen.contains("Issues per day, October 2026"))
    desk.press(.right, .right)
    #expect(desk.text(rows: 40, columns: 100).contains("Statistics: November 2026"))
  }

  /// The last 30 days across a month's end: each fifth day and the month's first are named, never
  /// two side by side (the first wins over a 30th just before it).
  @Test func theDaysOfAChartAcrossTheMonthsEnd() throws {
    let first = try #require(LocalDate(iso: "2026-11-05"))
    let labels = StatisticsScreen.dayLabels((0..<30).map { first.adding(days: $0) })
    #expect(
      labels.enumerated().filter { !$0.element.isEmpty }.map { "\($0.offset):\($0.element)" }
        == ["0:5", "5:10", "10:15", "15:20", "20:25", "26:1"])
    let february = try #require(LocalDate(iso: "2026-02-20"))
    #expect(
      StatisticsScreen.dayLabels((0..<15).map { february.adding(days: $0) }).filter { !$0.isEmpty }
        == ["20", "25", "1", "5"])
  }

  /// A narrow window draws a bar a column, every day in view; a window with room for one chart
  /// says a taller one shows the other.
  @Test func narrowAndShortWindowsKeepEveryDayAndSaySo() throws {
    let desk = try DeskHarness()
    desk.press(.character("t"))
    let narrow = desk.text(rows: 30, columns: 60)
    let days = try #require(narrow.split(separator: "\n").first { $0.contains("Issues per day") })
    let labels = narrow.split(separator: "\n").drop { $0 != days }.dropFirst().first { $0.contains(" 5 ") } ?? ""
    #expect(labels.contains("25") && labels.contains("30"), "\(narrow)")
    #expect(desk.text(rows: 23, columns: 100).contains("A taller window shows the issues per month too."))
  }

  /// Without colour the bars are plain marks.
  @Test func withoutColourTheBarsArePlainMarks() throws {
    let desk = try DeskHarness(colors: false)
    desk.press(.character("t"))
    let screen = desk.text(rows: 40, columns: 100)
    #expect(screen.contains("#") && !screen.contains("█"))
  }

  /// s splits the month by reader group, then by branch, then by desk, then not.
  @Test func theMonthSplit() throws {
    let desk = try DeskHarness()
    desk.press(.character("t"), .character("s"))
    var screen = desk.text(rows: 40, columns: 100)
    #expect(screen.contains("The month by reader group"), "\(screen)")
    #expect(screen.contains("Readers registered"))
    desk.press(.character("s"))
    screen = desk.text(rows: 40, columns: 100)
    #expect(screen.contains("The month's books by branch of knowledge"))
    #expect(screen.contains("fiction") && screen.contains("other"))
    desk.press(.character("s"))
    #expect(desk.text(rows: 40, columns: 100).contains("The month by desk"))
    desk.press(.character("s"))
    #expect(desk.text(rows: 40, columns: 100).contains("Issues per day"))
  }
}
