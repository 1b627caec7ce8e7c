import DeskDomain

/// The work diary's figures, read from the daily sums the triggers keep of what the library
/// records (`DiarySums`): readers by their registration, visits, loans by their issue and return,
/// renewals, holds, and overdue loans by their due dates. An undone issue is a deleted loan, and
/// counts nowhere; a pulled event counts on the day it happened.
public struct StatisticsStore: StorePart {
  let store: LibraryStore

  /// The diary from `from` to `to` (both included, the library's own days), a row a `period`.
  public func diary(from: LocalDate, to: LocalDate, period: DiaryPeriod, split: DiarySplit? = nil)
    throws(StoreError) -> WorkDiary
  {
    // Summed in SQL by what the diary shows: a day, and the split's column (a year of a library
    // with three desks, ten reader groups and nine branches is some 400,000 sums; by one column
    // a few thousand). Books without an index stay apart for the report's note.
    let column =
      switch split {
      case nil: "''"
      case .category: "reader_group"
      case .branch: "branch"
      case .desk: "desk"
      }
    let (tallies, overdueBefore) = try read { () throws -> ([DiaryTally], [DiaryTally]) in
      let names = try categoryNames()
      func tally(_ figure: DiaryFigure, _ day: LocalDate, _ value: String, withoutIndex: Bool, _ count: Int)
        -> DiaryTally
      {
        var tally = DiaryTally(figure: figure, day: day, count: count)
        switch split {
        case nil: break
        case .category: tally.readerGroup = names(value)
        case .branch: tally.branch = value
        case .desk: tally.desk = value
        }
        if withoutIndex { tally.branch = DiaryTally.withoutIndex }
        return tally
      }
      var tallies: [DiaryTally] = []
      try database.forEachRow(
        """
        SELECT figure, day, \(column), branch = '-', sum(count) FROM diary_day
        WHERE figure IN (\(DiaryFigure.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")))
          AND day BETWEEN ? AND ?
        GROUP BY figure, day, 3, 4 HAVING sum(count) <> 0
        """, from.iso, to.iso
      ) { row in
        guard let figure = DiaryFigure(rawValue: row.string(0)), let day = LocalDate(iso: row.string(1)) else { return }
        tallies.append(tally(figure, day, row.string(2), withoutIndex: row.int(3) == 1, row.int(4)))
      }
      // What stood overdue at the end of the day before: every change of the days up to it.
      var before: [DiaryTally] = []
      try database.forEachRow(
        """
        SELECT \(column), sum(count) FROM diary_day
        WHERE figure = 'overdue' AND day < ? AND day <> '' GROUP BY 1 HAVING sum(count) <> 0
        """, from.iso
      ) { row in before.append(tally(.overdue, from, row.string(0), withoutIndex: false, row.int(1))) }
      return (tallies, before)
    }
    return WorkDiary(from: from, to: to, period: period, split: split, tallies: tallies, overdueBefore: overdueBefore)
  }

  /// A reader group as the diary shows it: an age group as it is, a category by its name.
  private func categoryNames() throws -> (String) -> String {
    var names: [String: String] = [:]
    try database.forEachRow("SELECT code, name FROM category") { names[$0.string(0)] = $0.string(1) }
    return { group in AgeGroup(rawValue: group) == nil ? names[group] ?? group : group }
  }

  /// The daily sums that differ from a count of every event made now, by what they count: empty
  /// when the sums are right. (`figure day desk group branch`: kept, counted.)
  public func sumsDifferingFromEvents() throws(StoreError) -> [String] {
    try read {
      try database.query(
        """
        WITH counted AS (
          SELECT figure, day, desk, reader_group, branch, sum(n) AS count FROM diary_part
          GROUP BY figure, day, desk, reader_group, branch),
        kept AS (SELECT * FROM diary_day WHERE count <> 0)
        SELECT k.figure, k.day, k.desk, k.reader_group, k.branch, k.count, coalesce(c.count, 0) FROM kept k
        LEFT JOIN counted c USING (figure, day, desk, reader_group, branch) WHERE c.count IS NOT k.count
        UNION ALL
        SELECT c.figure, c.day, c.desk, c.reader_group, c.branch, 0, c.count FROM counted c
        LEFT JOIN kept k USING (figure, day, desk, reader_group, branch) WHERE k.count IS NULL AND c.count <> 0
        """
      ) { row in
        "\(row.string(0)) \(row.string(1)) \(row.string(2)) \(row.string(3)) \(row.string(4)): "
          + "\(row.int(5)), \(row.int(6))"
      }
    }
  }

  /// Makes the daily sums again from every event (after a repair of the file by other means).
  public func recountSums() throws(StoreError) {
    try write {
      try database.execute("DELETE FROM diary_day")
      try database.execute(
        """
        INSERT INTO diary_day(figure, day, desk, reader_group, branch, count)
        SELECT figure, day, desk, reader_group, branch, sum(n) FROM diary_part
        GROUP BY figure, day, desk, reader_group, branch
        """)
    }
  }

  /// The library's mapping of BBK indexes to the diary's branches (the setting `diary_branches`),
  /// or the standard one.
  public func branches() throws(StoreError) -> BranchMapping {
    let text = try read {
      try database.queryFirst("SELECT value FROM setting WHERE key = 'diary_branches'") { $0.string(0) }
    }
    return text.flatMap(BranchMapping.init(parsing:)) ?? .standard
  }

  /// Sets the mapping; the triggers count every book's figures again by it.
  public func setBranches(_ mapping: BranchMapping) throws(StoreError) {
    try write {
      try database.execute(
        "INSERT INTO setting(key, value) VALUES ('diary_branches', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
        mapping.text)
    }
  }
}

extension LibraryStore {
  public var statistics: StatisticsStore { StatisticsStore(store: self) }
}
