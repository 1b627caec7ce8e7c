import DeskTestSupport
import Foundation
import Testing

/// Desks whose clocks are a year off, through the real program run under `faketime` (every
/// reading of the time in the process moves: the program's and SQLite's), against a real central.
@Suite(.serialized) struct ClockSkewTests {
  let server: PostgresServer
  let folder = TemporaryFolder()
  let url: String

  init() throws {
    server = try PostgresServer.shared()
    url = server.url(database: try server.freshDatabase("clocks"))
    let initialized = try runProgram(circdeskPath, ["central", "init", "--url", url])
    guard initialized.status == 0 else { throw PostgresServer.ServerError.failed(initialized.errors) }
  }

  /// Runs the desk `desk` with its clock moved by `days` (none when 0).
  func run(_ desk: String, _ arguments: [String], days: Int = 0) throws -> CommandResult {
    let command = arguments + ["--db", folder.file("\(desk).sqlite")]
    guard days != 0 else { return try runProgram(circdeskPath, command) }
    return try runProgram(faketimePath, ["-f", (days > 0 ? "+" : "") + "\(days)d", circdeskPath] + command)
  }

  private var faketimePath: String { "/usr/bin/faketime" }

  private func json(_ text: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
  }

  private func today() -> String {
    let formatter = DateFormatter()
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyy-MM-dd"
    return formatter.string(from: Date())
  }

  /// A desk whose clock is a year ahead joins with a library of its own: it reads the central's
  /// time before it sends its records, so an edit made elsewhere after the join stands there too
  /// (clocked by its own clock, the records it brought would stand against any edit for a year).
  @Test func aDeskAYearAheadThatBringsItsLibraryTakesLaterEditsFromOthers() throws {
    #expect(try run("ahead", ["book", "add", "--inventory", "7", "--title", "Евгений Онегин"], days: 365).status == 0)
    let joined = try run("ahead", ["central", "join", "--url", url, "--desk", "Ahead"], days: 365)
    #expect(joined.status == 0, "\(joined.errors)")
    #expect(try run("lending", ["central", "join", "--url", url, "--desk", "Lending"]).status == 0)
    #expect(try run("lending", ["book", "edit", "7", "--title", "Евгений Онегин. Роман в стихах"]).status == 0)
    #expect(try run("lending", ["sync"]).status == 0)
    #expect(try run("ahead", ["sync"], days: 365).status == 0)
    let shown = try json(try run("ahead", ["book", "show", "7", "--json"], days: 365).output)
    #expect(shown["title"] as? String == "Евгений Онегин. Роман в стихах")
  }

  @Test func aDeskWhoseClockIsAYearOffIsToldAndItsChangesKeepTheirPlace() throws {
    #expect(FileManager.default.isExecutableFile(atPath: faketimePath), "faketime (scripts/install-dependencies)")
    for (inventory, title) in [("1", "Война и мир"), ("2", "Анна Каренина"), ("3", "Воскресение")] {
      #expect(try run("lending", ["book", "add", "--inventory", inventory, "--title", title]).status == 0)
    }
    for (ticket, surname) in [("1001", "Смирнова"), ("1002", "Иванов")] {
      #expect(try run("lending", ["reader", "add", "--ticket", ticket, "--surname", surname]).status == 0)
    }
    for (desk, name) in [("lending", "Lending"), ("ahead", "Ahead"), ("behind", "Behind")] {
      let joined = try run(desk, ["central", "join", "--url", url, "--desk", name])
      #expect(joined.status == 0, "\(joined.errors)")
    }
    // Then one desk's clock jumps a year ahead and another's a year back. One after the other,
    // the desk ahead, Lending and the desk behind give the book a title; the one ahead issues a
    // book before any sync has told it.
    #expect(try run("ahead", ["book", "edit", "1", "--title", "Title at the desk ahead"], days: 365).status == 0)
    #expect(try run("ahead", ["issue", "1001", "2"], days: 365).status == 0)
    #expect(try run("lending", ["book", "edit", "1", "--title", "Title at Lending"]).status == 0)
    #expect(try run("behind", ["book", "edit", "1", "--title", "Title at the desk behind"], days: -365).status == 0)

    #expect(try run("lending", ["sync"]).status == 0)
    let ahead = try run("ahead", ["sync"], days: 365)
    #expect(ahead.status == 0, "\(ahead.errors)")
    #expect(
      ahead.output.contains(
        "This desk's clock is 1 year ahead of the central's: its changes are clocked by the central's time; "
          + "set the computer's clock right."), "\(ahead.output)")
    let behind = try run("behind", ["sync"], days: -365)
    #expect(behind.status == 0, "\(behind.errors)")
    #expect(behind.output.contains("This desk's clock is 1 year behind the central's"), "\(behind.output)")
    #expect(try run("lending", ["sync"]).status == 0)
    #expect(try run("ahead", ["sync"], days: 365).status == 0)

