import CSQLite
import DeskDomain
import DeskSync
import DeskTestSupport
import Testing

@_spi(Connection) @testable import DeskStorage

/// What sending to the central asks of the desk's file, statement by statement.
extension SyncTests {
  /// Sending a batch reads and writes the outbox by its order and the rows the batch names: no
  /// statement reads it whole, and the statements do not grow by three a change.
  @Test func sendingABatchReadsNoOutboxWhole() throws {
    let (a, _, _) = try twoDesks(books: [], second: "B")
    try a.transaction {
      for number in 1...300 { try a.books.add(bookDraft("\(number)", "Книга \(number)", surname: "Автор")) }
    }
    let synchronizer = try Synchronizer(store: a)
    let (report, statements) = try a.database.recordingStatements { try synchronizer.push() }
    #expect(report.pushed == 300)
    #expect(statements.count < 300 + 60, "\(statements.count) statements")
    var scans: [String] = []
    for sql in Set(statements) where !sql.contains("LIMIT") && !sql.hasPrefix("BEGIN") && !sql.hasPrefix("COMMIT") {
      let count = Int(sqlite3_bind_parameter_count(try Statement(database: a.database, sql: sql).handle))
      let arguments = Array(repeating: "" as any DatabaseValueConvertible, count: count)
      for plan in try a.database.query("EXPLAIN QUERY PLAN " + sql, arguments: arguments, read: { $0.string(3) })
      where (plan == "SCAN outbox" || plan == "SCAN o" || plan.hasPrefix("SCAN outbox ") || plan.hasPrefix("SCAN o "))
        && !plan.hasSuffix("INDEX outbox_held")
      {
        // (The index of held changes holds only those.)
        scans.append("\(plan): \(sql)")
      }
    }
    #expect(scans.isEmpty, "\(scans)")
  }
}
