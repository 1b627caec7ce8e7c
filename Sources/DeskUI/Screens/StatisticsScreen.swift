import DeskDomain
import DeskStorage

/// The work diary at a glance: the day and the month against the same a year before, issues per
/// day of the month and per month of the year as bar charts in the terminal's width. ← → move a
/// month (never past the current one). Every figure comes from `StatisticsStore`, which the
/// command `circdesk stats` prints too.
final class StatisticsScreen: DeskScreen {
  /// The first day of the month shown; nil until the first reload (today's month).
  private var month: LocalDate?
  private var table: [(figure: DiaryFigure, values: [Int])] = []
  private var dayName = ""
  private var perDay: [Int] = []
  /// The days of `perDay`: the month's, or in the current month the 30 days to today.
  private var perDayDates: [LocalDate] = []
  private var perMonth: [Int] = []
  /// The month's figures split (s: by reader group, by branch, by desk, none), shown instead of
  /// the charts.
  private var split: DiarySplit?
  private var splitDiary: WorkDiary?

  var helpTopic: HelpTopic { .statistics }

  func title(_ context: UIContext) -> String {
    let (year, number, _) = (month ?? context.today).components
    return context.strings.statisticsTitle(month: number, year: year)
  }

  func keyHints(_ context: UIContext) -> [KeyHint] {
    actions(context).hints
  }

  func actions(_ context: UIContext) -> [ScreenAction] {
    let s = context.strings
    return [
      ScreenAction(Keys.months, hint: s.keyMonths, name: "←→") { key in
        guard let shown = self.month else { return [] }
        let moved = StatisticsScreen.month(from: shown, by: key == .left ? -1 : 1)
        guard moved <= StatisticsScreen.firstOfMonth(context.today) else { return [.bell] }
        self.month = moved
        return self.reload(context: context)
      },
      ScreenAction(Keys.split, hint: s.keySplit) {
        let order: [DiarySplit?] = [nil, .category, .branch, .desk]
        let index = order.firstIndex { $0 == self.split } ?? 0
        self.split = order[(index + 1) % order.count]
        return self.reload(context: context)
      },
      ScreenAction(Keys.back, hint: s.keyBack) { [.pop] },
    ]
  }

  func handle(_ key: Key, context: UIContext) -> [Effect] {
    if key == .character("?") { return [.help(helpTopic)] }
    return actions(context).run(key) ?? []
  }

  func reload(context: UIContext) -> [Effect] {
    let today = context.today
    let first = month ?? StatisticsScreen.firstOfMonth(today)
    month = first
    let year = first.year
    let monthEnd = StatisticsScreen.month(from: first, by: 1).adding(days: -1)
    // The day shown: today in the current month, else the month's last.
    let day = min(monthEnd, today)
    let statistics = context.store.statistics
    do {
      let dayNow = try statistics.diary(from: day, to: day, period: .day).total
      let yearBefore = { (date: LocalDate) -> LocalDate in
        let (y, m, d) = date.components
        return LocalDate(year: y - 1, month: m, day: d) ?? LocalDate(year: y - 1, month: m, day: d - 1) ?? date
      }
      let dayAgo = try statistics.diary(from: yearBefore(day), to: yearBefore(day), period: .day).total
      let monthNow = try statistics.diary(from: first, to: day, period: .day)
      let monthAgo = try statistics.diary(from: yearBefore(first), to: yearBefore(day), period: .month).total
      let yearNow = try statistics.diary(
        from: LocalDate(year: year, month: 1, day: 1) ?? first,
        to: min(today, LocalDate(year: year, month: 12, day: 31) ?? today),
        period: .month)
      table = DiaryFigure.allCases.map { figure in
        (figure, [dayNow.total(figure), dayAgo.total(figure), monthNow.total.total(figure), monthAgo.total(figure)])
      }
      splitDiary = nil
      if let split { splitDiary = try statistics.diary(from: first, to: day, period: .month, split: split) }
      // A past day by its month's short name: the column is eight wide at 60 columns.
      dayName =
        day == today
        ? context.strings.statisticsTodayName
        : context.strings.shortMonths[day.components.month - 1] + " \(day.components.day)"
      // The current month's chart is of the last 30 days, which the month's first days would not fill.
      let days =
        first == StatisticsScreen.firstOfMonth(today)
        ? try statistics.diary(from: today.adding(days: -29), to: today, period: .day) : monthNow
      perDay = days.rows.map { $0.total(.issues) }
      perDayDates = days.rows.map(\.first)
      perMonth = (1...12).map { index in
        yearNow.rows.first { $0.first.components.month == index }?.total(.issues) ?? 0
      }
    } catch {
      return [.dialog(.error(context.strings.errorTitle, context.messages(error)))]
    }
    return []
  }

