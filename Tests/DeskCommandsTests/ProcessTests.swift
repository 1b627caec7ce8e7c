import DeskDomain
import DeskStorage
import DeskTestSupport
import Foundation
import Testing

/// Tests that run the real `circdesk` program as separate processes against one SQLite file.
@Suite(.serialized) struct ProcessTests {
  /// The program starts with SQLite, ncurses, libpng and libjpeg only: zbar, qrencode, libcurl
  /// and libpq (with X11, D-Bus, OpenSSL, LDAP and Kerberos behind them) are loaded when first
  /// used, and then they work: a scan, a label read back.
  @Test func theLibrariesOfScanningLookUpAndSyncAreLoadedWhenFirstUsed() throws {
    let linked = try runProgram("/usr/bin/ldd", [circdeskPath])
    #expect(linked.status == 0, "\(linked.errors)")
    #expect(linked.output.contains("libsqlite3") && linked.output.contains("libncursesw"), "\(linked.output)")
    for library in ["libzbar", "libqrencode", "libcurl", "libpq", "libX11", "libssl", "libldap", "libgssapi"] {
      #expect(!linked.output.contains(library), "\(library) is loaded at every start")
    }
    let folder = TemporaryFolder()
    let db = folder.file("library.sqlite")
    #expect(try runProcess(["book", "add", "--inventory", "7", "--title", "Книга", "--db", db]).status == 0)
    let labelled = try runProcess(["label", "7", "-o", folder.path, "--db", db])
    #expect(labelled.status == 0, "\(labelled.errors)")
    let scanned = try runProcess(["scan", folder.file("7.png"), "--db", db])
    #expect(scanned.status == 0, "\(scanned.errors)")
    #expect(scanned.output.contains("Книга"), "\(scanned.output)")
  }

  /// Output that cannot be written (a full disk): a command that only reads fails, saying so; one
  /// whose change committed exits 0, saying so too.
  @Test func outputThatCannotBeWrittenIsToldAndTheExitStatusSaysWhatHappened() throws {
    let folder = TemporaryFolder()
    let db = folder.file("library.sqlite")
    func full(_ arguments: String) throws -> CommandResult {
      try runProgram("/bin/sh", ["-c", "\"$0\" \(arguments) --db \"$1\" > /dev/full", circdeskPath, db])
    }
    let added = try full("book add --inventory 1 --title Книга")
    #expect(added.status == 0, "the book is in the library")
    #expect(added.errors.contains("circdesk: the output could not be written (No space left on device)"))
    #expect(try LibraryStore(path: db, clock: TestClock()).books.book(inventory: "1") != nil)
    let listed = try full("book list")
    #expect(listed.status == 1)
    #expect(listed.errors.contains("circdesk: the output could not be written"))
  }

  /// A reader that stops reading (`| head`): nothing said, and the status a program ended by
  /// SIGPIPE has, for `set -o pipefail`.
  @Test func aReaderThatStopsReadingHearsNothing() throws {
    let folder = TemporaryFolder()
    let db = folder.file("library.sqlite")
    #expect(try runProcess(["demo", "--db", db]).status == 0)
    let status = folder.file("status")
    // The reader closes its end at once: the desk's output finds the pipe closed.
    let piped = try runProgram(
      "/bin/sh",
      [
        "-c", "{ \"$0\" book list --db \"$1\"; echo $? > \"$2\"; } | { exec <&-; sleep 0.3; }",
        circdeskPath, db, status,
      ])
    #expect(piped.status == 0)
    #expect(piped.errors == "", "\(piped.errors)")
    #expect(try String(contentsOfFile: status, encoding: .utf8) == "141\n")
  }

