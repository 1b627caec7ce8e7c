import DeskDomain
import DeskStorage
import DeskTestSupport
import Foundation
import Testing

/// Two desks of one library, each the real program in its own tmux pane, and a real central
/// PostgreSQL server that the test stops (the network cut) and starts again.
@Suite(.serialized) struct TmuxSyncTests {
  final class Panes {
    let socket = "circdesk-sync-\(UUID().uuidString.prefix(8))"
    private var opened = 0

    deinit {
      _ = try? tmux(["kill-server"])
    }

    @discardableResult
    func tmux(_ arguments: [String]) throws -> String {
      let result = TmuxTests.shell(
        (["tmux", "-L", socket, "-f", "/dev/null"] + arguments).map(quoted).joined(separator: " "))
      guard result.status == 0 else {
        throw TmuxTests.TmuxError.failed("tmux \(arguments.joined(separator: " ")): exit \(result.status)")
      }
      return result.output
    }

    /// The desk on `database` in a new pane (the first makes the session), under `term`.
    func open(_ database: String, term: String) throws {
      let command =
        "env LANG=C.UTF-8 TERM=\(term) \(quoted(circdeskPath)) --db \(quoted(database)); echo \"EXIT:$?\"; sleep 60"
      let arguments =
        opened == 0
        ? ["new-session", "-d", "-s", "desks", "-x", "200", "-y", "30", command]
        : ["split-window", "-h", "-t", "desks", command]
      opened += 1
      // The tmux server started here lives on: it must not hold the pipe this test reads.
      let result = TmuxTests.shell(
        (["tmux", "-L", socket, "-f", "/dev/null"] + arguments).map(quoted).joined(separator: " ")
          + " >/dev/null 2>&1 </dev/null")
      guard result.status == 0 else { throw TmuxTests.TmuxError.failed("tmux \(arguments[0]): \(result.status)") }
    }

    func keys(_ pane: Int, _ keys: String...) throws {
      try tmux(["send-keys", "-t", "desks.\(pane)"] + keys)
    }

    /// A code as the wedge scanner types it: a burst, then Enter.
    func scan(_ pane: Int, _ code: String) throws {
      try tmux(["send-keys", "-t", "desks.\(pane)", "-l", code])
      try keys(pane, "Enter")
    }

    func screen(_ pane: Int) throws -> String {
      try tmux(["capture-pane", "-p", "-t", "desks.\(pane)"])
    }

    /// Waits until the pane shows (or, with `gone`, no longer shows) `text` and has stopped
    /// changing: capture-pane can read a pane halfway through a repaint (seen in CI: a conflict's
    /// heading above none of its choices), so the pane must read the same twice in a row.
    @discardableResult
    func waitFor(_ pane: Int, _ text: String, gone: Bool = false, timeout: TimeInterval = 15) throws -> String {
      let deadline = Date().addingTimeInterval(timeout)
      var last = ""
      var previous: String?
      while Date() < deadline {
        last = try screen(pane)
        if last.contains(text) != gone {
          if last == previous { return last }
          previous = last
        } else {
          previous = nil
        }
        Thread.sleep(forTimeInterval: 0.05)
      }
      if let previous { return previous }
      // The pane's size beside its text: a screen drawn for another size reads as garbage.
      let size = (try? tmux(["display", "-p", "-t", "desks.\(pane)", "#{pane_width}x#{pane_height}"])) ?? "?"
      throw TmuxTests.TmuxError.failed(
        "pane \(pane) (\(size.trimmingCharacters(in: .whitespacesAndNewlines))) waited for «\(text)» to "
          + "\(gone ? "go" : "show"); it shows:\n\(last)")
    }
  }

  /// The processor time (user and system, in clock ticks) the desk in the pane has used so far.
  func processorTicks(_ panes: Panes, pane: Int) throws -> Int {
    let shell = try panes.tmux(["display", "-p", "-t", "desks.\(pane)", "#{pane_pid}"]).trimmingCharacters(
      in: .whitespacesAndNewlines)
    let child = TmuxTests.shell("pgrep -P \(shell) circdesk").output.trimmingCharacters(in: .whitespacesAndNewlines)
    let stat = try String(contentsOfFile: "/proc/\(child)/stat", encoding: .utf8)
    // Fields after the command's closing parenthesis: state is the 3rd, utime the 14th, stime the 15th.
    guard let close = stat.lastIndex(of: ")") else { throw TmuxTests.TmuxError.failed("no stat for \(child)") }
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    return (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0)
  }

  /// The sync service of a desk that has not joined a central only looks, once a second, whether
  /// it has: an idle desk uses next to no processor (a loop that spun took half a core).
  @Test func aDeskOnItsOwnIdlesQuietly() throws {
    let folder = TemporaryFolder()
    let database = folder.file("desk.sqlite")
    try circdesk("demo", "--db", database)
    let panes = Panes()
    try panes.open(database, term: "xterm-256color")
    try panes.waitFor(0, "Circulation Desk — Home")
    let before = try processorTicks(panes, pane: 0)
    Thread.sleep(forTimeInterval: 2)
    let used = try processorTicks(panes, pane: 0) - before
    #expect(used < 40, "an idle desk used \(used) ticks of 2 s (100 a second)")
    #expect(!(try panes.screen(0)).contains("synced"), "nothing about a central on a desk on its own")
  }

