import DeskSync
import DeskTestSupport
import Foundation
import Testing

@_spi(Connection) @testable import DeskStorage

/// What a push asks of the central, statement by statement: the server's own log, with every
/// statement logged for the test's database alone.
extension SyncTests {
  /// A push is `circdesk_push` alone, a transaction of its own: the central's lock on pushes,
  /// taken inside it, is let go as it commits there. Between a BEGIN and a COMMIT of the desk's,
  /// it was held until that COMMIT came back, and fifty desks on two cores waited on whichever
  /// desk lost its core in between.
  @Test func aPushIsOneStatementItsOwnTransaction() throws {
    let url = try makeCentral()
    let database = databaseName(url)
    _ = try server.psql("ALTER DATABASE \(database) SET log_statement = 'all'", database: database)
    let a = try desk("a")
    try Synchronizer.join(store: a, url: url, deskName: "A")
    try a.books.add(bookDraft("7", "Мастер и Маргарита"))
    #expect(try sync(a).pushed == 1)

    // `%m [pid] LOG:  statement: …` (simple queries) or `… LOG:  execute <unnamed>: …`.
    let log = try String(contentsOfFile: server.folder.file("pg") + "/log", encoding: .utf8)
    let statements = log.split(separator: "\n").compactMap { line -> (pid: Substring, text: Substring)? in
      guard let open = line.firstIndex(of: "["), let close = line[open...].firstIndex(of: "]"),
        let said = line.range(of: "LOG:  statement: ") ?? line.range(of: "LOG:  execute <unnamed>: ")
      else { return nil }
      return (line[line.index(after: open)..<close], line[said.upperBound...])
    }
    let pushes = statements.indices.filter { statements[$0].text.contains("FROM circdesk_push(") }
    #expect(!pushes.isEmpty, "\(statements.map(\.text))")
    for push in pushes {
      let pid = statements[push].pid
      let before = statements[..<push].last { $0.pid == pid }?.text ?? ""
      let after = statements[(push + 1)...].first { $0.pid == pid }?.text ?? ""
      #expect(before != "BEGIN" && after != "COMMIT", "\(before) / \(statements[push].text) / \(after)")
    }
  }
}
