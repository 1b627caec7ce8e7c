import DeskDomain
@_spi(Connection) import DeskStorage
import DeskUI

/// The work diary's figures on a library with a year of loans: the year by month split by
/// branch of knowledge (the Statistics screen's year, the form's), and the last 30 days by day,
/// each beside a plain GROUP BY of the same loans in SQLite (the floor of reading them at all).
public enum DiaryBenchmarks {
  /// Adds `loans` returned loans spread over the year before `benchmarkClock`'s day (each two
  /// weeks long, of books and readers taken in turn), with a visit at each issue: a loan history
  /// as a year at a busy library leaves it. Done once per file: a file holding them already is
  /// left as it is. One statement each, from a series SQLite makes itself.
  public static func addHistory(path: String, loans: Int) throws -> Int {
    let store = try LibraryStore(path: path, clock: benchmarkClock)
    let database = store.database
    let have = try database.scalarInt("SELECT count(*) FROM loan WHERE returned_at IS NOT NULL")
    guard have < loans else { return have }
    let books = try database.scalarInt("SELECT max(id) FROM book")
    let readers = try database.scalarInt("SELECT max(id) FROM reader")
    let minutesInAYear = 365 * 24 * 60
    try database.execute("BEGIN IMMEDIATE")
    do {
      // A library's variety, which the diary's sums grow with: books of every branch of knowledge
      // (and some without an index), readers of every age, before their loans.
      if have == 0 {
        try database.execute(
          """
          UPDATE book SET bbk = CASE id % 12 WHEN 0 THEN '' WHEN 1 THEN '22.1' WHEN 2 THEN '3' WHEN 3 THEN '4'
            WHEN 4 THEN '63.3' WHEN 5 THEN '74' WHEN 6 THEN '75.1' WHEN 7 THEN '85' WHEN 8 THEN '84(2Рос=Рус)6'
            WHEN 9 THEN '5' WHEN 10 THEN '1' ELSE '9' END
          """)
        try database.execute("UPDATE reader SET birth_year = CASE WHEN id % 7 = 0 THEN NULL ELSE 1940 + id % 80 END")
      }
      // A moment a loan, the year back from the benchmark's day, in minutes; returned a week later.
      try database.execute(
        """
        WITH RECURSIVE n(i) AS (SELECT ?1 UNION ALL SELECT i + 1 FROM n WHERE i < ?2 - 1),
        made AS (
          SELECT i, 1 + (i * 7919) % ?3 AS book, 1 + (i * 104729) % ?4 AS reader,
            strftime('%Y-%m-%dT%H:%M:00.000Z', '2026-11-30T10:00:00Z',
              printf('-%d minutes', 10080 + (i * 2654435761) % ?5)) AS issued
          FROM n)
        INSERT INTO loan(uuid, book_id, reader_id, issued_at, due_date, returned_at, desk, created_at, updated_at)
        SELECT printf('00000000-0000-4000-8000-%012x', i), book, reader, issued, date(issued, '+14 days'),
          strftime('%Y-%m-%dT%H:%M:00.000Z', issued, '+7 days'), 'desk-' || (1 + i % 3), issued, issued
        FROM made
        """, have, loans, books, readers, minutesInAYear - 10080)
      try database.execute(
        """
        INSERT OR IGNORE INTO visit(uuid, reader_id, day, at, desk, created_at)
        SELECT printf('00000000-0000-4000-9000-%012x', id), reader_id, substr(issued_at, 1, 10), issued_at, desk,
          issued_at
        FROM loan WHERE uuid LIKE '00000000-0000-4000-8000-%'
        """)
      try database.execute("COMMIT")
    } catch {
      try? database.execute("ROLLBACK")
      throw error
    }
    return loans
  }

  public static func run(path: String, repeats: Int) throws -> [Measurement] {
    let store = try LibraryStore(path: path, clock: benchmarkClock)
    let loans = try store.database.scalarInt("SELECT count(*) FROM loan")
    let today = benchmarkClock.now().date
    guard let january = LocalDate(year: today.year, month: 1, day: 1) else { return [] }
    let monthAgo = today.adding(days: -29)
    var measurements: [Measurement] = []
    let year = try time(repeats) {
      _ = try store.statistics.diary(from: january, to: today, period: .month, split: .branch)
    }
    let yearBaseline = try time(repeats) {
      _ = try store.database.query(
        """
        SELECT substr(l.issued_at, 1, 7), b.bbk, count(*) FROM loan l JOIN book b ON b.id = l.book_id
        WHERE l.deleted = 0 AND l.issued_at >= ? GROUP BY 1, 2
        """, Timestamp(date: january).iso
      ) { $0.int(2) }
    }
    measurements.append(
      Measurement(
        scenario: "the work diary's year by month, split by branch (\(loans) loans in the file)", samples: year,
        baselineName: "GROUP BY month and index of the year's issues", baselineSamples: yearBaseline))
    // The Statistics screen as a librarian opens it from Home: every figure it shows, read and drawn.
    let app = ListBenchmarks.makeApp(store)
    var moment: Int64 = 0
    let screen = try time(repeats) {
      app.handle(.key(.character("t"), atMilliseconds: moment))
      app.handle(.tick(atMilliseconds: moment + 60))
      _ = app.render(rows: 40, columns: 120)
      app.handle(.key(.escape, atMilliseconds: moment + 1000))
      app.handle(.tick(atMilliseconds: moment + 1060))
      moment += 2000
    }
    measurements.append(
      Measurement(
        scenario: "the Statistics screen opened from Home and drawn (120×40)", samples: screen,
        baselineName: "GROUP BY month and index of the year's issues", baselineSamples: yearBaseline))
    let days = try time(repeats) { _ = try store.statistics.diary(from: monthAgo, to: today, period: .day) }
    let daysBaseline = try time(repeats) {
      _ = try store.database.query(
        """
        SELECT substr(issued_at, 1, 10), count(*) FROM loan WHERE deleted = 0 AND issued_at >= ? GROUP BY 1
        """, Timestamp(date: monthAgo).iso
      ) { $0.int(1) }
    }
    measurements.append(
      Measurement(
        scenario: "the work diary's last 30 days by day", samples: days,
        baselineName: "GROUP BY day of the 30 days' issues", baselineSamples: daysBaseline))
    return measurements
  }
}
