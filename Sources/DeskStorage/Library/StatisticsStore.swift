import DeskDomain

/// The work diary's figures, read from what the library records: readers by their registration,
/// visits, loans by their issue and return, renewals, holds, and overdue loans by their due dates.
/// Nothing is counted apart: an undone issue is a deleted loan, and counts nowhere.
public struct StatisticsStore: StorePart {
  let store: LibraryStore

  /// The diary from `from` to `to` (both included, the library's own days), a row a `period`.
  public func diary(from: LocalDate, to: LocalDate, period: DiaryPeriod, split: DiarySplit? = nil)
    throws(StoreError) -> WorkDiary
  {
    let mapping = try branches()
    let (found, overdue) = try read { () throws -> ([DiaryEvent], [OverdueSpan]) in
      (try events(from: from, to: to), try overdueSpans(from: from, to: to))
    }
    return WorkDiary(
      from: from, to: to, period: period, split: split, events: found, overdue: overdue, branches: mapping)
  }

  /// The library's mapping of BBK indexes to the diary's branches (the setting `diary_branches`),
  /// or the standard one.
  public func branches() throws(StoreError) -> BranchMapping {
    let text = try read {
      try database.queryFirst("SELECT value FROM setting WHERE key = 'diary_branches'") { $0.string(0) }
    }
    return text.flatMap(BranchMapping.init(parsing:)) ?? .standard
  }

  public func setBranches(_ mapping: BranchMapping) throws(StoreError) {
    try write {
      try database.execute(
        "INSERT INTO setting(key, value) VALUES ('diary_branches', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
        mapping.text)
    }
  }

  /// Moments are kept in UTC and the diary counts the library's days: the moments read are a day
  /// wider each way, and each is placed on its local day.
  private func bounds(_ from: LocalDate, _ to: LocalDate) -> (String, String) {
    (Timestamp(date: from.adding(days: -1)).iso, Timestamp(date: to.adding(days: 2)).iso)
  }

  /// The reader's diary group on `day`: their age group by birth year, else their category's name.
  static func group(birthYear: Int?, category: String, on day: LocalDate) -> String {
    guard let birthYear, birthYear > 0 else { return category }
    return AgeGroup(birthYear: birthYear, eventYear: day.year).rawValue
  }

  private static let readerJoin = "JOIN reader r ON r.id = x.reader_id LEFT JOIN category c ON c.code = r.category"
  private static let readerColumns = "r.birth_year, coalesce(c.name, r.category)"

