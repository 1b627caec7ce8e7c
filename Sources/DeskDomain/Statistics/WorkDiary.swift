/// The figures of a library's work diary («дневник работы библиотеки»), in its order.
public enum DiaryFigure: String, CaseIterable, Hashable, Sendable {
  /// Readers registered that day.
  case registered
  /// Readers of earlier years at their first visit of the calendar year (the diary's
  /// re-registration).
  case reregistered
  /// A reader at a counter, once a day a desk.
  case visits
  case issues, renewals, returns
  case holdsPlaced = "holds_placed"
  case holdsFilled = "holds_filled"
  /// Loans overdue at the day's end: a count of that moment, not a sum (a month's is its last day's).
  case overdue

  /// Figures of a book, which a split by branch of knowledge divides.
  public var isOfABook: Bool { [.issues, .renewals, .returns, .overdue].contains(self) }
}

/// How the diary's rows are made: a day, a month, a quarter or a year each.
public enum DiaryPeriod: String, CaseIterable, Sendable {
  case day, month, quarter, year

  /// The period holding `date`: its first and last days, and its name (`2026-12-04`, `2026-12`,
  /// `2026-Q4`, `2026`).
  public func around(_ date: LocalDate) -> (first: LocalDate, last: LocalDate, name: String) {
    let (year, month, _) = date.components
    switch self {
    case .day: return (date, date, date.iso)
    case .month:
      let first = LocalDate(year: year, month: month, day: 1) ?? date
      let next =
        month == 12 ? LocalDate(year: year + 1, month: 1, day: 1) : LocalDate(year: year, month: month + 1, day: 1)
      return (first, next.map { $0.adding(days: -1) } ?? date, String(first.iso.prefix(7)))
    case .quarter:
      let quarter = (month - 1) / 3
      let first = LocalDate(year: year, month: quarter * 3 + 1, day: 1) ?? date
      let next =
        quarter == 3
        ? LocalDate(year: year + 1, month: 1, day: 1) : LocalDate(year: year, month: quarter * 3 + 4, day: 1)
      return (first, next.map { $0.adding(days: -1) } ?? date, "\(year)-Q\(quarter + 1)")
    case .year:
      let first = LocalDate(year: year, month: 1, day: 1) ?? date
      return (first, LocalDate(year: year, month: 12, day: 31) ?? date, String(year))
    }
  }
}

/// What the figures are split by, beside their totals.
public enum DiarySplit: String, CaseIterable, Sendable {
  case category, branch, desk
}

/// The diary over a range of days: a row a period, and the totals.
public struct WorkDiary: Equatable, Sendable {
  public struct Row: Equatable, Sendable {
    public var name: String
    public var first: LocalDate
    public var last: LocalDate
    /// Each figure's total.
    public var totals: [DiaryFigure: Int]
    /// Each figure by the split's column (a reader group, a branch or a desk).
    public var split: [DiaryFigure: [String: Int]]

    public func total(_ figure: DiaryFigure) -> Int { totals[figure] ?? 0 }
    public func count(_ figure: DiaryFigure, in column: String) -> Int { split[figure]?[column] ?? 0 }
  }

  public var from: LocalDate
  public var to: LocalDate
  public var rows: [Row]
  /// The whole range (overdue: at its last day's end).
  public var total: Row
  /// The split's columns, in order: a branch split lists every branch; the others as met, sorted.
  public var columns: [String]
  /// Issues of books without a BBK index: counted under «other» in a split by branch.
  public var issuesWithoutIndex: Int

  /// Adds up `tallies` between `from` and `to` (both included), a row each `period`, split by
  /// `split`. Overdue tallies are changes at their day's end; `overdueBefore` is what stood at the
  /// end of the day before `from`.
  public init(
    from: LocalDate, to: LocalDate, period: DiaryPeriod, split: DiarySplit? = nil, tallies: [DiaryTally],
    overdueBefore: [DiaryTally] = []
  ) {
    self.from = from
    self.to = to
    // The periods, clipped to the range.
    var rows: [Row] = []
    var day = from
    while day <= to {
      let period = period.around(day)
      let last = min(period.last, to)
      rows.append(Row(name: period.name, first: day, last: last, totals: [:], split: [:]))
      day = last.adding(days: 1)
    }
    func rowIndex(_ day: LocalDate) -> Int? {
      var (low, high) = (0, rows.count - 1)
      while low <= high {
        let middle = (low + high) / 2
        if day < rows[middle].first {
          high = middle - 1
        } else if day > rows[middle].last {
          low = middle + 1
        } else {
          return middle
        }
      }
      return nil
    }
    func column(_ tally: DiaryTally) -> String? {
      switch split {
      case nil: return nil
      case .category: return tally.readerGroup.isEmpty ? nil : tally.readerGroup
      case .desk: return tally.desk.isEmpty ? nil : tally.desk  // a reader's registration names no desk
      case .branch:
        guard tally.figure.isOfABook else { return nil }
        return tally.branch == DiaryTally.withoutIndex ? KnowledgeBranch.other.rawValue : tally.branch
      }
    }
    var total = Row(name: "total", first: from, last: to, totals: [:], split: [:])
    var withoutIndex = 0
    var overdueChanges: [DiaryTally] = []
    for tally in tallies where tally.day >= from && tally.day <= to {
      if tally.figure == .overdue {
        overdueChanges.append(tally)
        continue
      }
      guard let index = rowIndex(tally.day) else { continue }
      rows[index].totals[tally.figure, default: 0] += tally.count
      total.totals[tally.figure, default: 0] += tally.count
      if tally.figure == .issues, tally.branch == DiaryTally.withoutIndex { withoutIndex += tally.count }
      if let column = column(tally) {
        rows[index].split[tally.figure, default: [:]][column, default: 0] += tally.count
        total.split[tally.figure, default: [:]][column, default: 0] += tally.count
      }
    }
    // Overdue is what stands at a period's last day's end: what stood before, and the changes since.
    var standing = 0
    var standingSplit: [String: Int] = [:]
    func take(_ tally: DiaryTally) {
      standing += tally.count
      if let column = column(tally) { standingSplit[column, default: 0] += tally.count }
    }
    overdueBefore.forEach(take)
    overdueChanges.sort { $0.day < $1.day }
    var next = 0
    for index in rows.indices {
      while next < overdueChanges.count && overdueChanges[next].day <= rows[index].last {
        take(overdueChanges[next])
        next += 1
      }
      if standing != 0 { rows[index].totals[.overdue] = standing }
      let split = standingSplit.filter { $0.value != 0 }
      if !split.isEmpty { rows[index].split[.overdue] = split }
    }
    if let last = rows.last {
      total.totals[.overdue] = last.totals[.overdue]
      total.split[.overdue] = last.split[.overdue]
    }
    self.rows = rows
    self.total = total
    self.issuesWithoutIndex = withoutIndex
    let met = Set(total.split.values.flatMap(\.keys) + rows.flatMap { $0.split.values.flatMap(\.keys) })
    let ages = AgeGroup.allCases.map(\.rawValue)
    switch split {
    case .branch?: columns = KnowledgeBranch.allCases.map(\.rawValue)
    // Every age group, counted or not, where the library keeps birth years: a month's CSV lines up
    // with the next one's.
    case .category? where !met.isDisjoint(with: ages): columns = ages + met.subtracting(ages).sorted()
    default: columns = met.sorted()
    }
  }
}
