import DeskAssets
import DeskDomain
@_spi(Connection) import DeskStorage
import DeskTestSupport
import Foundation
import Testing

@testable import DeskCommands

@Suite struct CommandTests {
  let folder = TemporaryFolder()
  var db: [String] { ["--db", folder.file("library.sqlite")] }

  func run(_ arguments: [String], now: String = "2026-11-30T10:00:00Z") -> CommandResult {
    runInProcess(arguments + db, now: now)
  }

  @Test func theLibraryOptionMayComeBeforeTheCommand() {
    #expect(runInProcess(db + ["book", "add", "--inventory", "1", "--title", "Книга"]).status == 0)
    let listed = runInProcess(["--db=" + folder.file("library.sqlite"), "book", "show", "1"])
    #expect(listed.status == 0)
    #expect(listed.output.contains("Книга"))
    #expect(runInProcess(db + ["overdue"]).output == "No books are overdue.\n")
  }

  /// A search ranks at most `LibraryStore.searchCap` books: `--limit 0` lists those and says there
  /// were more, instead of stopping at 200 in silence; a list without a search lists them all.
  @Test func aSearchThatFindsMoreThanItRanksSaysSo() throws {
    let store = try LibraryStore(path: folder.file("library.sqlite"), clock: TestClock())
    try store.addingBooksInBulk {
      for number in 1...250 { try store.books.add(bookDraft("\(number)", "Повесть \(number)")) }
    }
    let all = run(["book", "list", "--search", "повесть", "--limit", "0", "--json"])
    #expect(all.status == 0)
    #expect(all.output.components(separatedBy: "\"inventory\"").count - 1 == 200)
    #expect(all.errors.contains("More than 200 books match «повесть»: the first 200 are listed"))
    let few = run(["book", "list", "--search", "повесть", "--limit", "10"])
    #expect(few.status == 0 && few.errors.isEmpty)
    #expect(
      run(["book", "list", "--limit", "0", "--json"]).output.components(separatedBy: "\"inventory\"").count - 1 == 250)
  }

  /// Every date option is checked once, the same way: a day that does not exist or one outside
  /// the dates the library takes is a usage error naming the option; nothing is saved.
  @Test func everyDateOptionIsCheckedTheSameWay() throws {
    #expect(run(["book", "add", "--inventory", "1", "--title", "Азбука"]).status == 0)
    #expect(run(["reader", "add", "--ticket", "17", "--surname", "Иванова"]).status == 0)
    for (command, option) in [
      (["issue", "17", "1"], "--due"), (["book", "add", "--inventory", "2", "--title", "Букварь"], "--received"),
      (["book", "edit", "1"], "--received"),
      (["reader", "add", "--ticket", "18", "--surname", "Петров"], "--registered"),
      (["reader", "edit", "17"], "--registered"), (["export", "irbis", "books", "--stdout"], "--new-since"),
      (["policy", "set"], "--holiday"), (["policy", "set"], "--no-holiday"),
    ] {
      let impossible = run(command + [option, "2026-02-30"])
      #expect(impossible.status == 64, "\(command) \(option)")
      #expect(impossible.errors.hasPrefix("error: \(option) takes a date like 2026-11-30, not «2026-02-30»"))
      for far in ["9999-12-31", "1799-12-31", "2200-01-01"] {
        let outside = run(command + [option, far])
        #expect(outside.status == 64, "\(command) \(option) \(far)")
        #expect(outside.errors.hasPrefix("error: \(option) takes a date from 1800-01-01 to 2199-12-31, not «\(far)»"))
      }
    }
    #expect(run(["book", "list"]).output.contains("Букварь") == false, "nothing saved")
    #expect(run(["issue", "17", "1", "--due", "2199-12-31"]).status == 0, "the last day taken")
    #expect(run(["book", "edit", "1", "--received", ""]).status == 0, "an empty date clears the field")
  }

  @Test func aCopysStatusIsSetListedAndRefusedAtIssue() throws {
    #expect(run(["book", "add", "--inventory", "1", "--title", "Азбука"]).status == 0)
    #expect(run(["book", "add", "--inventory", "2", "--title", "Букварь", "--status", "reference"]).status == 0)
    #expect(run(["reader", "add", "--ticket", "17", "--surname", "Иванова"]).status == 0)
    let wrong = run(["book", "edit", "1", "--status", "borrowed"])
    #expect(wrong.status != 0)
    #expect(wrong.errors.contains("Status «borrowed» is not known; the statuses are: available, processing"))
    #expect(run(["book", "edit", "1", "--status", "lost"]).status == 0)
    #expect(run(["book", "show", "1"]).output.contains("Status            lost: not for loan"))
    let refused = run(["issue", "17", "1"])
    #expect(refused.status != 0)
    #expect(refused.errors.contains("«Азбука» (1) is lost and cannot be issued"), "\(refused.errors)")
    let listed = run(["book", "list", "--not-for-loan"])
    #expect(listed.output.contains("Азбука") && listed.output.contains("lost"))
    #expect(listed.output.contains("Букварь") && listed.output.contains("reference only"))
    #expect(run(["book", "list", "--available"]).output == "No books.\n")
    #expect(run(["book", "edit", "1", "--status", ""]).status == 0, "empty clears it: available")
    #expect(run(["book", "show", "1"]).output.contains("Status            available"))
    let reference = run(["issue", "17", "2"])
    #expect(reference.errors.contains("«Букварь» (2) is for reference only: it is read here, not lent"))
    #expect(run(["issue", "17", "1"]).status == 0)
  }

  /// A command that only reads never makes a library, nor its folder: a missing one is an error
  /// naming the path and how to make one; nor does one that works on a library there already
  /// (sync, leaving a central, settling a conflict). A command that adds makes it.
  @Test func commandsThatOnlyReadMakeNoLibrary() throws {
    let missing = folder.file("nowhere/library.sqlite")
    for command in [
      ["book", "list"], ["book", "show", "1"], ["reader", "list"], ["reader", "show", "1"],
      ["export", "irbis", "books", "--all", "--stdout"], ["export", "iso2709", "books", "--all", "--stdout"],
      ["export", "koc", "--stdout"], ["overdue"], ["conflicts", "list"], ["policy", "show"], ["sync", "--status"],
      ["sync"], ["central", "leave"], ["conflicts", "resolve", "1", "--restore"],
    ] {
      let result = runInProcess(command + ["--db", missing])
      #expect(result.status == 1, "\(command)")
      #expect(
        result.errors.contains("\(missing): no library here; it is made by the first command that adds to it"),
        "\(command): \(result.errors)")
    }
    #expect(!FileManager.default.fileExists(atPath: folder.file("nowhere")), "no folder made")
    #expect(runInProcess(["book", "add", "--inventory", "1", "--title", "Книга", "--db", missing]).status == 0)
    #expect(runInProcess(["book", "list", "--db", missing]).output.contains("Книга"))
  }

  /// An empty --db is a slip (an unset variable), never the default library.
  @Test func anEmptyLibraryPathIsAUsageError() {
    let result = runInProcess(["book", "list", "--db", ""])
    #expect(result.status == 64)
    #expect(result.errors.hasPrefix("error: --db names the library file; it is empty"))
  }

  @Test func everyCommandRefusesAStrayWord() throws {
    let stray = run(["book", "add", "stray", "--inventory", "1", "--title", "Книга"])
    #expect(stray.status == 64)
    #expect(stray.errors.hasPrefix("error: takes no arguments, but «stray» was given"))
    #expect(try LibraryStore(path: folder.file("library.sqlite"), clock: TestClock()).books.count() == 0)
    let extra = run(["book", "show", "1", "2"])
    #expect(extra.status == 64)
    #expect(extra.errors.hasPrefix("error: too many arguments: «2» is one more than it takes"))
    #expect(run(["overdue", "now"]).status == 64)
    #expect(run(["policy", "show", "x"]).status == 64)
  }

  @Test func saysWhenItUpdatesALibraryOfAnOlderVersion() throws {
    #expect(run(["book", "add", "--inventory", "1", "--title", "Книга"]).status == 0)
    do {
      let store = try LibraryStore(path: folder.file("library.sqlite"), clock: TestClock())
      try store.database.executeScript(librarySchemaBeforeSync)
      try store.database.executeScript(
        """
        DROP INDEX book_list;
        CREATE INDEX book_sort ON book(sort_key) WHERE deleted = 0;
        DELETE FROM counter WHERE name IN ('book_words', 'reader_words');
        PRAGMA user_version = 6;
        """)
    }
    let listed = run(["book", "list"])
    #expect(listed.status == 0)
    #expect(
      listed.errors.contains("from schema 6 to \(LibraryStore.schemaVersion); a large library takes a few seconds"))
    #expect(listed.output.contains("Книга"))
    #expect(run(["book", "list"]).errors.isEmpty, "once")
  }

  func addLermontov() {
    let added = run(
      [
        "book", "add", "--inventory", "100234", "--isbn", "9785170795857", "--author-surname", "Лермонтов",
        "--author-initials", "М. Ю.", "--title", "Герой нашего времени", "--publisher", "АСТ", "--city", "Москва",
        "--year", "2018", "--pages", "414", "--price", "254", "--bbk", "84(2Рос=Рус)1", "--author-mark", "Л49",
        "--place", "Абонемент", "--received", "2018-11-05",
      ], now: "2026-11-01T09:00:00Z")
    #expect(
      added == CommandResult(status: 0, output: "Added: 100234 Лермонтов М. Ю. Герой нашего времени\n", errors: ""))
  }

  @Test func bookShowGoldenText() throws {
    addLermontov()
    #expect(
      run(["reader", "add", "--ticket", "17", "--surname", "Иванова", "--name", "Мария", "--patronymic", "Петровна"])
        .status == 0)
    #expect(run(["reader", "add", "--ticket", "18", "--surname", "Петров", "--name", "Илья"]).status == 0)
    #expect(run(["issue", "18", "100234"], now: "2026-11-02T08:30:00Z").status == 0)
    #expect(run(["return", "100234"], now: "2026-11-10T15:45:00Z").status == 0)
    let issued = run(["issue", "17", "100234"], now: "2026-11-12T11:05:00Z")
    #expect(issued.output == "Issued: 100234 «Герой нашего времени» — Иванова М. П. (17), due 2026-11-26\n")
    let shown = run(["book", "show", "100234"])
    #expect(shown.status == 0)
    #expect(try matchesGolden(shown.output, "book-show.txt"))
    let json = run(["book", "show", "100234", "--json"])
    #expect(try matchesGolden(maskingIDs(json.output), "book-show.json"))
  }

  @Test func readerShowListsOpenLoansThenHistory() throws {
    addLermontov()
    #expect(
      run(["book", "add", "--inventory", "100235", "--title", "Мцыри", "--author-surname", "Лермонтов"]).status == 0)
    #expect(
      run([
        "reader", "add", "--ticket", "17", "--surname", "Иванова", "--phone", "+7 343 210-11-01", "--street",
        "ул. Ленина", "--house", "5",
      ]).status == 0)
    #expect(run(["issue", "17", "100234", "100235"], now: "2026-11-02T08:30:00Z").status == 0)
    #expect(run(["return", "100235"], now: "2026-11-03T08:30:00Z").status == 0)
    let shown = run(["reader", "show", "17"])
    #expect(try matchesGolden(shown.output, "reader-show.txt"))
  }

  @Test func refusalsExitWithOneAndChangeNothing() {
    addLermontov()
    let duplicate = run(["book", "add", "--inventory", "100234", "--title", "Другая"])
    #expect(
      duplicate
        == CommandResult(
          status: 1, output: "", errors: "Inventory number 100234 is already used by «Герой нашего времени»\n"))
    let bad = run(["book", "add", "--inventory", "", "--title", "X", "--isbn", "978-5-17-079585-0"])
    #expect(bad.status == 1)
    #expect(bad.errors == "Inventory number is required\nISBN 978-5-17-079585-0 has a wrong check digit (expected 7)\n")
    #expect(run(["book", "list", "--json"]).output.components(separatedBy: "\"inventory\"").count == 2)
    #expect(
      run(["issue", "404", "100234"]).errors
        == "No reader has ticket 404: check the card, or register the reader first\n")
    #expect(run(["book", "show", "1"]).status == 1)
    #expect(run(["book", "edit", "100234"]).status == 64)
  }

  @Test func controlCharactersInDataNeverReachTheTerminal() {
    #expect(run(["book", "add", "--inventory", "1", "--title", "Evil\u{1B}]0;owned\u{07} title"]).status == 0)
    let listed = run(["book", "list"]).output
    #expect(!listed.contains("\u{1B}"))
    #expect(listed.contains("Evil\u{241B}]0;owned\u{2407} title"))
    #expect(!run(["book", "show", "1"]).output.contains("\u{1B}"))
    #expect(run(["book", "show", "1", "--json"]).output.contains("Evil\\u001b]0;owned\\u0007 title"))
  }

  @Test func policyIsShownAndChanged() {
    #expect(
      run(["policy", "set", "--due-mode", "calendar", "--closed", "sat,sun", "--holiday", "2026-12-31=New Year's Eve"])
        .status == 0)
    #expect(
      run(["policy", "category", "senior", "--name", "Senior", "--loan-days", "28", "--loan-limit", "6"]).status == 0)
    let shown = run(["policy", "show"]).output
    #expect(shown.contains("Due-date mode        calendar (only open days count)"))
    #expect(shown.contains("Closed weekdays      sat, sun"))
    #expect(shown.contains("senior    Senior   28         6      2"))
    #expect(shown.contains("2026-12-31  New Year's Eve"))
    #expect(run(["policy", "set", "--scanner-gap", "30", "--reader-prefix", "R", "--scanner-suffix", "#"]).status == 0)
    let scanner = run(["policy", "show"]).output
    #expect(scanner.contains("Code prefixes        reader «R», book «»"))
    #expect(
      scanner.contains("Scanner              keys at most 30 ms apart, codes of 4+ characters, prefix «», suffix «#»"))
    #expect(run(["policy", "set", "--scanner-gap", "0"]).errors.contains("key gap must be 1 to 1000 ms"))
    #expect(
      run(["policy", "set", "--lookup-order", "openlibrary", "--open-library-url", "http://127.0.0.1:1/ol"]).status == 0
    )
    #expect(run(["policy", "show"]).output.contains("ISBN look-up         Open Library (http://127.0.0.1:1/ol)"))
    #expect(run(["policy", "set", "--lookup-order", "yandex"]).status == 64)
    #expect(run(["policy", "set", "--due-mode", "weekly"]).status == 64)
    #expect(run(["policy", "set", "--default-category", "nobody"]).errors == "Category «nobody» does not exist\n")
    #expect(run(["policy", "category", "senior", "--remove"]).status == 0)
  }

  @Test func listsFilterAndPage() {
    #expect(run(["demo"]).status == 0)
    let overdue = run(["book", "list", "--overdue", "--json"]).output
    let issued = run(["book", "list", "--issued", "--limit", "0"]).output
    #expect(overdue.contains("\"status\": \"overdue\""))
    #expect(!overdue.contains("\"status\": \"issued\""))
    #expect(issued.split(separator: "\n").count == 31, "header and 30 loans")
    #expect(run(["book", "list", "--limit", "0"]).output.split(separator: "\n").count == 157)
    #expect(run(["book", "list", "--limit", "5"]).output.split(separator: "\n").count == 6)
    #expect(run(["reader", "list", "--search", "иванов"]).output.split(separator: "\n").count == 4)
  }
}