  private func events(from: LocalDate, to: LocalDate) throws -> [DiaryEvent] {
    let (low, high) = bounds(from, to)
    var events: [DiaryEvent] = []
    func local(_ iso: String) -> LocalDate? {
      guard let moment = Timestamp(iso: iso) else { return nil }
      let day = clock.local(moment).date
      return day >= from && day <= to ? day : nil
    }
    func add(
      _ figure: DiaryFigure, _ day: LocalDate?, _ row: Row, readerAt column: Int32, bbk: String? = nil, desk: String
    ) {
      guard let day else { return }
      let group = StatisticsStore.group(birthYear: row.optionalInt(column), category: row.string(column + 1), on: day)
      events.append(DiaryEvent(figure: figure, day: day, readerGroup: group, bbk: bbk, desk: desk))
    }
    // Readers registered (a date already), and visits (a day already).
    try database.forEachRow(
      """
      SELECT x.registered, \(StatisticsStore.readerColumns) FROM reader x
      JOIN reader r ON r.id = x.id LEFT JOIN category c ON c.code = r.category
      WHERE x.deleted = 0 AND x.registered BETWEEN ? AND ?
      """, from.iso, to.iso
    ) { row in add(.registered, LocalDate(iso: row.string(0)), row, readerAt: 1, desk: "") }
    try database.forEachRow(
      """
      SELECT x.day, \(StatisticsStore.readerColumns), x.desk FROM visit x \(StatisticsStore.readerJoin)
      WHERE x.day BETWEEN ? AND ?
      """, from.iso, to.iso
    ) { row in add(.visits, LocalDate(iso: row.string(0)), row, readerAt: 1, desk: row.string(3)) }
    // A reader of an earlier year at their first visit of each calendar year of the range: a visit
    // of the range with none before it that year, looked for by the reader's own visits (reading the
    // year's visits whole took 2.2 s for a 30-day range at a million loans a year).
    for year in from.year...to.year {
      guard let january = LocalDate(year: year, month: 1, day: 1) else { continue }
      try database.forEachRow(
        """
        SELECT x.day, \(StatisticsStore.readerColumns), min(x.desk) FROM visit x \(StatisticsStore.readerJoin)
        WHERE x.day >= ?2 AND x.day <= ?3 AND r.registered < ?1
          AND NOT EXISTS (SELECT 1 FROM visit y WHERE y.reader_id = x.reader_id AND y.day >= ?1 AND y.day < x.day)
        GROUP BY x.reader_id, x.day
        """, january.iso, max(from, january).iso, min(to, LocalDate(year: year, month: 12, day: 31) ?? to).iso
      ) { row in
        add(.reregistered, LocalDate(iso: row.string(0)), row, readerAt: 1, desk: row.string(3))
      }
    }
    // Loans: issued and returned; undone ones are deleted and left out.
    let loanJoin = "\(StatisticsStore.readerJoin) JOIN book b ON b.id = x.book_id"
    try database.forEachRow(
      """
      SELECT x.issued_at, \(StatisticsStore.readerColumns), b.bbk, x.desk FROM loan x \(loanJoin)
      WHERE x.deleted = 0 AND x.issued_at >= ? AND x.issued_at < ?
      """, low, high
    ) { row in add(.issues, local(row.string(0)), row, readerAt: 1, bbk: row.string(3), desk: row.string(4)) }
    try database.forEachRow(
      """
      SELECT x.returned_at, \(StatisticsStore.readerColumns), b.bbk, x.desk FROM loan x \(loanJoin)
      WHERE x.deleted = 0 AND x.returned_at >= ? AND x.returned_at < ?
      """, low, high
    ) { row in add(.returns, local(row.string(0)), row, readerAt: 1, bbk: row.string(3), desk: row.string(4)) }
    try database.forEachRow(
      """
      SELECT n.renewed_at, \(StatisticsStore.readerColumns), b.bbk, n.desk FROM renewal n
      JOIN loan x ON x.id = n.loan_id \(loanJoin)
      WHERE n.deleted = 0 AND x.deleted = 0 AND n.renewed_at >= ? AND n.renewed_at < ?
      """, low, high
    ) { row in add(.renewals, local(row.string(0)), row, readerAt: 1, bbk: row.string(3), desk: row.string(4)) }
    // Holds placed, and filled (the reader took the book).
    try database.forEachRow(
      """
      SELECT x.placed_at, \(StatisticsStore.readerColumns), x.desk FROM hold x \(StatisticsStore.readerJoin)
      WHERE x.placed_at >= ? AND x.placed_at < ?
      """, low, high
    ) { row in add(.holdsPlaced, local(row.string(0)), row, readerAt: 1, desk: row.string(3)) }
    try database.forEachRow(
      """
      SELECT x.ended_at, \(StatisticsStore.readerColumns), x.desk FROM hold x \(StatisticsStore.readerJoin)
      WHERE x.state = 'fulfilled' AND x.ended_at >= ? AND x.ended_at < ?
      """, low, high
    ) { row in add(.holdsFilled, local(row.string(0)), row, readerAt: 1, desk: row.string(3)) }
    return events
  }

  /// Each loan overdue on some day's end of the range: from the day after its due date to the day
  /// before its return (or the range's end).
  private func overdueSpans(from: LocalDate, to: LocalDate) throws -> [OverdueSpan] {
    let (low, _) = bounds(from, to)
    var spans: [OverdueSpan] = []
    let read = { (row: Row) throws in
      guard let due = LocalDate(iso: row.string(0)) else { return }
      let first = max(from, due.adding(days: 1))
      var last = to
      if let returned = row.optionalString(1).flatMap(Timestamp.init(iso:)) {
        last = min(to, self.clock.local(returned).date.adding(days: -1))
      }
      guard first <= last else { return }
      let group = StatisticsStore.group(birthYear: row.optionalInt(2), category: row.string(3), on: last)
      spans.append(
        OverdueSpan(firstDay: first, lastDay: last, readerGroup: group, bbk: row.string(4), desk: row.string(5)))
    }
    let columns = "x.due_date, x.returned_at, \(StatisticsStore.readerColumns), b.bbk, x.desk"
    let join = "\(StatisticsStore.readerJoin) JOIN book b ON b.id = x.book_id"
    // Open loans by their due date's index; returned ones by their return's.
    try database.forEachRow(
      """
      SELECT \(columns) FROM loan x \(join)
      WHERE x.returned_at IS NULL AND x.deleted = 0 AND x.due_date < ?
      """, to.iso, body: read)
    try database.forEachRow(
      """
      SELECT \(columns) FROM loan x \(join)
      WHERE x.returned_at IS NOT NULL AND x.deleted = 0 AND x.returned_at >= ? AND x.due_date < ?
      """, low, to.iso, body: read)
    return spans
  }
}

extension LibraryStore {
  public var statistics: StatisticsStore { StatisticsStore(store: self) }
}
