import DeskDomain
@_spi(Connection) import DeskStorage
import DeskSync
import DeskTestSupport
import Foundation
import Testing

@testable import DeskUI

/// The desk joined to a central: where it stands, the marks of what is not yet sent, and
/// conflicts settled on screen. Real library files and a real PostgreSQL server: the test run's,
/// with a database of each test's own, or one of the test's own where it stops or freezes it.
@Suite(.serialized) final class SyncScreenTests {
  let server: PostgresServer
  let folder = TemporaryFolder()
  var databases = 0

  init() throws {
    server = try PostgresServer.shared()
  }

  /// A new central on `own` (a server the test stops or freezes), else on the run's.
  func makeCentral(on own: PostgresServer? = nil) throws -> String {
    databases += 1
    let server = own ?? self.server
    let name = try server.freshDatabase("screens")
    _ = try CentralSchema.initialize(try CentralConnection(url: server.url(database: name)))
    return server.url(database: name)
  }

  /// The state as the background service would tell it, the last sync `seconds` ago, with the
  /// central's address made stable for the golden text (the test server's socket folder is new
  /// each run).
  static func toldState(_ store: LibraryStore, syncedSecondsAgo seconds: Int64) throws -> StaticSyncService {
    var tie = try #require(try store.sync.deskTie())
    tie.central = "host=central.library dbname=library"
    let status = try store.sync.status()
    let clock = try #require(store.clock as? TestClock)
    return StaticSyncService(
      SyncState(
        tie: tie, lastSync: clock.instant.adding(milliseconds: -seconds * 1000), waiting: status.waiting,
        conflicts: status.openConflicts))
  }

  /// The harness's desk «Lending» and a second desk «Reading room» on one central; apart, each
  /// issues book 100234 (Лермонтов) to another reader, then both sync: a double issue at both.
  func deskWithDoubleIssue(language: InterfaceLanguage = .english) throws -> (DeskHarness, LibraryStore) {
    let url = try makeCentral()
    let other = try LibraryStore(path: folder.file("reading-room.sqlite"), clock: TestClock())
    let desk = try DeskHarness(
      language: language,
      sync: { try SyncScreenTests.toldState($0, syncedSecondsAgo: 12) },
      seed: { store in
        try DeskHarness.seedSmallLibrary(store)
        try Synchronizer.join(store: store, url: url, deskName: "Lending")
        try Synchronizer.join(store: other, url: url, deskName: "Reading room")
        try store.circulation.issue(ticket: "17", inventories: ["100234"])
        try other.readers.add(readerDraft("19", "Сидоров", firstName: "Олег"))
        try other.circulation.issue(ticket: "19", inventories: ["100234"])
        try Synchronizer(store: store).sync()
        try Synchronizer(store: other).sync()
        try Synchronizer(store: store).sync()
      })
    return (desk, other)
  }

  /// Desk «Lending» at `path` (a book 7, a reader 1001, a sync every second), joined to `url`.
  func joinedLending(path: String, url: String) throws -> LibraryStore {
    let lending = try LibraryStore(path: path, clock: SystemClock())
    try lending.books.add(bookDraft("7", "Обломов"))
    try lending.readers.add(readerDraft("1001", "Смирнова"))
    var policy = try lending.policy.current()
    policy.syncIntervalSeconds = 1
    try lending.policy.setCurrent(policy)
    try Synchronizer.join(store: lending, url: url, deskName: "Lending")
    return lending
  }

  /// Waits up to 20 s for `condition`; records what the service says when it never comes.
  func waitUntil(_ what: String, service: BackgroundSyncService, _ condition: () throws -> Bool) throws {
    let deadline = Date().addingTimeInterval(20)
    while Date() < deadline {
      if try condition() { return }
      Thread.sleep(forTimeInterval: 0.05)
    }
    Issue.record("waited for \(what); the state is \(service.state)")
  }

