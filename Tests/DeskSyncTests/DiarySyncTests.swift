import DeskDomain
@_spi(Connection) import DeskStorage
import DeskSync
import DeskTestSupport
import Testing

/// The work diary of a library of several desks: visits and renewals travel like loans, so a desk
/// joined to the central counts every desk's, each event once, on the day it happened. Real
/// library files, a real PostgreSQL server.
@Suite(.serialized) final class DiarySyncTests {
  let server: PostgresServer
  let folder = TemporaryFolder()
  let clock = TestClock("2026-11-02T09:00:00Z")

  init() throws {
    server = try PostgresServer.shared()
  }

  @Test func aJoinedDeskCountsEveryDesksVisitsAndRenewals() throws {
    let url = try server.freshCentral("diary")
    let lending = try LibraryStore(path: folder.file("lending.sqlite"), clock: clock)
    try lending.books.add(bookDraft("1", "Мастер и Маргарита"))
    try lending.books.add(bookDraft("2", "Белая гвардия"))
    var draft = readerDraft("1001", "Смирнова")
    draft.registered = "2025-05-01"
    try lending.readers.add(draft)
    // Before the desk joins: its history goes to the central with its library.
    try lending.circulation.issue(ticket: "1001", inventories: ["1"])
    try Synchronizer.join(store: lending, url: url, deskName: "Lending")
    let reading = try LibraryStore(path: folder.file("reading.sqlite"), clock: clock)
    try Synchronizer.join(store: reading, url: url, deskName: "Reading room")

    // Days later the reader comes to the reading room: a visit there, a renewal, a second book.
    clock.instant = Timestamp(iso: "2026-11-09T10:00:00.000Z")!
    try reading.circulation.renew(inventories: ["1"])
    try reading.circulation.issue(ticket: "1001", inventories: ["2"])
    // And the renewal is undone at once: it counts nowhere, at either desk.
    let renewal = try #require(try reading.circulation.renewals(inventories: ["2"]).first)
    try reading.circulation.undo(.renewed(renewal))
    for _ in 0..<2 {
      for desk in [reading, lending] { _ = try Synchronizer(store: desk).sync() }
    }

    let (first, last) = (LocalDate(iso: "2026-11-01")!, LocalDate(iso: "2026-11-30")!)
    let diaries = try [lending, reading].map {
      try $0.statistics.diary(from: first, to: last, period: .month, split: .desk)
    }
    #expect(diaries[0] == diaries[1])
    let month = diaries[0].total
    #expect(month.total(.visits) == 2)
    // The first visit came before the desk joined, under the name it had then.
    #expect(month.split[.visits] == ["desk-1": 1, "Reading room": 1])
    #expect(month.total(.reregistered) == 1)
    #expect(month.split[.reregistered] == ["desk-1": 1])
    #expect(month.total(.issues) == 2)
    #expect(month.split[.renewals] == ["Reading room": 1])
    for desk in [lending, reading] { #expect(try desk.statistics.sumsDifferingFromEvents().isEmpty) }
    // The desks and the central hold one library, visits and renewals with it.
    let central = try CentralDump.lines(try CentralConnection(url: url))
    #expect(central.contains { $0.hasPrefix("visit ") } && central.contains { $0.hasPrefix("renewal ") })
    for desk in [lending, reading] { #expect(try desk.sync.canonicalDump() == central) }
  }
}
