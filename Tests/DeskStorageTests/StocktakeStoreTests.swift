import DeskDomain
import DeskTestSupport
import Testing

@_spi(Connection) @testable import DeskStorage

/// A check of a hall's shelves in a real library file: its expected list frozen at the start,
/// each scan sorted, and the report of what is missing.
@Suite struct StocktakeStoreTests {
  let folder = TemporaryFolder()
  let clock = TestClock("2026-12-01T09:00:00Z")
  let store: LibraryStore

  init() throws {
    store = try LibraryStore(path: folder.file("library.sqlite"), clock: clock)
    for (inventory, place, status) in [
      ("1", "Зал 1", CopyStatus.available), ("2", "Зал 1", .available), ("3", "Зал 1", .available),
      ("4", "Зал 1", .lost), ("5", "Зал 2", .available), ("6", "Зал 1", .inProcessing),
      ("7", "зал 1", .available),
    ] {
      var draft = bookDraft(inventory, "Книга \(inventory)")
      draft.place = place
      try store.books.add(draft)
      if status != .available { _ = try store.books.update(inventory: inventory) { $0.status = status.rawValue } }
    }
    try store.readers.add(readerDraft("1001", "Иванова"))
  }

  @Test func aCheckSortsEachScanAndReportsWhatIsMissing() throws {
    try store.circulation.issue(ticket: "1001", inventories: ["2"])
    let check = try #require(
      try store.stocktakes.start(name: "Зал 1, 2026", scope: StocktakeScope(placePrefixes: ["ЗАЛ 1"])))
    // 1, 2, 3, 6 and 7 (any case of the place's name); not the lost 4, not the other hall's 5.
    #expect(check.expected == 5)
    // A book added after the start is not expected.
    var late = bookDraft("8", "Новая")
    late.place = "Зал 1"
    try store.books.add(late)

    let findings = try ["1", "1", "5", "4", "999", "8"].map { try store.stocktakes.scan($0, in: check, at: "Зал 1") }
    #expect(
      findings.map(\.finding.kind) == [
        "found", "scanned-again", "outside-check", "not-in-stock", "unknown",
        "outside-check",
      ])
    #expect(
      try store.stocktakes.scan("7", in: check, at: "Зал 3").finding == .misplaced(recorded: "зал 1", actual: "Зал 3"))

    let report = try store.stocktakes.report(check)
    #expect(
      report.counts == [
        "found": 1, "scanned-again": 1, "outside-check": 2, "not-in-stock": 1, "unknown": 1, "misplaced": 1,
      ])
    // Present: 1 and 7 scanned, 2 out on loan, 6 in processing. Missing: 3 alone.
    #expect(report.present == 4)
    #expect(report.missing.map(\.inventoryNumber) == ["3"])
    // A copy out, found on the shelf: on loan to its reader since the issue.
    #expect(
      try store.stocktakes.scan("2", in: check, at: "Зал 1").finding
        == .onLoan(reader: "Иванова", ticket: "1001", since: LocalDate(iso: "2026-12-01")!))
    // The close: every copy in hand keeps the day, found, misplaced, out or lost; not the missing.
    clock.instant = Timestamp(iso: "2026-12-03T15:00:00.000Z")!
    #expect(try store.stocktakes.close(check) == 1)
    #expect(try store.stocktakes.openCheck() == nil)
    for (inventory, checked) in [("1", true), ("7", true), ("2", true), ("4", true), ("3", false), ("5", false)] {
      #expect(
        try store.books.book(inventory: inventory)?.lastChecked == (checked ? LocalDate(iso: "2026-12-03") : nil),
        "\(inventory)")
    }
  }

  /// A check opened with no copy in its scope is not opened at all.
  @Test func aCheckOverNothingIsNotOpened() throws {
    #expect(try store.stocktakes.start(name: "", scope: StocktakeScope(placePrefixes: ["Зал 9"])) == nil)
    #expect(try store.stocktakes.checks().isEmpty)
  }

  /// A check opened before its lists travelled (version 30) gets its expected list as parts when
  /// the file is next opened, to travel when the desk joins; the list is the same.
  @Test func aCheckOfVersion30GetsItsListInParts() throws {
    let check = try #require(try store.stocktakes.start(name: "Зал 1", scope: StocktakeScope(placePrefixes: ["Зал 1"])))
    _ = try store.stocktakes.scan("1", in: check, at: "")
    try store.database.executeScript(librarySchemaBeforeTravellingChecks + "PRAGMA user_version = 30;")
    let reopened = try LibraryStore(path: folder.file("library.sqlite"), clock: clock)
    let books = try reopened.database.query(
      "SELECT j.value FROM stocktake_part p, json_each(p.books) j ORDER BY j.value"
    ) { $0.string(0) }
    let expected = try reopened.database.query(
      "SELECT b.uuid FROM stocktake_expected e JOIN book b ON b.id = e.book_id ORDER BY b.uuid"
    ) { $0.string(0) }
    #expect(books.count == 5 && books == expected)
    #expect(try reopened.database.scalarInt("SELECT count(*) FROM stocktake WHERE created_at = started_at") == 1)
    #expect(try reopened.stocktakes.counts(check) == ["found": 1])
  }
}