@Suite struct DemoLibraryTests {
  @Test func everyDemoISBNHasAValidCheckDigit() {
    let rows = DemoLibrary.rows(DemoAssets.books, width: 13)
    #expect(rows.count >= 150)
    for row in rows where !row[1].isEmpty {
      #expect(throws: Never.self, "\(row[0]) \(row[4])") { try ISBN(row[1]) }
    }
    #expect(Set(rows.map { $0[0] }).count == rows.count, "inventory numbers are unique")
  }

  @Test func theDemoHasLoansInEveryState() throws {
    let folder = TemporaryFolder()
    let db = ["--db", folder.file("demo.sqlite")]
    let made = runInProcess(["demo"] + db)
    #expect(made.status == 0)
    #expect(made.output.hasPrefix("Demo library ready: 156 books, 42 readers, 55 loans"))
    let loans = runInProcess(["book", "list", "--issued", "--json", "--limit", "0"] + db).output
    #expect(loans.contains("\"due\": \"2026-11-30\""), "due today")
    #expect(loans.contains("\"overdue\": true"))
    #expect(loans.contains("\"renewals\": 2"))
    let history = runInProcess(["reader", "show", "1001", "--json"] + db).output
    #expect(history.contains("\"returned\": \"2026-"))
    // A fresh demo replaces an old one.
    #expect(runInProcess(["demo"] + db).status == 0)
  }

  @Test func theRussianDemoNamesItsCategoriesInRussian() throws {
    let folder = TemporaryFolder()
    let db = ["--db", folder.file("demo.sqlite")]
    #expect(runInProcess(["demo", "--lang", "ru"] + db).status == 0)
    let policy = runInProcess(["policy", "show"] + db).output
    #expect(policy.contains("взрослый") && policy.contains("детский"), "\(policy)")
    #expect(!policy.contains("Adult"))
    #expect(runInProcess(["demo", "--lang", "de"] + db).status == 64)
  }

  @Test func theDemoNeverOverwritesARealLibrary() throws {
    let folder = TemporaryFolder()
    let db = ["--db", folder.file("real.sqlite")]
    #expect(runInProcess(["book", "add", "--inventory", "1", "--title", "Единственная"] + db).status == 0)
    let refused = runInProcess(["demo"] + db)
    #expect(refused.status == 1)
    #expect(refused.errors.contains("holds a library that is not a demo: it is left as it is"))
    #expect(runInProcess(["book", "list", "--json"] + db).output.contains("Единственная"))
  }
}