  /// A sync that hangs on a dead network never holds the librarian back: the desk quits at once
  /// (well inside libpq's 5 s connect timeout, which the sync is waiting out).
  @Test func quittingDoesNotWaitForASyncStuckOnADeadNetwork() throws {
    let listener = try SilentServer()
    let folder = TemporaryFolder()
    let database = folder.file("desk.sqlite")
    try circdesk("demo", "--db", database)
    let store = try LibraryStore(path: database, clock: SystemClock())
    _ = try store.sync.tie(
      central: "host=127.0.0.1 port=\(listener.port) user=circdesk dbname=library",
      libraryID: UUID().uuidString.lowercased(), deskID: UUID().uuidString.lowercased(), deskName: "Lending",
      sendingRecords: false, sendingPolicy: false)
    let panes = Panes()
    try panes.open(database, term: "xterm-256color")
    try panes.waitFor(0, "syncing…")
    let asked = Date()
    try panes.keys(0, "F10")
    try panes.waitFor(0, "EXIT:0", timeout: 10)
    let waited = Date().timeIntervalSince(asked)
    #expect(waited < 3, "quit after \(waited) s: the desk waited for the stuck sync")
  }

  func circdesk(_ arguments: String...) throws {
    let result = try runProgram(circdeskPath, arguments)
    guard result.status == 0 else { throw TmuxTests.TmuxError.failed("circdesk \(arguments): \(result.errors)") }
  }

  /// A central and two desks of it, each open at the Desk in a pane of its own: «Lending» (the
  /// demo library, with what `prepare` does to its file before it joins) under xterm-256color,
  /// and «Reading room» (joined empty) under tmux-256color, both syncing every 2 seconds.
  struct TwoDesks {
    let server: PostgresServer
    let folder: TemporaryFolder
    let panes: Panes

    var lending: String { folder.file("lending.sqlite") }
    var reading: String { folder.file("reading.sqlite") }
  }

  func twoDesksAtTheCounter(prepare: (String) throws -> Void = { _ in }) throws -> TwoDesks {
    let server = try PostgresServer()
    try server.createDatabase("library")
    let url = server.url(database: "library")
    let folder = TemporaryFolder()
    let lending = folder.file("lending.sqlite")
    let reading = folder.file("reading.sqlite")
    try circdesk("demo", "--db", lending)
    try prepare(lending)
    try circdesk("central", "init", "--url", url)
    try circdesk("central", "join", "--url", url, "--desk", "Lending", "--db", lending)
    try circdesk("central", "join", "--url", url, "--desk", "Reading room", "--db", reading)
    for database in [lending, reading] { try circdesk("policy", "set", "--sync-interval", "2", "--db", database) }

    let panes = Panes()
    try panes.open(lending, term: "xterm-256color")
    try panes.open(reading, term: "tmux-256color")
    for pane in 0...1 {
      let home = try panes.waitFor(pane, "synced")
      #expect(home.contains(pane == 0 ? "Desk «Lending» of the central" : "Desk «Reading room» of the central"))
      try panes.keys(pane, "d")
      try panes.waitFor(pane, "Scan a reader's card")
    }
    return TwoDesks(server: server, folder: folder, panes: panes)
  }

  /// The issue's whole story: both desks work through a cut network, the same book goes out at
  /// both, the network comes back, both show the conflict within the sync interval, and settling
  /// it at one desk clears it at the other.
  @Test func theSameBookIssuedAtTwoDesksWhileTheNetworkIsDown() throws {
    let desks = try twoDesksAtTheCounter()
    let (server, panes, folder) = (desks.server, desks.panes, desks.folder)

    try server.stop()
    try panes.scan(0, "1033")
    try panes.waitFor(0, "Reader 1033: García José Luis")
    try panes.scan(0, "100114")
    try panes.waitFor(0, "Issued 100114 «Fahrenheit 451» to García J. L.")
    try panes.scan(1, "1034")
    try panes.waitFor(1, "Reader 1034: Dupont Élise")
    try panes.scan(1, "100114")
    try panes.waitFor(1, "Issued 100114 «Fahrenheit 451» to Dupont É.")
    for pane in 0...1 {
      // Offline, the desk says so and keeps the issue and the reader's visit to send.
      let screen = try panes.waitFor(pane, "offline since")
      #expect(screen.contains("2 changes waiting"))
    }

    try server.start()
    // A desk sees the conflict at its first sync after the other desk's issue reached the central:
    // up to two rounds of the 2-second interval after its own retry, which a machine running the
    // whole test suite on two cores stretched past 15 s once.
    for pane in 0...1 { try panes.waitFor(pane, "1 conflict: F9", timeout: 40) }

    try panes.keys(1, "F9")
    try panes.waitFor(1, "issued twice")
    try panes.keys(1, "Enter")
    let conflict = try panes.waitFor(1, "What settles it:")
    // Both sides, side by side: who holds it by which desk.
    #expect(conflict.contains("│ issued to García José (ticket 1033) at"))
    #expect(conflict.contains("│ issued to Dupont Élise (ticket 1034) at"))
    #expect(conflict.contains("«Lending»") && conflict.contains("«Reading room»"))
    // Side 1 is the first issue, at the lending desk: García keeps the book.
    try panes.keys(1, "1")
    try panes.waitFor(1, "Settle it so: 1 (1033) holds the book")
    try panes.keys(1, "y")
    try panes.waitFor(1, "Conflict 1 settled: held by García José (ticket 1033)")
    try panes.waitFor(0, "1 conflict: F9", gone: true)
    try panes.waitFor(1, "1 conflict: F9", gone: true)

    // A reader is at each counter: quitting asks first, as it would lose the visit's receipt.
    for pane in 0...1 { try panes.keys(pane, "F10") }
    for pane in 0...1 { try panes.waitFor(pane, "A visit is under way") }
    for pane in 0...1 { try panes.keys(pane, "y") }
    for pane in 0...1 { try panes.waitFor(pane, "EXIT:0", timeout: 5) }
    let loans = try runProgram(circdeskPath, ["book", "show", "100114", "--db", folder.file("reading.sqlite")])
    #expect(loans.output.contains("1033"), "the reading room's file agrees: García holds it")
  }