  @Test func exitStatusesAndTheDatabaseFromTheEnvironment() throws {
    let folder = TemporaryFolder()
    let environment = ["CIRCDESK_DB": folder.file("env.sqlite"), "CIRCDESK_NOW": "2026-11-30T10:00:00Z"]
    #expect(
      try runProcess(["book", "add", "--inventory", "1", "--title", "Книга"], environment: environment).status == 0)
    let duplicate = try runProcess(["book", "add", "--inventory", "1", "--title", "Книга"], environment: environment)
    #expect(duplicate.status == 1)
    #expect(duplicate.errors == "Inventory number 1 is already used by «Книга»\n")
    #expect(try runProcess(["book", "add", "--bogus"], environment: environment).status == 64)
    #expect(try runProcess(["book", "list"], environment: environment).output.contains("Книга"))
    #expect(FileManager.default.fileExists(atPath: folder.file("env.sqlite")))

    let xdg = ["XDG_DATA_HOME": folder.file("xdg"), "CIRCDESK_NOW": "2026-11-30T10:00:00Z"]
    #expect(try runProcess(["book", "add", "--inventory", "2", "--title", "Другая"], environment: xdg).status == 0)
    #expect(FileManager.default.fileExists(atPath: folder.file("xdg/circdesk/library.sqlite")))
  }

  @Test func aFileThatIsNotADatabaseIsLeftAlone() throws {
    let folder = TemporaryFolder()
    let path = folder.file("photo.sqlite")
    let bytes = Data((0..<4096).map { UInt8($0 % 251) })
    try bytes.write(to: URL(fileURLWithPath: path))
    let result = try runProcess(["book", "list", "--db", path])
    #expect(result.status == 1)
    #expect(result.errors.contains("is not a library database"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
  }

  /// A library this user may read but not write (its file and folder are another's): the commands
  /// that read work on it, one that writes is refused, and nothing is made beside the file, with
  /// or without a desk writing it at the time. As root, permissions do not stop writes, so the
  /// program runs as the unprivileged user `nobody` there.
  @Test func aLibraryThatCannotBeWrittenIsReadAndLeftAsItWas() throws {
    let folder = TemporaryFolder()
    let shelf = folder.file("shelf")
    let path = shelf + "/library.sqlite"
    #expect(try runProcess(["book", "add", "--inventory", "1", "--title", "Книга", "--db", path]).status == 0)
    #expect(try runProcess(["reader", "add", "--ticket", "7", "--surname", "Иванова", "--db", path]).status == 0)
    // A copy of the program in the test's folder, which `nobody` can reach wherever the build is.
    let program = folder.file("circdesk")
    // Copied by cp, not in this process: a file this process had open for writing could leak into
    // a child another test forks meanwhile, and exec would then fail with "Text file busy".
    #expect(try runProgram("/bin/cp", [circdeskPath, program]).status == 0)
    let isRoot = getuid() == 0
    if !isRoot {
      try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: path)
      try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: shelf)
    }
    defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: shelf) }
    func run(_ arguments: [String]) throws -> CommandResult {
      let arguments = arguments + ["--db", path]
      if isRoot {
        return try runProgram(
          "/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", program] + arguments,
          environment: ["HOME": folder.path])
      }
      return try runProgram(program, arguments)
    }
    func shelfFiles() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: shelf).sorted() }
    let before = try Data(contentsOf: URL(fileURLWithPath: path))
    #expect(try shelfFiles() == ["library.sqlite"])

    #expect(try run(["book", "list"]).output.contains("Книга"))
    #expect(try run(["book", "show", "1"]).output.contains("Книга"))
    #expect(try run(["reader", "list"]).output.contains("Иванова"))
    let exported = try run(["export", "irbis", "books", "--all", "--stdout"])
    #expect(exported.status == 0 && exported.output.contains("#200: "), "\(exported)")
    #expect(try run(["sync", "--status"]).status == 0)
    let added = try run(["book", "add", "--inventory", "2", "--title", "Другая"])
    #expect(added.status == 1)
    #expect(added.errors == "\(path) cannot be written (read-only file or folder): check its permissions\n")
    #expect(try shelfFiles() == ["library.sqlite"], "no -wal or -shm left by a reader")
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)

    // The owner's desk writes meanwhile (as root only: elsewhere the owner is this user, who was
    // just made unable to write). The reader sees its latest commit through the desk's files.
    guard isRoot else { return }
    let desk = try LibraryStore(path: path, clock: TestClock())
    try desk.books.add(bookDraft("3", "Только что принятая"))
    let owned = try shelfFiles()
    #expect(owned == ["library.sqlite", "library.sqlite-shm", "library.sqlite-wal"])
    #expect(try run(["book", "show", "3"]).output.contains("Только что принятая"))
    #expect(try shelfFiles() == owned)
    for file in owned {
      let owner = try FileManager.default.attributesOfItem(atPath: shelf + "/" + file)[.ownerAccountID] as? Int
      #expect(owner == 0, "\(file) stays the desk's own")
    }
  }

  /// Two desks scan the same book for two readers at the same moment: one wins, the other is told
  /// who has it, and the book has exactly one open loan.
  @Test func twoDesksRacingForOneBook() throws {
    let folder = TemporaryFolder()
    let path = folder.file("race.sqlite")
    do {
      let store = try LibraryStore(path: path)
      try store.books.add(bookDraft("B1", "Спорная книга"))
      try store.readers.add(readerDraft("R1", "Первый"))
      try store.readers.add(readerDraft("R2", "Второй"))
    }
    for round in 1...8 {
      let first = try startProcess(["issue", "R1", "B1", "--db", path])
      let second = try startProcess(["issue", "R2", "B1", "--db", path])
      let results = [first.finish(), second.finish()]
      let winners = results.filter { $0.status == 0 }
      let losers = results.filter { $0.status == 1 }
      #expect(winners.count == 1, "round \(round): \(results)")
      #expect(losers.count == 1, "round \(round): \(results)")
      #expect(losers.first?.errors.contains("is already issued to") == true, "round \(round): \(results)")
      let store = try LibraryStore(path: path)
      #expect(try store.books.count(filter: .issued) == 1)
      try store.circulation.returnBooks(inventories: ["B1"])
    }
  }

  /// A desk killed in the middle of a batch issue leaves no half of it behind, and every loan
  /// committed before stays.
  @Test func killedDuringABatchIssue() throws {
    let folder = TemporaryFolder()
    let path = folder.file("kill.sqlite")
    let count = 3000
    do {
      let store = try LibraryStore(path: path)
      try store.policy.setCategory(
        ReaderCategory(code: "bulk", name: "Bulk", loanDays: 14, loanLimit: 100_000, renewalLimit: 1))
      try store.transaction {
        for number in 0...count {
          try store.books.add(bookDraft("K\(number)", "Книга \(number)"))
        }
      }
      try store.readers.add(readerDraft("R1", "Оптовый", category: "bulk"))
      try store.circulation.issue(ticket: "R1", inventories: ["K0"])
    }
    let inventories = (1...count).map { "K\($0)" }
    var killedMidway = 0
    for _ in 1...3 {
      let process = try startProcess(["issue", "R1"] + inventories + ["--db", path])
      let watcher = try Database(path: path, busyTimeoutMilliseconds: 0)
      let deadline = Date().addingTimeInterval(20)
      var sawWriter = false
      // Kill the moment the batch holds the write lock, that is inside its transaction.
      while process.process.isRunning && Date() < deadline {
        do {
          try watcher.executeScript("BEGIN IMMEDIATE")
          try watcher.executeScript("ROLLBACK")
        } catch {
          sawWriter = true
          kill(process.process.processIdentifier, SIGKILL)
          break
        }
      }
      _ = process.finish()
      if sawWriter { killedMidway += 1 }
      let store = try LibraryStore(path: path)
      #expect(try store.integrityCheck() == ["ok"])
      let open = try store.books.count(filter: .issued)
      #expect(open == 1 || open == count + 1, "all of the batch or none of it, found \(open)")
      #expect(try store.books.currentLoan(ofBook: #require(try store.books.book(inventory: "K0"))) != nil)
      if open == count + 1 { try store.circulation.returnBooks(inventories: inventories) }
    }
    #expect(killedMidway > 0, "the kill should have landed inside the batch's transaction at least once")
  }
}

func startProcess(_ arguments: [String]) throws -> RunningProcess {
  try startProgram(circdeskPath, arguments)
}
