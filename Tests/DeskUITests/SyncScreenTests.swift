import DeskDomain
import DeskStorage
import DeskSync
import DeskTestSupport
import Foundation
import Testing

@testable import DeskUI

/// The desk joined to a central: where it stands, the marks of what is not yet sent, and
/// conflicts settled on screen. Real library files and a real PostgreSQL server.
@Suite(.serialized) final class SyncScreenTests {
  let server: PostgresServer
  let folder = TemporaryFolder()
  var databases = 0

  init() throws {
    server = try PostgresServer()
  }

  func makeCentral() throws -> String {
    databases += 1
    let name = "screens\(databases)"
    try server.createDatabase(name)
    _ = try CentralSchema.initialize(try CentralConnection(url: server.url(database: name)))
    return server.url(database: name)
  }

  /// The harness's desk «Lending» and a second desk «Reading room» on one central; apart, each
  /// issues book 100234 (Лермонтов) to another reader, then both sync: a double issue at both.
  func deskWithDoubleIssue(language: InterfaceLanguage = .english) throws -> (DeskHarness, LibraryStore) {
    let url = try makeCentral()
    let other = try LibraryStore(path: folder.file("reading-room.sqlite"), clock: TestClock())
    let desk = try DeskHarness(
      language: language,
      sync: { store in
        // The state as the background service would tell it, with the central's address made
        // stable for the golden text (the test server's socket folder is new each run).
        var tie = try #require(try store.deskTie())
        tie.central = "host=central.library dbname=library"
        let status = try store.syncStatus()
        let clock = try #require(store.clock as? TestClock)
        return StaticSyncService(
          SyncState(
            tie: tie, lastSync: clock.instant.adding(milliseconds: -12_000), waiting: status.waiting,
            conflicts: status.openConflicts))
      },
      seed: { store in
        try DeskHarness.seedSmallLibrary(store)
        try Synchronizer.join(store: store, url: url, deskName: "Lending")
        try Synchronizer.join(store: other, url: url, deskName: "Reading room")
        try store.issue(ticket: "17", inventories: ["100234"])
        try other.addReader(readerDraft("19", "Сидоров", firstName: "Олег"))
        try other.issue(ticket: "19", inventories: ["100234"])
        try Synchronizer(store: store).sync()
        try Synchronizer(store: other).sync()
        try Synchronizer(store: store).sync()
      })
    return (desk, other)
  }

  @Test func aDoubleIssueIsShownAndSettledOnScreen() throws {
    let (desk, other) = try deskWithDoubleIssue()
    #expect(try matchesGolden(desk.text(), "sync-home-80x24.txt"))
    let status = desk.screen().text(row: 22)
    #expect(status.contains("synced 12 s ago"))
    #expect(status.hasSuffix("… 1 conflict: F9"), "the badge at the right of the status line, over the counts")
    #expect(desk.screen().style(row: 22, of: "1 conflict: F9") == Theme(colors: true).style(.warning))

    desk.press(.function(9))
    #expect(try matchesGolden(desk.text(), "sync-conflicts-80x24.txt"))
    desk.press(.enter)
    #expect(try matchesGolden(desk.text(rows: 30, columns: 100), "sync-conflict-100x30.txt"))
    // Side 1 is the reader who has it from this desk (ticket 17); the librarian is asked first.
    desk.press(.character("1"))
    #expect(desk.shown.contains("Settle it so: 1 (17) holds the book"))
    desk.press(.character("y"))
    #expect(desk.shown.contains("Conflict 1 settled: held by Иванова Мария (ticket 17); the other loans closed"))
    #expect(try desk.store.conflicts().isEmpty)
    let book = try #require(try desk.store.book(inventory: "100234"))
    #expect(try desk.store.currentLoan(ofBook: book)?.readerTicket == "17")
    // The settlement travels like any change: the other desk's conflict is gone after a sync.
    try Synchronizer(store: desk.store).sync()
    try Synchronizer(store: other).sync()
    #expect(try other.conflicts().isEmpty)
    #expect(try other.currentLoan(ofBook: #require(try other.book(inventory: "100234")))?.readerTicket == "17")
  }

