import DeskDomain
@_spi(Connection) import DeskStorage
import DeskSync
import DeskTestSupport
import DeskWords
import Foundation
import Synchronization
import Testing

/// Renewals made at desks apart, as events: both count, the limit is checked when they meet, and a
/// renewal after another desk took the book back is a conflict. Real library files, a real
/// PostgreSQL server (the test run's, a database of each test's own).
@Suite(.serialized) final class RenewalSyncTests {
  let server: PostgresServer
  let folder = TemporaryFolder()
  /// The desks' clock, moved on between the visits of a test.
  let clock = TestClock()

  init() throws {
    server = try PostgresServer.shared()
  }

  @discardableResult
  func sync(_ store: LibraryStore) throws -> SyncReport {
    try Synchronizer(store: store).sync()
  }

  /// Desk «Lending» with book 1 out to reader 1001 (whose category allows `limit` renewals) and
  /// desk «Reading room», both in step with one central.
  func loanAtTwoDesks(limit: Int) throws -> (LibraryStore, LibraryStore, String) {
    let url = try server.freshCentral("renewals")
    let lending = try LibraryStore(path: folder.file("lending.sqlite"), clock: clock)
    try lending.books.add(bookDraft("1", "Мастер и Маргарита"))
    let reader = try lending.readers.add(readerDraft("1001", "Смирнова"))
    guard var category = try lending.policy.category(code: reader.category) else {
      throw StoreError.conflictNotFound(0)
    }
    category.renewalLimit = limit
    try lending.policy.setCategory(category)
    try lending.circulation.issue(ticket: "1001", inventories: ["1"])
    try Synchronizer.join(store: lending, url: url, deskName: "Lending")
    let reading = try LibraryStore(path: folder.file("reading.sqlite"), clock: clock)
    try Synchronizer.join(store: reading, url: url, deskName: "Reading room")
    return (lending, reading, url)
  }

  func loan(_ store: LibraryStore) throws -> Loan {
    let book = try #require(try store.books.book(inventory: "1"))
    return try #require(try store.circulation.loans(ofBook: book).first).loan
  }