    // The last title given stands everywhere: neither the desk ahead wins by its clock, nor the
    // one behind loses by it.
    for (desk, days) in [("lending", 0), ("ahead", 365), ("behind", -365)] {
      let shown = try json(try run(desk, ["book", "show", "1", "--json"], days: days).output)
      #expect(shown["title"] as? String == "Title at the desk behind", "\(desk)")
    }
    // Each desk says where its clock stands.
    let status = try run("ahead", ["sync", "--status"], days: 365).output
    #expect(status.contains("Clock:        This desk's clock is 1 year ahead of the central's"), "\(status)")
    #expect(
      try run("lending", ["sync", "--status"]).output.contains("Clock:        within 2 minutes of the central's"))
    let statusJSON = try json(try run("behind", ["sync", "--status", "--json"], days: -365).output)
    let offset = try #require(statusJSON["clock_offset_ms"] as? Int)
    #expect(abs(offset - 365 * 86_400_000) < 60_000, "\(offset)")

    // The loan issued a year ahead comes back at Lending: not before its issue.
    let returned = try run("lending", ["return", "2", "--json"])
    #expect(returned.status == 0, "\(returned.errors)")
    let loan = try #require(
      (try JSONSerialization.jsonObject(with: Data(returned.output.utf8)) as? [[String: Any]])?.first)
    let issued = try #require(loan["issued"] as? String)
    let back = try #require(loan["returned"] as? String)
    #expect(back >= issued, "returned \(back), issued \(issued)")

    // Told, the desk ahead dates what it does by the central's time: today, due in the loan's days.
    let issuedNow = try run("ahead", ["issue", "1002", "1", "--json"], days: 365)
    #expect(issuedNow.status == 0, "\(issuedNow.errors)")
    let dates = [today()]
    let newLoan = try #require(
      (try JSONSerialization.jsonObject(with: Data(issuedNow.output.utf8)) as? [[String: Any]])?.first)
    #expect(dates.contains(String((newLoan["issued"] as? String ?? "").prefix(10))), "\(newLoan)")
    #expect(try run("ahead", ["sync"], days: 365).status == 0)
    #expect(try run("lending", ["sync"]).status == 0)
    let atLending = try json(try run("lending", ["book", "show", "1", "--json"]).output)
    let current = try #require(atLending["loan"] as? [String: Any])
    #expect(dates.contains(String((current["issued"] as? String ?? "").prefix(10))), "\(current)")
    #expect(current["overdue"] as? Bool == false)

    // The desk's clock set right before its next sync: what it does is dated right at once (not a
    // year back by the offset the last sync found), and it no longer says its clock is off.
    let setRight = try run("ahead", ["issue", "1001", "3", "--json"])
    #expect(setRight.status == 0, "\(setRight.errors) \(setRight.output)")
    let rightLoan = try #require(
      (try JSONSerialization.jsonObject(with: Data(setRight.output.utf8)) as? [[String: Any]])?.first)
    #expect(dates.contains(String((rightLoan["issued"] as? String ?? "").prefix(10))), "\(rightLoan)")
    #expect(rightLoan["overdue"] as? Bool == false)
    let rightStatus = try run("ahead", ["sync", "--status"]).output
    #expect(rightStatus.contains("Clock:        within 2 minutes of the central's"), "\(rightStatus)")
  }
}