  func render(into buffer: inout ScreenBuffer, area: Rect, context: UIContext) {
    let s = context.strings
    guard let month else { return }
    let (year, number, _) = month.components
    var y = area.row + 1
    let left = area.column + 2
    let width = area.width - 4
    // A window too short for both shows the split alone.
    if let split, let splitDiary, area.height < 24 {
      renderSplit(splitDiary, split: split, top: y, area: area, buffer: &buffer, context: context)
      return
    }
    // The table: a figure a row, four columns of numbers.
    // Narrow numbers before a narrow name: 60 columns keep «Readers registered» whole.
    let column = max(8, min(11, (width - 20) / 4))
    let nameWidth = min(26, max(12, width - 4 * column))
    let headers = s.statisticsColumns(day: dayName, month: s.shortMonths[number - 1] + " \(year)")
    var header = String(repeating: " ", count: nameWidth)
    for title in headers { header += StatisticsScreen.right(title.truncated(toWidth: column - 1), column) }
    buffer.write(header, row: y, column: left, width: width, style: context.style(.header))
    y += 1
    for (figure, values) in table where y < area.bottom {
      var line = s.diaryFigure(figure).truncated(toWidth: nameWidth - 1).padded(toWidth: nameWidth)
      for value in values { line += StatisticsScreen.right(String(value), column) }
      buffer.write(line, row: y, column: left, width: width)
      y += 1
    }
    if let split, let splitDiary {
      renderSplit(splitDiary, split: split, top: y + 1, area: area, buffer: &buffer, context: context)
      return
    }
    // The charts, each as tall as the room left allows (at most 8 rows), side by side when wide.
    // After a blank line: both charts (each a title, its bars and labels, a line between), or the
    // days' alone with a line saying a taller window shows the months' too, or that line alone.
    y += 1
    let room = area.bottom - y
    let both = min(8, (room - 5) / 2)
    let height = both >= 2 ? both : min(8, room - 4)
    guard height >= 2 else {
      if room >= 1 {
        buffer.write(s.chartsNeedRoom, row: y, column: left, width: width, style: context.style(.muted))
      }
      return
    }
    let lastDays = month == StatisticsScreen.firstOfMonth(context.today)
    y = chart(
      perDay, title: lastDays ? s.issuesLast30Days : s.issuesPerDay(month: number, year: year),
      labels: StatisticsScreen.dayLabels(perDayDates),
      barWidth: 2, height: height, top: y, left: left, width: width, buffer: &buffer, context: context)
    y += 1
    guard area.bottom - y >= height + 2 else {
      if y < area.bottom {
        buffer.write(s.monthChartNeedsRoom, row: y, column: left, width: width, style: context.style(.muted))
      }
      return
    }
    _ = chart(
      perMonth, title: s.issuesPerMonth(year: year), labels: s.shortMonths, barWidth: 4, height: height, top: y,
      left: left, width: width, buffer: &buffer, context: context)
  }

  /// The month's figures by the split's columns: a row a figure it divides.
  private func renderSplit(
    _ diary: WorkDiary, split: DiarySplit, top: Int, area: Rect, buffer: inout ScreenBuffer, context: UIContext
  ) {
    let s = context.strings
    let left = area.column + 2
    let width = area.width - 4
    buffer.write(s.splitTitle(split), row: top, column: left, width: width, style: context.style(.title))
    let figures = DiaryFigure.allCases.filter { diary.total.split[$0] != nil }
    guard !figures.isEmpty else {
      if top + 2 < area.bottom {
        buffer.write(s.splitEmpty, row: top + 2, column: left, width: width, style: context.style(.muted))
      }
      return
    }
    guard top + 2 < area.bottom else { return }
    // Every column in view: narrower names first, then narrower numbers.
    let count = max(1, diary.columns.count)
    let column = max(6, min(14, (width - 12) / count))
    let nameWidth = max(8, min(26, width - count * column))
    var header = String(repeating: " ", count: nameWidth)
    for name in diary.columns {
      header += StatisticsScreen.right(s.splitColumn(name, split: split).truncated(toWidth: column - 1), column)
    }
    buffer.write(header, row: top + 1, column: left, width: width, style: context.style(.header))
    for (offset, figure) in figures.enumerated() where top + 2 + offset < area.bottom {
      var line = s.diaryFigure(figure).truncated(toWidth: nameWidth - 1).padded(toWidth: nameWidth)
      for name in diary.columns { line += StatisticsScreen.right(String(diary.total.count(figure, in: name)), column) }
      buffer.write(line, row: top + 2 + offset, column: left, width: width)
    }
    let note = top + 3 + figures.count
    if split == .branch, diary.issuesWithoutIndex > 0, note < area.bottom {
      buffer.write(
        s.issuesWithoutIndex(diary.issuesWithoutIndex), row: note, column: left, width: width,
        style: context.style(.muted))
    }
  }

