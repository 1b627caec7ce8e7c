import DeskTestSupport
import Foundation
import Testing

/// The real program in a real terminal: `circdesk` runs in tmux, keys are typed with send-keys
/// and the screen is read with capture-pane, as a librarian would see it.
@Suite(.serialized) struct TmuxTests {
  final class Session {
    func shell(_ command: String) -> (status: Int32, output: String) { TmuxTests.shell(command) }

    let socket = "circdesk-test-\(UUID().uuidString.prefix(8))"
    let folder = TemporaryFolder()
    var database: String { folder.file("demo.sqlite") }

    init() throws {
      let made = try runProgram(circdeskPath, ["demo", "--db", database])
      guard made.status == 0 else { throw TmuxError.failed("demo: \(made.errors)") }
    }

    deinit {
      _ = try? tmux(["kill-server"])
    }

    @discardableResult
    func tmux(_ arguments: [String]) throws -> String {
      let result = shell((["tmux", "-L", socket, "-f", "/dev/null"] + arguments).map(quoted).joined(separator: " "))
      guard result.status == 0 else {
        throw TmuxError.failed("tmux \(arguments.joined(separator: " ")): exit \(result.status)\n\(result.output)")
      }
      return result.output
    }

    func start(_ extraArguments: String = "", environment: String = "") throws {
      let command =
        "env LANG=C.UTF-8 \(environment) \(quoted(circdeskPath)) --db \(quoted(database)) \(extraArguments); "
        + "echo \"EXIT:$?\"; echo \"TTY: $(stty -a | tr ' ;' '\\n\\n' | grep -E '^-?(icanon|echo)$' | tr '\\n' ' ')\"; "
        + "sleep 60"
      // The tmux server started here lives on: it must not hold the pipe this test reads.
      let result = shell(
        (["tmux", "-L", socket, "-f", "/dev/null", "new-session", "-d", "-s", "desk", "-x", "100", "-y", "30", command])
          .map(quoted).joined(separator: " ") + " >/dev/null 2>&1 </dev/null")
      guard result.status == 0 else { throw TmuxError.failed("tmux new-session: exit \(result.status)") }
    }

    func keys(_ keys: String...) throws {
      try tmux(["send-keys", "-t", "desk"] + keys)
    }

    /// Types text literally (no key names).
    func type(_ text: String) throws {
      try tmux(["send-keys", "-t", "desk", "-l", text])
    }

    /// A code as a wedge scanner sends it: its characters at once, then Enter.
    func scan(_ code: String) throws {
      try type(code)
      try keys("Enter")
    }

    /// True once the program has rung the terminal's bell (tmux marks the window).
    func bellRang() throws -> Bool {
      try tmux(["display", "-p", "-t", "desk", "#{window_bell_flag}"]).hasPrefix("1")
    }

    func screen(escapes: Bool = false) throws -> String {
      try tmux(["capture-pane", "-p", "-t", "desk"] + (escapes ? ["-e"] : []))
    }

    /// Waits until the screen shows `text` and has stopped changing; returns the screen.
    ///
    /// Matching alone is not enough: capture-pane can read the pane halfway through a repaint
    /// (seen in CI: the new title above the old screen's body), so the screen must also read
    /// the same twice in a row.
    @discardableResult
    func waitFor(_ text: String, timeout: TimeInterval = 10) throws -> String {
      let deadline = Date().addingTimeInterval(timeout)
      var last = ""
      var previous: String?
      while Date() < deadline {
        last = try screen()
        if last.contains(text) {
          if last == previous { return last }
          previous = last
        } else {
          previous = nil
        }
        Thread.sleep(forTimeInterval: 0.05)
      }
      if let previous { return previous }
      throw TmuxError.failed("waited for «\(text)»; the screen shows:\n\(last)")
    }
  }