  @Test func aDoubleIssueIsShownAndSettledOnScreen() throws {
    let (desk, other) = try deskWithDoubleIssue()
    #expect(try matchesGolden(desk.text(), "sync-home-80x24.txt"))
    let status = desk.screen().text(row: 22)
    #expect(status.contains("synced 12 s ago"))
    #expect(status.contains("6 books, 3 out"), "the book out twice counts once")
    #expect(status.hasSuffix("1 overdue    1 conflict: F9"), "the badge at the right, the line cut by whole items")
    #expect(desk.screen().style(row: 22, of: "1 conflict: F9") == Theme(colors: true).style(.warning))

    desk.press(.function(9))
    #expect(try matchesGolden(desk.text(), "sync-conflicts-80x24.txt"))
    for (rows, columns) in FittingScreenTests.sizes {
      #expect(try matchesGolden(desk.text(rows: rows, columns: columns), "fit-conflicts-\(columns)x\(rows).txt"))
    }
    desk.press(.enter)
    #expect(try matchesGolden(desk.text(rows: 30, columns: 100), "sync-conflict-100x30.txt"))
    for (rows, columns) in FittingScreenTests.sizes {
      #expect(try matchesGolden(desk.text(rows: rows, columns: columns), "fit-conflict-\(columns)x\(rows).txt"))
    }
    // At 60×16 the choices are below the sides: the screen scrolls to them.
    #expect(!desk.text(rows: 16, columns: 60).contains("What settles it"))
    desk.press(.end)
    #expect(try matchesGolden(desk.text(rows: 16, columns: 60), "fit-conflict-end-60x16.txt"))
    #expect(desk.text(rows: 16, columns: 60).contains("     k      keep both loans open until the book is"))
    desk.press(.home)
    // Side 1 is the reader who has it from this desk (ticket 17); the librarian is asked first.
    desk.press(.character("1"))
    #expect(desk.shown.contains("Settle it so: 1 (17) holds the book"))
    desk.press(.character("y"))
    #expect(desk.shown.contains("Conflict 1 settled: held by Иванова Мария (ticket 17); the other loans closed"))
    #expect(try desk.store.conflicts.list().isEmpty)
    let book = try #require(try desk.store.books.book(inventory: "100234"))
    #expect(try desk.store.books.currentLoan(ofBook: book)?.readerTicket == "17")
    // The settlement travels like any change: the other desk's conflict is gone after a sync.
    try Synchronizer(store: desk.store).sync()
    try Synchronizer(store: other).sync()
    #expect(try other.conflicts.list().isEmpty)
    #expect(
      try other.books.currentLoan(ofBook: #require(try other.books.book(inventory: "100234")))?.readerTicket == "17")
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
    try desk.store.books.update(inventory: "100238") { $0.year = "2003" }
    // The status line and the marks follow what waits to go.
    if let service = desk.app.syncService as? StaticSyncService {
      service.state.waiting = try desk.store.sync.status().waiting
    }
    desk.press(.character("b"))
    #expect(try matchesGolden(desk.text(), "sync-book-list-80x24.txt"))
    let screen = desk.screen()
    #expect(screen.text(row: 3).hasPrefix("  ↑ 100238"), "changed here, not yet sent")
    #expect(screen.text(row: 4).hasPrefix("    100239"), "in step with the central")
    desk.press(.enter)
    #expect(desk.shown.contains("↑ Not yet at the central: 1 change made here"))
  }

  /// A desk a sync found a year ahead of its central says so on the status line and at Home, in
  /// its language.
  @Test func aClockAYearOffIsToldOnTheStatusLineAndAtHome() throws {
    let year: Int64 = 365 * 86_400_000
    for (language, name) in [(InterfaceLanguage.english, "Lending"), (.russian, "Абонемент")] {
      let url = try makeCentral()
      let desk = try DeskHarness(
        language: language,
        sync: { try SyncScreenTests.toldState($0, syncedSecondsAgo: 3) },
        seed: { store in
          try DeskHarness.seedSmallLibrary(store)
          try Synchronizer.join(store: store, url: url, deskName: name)
          // What a sync measures of a desk whose clock is a year ahead.
          let wall = try store.sync.wallClockReading()
          try store.sync.correctClock(
            .measured(deskBefore: wall, central: wall - year, deskAfter: wall + 4), centralNow: wall - year)
        })
      let golden = language == .english ? "sync-clock-off-80x24.txt" : "sync-clock-off-ru-80x24.txt"
      #expect(try matchesGolden(desk.text(), golden))
      let status = desk.screen().text(row: 22)
      #expect(status.contains(language == .english ? "clock 1 year ahead!" : "часы спешат на 1 год!"), "\(status)")
      // A small window keeps it on the status line and among Home's warnings.
      for (rows, columns) in FittingScreenTests.sizes {
        let shown = desk.text(rows: rows, columns: columns)
        #expect(try matchesGolden(shown, "fit-clock-off\(language == .english ? "" : "-ru")-\(columns)x\(rows).txt"))
        let lines = shown.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(
          lines.contains {
            $0.contains(language == .english ? "! The clock is 1 year ahead" : "! Часы спешат на 1 год")
          })
        #expect(
          lines.dropLast().last?.contains(language == .english ? "clock 1 year" : "часы спешат") == true, "\(shown)")
      }
      #expect(
        desk.text().contains(
          language == .english
            ? "! This desk's clock is 1 year ahead of the central's: its changes are"
            : "! Часы этого компьютера спешат на 1 год против центрального сервера:"))
    }
  }

  /// A loan renewed at two desks apart past its limit: the conflict on screen, settled by a key
  /// (the renewals taken back), in either language.
  @Test func aLoanRenewedPastItsLimitAtTwoDesksIsSettledOnScreen() throws {
    for language in [InterfaceLanguage.english, .russian] {
      let url = try makeCentral()
      let other = try LibraryStore(path: folder.file("reading-\(databases).sqlite"), clock: TestClock())
      let desk = try DeskHarness(
        language: language,
        sync: { try SyncScreenTests.toldState($0, syncedSecondsAgo: 12) },
        seed: { store in
          try DeskHarness.seedSmallLibrary(store)
          let reader = try #require(try store.readers.reader(ticket: "17"))
          var category = try #require(try store.policy.category(code: reader.category))
          category.renewalLimit = 1
          try store.policy.setCategory(category)
          try Synchronizer.join(store: store, url: url, deskName: "Lending")
          try Synchronizer.join(store: other, url: url, deskName: "Reading room")
          try store.circulation.renew(inventories: ["100235"])
          try other.circulation.renew(inventories: ["100235"])
          try Synchronizer(store: other).sync()
          try Synchronizer(store: store).sync()
        })
      desk.press(.function(9), .enter)
      let suffix = language == .english ? "" : "-ru"
      #expect(try matchesGolden(desk.text(rows: 30, columns: 100), "sync-renewal-limit\(suffix)-100x30.txt"))
      for (rows, columns) in FittingScreenTests.sizes {
        #expect(
          try matchesGolden(
            desk.text(rows: rows, columns: columns), "fit-renewal-limit\(suffix)-\(columns)x\(rows).txt"))
      }
      desk.press(.character("t"))
      #expect(
        desk.shown.contains(language == .english ? "Take the renewals back to 1?" : "Вернуть число продлений к 1?"))
      desk.press(.character("y"))
      #expect(
        desk.shown.contains(
          language == .english
            ? "Conflict 1 settled: renewals taken back to 1" : "Конфликт 1 решён: лишние продления сняты"))
      #expect(try desk.store.conflicts.list().isEmpty)
      let book = try #require(try desk.store.books.book(inventory: "100235"))
      #expect(try desk.store.books.currentLoan(ofBook: book)?.loan.renewals == 1)
    }
  }

  @Test func theRussianDeskSaysTheSame() throws {
    let (desk, _) = try deskWithDoubleIssue(language: .russian)
    #expect(desk.text().contains("синхронизировано 12 с назад"))
    #expect(desk.text().contains(" 1 конфликт: F9"))
    desk.press(.function(9), .enter)
    #expect(try matchesGolden(desk.text(rows: 30, columns: 100), "sync-conflict-ru-100x30.txt"))
    for (rows, columns) in FittingScreenTests.sizes {
      #expect(try matchesGolden(desk.text(rows: rows, columns: columns), "fit-conflict-ru-\(columns)x\(rows).txt"))
    }
    desk.press(.character("1"), .character("y"))
    #expect(desk.shown.contains("Конфликт 1 решён: книга у читателя с билетом 17, другие выдачи закрыты"))
  }

  /// The real background service on a real central: changes from another desk arrive without a
  /// key, a stopped server is "offline" with the changes waiting, and it resumes by itself.
  /// Another desk's change reaches this desk without waiting for the interval (an hour here):
  /// the central says so (`NOTIFY`) on the connection the desk listens on between syncs.
  @Test func anotherDesksChangeArrivesWithoutWaitingForTheInterval() throws {
    let url = try makeCentral()
    let path = folder.file("listening.sqlite")
    let lending = try joinedLending(path: path, url: url)
    var policy = try lending.policy.current()
    policy.syncIntervalSeconds = 3600
    try lending.policy.setCurrent(policy)
    let other = try LibraryStore(path: folder.file("talking.sqlite"), clock: SystemClock())
    try Synchronizer.join(store: other, url: url, deskName: "Other")
    let service = BackgroundSyncService(clock: SystemClock()) { try LibraryStore(path: path, clock: SystemClock()) }
    defer { service.stop(waitingAtMost: 1000) }
    try waitUntil("the first sync", service: service) { service.state.tie != nil && service.state.lastSync != nil }
    for round in 1...3 {
      let arrivals = service.state.arrivals
      try other.books.update(inventory: "7") { $0.title = "Обломов \(round)" }
      try Synchronizer(store: other).sync()
      try waitUntil("the other desk's change \(round)", service: service) {
        try lending.books.book(inventory: "7")?.title == "Обломов \(round)" && service.state.arrivals > arrivals
      }
    }
    // What this desk sends itself wakes nobody here: no sync follows its own.
    let synced = service.state.lastSync
    try lending.books.update(inventory: "7") { $0.year = "1859" }
    service.nudge()
    try waitUntil("its own change sent", service: service) {
      service.state.waiting == 0 && service.state.lastSync != synced
    }
    let sent = service.state.lastSync
    Thread.sleep(forTimeInterval: 1.5)
    #expect(service.state.lastSync == sent)
  }

  @Test func theBackgroundSyncFollowsTheCentralAndOutlivesItsOutage() throws {
    // A server of its own: this test stops it.
    let server = try PostgresServer()
    let url = try makeCentral(on: server)
    let path = folder.file("lending.sqlite")
    let lending = try joinedLending(path: path, url: url)
    let other = try LibraryStore(path: folder.file("other.sqlite"), clock: SystemClock())
    try Synchronizer.join(store: other, url: url, deskName: "Other")

    let service = BackgroundSyncService(clock: SystemClock()) { try LibraryStore(path: path, clock: SystemClock()) }
    defer { service.stop(waitingAtMost: 1000) }
    func wait(_ what: String, _ condition: () throws -> Bool) throws {
      try waitUntil(what, service: service, condition)
    }
    try wait("the first sync") { service.state.tie != nil && service.state.lastSync != nil }

    // Read before the change: the service may take it in as soon as it is at the central.
    let arrivals = service.state.arrivals
    try other.books.update(inventory: "7") { $0.title = "Обломов (роман)" }
    try Synchronizer(store: other).sync()
    try wait("the other desk's change") { try lending.books.book(inventory: "7")?.title == "Обломов (роман)" }
    try wait("the arrival counted") { service.state.arrivals > arrivals }

    try server.stop()
    try lending.circulation.issue(ticket: "1001", inventories: ["7"])
    service.nudge()
    try wait("offline") { service.state.offlineSince != nil && service.state.waiting == 2 }
    #expect(service.state.failure.isEmpty, "a stopped server is the network, not a refusal")

    try server.start()
    try wait("back online, the issue sent") { service.state.offlineSince == nil && service.state.waiting == 0 }
    try Synchronizer(store: other).sync()
    #expect(try other.books.currentLoan(ofBook: #require(try other.books.book(inventory: "7")))?.readerTicket == "1001")
  }
}