  /// Holds between two full-screen desks while the network is down: a copy comes back at each
  /// desk and each puts it aside for the first reader of the queue; when the network returns
  /// both desks show the conflict, and the copy chosen at one desk stays for that reader while
  /// the other goes to the next in the queue, at both desks.
  @Test func twoCopiesPutAsideForOneHoldWhileApartAreSettledOnTheConflictsScreen() throws {
    let desks = try twoDesksAtTheCounter { lending in
      // A second copy of «Мастер и Маргарита» (the first is out to 1001), out to 1005; two
      // readers queue for the title.
      try circdesk(
        "book", "add", "--inventory", "200002", "--author-surname", "Булгаков", "--author-initials", "М. А.",
        "--title", "Мастер и Маргарита", "--year", "2017", "--db", lending)
      try circdesk("issue", "1005", "200002", "--db", lending)
      try circdesk("hold", "place", "1002", "--title-of", "100002", "--db", lending)
      try circdesk("hold", "place", "1003", "--title-of", "100002", "--db", lending)
    }
    let (server, panes) = (desks.server, desks.panes)

    try server.stop()
    // With no reader chosen a scanned book comes back; each desk puts its copy aside for 1002.
    for (pane, copy) in [(0, "100002"), (1, "200002")] {
      try panes.scan(pane, copy)
      let alert = try panes.waitFor(pane, "Hold shelf")
      #expect(alert.contains("Hold for Иванов С. Н. (ticket 1002)"), "\(alert)")
      try panes.keys(pane, "Enter")
    }

    try server.start()
    // As for the book issued twice: two rounds of sync after the retry, on a loaded machine.
    for pane in 0...1 { try panes.waitFor(pane, "1 conflict: F9", timeout: 40) }
    try panes.keys(1, "F9")
    try panes.waitFor(1, "put aside twice")
    try panes.keys(1, "Enter")
    let conflict = try panes.waitFor(1, "What settles it:")
    #expect(conflict.contains("copy 100002 put aside at desk «Lending»"), "\(conflict)")
    #expect(conflict.contains("copy 200002 put aside at desk «Reading"), "\(conflict)")
    #expect(conflict.contains("1      the reader collects 100002; the other goes to the next hold"), "\(conflict)")
    try panes.keys(1, "1")
    try panes.waitFor(1, "Settle it so: the reader collects 100002")
    try panes.keys(1, "y")
    // The reading room's own copy is freed at once: it stays on its shelf for the next reader.
    let freed = try panes.waitFor(1, "keep it on the hold shelf for Иванов А. С. (ticket 1003)")
    #expect(freed.contains("200002 Булгаков М. А. «Мастер и Маргарита», no longer for Иванов С."), "\(freed)")
    try panes.keys(1, "Enter")
    try panes.waitFor(1, "Conflict 1 settled: the reader collects 100002 (at desk «Lending»)")
    for pane in 0...1 { try panes.waitFor(pane, "1 conflict: F9", gone: true) }

    for pane in 0...1 { try panes.keys(pane, "F10") }
    for pane in 0...1 { try panes.waitFor(pane, "EXIT:0", timeout: 5) }
    // Each desk's hold shelf holds its own copy, for the reader the settlement gave it to.
    let lending = try runProgram(circdeskPath, ["hold", "list", "--waiting", "--db", desks.lending]).output
    #expect(lending.contains("waiting: 100002") && lending.contains("(1002)") && !lending.contains("200002"))
    let reading = try runProgram(circdeskPath, ["hold", "list", "--waiting", "--db", desks.reading]).output
    #expect(reading.contains("waiting: 200002") && reading.contains("(1003)") && !reading.contains("100002"))
  }
}
