import DeskCommands
import DeskDomain
@_spi(Connection) import DeskStorage
import DeskTestSupport
import Foundation
import Testing

@testable import DeskExchange

@Suite struct ImportExportTests {
  let folder = TemporaryFolder()

  func run(_ arguments: [String], db: String) -> (status: Int32, output: String, errors: String) {
    let output = StringSink()
    let errors = StringSink()
    let context = CommandContext(
      output: output, errors: errors, environment: ["HOME": folder.path],
      clock: FixedClock(Timestamp(iso: "2026-11-30T10:00:00Z")!))
    let status = RootCommand.run(arguments + ["--db", db], context: context)
    return (status, output.text, errors.text)
  }

  func write(_ text: String, encoding: FileEncoding = .utf8, bom: Bool = false) throws -> String {
    let path = folder.file("input-\(UUID().uuidString).txt")
    var bytes = encoding == .utf8 ? Array(text.utf8) : (Windows1251.encode(text) ?? [])
    if bom { bytes = [0xEF, 0xBB, 0xBF] + bytes }
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return path
  }

  @Test func goldenExportsOfTheDemoInBothEncodings() throws {
    let db = folder.file("demo.sqlite")
    #expect(run(["demo"], db: db).status == 0)
    for encoding in ["utf8", "cp1251"] {
      let books = folder.file("books-\(encoding).txt")
      let readers = folder.file("readers-\(encoding).txt")
      #expect(
        run(["export", "irbis", "books", "100001", "100101", "100115", "-o", books, "--encoding", encoding], db: db)
          .status == 0)
      #expect(
        run(["export", "irbis", "readers", "1001", "1032", "-o", readers, "--encoding", encoding], db: db).status == 0)
      #expect(try matchesGoldenBytes(books, "books-\(encoding).txt"))
      #expect(try matchesGoldenBytes(readers, "readers-\(encoding).txt"))
    }
    let cp1251 = try Data(contentsOf: URL(fileURLWithPath: folder.file("books-cp1251.txt")))
    #expect(cp1251.starts(with: Array("#920: PAZK\r\n".utf8)), "CRLF, as IRBIS writes")
    let report = run(["export", "irbis", "readers", "1032", "-o", folder.file("r.txt")], db: db)
    #expect(report.output.contains("characters have no place in Windows-1251"), "Müller's ü")
  }

  @Test func exportThenImportGivesBackBooksReadersAndLoans() throws {
    let source = folder.file("demo.sqlite")
    let target = folder.file("copy.sqlite")
    #expect(run(["demo"], db: source).status == 0)
    let books = folder.file("books.txt")
    let readers = folder.file("readers.txt")
    #expect(run(["export", "irbis", "books", "--all", "-o", books, "--encoding", "utf8"], db: source).status == 0)
    #expect(run(["export", "irbis", "readers", "--all", "-o", readers, "--encoding", "utf8"], db: source).status == 0)
    // Readers first: their loans wait for the books of a later file? No: each file is one
    // transaction, so books go first, as a librarian would load them.
    let imported = run(["import", "irbis", books], db: target)
    #expect(imported.output.hasSuffix("156 books added, 0 updated; 0 readers added, 0 updated; 0 loans; 0 skipped\n"))
    let people = run(["import", "irbis", readers], db: target)
    #expect(people.output.hasSuffix("0 books added, 0 updated; 42 readers added, 0 updated; 55 loans; 0 skipped\n"))

    let a = try LibraryStore(path: source, clock: TestClock())
    let b = try LibraryStore(path: target, clock: TestClock())
    func normalised(_ book: Book) -> BookDraft { BookDraft(book) }
    #expect(
      try a.books.page(limit: 1000).map { normalised($0.book) } == b.books.page(limit: 1000).map { normalised($0.book) }
    )
    #expect(
      try a.books.page(filter: .issued, limit: 1000).map(\.loan?.loan.due)
        == b.books.page(filter: .issued, limit: 1000).map(\.loan?.loan.due))
    for ticket in ["1001", "1004", "1031"] {
      let before = try #require(try a.readers.reader(ticket: ticket))
      let after = try #require(try b.readers.reader(ticket: ticket))
      #expect(ReaderDraft(before) == ReaderDraft(after))
      let loansBefore = try a.circulation.loans(ofReader: before).map {
        [$0.inventory, $0.loan.due.iso, $0.loan.returned == nil ? "out" : "back"]
      }
      let loansAfter = try b.circulation.loans(ofReader: after).map {
        [$0.inventory, $0.loan.due.iso, $0.loan.returned == nil ? "out" : "back"]
      }
      #expect(loansBefore == loansAfter)
    }
    // Importing again skips what is there, and --update leaves no doubles.
    let again = run(["import", "irbis", readers, "--update"], db: target)
    #expect(again.output.hasSuffix("0 readers added, 42 updated; 0 loans; 0 skipped\n"))
  }

  /// The whole catalogue goes out in the order its books were entered, as IRBIS writes its
  /// records by number; a list the librarian sees (a search) goes out in the list's order.
  @Test func theWholeCatalogueGoesOutInEntryOrderAndAListInItsOwn() throws {
    let store = try LibraryStore(path: folder.file("order.sqlite"), clock: TestClock())
    for (number, title) in [("1", "Яблоко"), ("2", "Арбуз"), ("3", "Мандарин")] {
      _ = try store.books.add(bookDraft(number, title))
    }
    try store.books.delete(inventory: "3")
    _ = try store.books.add(bookDraft("4", "Банан"))
    func titles(_ selection: IRBISExport.BookSelection, filter: BookFilter = .all, search: String = "") throws
      -> [String]
    {
      var titles: [String] = []
      _ = try IRBISExport.forEachRecord(selection, from: store, filter: filter, search: search) { record, _, _ in
        titles.append(record.first(200)?.subfield("A") ?? "")
      }
      return titles
    }
    #expect(try titles(.all) == ["Яблоко", "Арбуз", "Банан"])
    #expect(try titles(.newSince(LocalDate(iso: "2000-01-01")!)) == ["Яблоко", "Арбуз", "Банан"])
    #expect(try titles(.all, filter: .available) == ["Арбуз", "Банан", "Яблоко"])
    #expect(try titles(.all, search: "б") == ["Банан"])
    // Inside a transaction the books it added are read too (on this connection, not another).
    let inside = try store.transaction {
      _ = try store.books.add(bookDraft("5", "Вишня"))
      return try titles(.all)
    }
    #expect(inside == ["Яблоко", "Арбуз", "Банан", "Вишня"])
  }

  /// New books go in with one INSERT each, with no savepoint around it; a number taken is still
  /// refused alone, and the rest of the file imported.
  @Test func newBooksAreInsertedWithoutASavepointEach() throws {
    let store = try LibraryStore(path: folder.file("new.sqlite"), clock: TestClock())
    _ = try store.books.add(bookDraft("2", "Уже есть"))
    let path = folder.file("new.txt")
    try (1...3).map { "#920: PAZK\n#200: ^AКнига \($0)\n#910: ^A0^B\($0)\n*****\n" }.joined()
      .write(toFile: path, atomically: true, encoding: .utf8)
    let (report, statements) = try store.database.recordingStatements {
      try IRBISTextImport.run(path: path, encoding: .utf8, store: store, update: false, dryRun: false)
    }
    #expect(report.booksAdded == 2 && report.problems.count == 1)
    #expect(try store.books.count() == 3, "the refused copy is not counted")
    #expect(statements.filter { $0.hasPrefix("INSERT INTO book(") }.count == 3)
    #expect(!statements.contains { $0.hasPrefix("SAVEPOINT") }, "\(statements.filter { $0.hasPrefix("SAVEPOINT") })")
    #expect(try store.books.book(inventory: "2")?.title == "Уже есть")
    #expect(try store.books.search("книга").all.map(\.inventoryNumber).sorted() == ["1", "3"])
  }

  /// A file that brings many more records than the library holds (told by its size: about 200
  /// bytes a record at the least) is imported with the indexes of random keys put off, and they
  /// are made again, as they were, before the import ends; a small file keeps them.
  @Test func aLargeFileIntoASmallLibraryPutsIndexesOffAndMakesThemAgain() throws {
    let store = try LibraryStore(path: folder.file("large.sqlite"), clock: TestClock())
    let indexes =
      "SELECT group_concat(sql, ';') FROM (SELECT sql FROM sqlite_schema WHERE type = 'index' ORDER BY name)"
    let before = try store.database.queryFirst(indexes) { $0.string(0) }
    // 2,500 records of about 840 bytes: read as 10,000 records, the fewest that put indexes off.
    let note = String(repeating: "примечание ", count: 35)
    let path = folder.file("large.txt")
    try (1...2_500).map {
      "#920: PAZK\n#200: ^AКнига \($0)\n#10: ^A978-5-17-0\(String(format: "%05d", $0))-0\n#300: ^A\(note)\n"
        + "#910: ^A0^B\($0)\n*****\n"
    }.joined().write(toFile: path, atomically: true, encoding: .utf8)
    let (report, statements) = try store.database.recordingStatements {
      try IRBISTextImport.run(path: path, encoding: .utf8, store: store, update: false, dryRun: false)
    }
    #expect(report.booksAdded == 2_500)
    #expect(statements.contains("DROP INDEX book_list") && statements.contains("DROP INDEX book_isbn13"))
    #expect(statements.contains { $0.hasPrefix("CREATE INDEX book_list ON ") })
    #expect(try store.database.queryFirst(indexes) { $0.string(0) } == before)
    #expect(try store.database.scalarInt("SELECT count(*) FROM put_off_index") == 0)
    // The index gathers 4 MiB of words before writing a segment, then FTS5's own 1 MiB again.
    #expect(statements.filter { $0.contains("'hashsize'") }.count == 2)
    #expect(try store.database.scalarInt("SELECT v FROM book_fts_config WHERE k = 'hashsize'") == 1 << 20)
    #expect(try store.database.scalarInt("SELECT count(*) FROM book_fts WHERE book_fts MATCH 'книга'") == 2_500)
    let small = folder.file("small.txt")
    try "#920: PAZK\n#200: ^AЕщё одна\n#910: ^A0^B9999\n*****\n".write(toFile: small, atomically: true, encoding: .utf8)
    let (_, smallStatements) = try store.database.recordingStatements {
      try IRBISTextImport.run(path: small, encoding: .utf8, store: store, update: false, dryRun: false)
    }
    #expect(!smallStatements.contains { $0.hasPrefix("DROP INDEX") })
  }

  /// A number the file gives twice is told with the record that gave it first: skipped, or with
  /// `--update` replacing it. A record refused for its fields gives its number to nobody, and a
  /// number of a book the library had before is "already in the library".
  @Test func aNumberGivenTwiceIsToldWithTheRecordThatGaveItFirst() throws {
    let store = try LibraryStore(path: folder.file("twice.sqlite"), clock: TestClock())
    _ = try store.books.add(bookDraft("100", "Была раньше"))
    let path = folder.file("twice.txt")
    try [
      "#920: PAZK\n#200: ^AПервая\n#910: ^A0^B1\n*****\n",
      "#920: PAZK\n#700: ^AБез заглавия\n#910: ^A0^B2\n*****\n",
      "#920: PAZK\n#200: ^AВторая\n#910: ^A0^B1\n*****\n",
      "#920: PAZK\n#200: ^AТретья\n#910: ^A0^B2\n*****\n",
      "#920: PAZK\n#200: ^AЧетвёртая\n#910: ^A0^B100\n*****\n",
    ].joined().write(toFile: path, atomically: true, encoding: .utf8)
    let skipped = try IRBISTextImport.run(path: path, encoding: .utf8, store: store, update: false, dryRun: false)
    #expect(
      skipped.englishProblems.contains {
        $0.hasPrefix("record 3 (line ") && $0.hasSuffix("copy 1: the same number is also in record 1 of this file")
      }, "\(skipped.englishProblems)")
    #expect(skipped.englishProblems.contains { $0.hasPrefix("record 2 (line ") }, "the missing title is told")
    #expect(skipped.englishProblems.contains { $0.contains("book 100 is already in the library") })
    #expect(try store.books.book(inventory: "1")?.title == "Первая")
    #expect(try store.books.book(inventory: "2")?.title == "Третья", "the refused record took no number")
    let other = try LibraryStore(path: folder.file("twice-update.sqlite"), clock: TestClock())
    _ = try other.books.add(bookDraft("100", "Была раньше"))
    let updated = try IRBISTextImport.run(path: path, encoding: .utf8, store: other, update: true, dryRun: false)
    #expect(
      updated.englishNotes.contains {
        $0.hasPrefix("record 3 (line ")
          && $0.hasSuffix("copy 1: the same number is also in record 1 of this file; this one replaces it")
      }, "\(updated.englishNotes)")
    #expect(
      !updated.englishNotes.contains { $0.contains("copy 100") }, "the library's own book is updated, not replaced")
    #expect(try other.books.book(inventory: "1")?.title == "Вторая")
    #expect(try other.books.book(inventory: "100")?.title == "Четвёртая")
  }

  /// Books already there, imported again with `--update`, are looked up and rewritten: no insert
  /// is tried and refused first, which inside the import's bulk transaction (its triggers
  /// dropped) made SQLite read its whole schema again for each record.
  @Test func anUpdateRewritesTheBooksThereWithoutTryingToAddThem() throws {
    let store = try LibraryStore(path: folder.file("update.sqlite"), clock: TestClock())
    func file(_ title: String) throws -> String {
      let path = folder.file("\(title).txt")
      try (1...3).map { "#920: PAZK\n#200: ^A\(title) \($0)\n#910: ^A0^B\($0)\n*****\n" }.joined()
        .write(toFile: path, atomically: true, encoding: .utf8)
      return path
    }
    let first = try file("Первая")
    _ = try IRBISTextImport.run(path: first, encoding: .utf8, store: store, update: false, dryRun: false)
    let second = try file("Вторая")
    let (report, statements) = try store.database.recordingStatements {
      try IRBISTextImport.run(path: second, encoding: .utf8, store: store, update: true, dryRun: false)
    }
    #expect(report.booksUpdated == 3 && report.booksAdded == 0)
    #expect(!statements.contains { $0.contains("INSERT INTO book(") || $0.hasPrefix("ROLLBACK TO") })
    // Only what changed is set: each column set rewrites its indexes' entries.
    #expect(
      statements.filter { $0.hasPrefix("UPDATE book SET") && $0.hasSuffix("WHERE uuid = ?") }
        == Array(
          repeating: "UPDATE book SET title = ?, sort_key = ?, search_text = ?, updated_at = ? WHERE uuid = ?",
          count: 3), "the books are written, their changed columns only")
    #expect(try store.books.book(inventory: "2")?.title == "Вторая 2")
    #expect(try store.books.search("вторая").all.count == 3)
  }

  @Test func malformedRecordsAreReportedWithLineNumbersAndTheRestImported() throws {
    let text = """
      #920: PAZK
      #200: ^AПервая книга
      #910: ^A0^B1
      *****
      920: PAZK
      #200: ^AБез решётки
      #910: ^A0^B2
      *****
      #920 PAZK
      #910: ^A0^B3
      *****
      #920:PAZK
      #910: ^A0^B4
      *****
      #920: PAZK
      #200: ^AПустая строка внутри

      #910: ^A0^B5
      *****
      #920: PAZK
      #200: ^AХорошая
      #910: ^A0^B6^DАбонемент
      *****
      #920: PAZK
      #200: ^AОборванная запись
      #910: ^A0^B7
      """
    let db = folder.file("library.sqlite")
    let result = run(["import", "irbis", try write(text)], db: db)
    let lines = result.output.split(separator: "\n").map(String.init)
    #expect(lines.contains("skipped: record 2, line 5: the line does not start with # and a tag"))
    #expect(lines.contains("skipped: record 3, line 9: no : after the tag"))
    #expect(lines.contains("skipped: record 4, line 12: no space after #920:"))
    #expect(lines.contains("skipped: record 5, line 17: a blank line inside the record"))
    #expect(lines.contains("skipped: record 7, line 26: the file ends inside the record (no ***** line)"))
    #expect(
      lines.last == "Imported from 7 records: 2 books added, 0 updated; 0 readers added, 0 updated; 0 loans; 5 skipped")
    let store = try LibraryStore(path: db, clock: TestClock())
    #expect(try store.books.page().map(\.book.inventoryNumber) == ["1", "6"])
  }

  @Test func invalidBytesInAUTF8FileAreReported() throws {
    var bytes = Array("\u{FEFF}#920: PAZK\n#200: ^AКнига\n#910: ^A0^B1\n*****\n#920: PAZK\n#200: ^A".utf8)
    bytes += [0xC3, 0x28] + Array("\n#910: ^A0^B2\n*****\n".utf8)
    let path = folder.file("bad-bytes.txt")
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    let result = run(["import", "irbis", path], db: folder.file("library.sqlite"))
    #expect(result.output.contains("skipped: record 2, line 6: bytes that are not valid in the file's encoding"))
    #expect(result.output.contains("1 book added"))
  }

  @Test func readsWindows1251AndCRLFAndBOM() throws {
    let record = "#920: PAZK\r\n#700: ^AЛермонтов^BМ. Ю.\r\n#200: ^AГерой нашего времени\r\n#910: ^A0^B1\r\n*****\r\n"
    for (index, path) in [try write(record, encoding: .cp1251), try write(record, bom: true)].enumerated() {
      let db = folder.file("library-\(index).sqlite")
      #expect(run(["import", "irbis", path], db: db).status == 0)
      let store = try LibraryStore(path: db, clock: TestClock())
      #expect(try store.books.book(inventory: "1")?.title == "Герой нашего времени")
      #expect(try store.books.book(inventory: "1")?.authorInitials == "М. Ю.")
    }
  }

  @Test func aDryRunChangesNothingAndExistingNumbersAreSkipped() throws {
    let db = folder.file("library.sqlite")
    #expect(run(["book", "add", "--inventory", "1", "--title", "Старая"], db: db).status == 0)
    let path = try write(
      "#920: PAZK\n#200: ^AНовая\n#910: ^A0^B1\n*****\n#920: PAZK\n#200: ^AДругая\n#910: ^A0^B2\n*****\n")
    let dry = run(["import", "irbis", path, "--dry-run"], db: db)
    #expect(
      dry.output.contains(
        "skipped: record 1 (line 1): book 1 is already in the library (skipped; --update replaces it)"))
    #expect(dry.output.contains("Would import from 2 records: 1 book added"))
    let store = try LibraryStore(path: db, clock: TestClock())
    #expect(try store.books.count() == 1)
    #expect(run(["import", "irbis", path, "--update"], db: db).status == 0)
    #expect(try store.books.book(inventory: "1")?.title == "Новая")
    #expect(try store.books.count() == 2)
  }

  @Test func aNumberTwiceInOneFileIsUpdatedAndIndexedOnce() throws {
    let db = folder.file("library.sqlite")
    // Book 7 comes twice: the second copy updates the first, added moments before in the same
    // import; the search finds it by its last title only.
    var text = ""
    for number in 1...600 { text += "#920: PAZK\n#700: ^AАвтор\(number)\n#200: ^AКнига\n#910: ^A0^B\(number)\n*****\n" }
    text += "#920: PAZK\n#700: ^AЛермонтов\n#200: ^AМаскарад\n#910: ^A0^B7\n*****\n"
    let result = run(["import", "irbis", try write(text), "--update"], db: db)
    #expect(result.status == 0)
    #expect(result.output.contains("600 books added, 1 updated"))
    let store = try LibraryStore(path: db, clock: TestClock())
    #expect(try store.books.count() == 600)
    #expect(try store.books.page(search: "маскарад").map(\.book.inventoryNumber) == ["7"])
    #expect(try !store.books.page(search: "автор7").map(\.book.inventoryNumber).contains("7"))
    #expect(try store.books.page(search: "автор7").count == 10, "Автор70 to Автор79")
    #expect(try store.database.scalarInt("SELECT count(*) FROM book_fts WHERE book_fts MATCH 'книга'") == 599)
    try store.database.executeScript("INSERT INTO book_fts(book_fts, rank) VALUES ('integrity-check', 1)")
  }

  @Test func anErrorOfTheDatabaseHalfwayLeavesTheLibraryAsItWas() throws {
    let db = folder.file("library.sqlite")
    #expect(run(["book", "add", "--inventory", "1", "--title", "Старая"], db: db).status == 0)
    let store = try LibraryStore(path: db, clock: TestClock())
    let triggers =
      "SELECT group_concat(name) FROM (SELECT name FROM sqlite_schema WHERE type = 'trigger' ORDER BY name)"
    let before = try store.database.queryFirst(triggers) { $0.string(0) }
    // The database refuses book 1500, far into the file: the reading thread is well ahead by then.
    try store.database.executeScript(
      """
      CREATE TRIGGER refuse_1500 BEFORE INSERT ON book WHEN NEW.inventory = '1500'
      BEGIN SELECT RAISE(ABORT, 'the disk is full'); END
      """)
    var text = ""
    for number in 2...3000 { text += "#920: PAZK\n#200: ^AКнига \(number)\n#910: ^A0^B\(number)\n*****\n" }
    let result = run(["import", "irbis", try write(text)], db: db)
    #expect(result.status != 0)
    #expect(result.errors.contains("the disk is full"))
    try store.database.executeScript("DROP TRIGGER refuse_1500")
    #expect(try store.books.count() == 1)
    #expect(try store.database.scalarInt("SELECT count(*) FROM book") == 1)
    #expect(try store.database.queryFirst(triggers) { $0.string(0) } == before)
    #expect(try store.books.page(search: "книга").isEmpty)
  }

  @Test func aCopyWithAnInvalidISBNComesInWithoutIt() throws {
    let db = folder.file("library.sqlite")
    let path = try write(
      "#920: PAZK\n#10: ^A5-17-000000-1\n#200: ^AКнига\n#910: ^A0^B1\n*****\n"
        + "#920: PAZK\n#10: ^A978-5-17-079585-7\n#200: ^AДругая\n#910: ^A0^B2\n*****\n")
    let result = run(["import", "irbis", path], db: db)
    #expect(result.status == 0)
    #expect(
      result.output.contains("note: record 1 (line 1): copy 1: ISBN «5-17-000000-1» is not valid; imported without it"))
    #expect(result.output.contains("2 books added"))
    let store = try LibraryStore(path: db, clock: TestClock())
    #expect(try store.books.book(inventory: "1")?.isbn == nil)
    #expect(try store.books.book(inventory: "2")?.isbn?.isbn13 == "9785170795857")
  }

  /// A subfield is found by its code in either case, the first where it repeats; a code a
  /// combining mark changes is another code; an empty code or a caret at the end is nothing.
  @Test func subfieldsAreFoundByTheirCodes() {
    func field(_ value: String) -> IRBISRecord.Field { IRBISRecord.Field(tag: 200, value: value) }
    #expect(field("^Aa^bB^A second").subfield("A") == "a")
    #expect(field("^Aa^bB^A second").subfield("b") == "B")
    #expect(field("^Aa^bB^A second").subfield("B") == "B")
    #expect(field("^AЛермонтов^BМ. Ю.").subfield("b") == "М. Ю.")
    #expect(field("^A\u{0301}x^Ay").subfield("A") == "y")
    #expect(field("^^Ax").subfield("A") == "x")
    #expect(field("text^").subfield("A") == "")
    #expect(field("text").subfield("A") == "")
    #expect(field("^AЛ^Бм").subfield("б") == "м", "a Cyrillic code, the general way")
  }

  @Test func valuesCannotBreakTheFormat() {
    var record = IRBISRecord()
    record.append(200, subfields: [("A", "Заглавие ^Bс крышкой\nи переводом строки\r")])
    // Each character that would break the line or start a subfield becomes one space.
    #expect(record.text(newline: "\n") == "#200: ^AЗаглавие  Bс крышкой и переводом строки\n*****\n")
  }
}

/// Compares a written file with `Tests/DeskExchangeTests/Golden/<name>` byte for byte;
/// `CIRCDESK_UPDATE_GOLDEN=1` writes it instead.
func matchesGoldenBytes(_ path: String, _ name: String) throws -> Bool {
  let golden = packageRoot + "/Tests/DeskExchangeTests/Golden/" + name
  let actual = try Data(contentsOf: URL(fileURLWithPath: path))
  if ProcessInfo.processInfo.environment["CIRCDESK_UPDATE_GOLDEN"] == "1" {
    try actual.write(to: URL(fileURLWithPath: golden))
    return true
  }
  return try Data(contentsOf: URL(fileURLWithPath: golden)) == actual
}