  @Test func aScanOfABookInConflictShowsTheConflictBeforeAnythingIsDone() throws {
    let (desk, _) = try deskWithDoubleIssue()
    desk.press(.character("d"))
    desk.scan("100234")
    #expect(desk.shown.contains("Conflict 1: issued twice"))
    #expect(desk.shown.contains("This record has an open conflict between desks: see it first"))
    #expect(
      try desk.store.database.scalarInt(
        "SELECT count(*) FROM loan WHERE returned_at IS NULL AND book_id = (SELECT id FROM book WHERE inventory = '100234')"
      ) == 2, "nothing done yet")
    // Enter goes on with the scan: with nobody at the counter, the book comes back.
    desk.press(.enter)
    #expect(desk.shown.contains("Returned 100234"))
    #expect(
      try desk.store.database.scalarInt(
        "SELECT count(*) FROM loan WHERE returned_at IS NULL AND book_id = (SELECT id FROM book WHERE inventory = '100234')"
      ) == 0)
  }

  @Test func recordsChangedHereAndNotYetSentAreMarked() throws {
    let (desk, _) = try deskWithDoubleIssue()
    try desk.store.updateBook(inventory: "100238") { $0.year = "2003" }
    // The status line and the marks follow what waits to go.
    if let service = desk.app.syncService as? StaticSyncService {
      service.state.waiting = try desk.store.syncStatus().waiting
    }
    desk.press(.character("b"))
    #expect(try matchesGolden(desk.text(), "sync-book-list-80x24.txt"))
    let screen = desk.screen()
    #expect(screen.text(row: 3).hasPrefix("  ↑ 100238"), "changed here, not yet sent")
    #expect(screen.text(row: 4).hasPrefix("    100239"), "in step with the central")
    desk.press(.enter)
    #expect(desk.shown.contains("↑ Not yet at the central: 1 change made here"))
  }

  @Test func theRussianDeskSaysTheSame() throws {
    let (desk, _) = try deskWithDoubleIssue(language: .russian)
    #expect(desk.text().contains("синхронизировано 12 с назад"))
    desk.press(.function(9), .enter)
    #expect(try matchesGolden(desk.text(rows: 30, columns: 100), "sync-conflict-ru-100x30.txt"))
  }

  /// The real background service on a real central: changes from another desk arrive without a
  /// key, a stopped server is "offline" with the changes waiting, and it resumes by itself.
  @Test func theBackgroundSyncFollowsTheCentralAndOutlivesItsOutage() throws {
    let url = try makeCentral()
    let path = folder.file("lending.sqlite")
    let lending = try LibraryStore(path: path, clock: SystemClock())
    try lending.addBook(bookDraft("7", "Обломов"))
    try lending.addReader(readerDraft("1001", "Смирнова"))
    var policy = try lending.policy()
    policy.syncIntervalSeconds = 1
    try lending.setPolicy(policy)
    try Synchronizer.join(store: lending, url: url, deskName: "Lending")
    let other = try LibraryStore(path: folder.file("other.sqlite"), clock: SystemClock())
    try Synchronizer.join(store: other, url: url, deskName: "Other")

    let service = BackgroundSyncService(clock: SystemClock()) { try LibraryStore(path: path, clock: SystemClock()) }
    defer { service.stop(waitingAtMost: 1000) }
    func wait(_ what: String, _ condition: () throws -> Bool) throws {
      let deadline = Date().addingTimeInterval(20)
      while Date() < deadline {
        if try condition() { return }
        Thread.sleep(forTimeInterval: 0.05)
      }
      Issue.record("waited for \(what); the state is \(service.state)")
    }
    try wait("the first sync") { service.state.tie != nil && service.state.lastSync != nil }

    try other.updateBook(inventory: "7") { $0.title = "Обломов (роман)" }
    try Synchronizer(store: other).sync()
    let arrivals = service.state.arrivals
    try wait("the other desk's change") { try lending.book(inventory: "7")?.title == "Обломов (роман)" }
    try wait("the arrival counted") { service.state.arrivals > arrivals }

    try server.stop()
    try lending.issue(ticket: "1001", inventories: ["7"])
    service.nudge()
    try wait("offline") { service.state.offlineSince != nil && service.state.waiting == 1 }
    #expect(service.state.failure.isEmpty, "a stopped server is the network, not a refusal")

    try server.start()
    try wait("back online, the issue sent") { service.state.offlineSince == nil && service.state.waiting == 0 }
    try Synchronizer(store: other).sync()
    #expect(try other.currentLoan(ofBook: #require(try other.book(inventory: "7")))?.readerTicket == "1001")
  }
}