extension SyncScreenTests {
  /// The harness's desk «Lending» with `prepare` done at it and at a second desk «Reading room»
  /// while apart, then both synced (the harness's desk last, so that it hears of everything).
  func desk(
    _ prepare: @escaping (_ here: LibraryStore, _ other: LibraryStore) throws -> Void
  ) throws -> (DeskHarness, LibraryStore, StaticSyncService) {
    let url = try makeCentral()
    let other = try LibraryStore(path: folder.file("other\(databases).sqlite"), clock: TestClock())
    var service: StaticSyncService?
    let desk = try DeskHarness(
      sync: { store in
        let made = StaticSyncService(
          SyncState(tie: try store.sync.deskTie(), conflicts: try store.sync.status().openConflicts))
        service = made
        return made
      },
      seed: { store in
        try DeskHarness.seedSmallLibrary(store)
        try Synchronizer.join(store: store, url: url, deskName: "Lending")
        try Synchronizer.join(store: other, url: url, deskName: "Reading room")
        try prepare(store, other)
        try Synchronizer(store: other).sync()
        try Synchronizer(store: store).sync()
      })
    return (desk, other, try #require(service))
  }

  @Test func aNumberGivenTwiceIsRenumberedInAFormThatKeepsARefusedNumber() throws {
    let (desk, other, _) = try desk { here, other in
      try other.books.add(bookDraft("300", "Книга зала"))
      try Synchronizer(store: other).sync()
      try here.books.add(bookDraft("300", "Книга абонемента"))
    }
    let conflict = try #require(try desk.store.conflicts.list().first)
    #expect(conflict.kind == .inventory)
    desk.press(.function(9), .enter)
    #expect(desk.shown.contains("give this desk's record another number"))
    desk.press(.character("n"))
    #expect(desk.shown.contains("New inventory number for this desk's book:"))
    // A number that is taken is refused, and the prompt comes back with it to be corrected.
    desk.type("100234")
    desk.press(.enter)
    #expect(desk.shown.contains("100234 is taken too"))
    desk.press(.enter)
    #expect(desk.shown.contains("New inventory number for this desk's book:"))
    #expect(desk.shown.contains("100234"), "what was typed is kept")
    desk.send([0x15])  // Ctrl-U
    desk.type("301")
    desk.press(.enter)
    #expect(desk.shown.contains("Conflict \(conflict.number) settled: renumbered here: 301"))
    try Synchronizer(store: desk.store).sync()
    try Synchronizer(store: other).sync()
    #expect(try other.books.book(inventory: "301")?.title == "Книга абонемента")
    #expect(try other.books.book(inventory: "300")?.title == "Книга зала")
  }

  @Test func aChangeAfterADeletionIsRestoredOnScreen() throws {
    let (desk, other, _) = try desk { here, other in
      try other.books.delete(inventory: "100239")
      try Synchronizer(store: other).sync()
      try here.books.update(inventory: "100239") { $0.title = "Азбука (новое издание)" }
    }
    #expect(try desk.store.books.book(inventory: "100239") == nil, "the deletion stands until settled")
    desk.press(.function(9), .enter)
    #expect(desk.shown.contains("restore the record, with the change"))
    desk.press(.character("r"))
    #expect(desk.shown.contains("settled: restored with the change"))
    try Synchronizer(store: desk.store).sync()
    try Synchronizer(store: other).sync()
    #expect(try other.books.book(inventory: "100239")?.title == "Азбука (новое издание)")
    #expect(try other.conflicts.list().isEmpty)
  }

  /// Another desk's change shows in the open list when the sync brings it, the selection staying
  /// on the record it was on, without a key.
  @Test func changesFromAnotherDeskShowInTheOpenListWithoutAKey() throws {
    let (desk, other, service) = try desk { _, _ in }
    desk.press(.character("b"), .down, .down)
    let before = desk.screen()
    #expect(before.text(row: 5).hasPrefix(" *  100235"), "Булгаков, out, selected")
    #expect(before.style(row: 5, of: "100235")?.reverse == true)
    try other.books.update(inventory: "100239") { $0.title = "Азбука для всех" }
    try other.circulation.returnBooks(inventories: ["100235"])
    try Synchronizer(store: other).sync()
    try Synchronizer(store: desk.store).sync()
    service.state.arrivals += 1
    desk.idle()
    let after = desk.screen()
    #expect(after.text(row: 4).contains("Азбука для всех"))
    #expect(after.text(row: 5).hasPrefix("    100235"), "back on the shelf: no longer marked")
    #expect(after.style(row: 5, of: "100235")?.reverse == true, "the selection stayed on it")
    #expect(after.text(row: 22).contains("1 out"), "the status line's counts follow")
  }
}

extension SyncScreenTests {
  /// A form open while another desk changes another field of the record saves only what was
  /// typed in it: the other desk's change stands, at both desks.
  @Test func aFormSavesOnlyTheFieldsTypedOverAChangeThatArrivedMeanwhile() throws {
    let (desk, other, service) = try desk { _, _ in }
    desk.press(.character("b"), .down, .down, .enter)  // Булгаков, «Мастер и Маргарита»
    #expect(desk.shown.contains("Book 100235"))
    desk.press(.character("e"))
    #expect(desk.shown.contains("Edit book 100235"))
    try other.books.update(inventory: "100235") { $0.publisher = "АСТ" }
    try Synchronizer(store: other).sync()
    try Synchronizer(store: desk.store).sync()
    service.state.arrivals += 1
    desk.idle()
    // The year is typed over; the publisher field still shows what the form opened with.
    for _ in 0..<7 { desk.press(.tab) }
    #expect(desk.app.top is BookFormScreen)
    desk.send([0x15])  // Ctrl-U
    desk.type("1967")
    desk.press(.function(2))
    #expect(desk.shown.contains("Saved: 100235"))
    try Synchronizer(store: desk.store).sync()
    try Synchronizer(store: other).sync()
    for store in [desk.store, other] {
      let book = try #require(try store.books.book(inventory: "100235"))
      #expect(book.year == 1967)
      #expect(book.publisher == "АСТ", "the other desk's change stands")
    }
  }
}

extension SyncScreenTests {
  /// A server that hangs with the connection open (its processes frozen) never leaves the desk
  /// "syncing…" for good: a sync that moves no batch is cut, the desk says it is offline, and it
  /// syncs again once the server answers.
  @Test func aHungServerIsOfflineNotSyncingForEver() throws {
    // A server of its own: this test freezes it.
    let server = try PostgresServer()
    let url = try makeCentral(on: server)
    let path = folder.file("hung.sqlite")
    let lending = try joinedLending(path: path, url: url)
    let service = BackgroundSyncService(clock: SystemClock(), stallMilliseconds: 1500) {
      try LibraryStore(path: path, clock: SystemClock())
    }
    defer {
      server.resume()
      service.stop(waitingAtMost: 1000)
    }
    func wait(_ what: String, _ condition: () throws -> Bool) throws {
      try waitUntil(what, service: service, condition)
    }
    try wait("the first sync") { service.state.lastSync != nil && !service.state.syncing }

    server.pause()
    try lending.circulation.issue(ticket: "1001", inventories: ["7"])
    service.nudge()
    try wait("offline") { service.state.offlineSince != nil }
    // The issue and the reader's visit.
    #expect(service.state.waiting == 2)
    #expect(!service.state.syncing)

    server.resume()
    try wait("back online, the issue sent") { service.state.offlineSince == nil && service.state.waiting == 0 }
  }
}

extension SyncScreenTests {
  /// A book deleted at one desk while another issued it, worded in Russian from its parts.
  @Test func aBookDeletedWhileOutIsWordedInTheDesksLanguage() throws {
    let (desk, _, _) = try desk { here, other in
      try other.books.delete(inventory: "100239")
      try here.circulation.issue(ticket: "17", inventories: ["100239"])
    }
    let conflict = try #require(try desk.store.conflicts.list().first)
    #expect(
      conflict.englishSummary
        == "«Азбука» (100239) is deleted at desk «Reading room» but out: ticket 17 at desk «Lending»")
    let russian = RussianStrings()
    #expect(
      russian.conflictSummary(conflict)
        == "«Азбука» (100239) удалена на пункте «Reading room», но выдана: билет 17, пункт «Lending»")
    #expect(
      russian.conflictSides(conflict) == ["удалена на пункте «Reading room»", "выдана: билет 17, пункт «Lending»"])
  }
}

extension SyncScreenTests {
  /// A change after a deletion names the changed fields by the forms' labels in Russian.
  @Test func aChangeAfterADeletionNamesItsFieldsInTheDesksLanguage() throws {
    let (desk, _, _) = try desk { here, other in
      try other.books.delete(inventory: "100239")
      try Synchronizer(store: other).sync()
      try here.books.update(inventory: "100239") { $0.year = "1999" }
    }
    let conflict = try #require(try desk.store.conflicts.list().first)
    let side = try #require(RussianStrings().conflictSides(conflict).last)
    #expect(side.hasPrefix("пункт «Lending» "))
    #expect(side.hasSuffix(": изменено \(RussianStrings().label(.year)) «1999»"))
  }
}