  /// Every desk and the central hold the same library.
  func expectSame(_ desks: [LibraryStore], central url: String) throws {
    let central = try CentralDump.lines(try CentralConnection(url: url))
    for desk in desks { #expect(try desk.sync.canonicalDump() == central) }
  }

  /// Two syncs of one desk at once (its background sync and a librarian's `circdesk sync`):
  /// both fetch the same renewal before either applies it, the second waits for the first's
  /// write, and the renewal counts once.
  @Test func aRenewalPulledByTwoSyncsOfOneDeskAtOnceCountsOnce() throws {
    let (lending, reading, url) = try loanAtTwoDesks(limit: 3)
    try lending.circulation.renew(inventories: ["1"])
    try sync(lending)
    // The file's write lock held, as another program's write would, until both syncs wait on it.
    let lock = try LibraryStore(path: folder.file("reading.sqlite"), clock: clock)
    let outcomes = Mutex<[String]>([])
    let group = DispatchGroup()
    try lock.transaction {
      for _ in 0..<2 {
        let handle = try LibraryStore(path: folder.file("reading.sqlite"), clock: clock)
        DispatchQueue.global().async(group: group) {
          let report = Result { try Synchronizer(store: handle).sync() }
          outcomes.withLock { $0.append((try? report.get()).map { "applied \($0.applied)" } ?? "\(report)") }
        }
      }
      // Both have fetched the batch and wait for the lock (a second is far longer than a pull).
      Thread.sleep(forTimeInterval: 1)
    }
    _ = group.wait(timeout: .now() + 10)
    // The renewal is two changes: the loan's count and the renewal itself, for the work diary.
    #expect(outcomes.withLock { $0.sorted() } == ["applied 0", "applied 2"], "one of the two applied it")
    #expect(try loan(reading).renewals == 1)
    try expectSame([lending, reading], central: url)
  }

  @Test func renewalsMadeAtTwoDesksApartBothCount() throws {
    let (lending, reading, url) = try loanAtTwoDesks(limit: 3)
    try lending.circulation.renew(inventories: ["1"])
    try reading.circulation.renew(inventories: ["1"])
    #expect(try loan(lending).renewals == 1 && loan(reading).renewals == 1)
    try sync(lending)
    try sync(reading)
    try sync(lending)
    #expect(try loan(lending).renewals == 2)
    #expect(try loan(reading).renewals == 2)
    #expect(try lending.conflicts.list().isEmpty && reading.conflicts.list().isEmpty)
    // A renewal travels as what it added: the change the desk sent says so.
    try lending.circulation.renew(inventories: ["1"])
    let waiting = try lending.database.query("SELECT payload FROM outbox WHERE entity = 'loan'") { $0.string(0) }
    #expect(waiting.count == 1 && waiting[0].contains(#""renewals_added":1"#), "\(waiting)")
    try sync(lending)
    try sync(reading)
    #expect(try loan(reading).renewals == 3)
    try expectSame([lending, reading], central: url)
  }

  @Test func renewalsPastTheLimitTogetherAreOneConflictAtEveryDesk() throws {
    let (lending, reading, url) = try loanAtTwoDesks(limit: 1)
    let issued = try loan(lending)
    try lending.circulation.renew(inventories: ["1"])
    try reading.circulation.renew(inventories: ["1"])
    #expect(throws: StoreError.self, "the limit holds at one desk") {
      try reading.circulation.renew(inventories: ["1"])
    }
    try sync(lending)
    let raised = try sync(reading)
    #expect(raised.conflictsRaised == 1)
    try sync(lending)
    for desk in [lending, reading] {
      let conflicts = try desk.conflicts.list()
      #expect(conflicts.count == 1)
      let conflict = try #require(conflicts.first)
      #expect(conflict.kind == .renewalLimit)
      #expect(conflict.key == "renewal-limit:" + issued.id.text)
      #expect(
        conflict.englishSummary
          == "«Мастер и Маргарита» (1), out to Смирнова (ticket 1001), was renewed 2 times at desks apart: the limit is 1"
      )
      #expect(EnglishWords().remedy(conflict.kind, number: conflict.number).contains("--take-back-renewal"))
      #expect(try loan(desk).renewals == 2)
      // The book's and the reader's own views name it.
      let book = try #require(try desk.books.book(inventory: "1"))
      #expect(try desk.conflicts.openConflicts(entity: .book, recordID: book.id).map(\.key) == [conflict.key])
      let reader = try #require(try desk.readers.reader(ticket: "1001"))
      #expect(try desk.conflicts.openConflicts(entity: .reader, recordID: reader.id).map(\.key) == [conflict.key])
    }
    // Settled at the reading room: back to the limit; the other desk hears of it.
    let number = try #require(try reading.conflicts.list().first?.number)
    let settled = try reading.conflicts.settle(number, .takeBackRenewal)
    #expect(settled.resolution.hasPrefix("renewals taken back to 1: due "))
    try sync(reading)
    try sync(lending)
    #expect(try loan(lending).renewals == 1 && loan(reading).renewals == 1)
    #expect(try lending.conflicts.list().isEmpty && reading.conflicts.list().isEmpty)
    #expect(try loan(lending).due == loan(reading).due)
    // The renewal taken back counts in neither desk's work diary.
    let today = clock.now().date
    for desk in [lending, reading] {
      #expect(try desk.statistics.diary(from: today, to: today, period: .day).total.total(.renewals) == 1)
    }
    try expectSame([lending, reading], central: url)
  }

  @Test func aRenewalAfterAnotherDeskTookTheBookBackIsAConflictAtBoth() throws {
    let (lending, reading, url) = try loanAtTwoDesks(limit: 5)
    // Renewed at the reading room, then taken back at the lending desk, apart: no conflict.
    try reading.circulation.renew(inventories: ["1"])
    Thread.sleep(forTimeInterval: 0.005)
    try lending.circulation.returnBooks(inventories: ["1"])
    try sync(reading)
    try sync(lending)
    try sync(reading)
    #expect(try lending.conflicts.list().isEmpty && reading.conflicts.list().isEmpty)
    #expect(try loan(reading).returned != nil && loan(reading).renewals == 1)

    // Issued again the next day; taken back at the lending desk, then renewed at the reading room
    // that has not heard of the return.
    clock.advance(days: 1)
    try lending.circulation.issue(ticket: "1001", inventories: ["1"])
    try sync(lending)
    try sync(reading)
    clock.advance(seconds: 60)
    try lending.circulation.returnBooks(inventories: ["1"])
    Thread.sleep(forTimeInterval: 0.005)
    try reading.circulation.renew(inventories: ["1"])
    try sync(lending)
    #expect(try sync(reading).conflictsRaised == 1, "the return arrives after the renewal made here")
    #expect(try sync(lending).conflictsRaised == 1, "the renewal arrives after the return made here")
    for desk in [lending, reading] {
      let conflict = try #require(try desk.conflicts.list().first)
      #expect(conflict.kind == .renewedAfterReturn)
      #expect(
        conflict.englishSummary
          == "«Мастер и Маргарита» (1) was renewed at desk «Reading room» after desk «Lending» took it back")
      #expect(conflict.englishSides.last?.hasPrefix("desk «Reading room»: renewed to ") == true)
    }
    let number = try #require(try lending.conflicts.list().first?.number)
    try lending.conflicts.settle(number, .acknowledge)
    try sync(lending)
    try sync(reading)
    #expect(try lending.conflicts.list().isEmpty && reading.conflicts.list().isEmpty)
    let book = try #require(try reading.books.book(inventory: "1"))
    #expect(try reading.books.currentLoan(ofBook: book) == nil, "the book is back")
    try expectSame([lending, reading], central: url)
  }
}
