import DeskDomain
import DeskTestSupport
import Testing

@testable import DeskStorage

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
    let check = try store.stocktakes.start(name: "Зал 1, 2026", scope: StocktakeScope(placePrefixes: ["ЗАЛ 1"]))
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
    try store.stocktakes.close(check)
    #expect(try store.stocktakes.openCheck() == nil)
  }
}