  /// Runs a shell command line and returns its exit status and standard output (with errors).
  static func shell(_ command: String) -> (status: Int32, output: String) {
    guard let pipe = popen(command + " 2>&1", "r") else { return (-1, "") }
    var output = [UInt8]()
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = fread(&buffer, 1, buffer.count, pipe)
      if count <= 0 { break }
      output += buffer[0..<count]
    }
    let status = pclose(pipe)
    return ((status >> 8) & 0xFF, String(decoding: output, as: UTF8.self))
  }

  enum TmuxError: Error, CustomStringConvertible {
    case failed(String)
    var description: String {
      switch self {
      case .failed(let message): return message
      }
    }
  }

  @Test func addABookWithAnAlertThenSaveAndQuit() throws {
    let session = try Session()
    try session.start()
    try session.waitFor("Circulation Desk — Home")
    try session.keys("b")
    var screen = try session.waitFor("Books: all")
    #expect(screen.contains(" * 100101    Austen J."), "an issued book is marked")
    let colored = try session.screen(escapes: true)
    #expect(colored.contains("\u{1B}[1m"), "issued books are bold")

    try session.keys("n")
    try session.waitFor("New book")
    try session.type("100001")
    try session.keys("F2")
    try session.waitFor("Inventory number 100001 is already used by «Герой нашего времени»")
    try session.keys("Enter", "C-u")
    try session.type("300001")
    // tmux types as fast as a scanner: pause as a person would, or the first Tab ends a "scan".
    Thread.sleep(forTimeInterval: 0.2)
    try session.keys("Tab", "Tab", "Tab", "Tab")
    try session.type("Тестовая книга")
    try session.keys("F2")
    screen = try session.waitFor("Saved: 300001 Тестовая книга")
    #expect(screen.contains("300001"))

    try session.keys("F10")
    // After the program, the terminal is back in its normal mode: line editing and echo on.
    screen = try session.waitFor("TTY:")
    #expect(screen.contains("EXIT:0"))
    #expect(screen.contains("TTY: icanon echo"))
    #expect(!screen.contains("Circulation Desk —"), "the desk's screen is gone")
  }

  /// tmux delivers send-keys as fast as a USB scanner types: a burst with Enter at the end.
  @Test func aWedgeScannerDrivesTheDesk() throws {
    let session = try Session()
    try session.start()
    try session.waitFor("Circulation Desk — Home")
    try session.keys("d")
    try session.waitFor("Scan a reader's card")
    try session.type("1040")
    try session.keys("Enter")
    try session.waitFor("Reader 1040: Абрамов Лев Маркович")
    try session.type("100005")
    try session.keys("Enter")
    try session.waitFor("Issued 100005 «Мёртвые души» to Абрамов Л. М.")
    // A reader at the counter: Ctrl-C asks, as F10 does, and "no" keeps the visit.
    Thread.sleep(forTimeInterval: 0.2)
    try session.keys("C-c")
    try session.waitFor("A visit is under way (Абрамов Л. М.)")
    try session.keys("n")
    try session.waitFor("Issued 100005 «Мёртвые души» to Абрамов Л. М.")
    Thread.sleep(forTimeInterval: 0.2)
    try session.keys("F10")
    try session.waitFor("Quit the desk?")
    try session.keys("y")
    try session.waitFor("EXIT:0")
  }

  /// Holds in a real terminal: a copy a reader waits for comes back, the desk rings and says
  /// whose hold it goes to; another reader is refused it; its reader comes, is told it waits for
  /// them, and takes it.
  @Test(arguments: ["xterm-256color", "tmux-256color"])
  func aReturnedCopyIsTrappedForTheNextReaderAndCollected(term: String) throws {
    let session = try Session()
    let placed = try runProgram(circdeskPath, ["hold", "place", "1007", "100001", "--db", session.database])
    #expect(placed.status == 0, "\(placed.errors)")
    try session.start(environment: "TERM=\(term)")
    try session.waitFor("Circulation Desk — Home")
    try session.keys("d")
    try session.waitFor("Scan a reader's card")
    try session.scan("100001")
    let alert = try session.waitFor("(ticket 1007): put «Герой нашего времени»")
    #expect(alert.contains("Hold shelf"), "\(alert)")
    #expect(try session.bellRang(), "a copy that does not go back on the shelf is said loudly")
    Thread.sleep(forTimeInterval: 0.3)
    try session.keys("Enter")
    try session.waitFor("to the hold shelf for")
    try session.scan("1001")
    try session.waitFor("Reader 1001")
    try session.scan("100001")
    try session.waitFor("waits on the hold shelf for")
    Thread.sleep(forTimeInterval: 0.3)
    try session.keys("Enter")
    Thread.sleep(forTimeInterval: 0.2)
    try session.keys("Escape")
    // A person's pause: ESC and a digit at once would read as Alt and the digit.
    Thread.sleep(forTimeInterval: 0.3)
    try session.scan("1007")
    try session.waitFor("1 book waiting for them on the hold shelf: 100001")
    try session.scan("100001")
    try session.waitFor("Issued 100001 «Герой нашего времени»")
    try session.keys("F10")
    try session.waitFor("A visit is under way")
    try session.keys("y")
    try session.waitFor("EXIT:0")
    let holds = try runProgram(circdeskPath, ["hold", "list", "--reader", "1007", "--db", session.database])
    #expect(holds.output.contains("fulfilled"), "\(holds.output)")
  }

  /// A check of the lending hall at its shelves, every code a wedge scanner's burst: the shelf's
  /// label says the place, a copy on its shelf is found quietly, one the catalogue says is out
  /// rings and is returned with r, another section's copy rings, and the report says what is
  /// missing; the scans are in the library for `stocktake report`.
  @Test(arguments: ["xterm-256color", "tmux-256color"])
  func aShelfCheckedWithAWedgeScanner(term: String) throws {
    let session = try Session()
    let started = try runProgram(
      circdeskPath, ["stocktake", "start", "--name", "Абонемент 2026", "--place", "Абонемент", "--db", session.database])
    #expect(started.status == 0, "\(started.errors)")
    try session.start(environment: "TERM=\(term)")
    try session.waitFor("Circulation Desk — Home")
    try session.keys("i")
    try session.waitFor("Stocktaking: Абонемент 2026")
    try session.scan("PLACE:Абонемент")
    try session.waitFor("Place: Абонемент")
    try session.scan("100004")
    try session.waitFor("«Евгений Онегин» — found")
    #expect(try !session.bellRang(), "a copy on its shelf is found quietly")
    try session.scan("100002")
    let out = try session.waitFor("the catalogue says it is out to")
    #expect(out.contains("! "), "\(out)")
    #expect(try session.bellRang(), "a surprise rings")
    Thread.sleep(forTimeInterval: 0.3)
    try session.keys("Down")
    try session.waitFor("r Return now")
    try session.keys("r")
    try session.waitFor("Returned 100002")
    try session.keys("Escape")
    Thread.sleep(forTimeInterval: 0.3)
    try session.scan("100080")
    try session.waitFor("another section's copy: not part of this check")
    try session.keys("F5")
    let report = try session.waitFor("Report: Абонемент 2026")
    #expect(report.contains("Expected 77, present"), "\(report)")
    #expect(report.contains("Missing"), "\(report)")
    try session.keys("Escape")
    try session.waitFor("Last scans")
    try session.keys("F10")
    try session.waitFor("EXIT:0")
    let shown = try runProgram(circdeskPath, ["stocktake", "report", "--db", session.database])
    #expect(shown.output.contains("found 1, misplaced 0, on-loan 1"), "\(shown.output)")
    #expect(shown.output.contains("outside-check 1"), "\(shown.output)")
  }

  /// One visit at the counter, every code a scanner's burst: a blocked reader brings back their
  /// overdue books, borrows, renews one and the renewal is undone, a bad code rings the bell, and
  /// the receipt is written.
  @Test(arguments: ["xterm-256color", "tmux-256color"])
  func aWholeVisitAtTheCounter(term: String) throws {
    let session = try Session()
    let receipt = session.folder.file("receipt.txt")
    // A printing system that keeps what it is given, where the test can read it.
    let printed = session.folder.file("printed.txt")
    let bin = session.folder.file("bin")
    try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
    try "#!/bin/sh\ncat > \(quoted(printed))\n".write(toFile: bin + "/lp", atomically: true, encoding: .utf8)
    chmod(bin + "/lp", 0o755)
    try session.start(environment: "TERM=\(term) PATH=\(quoted(bin)):$PATH")
    try session.waitFor("Circulation Desk — Home")
    try session.keys("d")
    try session.waitFor("Scan a reader's card")
    try session.scan("1004")
    try session.waitFor("! 2 overdue books: scan them to take them back")
    try session.scan("100010")
    try session.waitFor("Returned 100010 «Братья Карамазовы» from Петров А. В.")
    try session.scan("100003")
    var screen = try session.waitFor("Returned 100003 «Преступление и наказание» from Петров А. В.")
    #expect(!screen.contains("overdue books: scan them"), "the warning goes once the books are back")
    try session.scan("100005")
    try session.waitFor("Issued 100005 «Мёртвые души» to Петров А. В.")
    try session.scan("100007")
    try session.waitFor("Issued 100007")
    // ↓ chooses the first loan, w renews it.
    Thread.sleep(forTimeInterval: 0.2)
    try session.keys("Down")
    Thread.sleep(forTimeInterval: 0.2)
    try session.keys("w")
    try session.waitFor("Renewed 100005 «Мёртвые души»")
    Thread.sleep(forTimeInterval: 0.2)
    try session.keys("Escape")
    Thread.sleep(forTimeInterval: 0.2)
    try session.keys("F8")
    try session.waitFor("Undone: the renewal of 100005")
    #expect(try !session.bellRang())
    try session.scan("9999999")
    try session.waitFor("Unknown code «9999999»")
    #expect(try session.bellRang(), "an unknown code rings the terminal's bell")
    try session.keys("Enter")
    Thread.sleep(forTimeInterval: 0.2)
    // With a printing system, the receipt goes to it unless a file is named.
    try session.keys("F4")
    try session.waitFor("Print the visit's receipt (lp), or write it to a file:")
    try session.keys("Enter")
    try session.waitFor("Receipt sent to the printer")
    #expect(try String(contentsOfFile: printed, encoding: .utf8).contains("Reader 1004: Петров Алексей Владимирович"))
    Thread.sleep(forTimeInterval: 0.2)
    try session.keys("F4")
    try session.waitFor("receipt")
    try session.keys("C-u")
    try session.type(receipt)
    Thread.sleep(forTimeInterval: 0.2)
    try session.keys("Enter")
    screen = try session.waitFor("Receipt written to")
    let text = try String(contentsOfFile: receipt, encoding: .utf8)
    #expect(text.contains("Reader 1004: Петров Алексей Владимирович"))
    #expect(text.contains("100005  Гоголь Н. В. «Мёртвые души»  due "))
    #expect(text.contains("100007  "))
    #expect(text.contains("Returned:\n  100010  Достоевский Ф. М. «Братья Карамазовы»\n  100003  "))
    try session.keys("F10")
    try session.waitFor("A visit is under way")
    try session.keys("y")
    try session.waitFor("EXIT:0")
    let loans = try runProgram(circdeskPath, ["reader", "show", "1004", "--db", session.database])
    let out = try #require(loans.output.components(separatedBy: "History").first)
    #expect(out.contains("Books out (2):"))
    #expect(out.contains("100005  ") && out.contains("100007  "))
    #expect(!out.contains("100010  ") && !out.contains("100003  "), "the overdue books came back")
  }

  /// Home, End, Ctrl-Z and Ctrl-C as tmux sends them to a program under each TERM.
  @Test(arguments: ["xterm-256color", "tmux-256color", "screen"])
  func homeEndCtrlZAndCtrlC(term: String) throws {
    let session = try Session()
    try session.start(environment: "TERM=\(term)")
    try session.waitFor("Circulation Desk — Home")
    func press(_ key: String) throws {
      try session.keys(key)
      Thread.sleep(forTimeInterval: 0.15)
    }
    try press("b")
    try session.waitFor("Books: all")
    try press("End")
    var screen = try session.waitFor("Books: all")
    #expect(!screen.contains("Circulation Desk — Home"), "End stays in the list")
    try press("Home")
    screen = try session.waitFor("Books: all")
    // In a form, Home and End move in the field and ask nothing.
    try press("n")
    try session.waitFor("New book")
    try session.type("300")
    Thread.sleep(forTimeInterval: 0.15)
    try press("Home")
    try session.type("X")
    Thread.sleep(forTimeInterval: 0.15)
    try press("End")
    try session.type("Y")
    screen = try session.waitFor("X300Y")
    #expect(!screen.contains("Close the form"))
    // Ctrl-Z never suspends the desk: in a form it takes back the typing in the field, a step at
    // a time, never a loan. Ctrl-C asks before losing what was typed.
    try press("C-z")
    screen = try session.waitFor(" X300\n")
    #expect(screen.contains("New book") && !screen.contains("X300Y"))
    try press("C-z")
    screen = try session.waitFor(" 300\n")
    #expect(!screen.contains("X300"))
    try press("End")
    try session.type("Y")
    screen = try session.waitFor("300Y")
    try press("C-c")
    try session.waitFor("Quit and lose them?")
    try press("n")
    screen = try session.waitFor("300Y")
    try press("C-c")
    try session.waitFor("Quit and lose them?")
    try press("y")
    screen = try session.waitFor("EXIT:0")
    #expect(screen.contains("TTY: icanon echo"))
  }

  /// A QR book record as a wedge scanner types it: its lines with the scanner's line end between
  /// them, as fast as the rest.
  @Test(arguments: ["\r", "\n", "\r\n"])
  func aMultiLineQRRecordFromTheScannerFillsTheForm(lineEnd: String) throws {
    let session = try Session()
    try session.start()
    try session.waitFor("Circulation Desk — Home")
    try session.keys("d")
    try session.waitFor("Scan a reader's card")
    let record = [
      "Инвентарный номер: 300777", "Название книги: Из сканера", "Фамилия автора: Пушкин", "Год издания: 2001",
    ]
    try session.type(record.joined(separator: lineEnd) + lineEnd)
    let screen = try session.waitFor("New book")
    #expect(screen.contains("300777"))
    #expect(screen.contains("Из сканера"))
    #expect(screen.contains("2001"))
    #expect(!screen.contains("Unknown code"))
  }

  @Test func aScanIntoATooSmallWindowWaitsUntilItGrows() throws {
    let session = try Session()
    try session.start()
    try session.waitFor("Circulation Desk — Home")
    try session.keys("d")
    try session.waitFor("Scan a reader's card")
    try session.tmux(["resize-window", "-t", "desk", "-x", "40", "-y", "10"])
    try session.waitFor("too small")
    try session.type("100001")
    try session.keys("Enter")
    try session.waitFor("1 scan waits")
    try session.keys("Escape")
    Thread.sleep(forTimeInterval: 0.2)
    try session.tmux(["resize-window", "-t", "desk", "-x", "100", "-y", "30"])
    let screen = try session.waitFor("Returned 100001")
    #expect(screen.contains("Circulation Desk — Desk"), "the Esc typed while hidden did nothing")
  }

  /// The issue's day at the counter in a real terminal: two finished visits, then Ctrl-Z and F8 in
  /// a New Book form undo nothing of them; a scanner's codes fill the form field after field; an
  /// issue undone at once stays in the book's history as undone.
  @Test(arguments: ["xterm-256color", "tmux-256color"])
  func finishedVisitsOutliveUndoAndAScannersEnterMovesTheForm(term: String) throws {
    let session = try Session()
    // No catalogue to reach: a closed port on this machine answers at once.
    try session.start(
      environment: "TERM=\(term) CIRCDESK_GOOGLE_BOOKS_URL=http://127.0.0.1:9/g "
        + "CIRCDESK_OPEN_LIBRARY_URL=http://127.0.0.1:9/o")
    try session.waitFor("Circulation Desk — Home")
    func press(_ key: String) throws {
      try session.keys(key)
      Thread.sleep(forTimeInterval: 0.2)
    }
    try press("d")
    try session.waitFor("Scan a reader's card")
    for (ticket, inventory) in [("1033", "100103"), ("1035", "100114")] {
      try session.scan(ticket)
      try session.waitFor("Reader \(ticket)")
      try session.scan(inventory)
      try session.waitFor("Issued \(inventory)")
      Thread.sleep(forTimeInterval: 0.2)
      try press("Escape")  // the reader leaves
    }
    // An issue undone at once, in its own visit.
    try session.scan("1036")
    try session.waitFor("Reader 1036")
    try session.scan("100102")
    try session.waitFor("Issued 100102")
    Thread.sleep(forTimeInterval: 0.2)
    try press("F8")
    try session.waitFor("Undone: the issue of 100102")
    try press("Escape")
    try press("Escape")
    try press("b")
    try session.waitFor("Books: all")
    try press("n")
    try session.waitFor("New book")
    try press("C-z")
    try session.waitFor("Nothing typed in this field to undo")
    try press("C-z")
    try press("F8")
    var screen = try session.screen()
    #expect(!screen.contains("Undone: the issue of 100114") && !screen.contains("Undo it?"), "\(screen)")
    // The scanner's Enter moves to the next field: the second scan fills the ISBN, not the first.
    try session.scan("200002")
    Thread.sleep(forTimeInterval: 0.3)
    try session.scan("9785170795857")
    screen = try session.waitFor("Look-up waits for the network")
    #expect(screen.contains("Inventory number     200002"), "\(screen)")
    #expect(screen.contains("ISBN                 9785170795857"), "\(screen)")
    try press("Escape")
    try session.waitFor("Close the form")
    try press("y")
    try press("F10")
    try session.waitFor("EXIT:0")
    for (inventory, ticket) in [("100103", "1033"), ("100114", "1035")] {
      let shown = try runProgram(circdeskPath, ["book", "show", inventory, "--db", session.database]).output
      #expect(shown.contains("(ticket \(ticket))") && !shown.contains("UNDONE"), "\(shown)")
    }
    let undone = try runProgram(circdeskPath, ["book", "show", "100102", "--db", session.database]).output
    #expect(undone.contains("UNDONE") && undone.contains("(ticket 1036)"), "\(undone)")
  }

  /// A reader found by a Latin spelling of a Cyrillic name, typed as a person types, as often as
  /// the librarian searches for it.
  @Test(arguments: ["xterm-256color", "tmux-256color"])
  func aTransliteratedReaderSearchFindsTheReadersEveryTime(term: String) throws {
    let session = try Session()
    try session.start(environment: "TERM=\(term)")
    try session.waitFor("Circulation Desk — Home")
    try session.keys("r")
    try session.waitFor("Readers: all")
    for round in 1...2 {
      Thread.sleep(forTimeInterval: 0.2)
      try session.keys("/")
      for letter in "Petrov" {
        Thread.sleep(forTimeInterval: 0.15)
        try session.type(String(letter))
      }
      let screen = try session.waitFor("Петров Алексей Владимирович")
      for name in ["Васильев Николай Петрович", "Иванова Мария Петровна", "Широков Евгений Петрович"] {
        #expect(screen.contains(name), "round \(round): \(screen)")
      }
      Thread.sleep(forTimeInterval: 0.2)
      try session.keys("Escape")
      try session.waitFor("Абрамов Лев Маркович")  // the whole list again
    }
  }

  @Test func theTerminalIsRestoredOnSIGTERM() throws {
    let session = try Session()
    try session.start("--lang ru")
    try session.waitFor("Абонемент — Главная")
    // The program itself, not the tmux server or the shell whose command lines name it too.
    let pane = try session.tmux(["list-panes", "-t", "desk", "-F", "#{pane_pid}"])
    let shell = try #require(Int32(pane.trimmingCharacters(in: .whitespacesAndNewlines)))
    let children = TmuxTests.shell("pgrep -P \(shell)")
    let programs = children.output.split(separator: "\n").compactMap { Int32($0) }
    #expect(!programs.isEmpty)
    for program in programs { kill(program, SIGTERM) }
    let screen = try session.waitFor("TTY:")
    #expect(screen.contains("EXIT:143"))
    #expect(screen.contains("TTY: icanon echo"))
  }
}

/// The text as one shell word.
func quoted(_ text: String) -> String {
  "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
}