  /// A bar chart of `values` under its title, the largest value written beside its top; each
  /// bar `barWidth` columns (a space between), drawn in eighths of a row with block characters, or
  /// with plain marks on a terminal without colour. Returns the row after its labels.
  private func chart(
    _ values: [Int], title: String, labels: [String], barWidth: Int, height: Int, top: Int, left: Int, width: Int,
    buffer: inout ScreenBuffer, context: UIContext
  ) -> Int {
    let largest = values.max() ?? 0
    buffer.write(
      title + "  (" + context.strings.chartLargest(largest) + ")", row: top, column: left, width: width,
      style: context.style(.title))
    let scaleWidth = String(largest).count + 1
    // Narrower than every bar with its gap: bars of one column side by side, so no day is lost.
    let barWidth = values.count * barWidth <= width - scaleWidth ? barWidth : 1
    let fits = max(0, (width - scaleWidth) / barWidth)
    let shown = Array(values.prefix(fits))
    let blocks: [Character] =
      context.theme.colors
      ? [" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"] : [" ", "#", "#", "#", "#", "#", "#", "#", "#"]
    for row in 0..<height {
      let line = top + 1 + row
      if row == 0 { buffer.write(String(largest), row: line, column: left, width: scaleWidth) }
      var text = ""
      for value in shown {
        // Eighths of the whole height the bar fills, and of this row.
        let eighths = largest == 0 ? 0 : (value * height * 8 + largest - 1) / largest
        let fromBottom = height - 1 - row
        let here = max(0, min(8, eighths - fromBottom * 8))
        text += barWidth == 1 ? String(blocks[here]) : String(repeating: blocks[here], count: barWidth - 1) + " "
      }
      buffer.write(text, row: line, column: left + scaleWidth, width: width - scaleWidth, style: context.style(.issued))
    }
    // Each label under its bar, where it has room before the next one.
    var labelCells = [Character](repeating: " ", count: shown.count * barWidth + 4)
    var free = 0
    for index in shown.indices {
      let label = index < labels.count ? labels[index] : ""
      let start = index * barWidth
      guard !label.isEmpty, start >= free else { continue }
      for (offset, character) in label.enumerated() where start + offset < labelCells.count {
        labelCells[start + offset] = character
      }
      free = start + label.count + 1
    }
    let labelLine = String(labelCells)
    buffer.write(
      labelLine, row: top + 1 + height, column: left + scaleWidth, width: width - scaleWidth,
      style: context.style(.muted))
    return top + 2 + height
  }

  /// A chart's day labels: the first day, each fifth and each month's first, never two side by
  /// side («30» then «1» would read as 301).
  static func dayLabels(_ dates: [LocalDate]) -> [String] {
    var labels: [String] = []
    for (index, date) in dates.enumerated() {
      let day = date.components.day
      let wanted = index == 0 || day % 5 == 0 || day == 1
      // A month's first wins over the fifth just before it: it says where the month starts.
      if day == 1, let last = labels.indices.last, !labels[last].isEmpty { labels[last] = "" }
      labels.append(wanted && labels.last?.isEmpty != false ? String(day) : "")
    }
    return labels
  }

  /// Text set flush right in `width` columns.
  static func right(_ text: String, _ width: Int) -> String {
    String(repeating: " ", count: max(0, width - text.displayWidth)) + text
  }

  static func firstOfMonth(_ date: LocalDate) -> LocalDate {
    let (year, month, _) = date.components
    return LocalDate(year: year, month: month, day: 1) ?? date
  }

  /// The first day of the month `offset` months from the month starting `first`.
  static func month(from first: LocalDate, by offset: Int) -> LocalDate {
    let (year, month, _) = first.components
    let index = year * 12 + (month - 1) + offset
    return LocalDate(year: index / 12, month: index % 12 + 1, day: 1) ?? first
  }
}

extension StatisticsScreen {
  /// The statistics' keys, in the help's order.
  enum Keys {
    static let months = KeyDeclaration(.left, .right, name: "← →", means: .chooseMonth)
    static let split = KeyDeclaration(.character("s"), means: .splitFigures)
    static let back = KeyDeclaration(.escape, .character("q"), means: .back)
    static let all = [months, split, back]
  }
}
