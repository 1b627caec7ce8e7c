import DeskDomain
@_spi(Connection) import DeskStorage
import DeskSync
import DeskTestSupport
import Testing

/// A check of the stock scanned at two desks at once: the check, its expected list (in parts) and
/// every scan travel through the central, a copy scanned at both desks counts once, and the close
/// at one desk closes it at the other with each found copy's last check. Real library files, a
/// real PostgreSQL server.
@Suite(.serialized) final class StocktakeSyncTests {
  let server: PostgresServer
  let folder = TemporaryFolder()
  let clock = TestClock("2026-11-02T09:00:00Z")

  init() throws {
    server = try PostgresServer.shared()
  }

  @Test func aCheckScannedAtTwoDesksThroughTheCentral() throws {
    let url = try server.freshCentral("stocktake")
    let hall = try LibraryStore(path: folder.file("hall.sqlite"), clock: clock)
    // 2,500 copies in Зал 1 (three parts of the expected list), ten in Зал 2.
    try hall.transaction {
      for number in 1...2_510 {
        var draft = bookDraft(String(number), "Книга \(number)")
        draft[.place] = number <= 2_500 ? "Зал 1" : "Зал 2"
        try hall.books.add(draft)
      }
    }
    var reader = readerDraft("1001", "Смирнова")
    reader.registered = "2025-05-01"
    try hall.readers.add(reader)
    try hall.circulation.issue(ticket: "1001", inventories: ["7"])
    // Opened before the desk joins: the check goes to the central with the library.
    let opened = try #require(try hall.stocktakes.start(name: "Зал 1", scope: StocktakeScope(placePrefixes: ["Зал 1"])))
    #expect(opened.expected == 2_500)
    try Synchronizer.join(store: hall, url: url, deskName: "Hall")
    let second = try LibraryStore(path: folder.file("second.sqlite"), clock: clock)
    try Synchronizer.join(store: second, url: url, deskName: "Second")

    // The second desk has the check with the list frozen at its opening: a book added since is not
    // expected there either.
    try hall.books.add(bookDraft("9001", "Новая книга"))
    _ = try Synchronizer(store: hall).sync()
    _ = try Synchronizer(store: second).sync()
    let there = try #require(try second.stocktakes.openCheck())
    #expect(there.id == opened.id && there.name == "Зал 1" && there.expected == 2_500)

    // Both desks scan at once, each its half of the hall; both scan copy 5 before hearing of the
    // other's scan.
    clock.instant = Timestamp(iso: "2026-11-03T10:00:00.000Z")!
    // The first desk's counter, taken before any scan: counted on by what arrives, it agrees with
    // a count from scratch.
    let before = try hall.stocktakes.counter(opened)
    #expect(before.away == 1, "copy 7 is out")
    for number in 1...1_200 { _ = try hall.stocktakes.scan(String(number), in: opened, at: "Зал 1") }
    for number in 1_201...2_400 { _ = try second.stocktakes.scan(String(number), in: there, at: "Зал 1") }
    #expect(try second.stocktakes.scan("5", in: there, at: "Зал 1").finding == .found)
    #expect(try second.stocktakes.scan("2501", in: there, at: "Зал 1").finding == .outsideCheck)
    for _ in 0..<2 {
      for desk in [hall, second] { _ = try Synchronizer(store: desk).sync() }
    }
    #expect(try hall.stocktakes.counter(before, since: opened) == hall.stocktakes.counter(opened))
    #expect(try hall.stocktakes.counter(opened).away == 0, "copy 7 was found in hand")
    for desk in [hall, second] {
      let check = try #require(try desk.stocktakes.openCheck())
      let counts = try desk.stocktakes.counts(check)
      #expect(counts["found"] == 2_399, "copy 7 is out: on-loan")
      #expect(counts["on-loan"] == 1)
      #expect(counts["scanned-again"] == 1, "copy 5 counts once")
      #expect(counts["outside-check"] == 1)
      let report = try desk.stocktakes.report(check)
      #expect(report.present == 2_400)
      #expect(Set(report.missing.map(\.inventoryNumber)) == Set((2_401...2_500).map(String.init)))
    }

    // The close at the second desk closes it at the first, and every copy found keeps the day.
    clock.instant = Timestamp(iso: "2026-11-04T16:00:00.000Z")!
    #expect(try second.stocktakes.close(there) == 100)
    for desk in [second, hall] { _ = try Synchronizer(store: desk).sync() }
    #expect(try hall.stocktakes.openCheck() == nil)
    #expect(try hall.stocktakes.checks().first?.closed != nil)
    #expect(try hall.books.book(inventory: "1")?.lastChecked == LocalDate(iso: "2026-11-04"))
    #expect(try hall.books.book(inventory: "7")?.lastChecked == LocalDate(iso: "2026-11-04"))
    #expect(try hall.books.book(inventory: "2401")?.lastChecked == nil)

    // The desks and the central hold one library, checks with it.
    let central = try CentralDump.lines(try CentralConnection(url: url))
    #expect(
      central.contains { $0.hasPrefix("stocktake_scan ") } && central.contains { $0.hasPrefix("stocktake_part ") })
    for desk in [hall, second] { #expect(try desk.sync.canonicalDump() == central) }
  }

  /// `stocktake close --mark-missing-lost` at a joined desk syncs first: a copy another desk
  /// scanned, not yet pulled here, is not recorded lost; a copy nobody found is.
  @Test func closingWithTheMissingLostHearsTheOtherDesksFirst() throws {
    let url = try server.freshCentral("stocktakelost")
    let path = folder.file("lost-hall.sqlite")
    let hall = try LibraryStore(path: path, clock: clock)
    for number in 1...3 {
      var draft = bookDraft(String(number), "Книга \(number)")
      draft[.place] = "Зал 1"
      try hall.books.add(draft)
    }
    let check = try #require(try hall.stocktakes.start(name: "Зал 1", scope: StocktakeScope()))
    try Synchronizer.join(store: hall, url: url, deskName: "Hall")
    let second = try LibraryStore(path: folder.file("lost-second.sqlite"), clock: clock)
    try Synchronizer.join(store: second, url: url, deskName: "Second")
    _ = try hall.stocktakes.scan("1", in: check, at: "Зал 1")
    _ = try second.stocktakes.scan("2", in: try #require(try second.stocktakes.openCheck()), at: "Зал 1")
    _ = try Synchronizer(store: second).sync()
    let closed = try runProgram(circdeskPath, ["stocktake", "close", "--mark-missing-lost", "--db", path])
    #expect(closed.status == 0, "\(closed.errors)")
    #expect(closed.output.contains("1 missing copy is now recorded as lost"), "\(closed.output)")
    let reopened = try LibraryStore(path: path, clock: clock)
    #expect(try reopened.books.book(inventory: "2")?.status == .available)
    #expect(try reopened.books.book(inventory: "3")?.status == .lost)
  }
}
