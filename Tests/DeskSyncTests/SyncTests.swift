import DeskDomain
@_spi(Connection) import DeskStorage
import DeskSync
import DeskTestSupport
import DeskWords
import Foundation
import Testing

/// Desks sharing one library through a central: real library files, a real PostgreSQL server
/// (the test run's, a database of each test's own).
@Suite(.serialized) final class SyncTests {
  let server: PostgresServer
  let folder = TemporaryFolder()
  /// The clock of the desks of the hold tests (`HoldSyncTests`).
  let holdClock = TestClock()

  init() throws {
    server = try PostgresServer.shared()
  }

  /// A new, empty central database with its schema.
  func makeCentral() throws -> String {
    try server.freshCentral("library")
  }

  func desk(_ name: String) throws -> LibraryStore {
    try LibraryStore(path: folder.file("\(name).sqlite"), clock: TestClock())
  }

  @discardableResult
  func sync(_ store: LibraryStore) throws -> SyncReport {
    try Synchronizer(store: store).sync()
  }

  func title(_ store: LibraryStore, _ inventory: String) throws -> String? {
    try store.books.book(inventory: inventory)?.title
  }

  /// Desk «A» holding `books` (inventory number, title), joined to a new central, and an empty
  /// desk joined after it as `second`.
  func twoDesks(books: [(String, String)] = [], second: String = "B") throws -> (LibraryStore, LibraryStore, String) {
    let url = try makeCentral()
    let a = try desk("a")
    for (inventory, title) in books { try a.books.add(bookDraft(inventory, title)) }
    try Synchronizer.join(store: a, url: url, deskName: "A")
    let b = try desk(second.lowercased().filter(\.isLetter))
    try Synchronizer.join(store: b, url: url, deskName: second)
    return (a, b, url)
  }

  /// Desk `first` with book 1 and readers 1001 and 1002, desk `second` joined empty; apart, the
  /// first issues the book to 1001 and the second to 1002.
  func bookIssuedAtTwoDesks(_ first: String, _ second: String) throws -> (LibraryStore, LibraryStore) {
    let url = try makeCentral()
    let a = try desk("first")
    try a.books.add(bookDraft("1", "Мастер и Маргарита"))
    try a.readers.add(readerDraft("1001", "Смирнова"))
    try a.readers.add(readerDraft("1002", "Иванов"))
    try Synchronizer.join(store: a, url: url, deskName: first)
    let b = try desk("second")
    try Synchronizer.join(store: b, url: url, deskName: second)
    try a.circulation.issue(ticket: "1001", inventories: ["1"])
    try b.circulation.issue(ticket: "1002", inventories: ["1"])
    return (a, b)
  }

  @Test func anEmptyDeskGetsTheWholeLibraryAndBothHoldTheSame() throws {
    let url = try makeCentral()
    let lending = try desk("lending")
    try lending.books.add(bookDraft("1", "Война и мир", surname: "Толстой"))
    try lending.books.add(bookDraft("2", "Анна Каренина", surname: "Толстой"))
    let reader = try lending.readers.add(readerDraft("1001", "Смирнова"))
    try lending.circulation.issue(ticket: reader.ticket, inventories: ["1"])
    let joined = try Synchronizer.join(store: lending, url: url, deskName: "Lending")
    #expect(joined.queued > 0)
    #expect(joined.report.pushed == joined.queued)
    #expect(try lending.sync.status().waiting == 0)

    let reading = try desk("reading")
    let second = try Synchronizer.join(store: reading, url: url, deskName: "Reading room")
    #expect(second.queued == 0, "an empty file sends nothing")
    #expect(try title(reading, "2") == "Анна Каренина")
    #expect(
      try reading.books.currentLoan(ofBook: try #require(try reading.books.book(inventory: "1")))?.readerTicket
        == "1001")
    #expect(try reading.books.search("толст").all.count == 2, "the search words are made at the desk")
    let central = try CentralDump.lines(try CentralConnection(url: url))
    #expect(try lending.sync.canonicalDump() == central)
    #expect(try reading.sync.canonicalDump() == central)
    // Loans made at the second desk carry its name.
    #expect(try reading.policy.current().deskName == "Reading room")
  }

  /// What a desk does itself while it applies a batch (here: closing a loan issued elsewhere
  /// before the book came back at this desk) is clocked after every change of the batch, even
  /// when the library's clock runs ahead of this desk's because a desk within the bound is ahead:
  /// the central and every desk then agree that the loan is closed.
  @Test func aLoanClosedWhileApplyingIsClockedAfterTheIssueItCloses() throws {
    let url = try makeCentral()
    let lending = try lendingDesk(url)
    let reading = try LibraryStore(path: folder.file("reading.sqlite"))
    try Synchronizer.join(store: reading, url: url, deskName: "Reading room")
    let fast = try fastDesk(url)
    try fast.books.update(inventory: "1") { $0.publisher = "Художественная литература" }
    try sync(fast)
    // The lending desk hears of it (its clock moves past it), then issues the book.
    try sync(lending)
    try lending.circulation.issue(ticket: "1001", inventories: ["1"])
    // Apart, the reading room issues the same copy and takes it back.
    try reading.circulation.issue(ticket: "1002", inventories: ["1"])
    try reading.circulation.returnBooks(inventories: ["1"])
    try sync(lending)
    try sync(reading)
    for desk in [lending, fast, reading, lending] { try sync(desk) }
    let book = try #require(try reading.books.book(inventory: "1"))
    #expect(
      try reading.circulation.loans(ofBook: book).allSatisfy { $0.loan.returned != nil }, "the return closed both loans"
    )
    let central = try CentralDump.lines(try CentralConnection(url: url))
    for desk in [lending, reading, fast] { #expect(try desk.sync.canonicalDump() == central) }
  }

  /// A desk joined to the central at `url` with book 1 and readers 1001 and 1002.
  private func lendingDesk(_ url: String) throws -> LibraryStore {
    let lending = try LibraryStore(path: folder.file("lending.sqlite"))
    try lending.books.add(bookDraft("1", "Мастер и Маргарита"))
    try lending.readers.add(readerDraft("1001", "Смирнова"))
    try lending.readers.add(readerDraft("1002", "Иванов"))
    try Synchronizer.join(store: lending, url: url, deskName: "Lending")
    return lending
  }

  /// A desk whose clock is 40 seconds ahead, joined: within the bound, its clock stands.
  private func fastDesk(_ url: String) throws -> LibraryStore {
    let fast = try LibraryStore(path: folder.file("fast.sqlite"), clock: ShiftedClock(SystemClock(), by: 40_000))
    try Synchronizer.join(store: fast, url: url, deskName: "Fast")
    return fast
  }

  /// A book issued at a desk 40 seconds ahead (within the bound: its clock stands) comes back
  /// here, dated at its issue; issued here again at once, the new loan is dated after that
  /// return, not before it, so no desk counts it ended by the return and closes it.
  @Test func aBookIssuedAgainAfterAReturnDatedAheadStaysOut() throws {
    let url = try makeCentral()
    let lending = try lendingDesk(url)
    let fast = try fastDesk(url)
    try fast.circulation.issue(ticket: "1001", inventories: ["1"])
    try sync(fast)
    try sync(lending)
    let back = try #require(try lending.circulation.returnBooks(inventories: ["1"]).first?.loan.returned)
    let again = try #require(try lending.circulation.issue(ticket: "1002", inventories: ["1"]).first?.loan)
    #expect(again.issued > back, "issued after the return it follows")
    for desk in [lending, fast, lending, fast] { try sync(desk) }
    let central = try CentralDump.lines(try CentralConnection(url: url))
    for desk in [lending, fast] {
      #expect(try desk.books.currentLoan(ofBook: #require(try desk.books.book(inventory: "1")))?.readerTicket == "1002")
      #expect(try desk.sync.canonicalDump() == central)
    }
  }

  @Test func aLargeBatchIsAppliedAsAnImportAndItsIndexesAgree() throws {
    let url = try makeCentral()
    let a = try desk("a")
    try Synchronizer.join(store: a, url: url, deskName: "A")
    try a.transaction {
      for number in 1...300 { try a.books.add(bookDraft("\(number)", "Книга \(number)", surname: "Автор")) }
    }
    // Made and changed in the same batch: the change finds the book indexed.
    try a.books.update(inventory: "7") { $0.title = "Лунный камень" }
    try a.books.delete(inventory: "8")
    try sync(a)
    let b = try desk("b")
    let joined = try Synchronizer.join(store: b, url: url, deskName: "B")
    #expect(joined.report.applied >= 302)
    #expect(try b.books.count() == 299)
    #expect(try b.books.search("лунный").all.map(\.book.inventoryNumber) == ["7"])
    #expect(try b.books.search("книга").all.count == 200, "the search's cap: the words are indexed")
    try b.database.execute("INSERT INTO book_fts(book_fts) VALUES ('integrity-check')")
    #expect(try b.integrityCheck() == ["ok"])
    #expect(try b.sync.canonicalDump() == a.sync.canonicalDump())
  }

  @Test func aDeskFarBehindTakesFullBatchesTogether() throws {
    let (a, b, _) = try twoDesks(books: [], second: "B")
    try a.transaction {
      for number in 1...300 { try a.books.add(bookDraft("\(number)", "Книга \(number)", surname: "Автор")) }
    }
    try a.books.update(inventory: "299") { $0.title = "Лунный камень" }
    try sync(a)
    let synchronizer = try Synchronizer(store: b)
    synchronizer.pullBatch = 40
    synchronizer.catchUpGroup = 100
    let report = try synchronizer.sync()
    #expect(report.applied == 301)
    #expect(try b.books.count() == 300)
    #expect(try b.books.search("лунный").all.map(\.book.inventoryNumber) == ["299"])
    try b.database.execute("INSERT INTO book_fts(book_fts) VALUES ('integrity-check')")
    #expect(try b.sync.canonicalDump() == a.sync.canonicalDump())
  }

  /// An empty desk joining a library many times its size takes it with the indexes that new rows
  /// go into at random put off, and makes them again at the end, as they were: the same list, the
  /// same search, nothing left to make again at the next opening.
  @Test func anEmptyDeskJoiningALargeLibraryPutsItsIndexesOffAndMakesThemAgain() throws {
    let url = try makeCentral()
    let a = try desk("a")
    try a.transaction {
      for number in 1...200 {
        try a.books.add(bookDraft("\(number)", "Книга \(number)", surname: "Автор \(number % 7)"))
        try a.readers.add(readerDraft("\(1000 + number)", "Читатель \(number)"))
      }
    }
    try Synchronizer.join(store: a, url: url, deskName: "A")
    let indexes = "SELECT name, sql FROM sqlite_schema WHERE type = 'index' ORDER BY name"
    let b = try desk("b")
    let (_, statements) = try b.database.recordingStatements {
      try Synchronizer.join(store: b, url: url, deskName: "B", indexesPutOffFrom: 100)
    }
    let ran = statements
    func position(_ sql: String) -> Int? { ran.firstIndex { $0.hasPrefix(sql) } }
    let dropped = try #require(position("DROP INDEX book_list"))
    let made = try #require(position("CREATE INDEX book_list"))
    let inserted = try #require(position("INSERT INTO book(uuid"))
    #expect(dropped < inserted && inserted < made, "dropped before the books come, made after")
    #expect(
      ran.contains { $0.hasPrefix("DROP INDEX reader_sort") } && ran.contains { $0.hasPrefix("DROP INDEX book_isbn13") }
    )
    #expect(!ran.contains { $0.hasPrefix("DROP INDEX book_inventory") }, "a unique index stays")
    #expect(
      try b.database.query(indexes) { [$0.string(0), $0.string(1)] }
        == a.database.query(indexes) { [$0.string(0), $0.string(1)] })
    #expect(try b.database.scalarInt("SELECT count(*) FROM put_off_index") == 0)
    #expect(try b.integrityCheck() == ["ok"])
    #expect(try b.sync.canonicalDump() == a.sync.canonicalDump())
    #expect(try b.books.search("книга").all.count == 200)
    #expect(
      try b.books.page(limit: 5).map(\.book.inventoryNumber) == a.books.page(limit: 5).map(\.book.inventoryNumber))

    // A desk with a library of its own keeps its indexes: its first pull brings back what it sent.
    let c = try desk("c")
    try c.transaction { for number in 1...300 { try c.books.add(bookDraft("C\(number)", "Своя \(number)")) } }
    let (_, own) = try c.database.recordingStatements {
      try Synchronizer.join(store: c, url: url, deskName: "C", indexesPutOffFrom: 100)
    }
    #expect(!own.contains { $0.hasPrefix("DROP INDEX") })
  }

  /// Many titles changed at one desk reach a desk in step in one batch, its full-text index
  /// brought up to date once at the end: the search finds the new words and not the old.
  @Test func manyChangedTitlesPulledAtOnceAreFoundByTheirNewWords() throws {
    let (a, b, _) = try twoDesks(books: [], second: "B")
    try a.transaction {
      for number in 1...300 { try a.books.add(bookDraft("\(number)", "Книга \(number)", surname: "Автор")) }
    }
    try sync(a)
    try sync(b)
    try a.transaction {
      for number in 1...250 { try a.books.update(inventory: "\(number)") { $0.title = "Повесть \(number)" } }
      try a.books.update(inventory: "7") { $0.title = "Лунный камень" }
    }
    try sync(a)
    #expect(try sync(b).applied == 251)
    #expect(try b.books.search("лунный").all.map(\.book.inventoryNumber) == ["7"])
    #expect(try b.books.search("повесть").all.count == 200, "the search's cap")
    #expect(try b.books.search("книга").all.count == 50)
    try b.database.execute("INSERT INTO book_fts(book_fts, rank) VALUES ('integrity-check', 1)")
    #expect(try b.sync.canonicalDump() == a.sync.canonicalDump())
  }

  /// A change that cannot be applied in the middle of a desk's catch-up: the group of batches it
  /// is in is undone whole, the batches are applied again one by one, and it alone is set aside.
  @Test func aForgedChangeAmidAFarBehindDesksBatchesIsSetAsideAndTheRestApplies() throws {
    let (a, b, url) = try twoDesks(books: [], second: "B")
    try a.transaction {
      for number in 1...150 { try a.books.add(bookDraft("\(number)", "Книга \(number)", surname: "Автор")) }
    }
    try sync(a)
    let book = try #require(try a.books.book(inventory: "7")).id.text
    try server.psql(
      """
      INSERT INTO change(id, desk_id, entity, record_id, hlc, payload)
      VALUES (gen_random_uuid(), '\(try #require(try a.sync.deskTie()).deskID)', 'book', '\(book)', 1, '{"colour": "red"}')
      """, database: databaseName(url))
    try a.transaction {
      for number in 151...300 { try a.books.add(bookDraft("\(number)", "Книга \(number)", surname: "Автор")) }
    }
    try sync(a)
    let synchronizer = try Synchronizer(store: b)
    synchronizer.pullBatch = 40
    synchronizer.catchUpGroup = 100
    let report = try synchronizer.sync()
    #expect(report.applied == 300 && report.conflictsRaised == 1, "\(report)")
    #expect(try b.conflicts.list().map(\.kind) == [.refusedChange])
    #expect(try b.books.count() == 300)
    try b.database.execute("INSERT INTO book_fts(book_fts) VALUES ('integrity-check')")
    #expect(try b.sync.canonicalDump() == a.sync.canonicalDump())
  }

  @Test func aDeskJoiningWithItsOwnRecordsKeepsThemAllAndReportsAClash() throws {
    let url = try makeCentral()
    let a = try desk("a")
    try a.books.add(bookDraft("500", "Книга A"))
    try Synchronizer.join(store: a, url: url, deskName: "A")
    let b = try desk("b")
    try b.books.add(bookDraft("500", "Книга B"))
    try b.books.add(bookDraft("501", "Своя"))
    let joined = try Synchronizer.join(store: b, url: url, deskName: "B")
    #expect(joined.report.refused == 1)
    #expect(joined.report.conflictsRaised == 1)
    #expect(try b.database.scalarInt("SELECT count(*) FROM book WHERE deleted = 0") == 3, "nothing dropped")
    #expect(try b.conflicts.list().first?.englishSummary.contains("«Книга B» (500)") == true)
    #expect(try a.books.book(inventory: "501") == nil)
    try sync(a)
    #expect(try title(a, "501") == "Своя")
    #expect(try title(a, "500") == "Книга A")
  }

  /// A copy's status and what an import kept of its record travel like any field; a book made
  /// by a change written before those fields existed comes in available, keeping nothing.
  @Test func statusAndKeptRecordsTravelAndOlderChangesStillApply() throws {
    let url = try makeCentral()
    let a = try desk("a")
    var record = IRBISRecord()
    record.fields = [
      .init(tag: 920, value: "PAZK"), .init(tag: 200, value: "^AГерой нашего времени"),
      .init(tag: 606, value: "^AРусская литература"), .init(tag: 910, value: "^A0^B21^DАб^Hметка"),
      .init(tag: 910, value: "^A4^B22^DХР"),
    ]
    let kept = IRBISKeptRecord.kept(from: record, group: "group-1")
    guard case .success(let drafts) = IRBISBooks.drafts(from: record) else { Issue.record("no drafts"); return }
    let clock = TestClock()
    for (draft, keep) in zip(drafts, kept) {
      try a.books.add(
        BookRow(try draft.validated(base: nil, today: clock.now().date, now: clock.now().instant), kept: keep))
    }
    try a.books.add(bookDraft("23", "Старая запись"))
    try Synchronizer.join(store: a, url: url, deskName: "A")
    // The insert of book 23 as a desk wrote it before migration 12: no status, nothing kept.
    try a.database.execute(
      """
      UPDATE outbox SET payload = json_remove(payload, '$.status', '$.source_record', '$.source_copy', '$.record_group')
      WHERE entity = 'book' AND json_extract(payload, '$.inventory') = '23'
      """)
    try sync(a)
    let b = try desk("b")
    try Synchronizer.join(store: b, url: url, deskName: "B")
    #expect(try b.books.book(inventory: "22")?.status == .lost)
    #expect(try b.books.book(inventory: "23")?.status == .available)
    #expect(try b.books.kept(forBook: "23") == nil)
    #expect(try IRBISBooks.record(for: b.books.copies(inGroup: "group-1")) == record, "the record as it came, at B too")
    try b.books.update(inventory: "22") { $0.status = "available" }
    try sync(b)
    try sync(a)
    #expect(try a.books.book(inventory: "22")?.status == .available)
    #expect(try a.sync.canonicalDump() == b.sync.canonicalDump())
  }

  @Test func twoDesksThatChangeDifferentFieldsOfABookBothKeepTheirChange() throws {
    let url = try makeCentral()
    let a = try desk("a")
    try a.books.add(bookDraft("7", "Мастер и Маргарита", surname: "Булгаков"))
    try Synchronizer.join(store: a, url: url, deskName: "A")
    let b = try desk("b")
    try Synchronizer.join(store: b, url: url, deskName: "B")
    // Both offline: one changes the title, the other the year.
    try a.books.update(inventory: "7") { $0.title = "Мастер и Маргарита (роман)" }
    try b.books.update(inventory: "7") { $0.year = "1967" }
    try sync(a)
    try sync(b)
    try sync(a)
    for store in [a, b] {
      let book = try #require(try store.books.book(inventory: "7"))
      #expect(book.title == "Мастер и Маргарита (роман)")
      #expect(book.year == 1967)
    }
    #expect(try a.sync.canonicalDump() == b.sync.canonicalDump())
  }

  @Test func theLaterChangeOfAFieldWinsEvenFromADeskWhoseClockIsBehind() throws {
    let (a, b, _) = try twoDesks(books: [("7", "Первое название")], second: "B")
    // A's clock runs a minute and a half ahead of B's (within what the central lets pass).
    try a.database.execute("UPDATE sync_desk SET hlc = hlc + ? WHERE id = 1", Int64(90_000) << 16)
    try a.books.update(inventory: "7") { $0.title = "Второе (A)" }
    try sync(a)
    try sync(b)
    #expect(try title(b, "7") == "Второе (A)")
    // B saw A's change before making its own: B's comes after it, whatever B's wall clock says.
    try b.books.update(inventory: "7") { $0.title = "Третье (B)" }
    let clockA = try a.database.scalarInt("SELECT hlc FROM field_clock WHERE field = 'title'")
    let clockB = try b.database.scalarInt("SELECT hlc FROM outbox WHERE json_type(payload, '$.title') IS NOT NULL")
    #expect(clockB > clockA)
    try sync(b)
    try sync(a)
    #expect(try title(a, "7") == "Третье (B)")
    #expect(try title(b, "7") == "Третье (B)")
  }

  @Test func aChangeIsCapturedWithItsTransactionAndOnlyThen() throws {
    let url = try makeCentral()
    let a = try desk("a")
    try Synchronizer.join(store: a, url: url, deskName: "A")
    let before = try a.sync.status().waiting
    // Refused: nothing committed, nothing captured.
    #expect(throws: StoreError.self) { try a.books.add(bookDraft("", "Без номера")) }
    #expect(try a.sync.status().waiting == before)
    // A dry run is rolled back with its outbox rows.
    try a.dryRun { try a.books.add(bookDraft("9", "Пробная")) }
    #expect(try a.sync.status().waiting == before)
    try a.books.add(bookDraft("9", "Настоящая"))
    #expect(try a.sync.status().waiting == before + 1)
    let captured = try a.database.query("SELECT entity, json_extract(payload, '$.title') FROM outbox") {
      "\($0.string(0)) \($0.string(1))"
    }
    #expect(captured == ["book Настоящая"])
    // A change that changes nothing the desks share (the search words) is not sent.
    try a.database.execute("UPDATE book SET search_text = search_text || ' x'")
    #expect(try a.sync.status().waiting == before + 1)
    try a.books.update(inventory: "9") { $0.publisher = "Наука" }
    #expect(
      try a.database.query("SELECT payload FROM outbox ORDER BY seq") { $0.string(0) }.last
        == #"{"publisher":"Наука"}"#, "only what changed")
    #expect(try a.sync.unsyncedChanges(entity: .book, recordID: try #require(try a.books.book(inventory: "9")).id) == 2)
    try sync(a)
    #expect(try a.sync.unsyncedChanges(entity: .book, recordID: try #require(try a.books.book(inventory: "9")).id) == 0)
  }

  @Test func aBatchSentTwiceIsAppliedOnce() throws {
    let url = try makeCentral()
    let a = try desk("a")
    try Synchronizer.join(store: a, url: url, deskName: "A")
    try a.books.add(bookDraft("1", "Одна"))
    try a.books.add(bookDraft("2", "Другая"))
    // The central takes the batch, and its answer is lost before the desk hears it.
    let central = try CentralConnection(url: url)
    let batch = try #require(try a.sync.outboxBatch(limit: 100))
    let deskID = try #require(try a.sync.deskTie()).deskID
    _ = try central.transaction { () throws(CentralError) in
      try central.execute("SELECT * FROM circdesk_push($1::uuid, $2::jsonb)", [deskID, batch.json])
    }
    let report = try sync(a)
    #expect(report.pushed == 2, "acknowledged as taken")
    #expect(try a.sync.status().waiting == 0)
    let count = try server.psql("SELECT count(*) FROM change WHERE entity = 'book'", database: databaseName(url))
    #expect(count.trimmingWhitespace() == "2")
  }

  func databaseName(_ url: String) -> String {
    String(url.split(separator: "=").last ?? "")
  }

  @Test func aBookIssuedAtTwoDesksKeepsBothLoansUntilALibrarianSettlesIt() throws {
    let url = try makeCentral()
    let a = try desk("a")
    try a.books.add(bookDraft("1", "Мастер и Маргарита"))
    try a.readers.add(readerDraft("1001", "Смирнова"))
    try a.readers.add(readerDraft("1002", "Иванов"))
    try Synchronizer.join(store: a, url: url, deskName: "Lending")
    let b = try desk("b")
    try Synchronizer.join(store: b, url: url, deskName: "Reading room")
    // Apart, each desk issues the book.
    try a.circulation.issue(ticket: "1001", inventories: ["1"])
    try b.circulation.issue(ticket: "1002", inventories: ["1"])
    try sync(a)
    let report = try sync(b)
    #expect(report.conflictsRaised == 1)
    try sync(a)
    for store in [a, b] {
      let conflicts = try store.conflicts.list()
      #expect(conflicts.count == 1)
      #expect(conflicts.first?.kind == .doubleIssue)
      #expect(conflicts.first?.englishSides.count == 2)
      #expect(conflicts.first?.englishSides.contains { $0.contains("ticket 1001") && $0.contains("«Lending»") } == true)
      #expect(
        conflicts.first?.englishSides.contains { $0.contains("ticket 1002") && $0.contains("«Reading room»") } == true)
      #expect(try store.database.scalarInt("SELECT count(*) FROM loan WHERE returned_at IS NULL") == 2)
      // Nobody else can be given the book meanwhile.
      #expect(throws: StoreError.self) { try store.circulation.issue(ticket: "1001", inventories: ["1"]) }
    }
    let number = try #require(try b.conflicts.list().first).number
    let settled = try b.conflicts.settle(number, .holder(ticket: "1002"))
    #expect(settled.resolved != nil)
    try sync(b)
    try sync(a)
    for store in [a, b] {
      #expect(try store.conflicts.list().isEmpty)
      let book = try #require(try store.books.book(inventory: "1"))
      #expect(try store.books.currentLoan(ofBook: book)?.readerTicket == "1002")
      #expect(try store.circulation.loans(ofBook: book).count == 2, "no loan disappears")
    }
    #expect(try a.sync.canonicalDump() == b.sync.canonicalDump())
  }

  @Test func aReturnOfABookIssuedTwiceClosesEveryLoanOfIt() throws {
    let (a, b) = try bookIssuedAtTwoDesks("A", "B")
    try sync(a)
    try sync(b)
    // The book comes back at A: whoever held it, it is in the library now.
    let returned = try a.circulation.returnBooks(inventories: ["1"])
    #expect(returned.count == 1)
    #expect(try a.database.scalarInt("SELECT count(*) FROM loan WHERE returned_at IS NULL") == 0)
    #expect(try a.conflicts.list().isEmpty)
    try sync(a)
    try sync(b)
    #expect(try b.database.scalarInt("SELECT count(*) FROM loan WHERE returned_at IS NULL") == 0)
    #expect(try b.conflicts.list().isEmpty)
    #expect(try b.conflicts.list(includingSettled: true).count == 1, "raised, then settled by the return")
    #expect(try a.sync.canonicalDump() == b.sync.canonicalDump())
  }

  /// An issue undone at the counter travels as undone: every desk's history keeps its line, and
  /// no desk counts it as a loan.
  @Test func anIssueUndoneAtOneDeskIsUndoneInEveryDesksHistory() throws {
    let (a, b, _) = try twoDesks(books: [("1", "Мастер и Маргарита")])
    let reader = try a.readers.add(readerDraft("1001", "Смирнова"))
    guard case .done(let issue) = try a.circulation.circulate("1", reader: reader) else {
      Issue.record("not issued")
      return
    }
    try sync(a)
    try sync(b)
    #expect(try b.books.count(filter: .issued) == 1)
    try a.circulation.undo(issue)
    try sync(a)
    try sync(b)
    #expect(try b.books.count(filter: .issued) == 0)
    let book = try #require(try b.books.book(inventory: "1"))
    #expect(try b.circulation.loans(ofBook: book).isEmpty)
    let history = try b.circulation.loans(ofBook: book, includingUndone: true)
    #expect(history.count == 1 && history.first?.loan.undone != nil)
    #expect(try a.sync.canonicalDump() == b.sync.canonicalDump())
  }

  @Test func twoDesksThatSettleADoubleIssueDifferentlyEndWithTheLaterSettlement() throws {
    let (a, c) = try bookIssuedAtTwoDesks("A", "C")
    try sync(a)
    try sync(c)
    try sync(a)
    // Each desk says another reader holds it, before hearing of the other's word; C speaks last.
    _ = try a.conflicts.settle(try #require(try a.conflicts.list().first).number, .holder(ticket: "1001"))
    // Later by the clock: in one millisecond the two settlements would tie, and the desks' ids
    // (random) would say which is later (seen once under a loaded full run).
    usleep(5_000)
    _ = try c.conflicts.settle(try #require(try c.conflicts.list().first).number, .holder(ticket: "1002"))
    try sync(a)
    try sync(c)
    // C hears of A's earlier word, and its own holder keeps the book meanwhile.
    #expect(try c.books.currentLoan(ofBook: try #require(try c.books.book(inventory: "1")))?.readerTicket == "1002")
    for _ in 0..<2 {
      try sync(a)
      try sync(c)
    }
    // A desk that joins later takes the settled state as it is, and has nothing to mend.
    let d = try desk("late")
    let late = try Synchronizer.join(store: d, url: try #require(try a.sync.deskTie()).central, deskName: "Late")
    #expect(late.report.pushed == 0)
    #expect(try d.sync.status().waiting == 0)
    #expect(try d.books.currentLoan(ofBook: try #require(try d.books.book(inventory: "1")))?.readerTicket == "1002")
    for store in [a, c] {
      let book = try #require(try store.books.book(inventory: "1"))
      #expect(try store.books.currentLoan(ofBook: book)?.readerTicket == "1002", "the later settlement stands")
      let settled = try store.conflicts.list(includingSettled: true).filter { $0.kind == .doubleIssue }
      #expect(settled.count == 1)
      #expect(settled.first?.resolution.contains("ticket 1002") == true)
    }
    #expect(try a.sync.canonicalDump() == c.sync.canonicalDump())
  }

  @Test func aBookOrReaderDeletedAtOneDeskAndIssuedAtAnotherIsAConflict() throws {
    let url = try makeCentral()
    let a = try desk("a")
    try a.books.add(bookDraft("1", "Обломов"))
    try a.books.add(bookDraft("2", "Идиот"))
    try a.readers.add(readerDraft("1001", "Смирнова"))
    try a.readers.add(readerDraft("1002", "Иванов"))
    try Synchronizer.join(store: a, url: url, deskName: "A")
    let c = try desk("c")
    try Synchronizer.join(store: c, url: url, deskName: "C")
    try a.books.delete(inventory: "1")
    try a.readers.delete(ticket: "1002")
    try c.circulation.issue(ticket: "1001", inventories: ["1"])
    try c.circulation.issue(ticket: "1002", inventories: ["2"])
    try sync(a)
    try sync(c)
    try sync(a)
    for store in [a, c] {
      let conflicts = try store.conflicts.list()
      #expect(conflicts.count == 2, "\(conflicts.map { ($0.key, $0.englishSummary) })")
      #expect(conflicts.allSatisfy { $0.kind == .editAfterDelete })
      #expect(
        conflicts.contains {
          $0.englishSummary == "«Обломов» (1) is deleted at desk «A» but out: ticket 1001 at desk «C»"
        })
      #expect(conflicts.contains { $0.entity == "reader" })
    }
    // The reader holds a book: kept deleted only once it is back; the book kept deleted closes its loan.
    let reader = try #require(try a.conflicts.list().first { $0.entity == "reader" })
    #expect(throws: StoreError.self) { try a.conflicts.settle(reader.number, .keepDeleted) }
    _ = try a.conflicts.settle(reader.number, .restore)
    let book = try #require(try a.conflicts.list().first { $0.entity == "book" })
    _ = try a.conflicts.settle(book.number, .keepDeleted)
    try sync(a)
    try sync(c)
    for store in [a, c] {
      #expect(try store.conflicts.list().isEmpty)
      #expect(try store.books.book(inventory: "1") == nil)
      #expect(try store.readers.reader(ticket: "1002") != nil)
      #expect(try store.database.scalarInt("SELECT count(*) FROM loan WHERE returned_at IS NULL") == 1)
    }
    #expect(try a.sync.canonicalDump() == c.sync.canonicalDump())
  }

  /// Desk D leaves; meanwhile desk E changes a title and a phone, takes a book back and deletes
  /// another; alone, D changes the same title earlier and a place later. D joins again under its
  /// own name: every desk ends with the newer of each change, and nothing D held stale comes back.
  @Test func aDeskThatLeavesAndJoinsAgainTakesTheNewerWorkDoneMeanwhile() throws {
    let (e, d, url) = try twoDesks(
      books: [("1", "Обломов"), ("2", "Анна Каренина"), ("3", "Воскресение")], second: "D")
    try e.readers.add(readerDraft("1001", "Смирнова", phone: "+7 343 200-00-01"))
    try e.circulation.issue(ticket: "1001", inventories: ["2"])
    try sync(e)
    try sync(d)
    let (eClock, dClock) = (try #require(e.clock as? TestClock), try #require(d.clock as? TestClock))
    try d.sync.untie(discarding: false)
    // Steps well inside the clocks' bounds (`ClockOffset.boundMilliseconds`): at 60 and 120 s the
    // syncs' readings of the clocks, a few milliseconds apart, decided whether a desk's waiting
    // changes were clocked again, and so which title was the later.
    dClock.advance(seconds: 10)
    try d.books.update(inventory: "1") { $0.title = "Обломов (у D)" }
    // Changes are clocked by the machine's clock (SQLite's 'now', to the millisecond), not by the
    // test's clocks: E's title is the later only once that clock has moved on. Within one
    // millisecond the two were a tie, which the desks settle alike, by desk id: for E only half the
    // time.
    Thread.sleep(forTimeInterval: 0.005)
    eClock.advance(seconds: 20)
    try e.books.update(inventory: "1") { $0.title = "Обломов (у E)" }
    try e.readers.update(ticket: "1001") { $0.phone = "+7 343 200-00-02" }
    try e.circulation.returnBooks(inventories: ["2"])
    try e.books.delete(inventory: "3")
    try sync(e)
    dClock.advance(seconds: 20)
    try d.books.update(inventory: "2") { $0.place = "Зал 9" }
    let joined = try Synchronizer.join(store: d, url: url, deskName: "D")
    #expect(joined.queued == 0, "nothing sent whole")
    try sync(e)
    try sync(d)
    for store in [e, d] {
      #expect(try store.books.book(inventory: "1")?.title == "Обломов (у E)", "E's later title")
      #expect(try store.readers.reader(ticket: "1001")?.phone == "+7 343 200-00-02")
      let book = try #require(try store.books.book(inventory: "2"))
      #expect(try store.books.currentLoan(ofBook: book) == nil, "the book E took back stays back")
      #expect(book.place == "Зал 9", "D's later place")
      #expect(try store.books.book(inventory: "3") == nil, "the book E deleted stays deleted")
      #expect(try store.conflicts.list().isEmpty)
    }
    #expect(try e.sync.canonicalDump() == d.sync.canonicalDump())
  }

  /// A join cut after the central registered the desk, before the file was tied: the next join
  /// takes it up under the same desk id, and so the same name.
  @Test func aJoinCutAfterTheCentralHeardOfTheDeskIsTakenUpByTheNext() throws {
    let url = try makeCentral()
    let d = try desk("cut")
    try d.books.add(bookDraft("1", "Обломов"))
    let central = try CentralConnection(url: url)
    let library = try #require(
      try central.execute("SELECT value FROM circdesk_central WHERE key = 'library_id'").first?.first ?? nil)
    let deskID = RecordID.random().text
    try d.sync.noteJoining(deskID: deskID, libraryID: library)
    try central.execute("SELECT circdesk_join($1::uuid, $2, $3)", [deskID, "D", "d"])
    #expect(try d.sync.deskTie() == nil, "cut here: the file is not tied")
    try Synchronizer.join(store: d, url: url, deskName: "D")
    #expect(try d.sync.deskTie()?.deskID == deskID)
    let other = try desk("other")
    try Synchronizer.join(store: other, url: url, deskName: "Other")
    #expect(try other.books.book(inventory: "1")?.title == "Обломов", "the records went with the join taken up")
  }

  @Test func aNumberGivenAtTwoDesksIsHeldAsAConflictUntilRenumbered() throws {
    let (a, b, _) = try twoDesks(books: [], second: "B")
    try a.books.add(bookDraft("500", "Книга A"))
    try b.books.add(bookDraft("500", "Книга B"))
    try b.readers.add(readerDraft("1001", "Смирнова"))
    try b.circulation.issue(ticket: "1001", inventories: ["500"])
    try sync(a)
    let report = try sync(b)
    #expect(report.refused == 2, "the book and its loan wait")
    let conflict = try #require(try b.conflicts.list().first)
    #expect(conflict.kind == .inventory)
    #expect(conflict.englishSummary.contains("«Книга B» (500)"))
    #expect(conflict.englishSummary.contains("desk «A» first"))
    // Both books stand at B; A never saw B's.
    #expect(try b.database.scalarInt("SELECT count(*) FROM book WHERE inventory = '500' AND deleted = 0") == 2)
    #expect(try title(b, "500") == "Книга A", "the number finds the central's book first")
    let centralBook = try #require(try b.books.book(inventory: "500"))
    #expect(try b.sync.mark(entity: .book, recordID: centralBook.id)?.conflicts.map(\.number) == [conflict.number])
    // The reader brings back the book of this desk: the return finds the loan of either book.
    #expect(try b.circulation.returnBooks(inventories: ["500"]).map(\.bookTitle) == ["Книга B"])
    try b.circulation.issue(ticket: "1001", inventories: ["500"])
    #expect(try a.books.search("книга").all.count == 1)
    #expect(try b.sync.status().held == 2)

    // The new number follows the forms' rules.
    #expect(throws: StoreError.self) {
      try b.conflicts.settle(conflict.number, .renumber(String(repeating: "9", count: 41)))
    }
    #expect(throws: StoreError.self) { try b.conflicts.settle(conflict.number, .renumber(" \u{1B} ")) }
    _ = try b.conflicts.settle(conflict.number, .renumber("501"))
    try sync(b)
    try sync(a)
    #expect(try title(a, "501") == "Книга B")
    #expect(try a.books.currentLoan(ofBook: try #require(try a.books.book(inventory: "501"))) == nil, "it came back")
    #expect(try a.books.currentLoan(ofBook: try #require(try a.books.book(inventory: "500")))?.readerTicket == "1001")
    #expect(
      try a.circulation.loans(ofBook: try #require(try a.books.book(inventory: "501"))).count == 1,
      "its loan, held, came too")
    #expect(try b.sync.status().waiting == 0)
    #expect(try b.conflicts.list().isEmpty)
    #expect(try a.sync.canonicalDump() == b.sync.canonicalDump())
  }

  /// The search's vocabulary is read again only when words changed: another desk's change of a
  /// shelf place leaves it as it is, a new title does not.
  @Test func aChangeFromAnotherDeskRebuildsTheSearchWordsOnlyWhenWordsChanged() throws {
    let (a, b, _) = try twoDesks(books: [("7", "Обломов")], second: "B")
    func words() throws -> Int { try b.database.scalarInt("SELECT value FROM counter WHERE name = 'book_words'") }
    let before = try words()
    try a.books.update(inventory: "7") { $0.place = "Зал 2" }
    try sync(a)
    try sync(b)
    #expect(try b.books.book(inventory: "7")?.place == "Зал 2")
    #expect(try words() == before)
    try a.books.update(inventory: "7") { $0.title = "Обломов. Роман" }
    try sync(a)
    try sync(b)
    #expect(try words() > before)
    #expect(try b.books.search("роман").all.map(\.inventoryNumber) == ["7"])
  }

  @Test func aBookCataloguedAtTwoDesksIsSettledAsOneAndKeepsItsLoans() throws {
    let (a, b, _) = try twoDesks(books: [], second: "B")
    try a.books.add(bookDraft("500", "Обломов"))
    try b.books.add(bookDraft("500", "Обломов"))
    try b.readers.add(readerDraft("1001", "Смирнова"))
    try b.circulation.issue(ticket: "1001", inventories: ["500"])
    try sync(a)
    try sync(b)
    let conflict = try #require(try b.conflicts.list().first)
    #expect(conflict.kind == .inventory)
    // The same copy, labelled at both desks: B's record goes, its loan moves to A's.
    let settled = try b.conflicts.settle(conflict.number, .duplicate)
    #expect(settled.resolution.hasPrefix("a duplicate of «Обломов» (500)"))
    #expect(try b.database.scalarInt("SELECT count(*) FROM book WHERE inventory = '500' AND deleted = 0") == 1)
    try sync(b)
    try sync(a)
    for store in [a, b] {
      let book = try #require(try store.books.book(inventory: "500"))
      #expect(
        try store.books.currentLoan(ofBook: book)?.readerTicket == "1001", "the loan made at B is of the one book")
      #expect(try store.conflicts.list().isEmpty)
    }
    #expect(try b.sync.status().waiting == 0)
    #expect(try a.sync.canonicalDump() == b.sync.canonicalDump())
  }

  @Test func twoCopiesOutAtOnceAreNotOneBook() throws {
    let (a, b, _) = try twoDesks(books: [], second: "B")
    try a.books.add(bookDraft("500", "Обломов"))
    try a.readers.add(readerDraft("1001", "Смирнова"))
    try a.circulation.issue(ticket: "1001", inventories: ["500"])
    try b.books.add(bookDraft("500", "Обломов"))
    try b.readers.add(readerDraft("2001", "Иванов"))
    try b.circulation.issue(ticket: "2001", inventories: ["500"])
    try sync(a)
    try sync(b)
    let conflict = try #require(try b.conflicts.list().first)
    #expect(throws: StoreError.self) { try b.conflicts.settle(conflict.number, .duplicate) }
    #expect(try b.conflicts.list().count == 1, "refused, it stays open")
  }

  @Test func aScanAtTheCounterShowsTheConflictFirst() throws {
    let (a, b) = try bookIssuedAtTwoDesks("A", "B")
    try sync(a)
    try sync(b)
    // The book comes back at B: the counter says there is a conflict before anything is done.
    guard case .conflict(let conflict, let code) = try b.circulation.circulate("1", reader: nil) else {
      Issue.record("the conflict comes first")
      return
    }
    #expect(conflict.kind == .doubleIssue && code == "1")
    #expect(conflict.choices.sorted() == ["1001", "1002"])
    #expect(try b.database.scalarInt("SELECT count(*) FROM loan WHERE returned_at IS NULL") == 2, "nothing done")
    // Seen, the scan does what it does: the return closes every loan of the book.
    guard case .done(.returned) = try b.circulation.circulate("1", reader: nil, conflictSeen: true) else {
      Issue.record("the return goes on once the conflict is seen")
      return
    }
    #expect(try b.database.scalarInt("SELECT count(*) FROM loan WHERE returned_at IS NULL") == 0)
  }

  /// A later edit that reaches the central before the deletion it followed is the same conflict,
  /// found at every desk when the deletion arrives.
  @Test func aLaterEditThatReachesTheCentralFirstIsAConflictToo() throws {
    let (a, b, _) = try twoDesks(books: [("3", "Обломов")], second: "B")
    try a.books.delete(inventory: "3")
    usleep(5_000)  // the edit is later by the clock
    try b.books.update(inventory: "3") { $0.year = "1859" }
    try sync(b)
    try sync(a)
    try sync(b)
    for store in [a, b] {
      #expect(try store.books.book(inventory: "3") == nil, "the deletion stands")
      let conflict = try #require(try store.conflicts.list().first)
      #expect(conflict.kind == .editAfterDelete)
      #expect(conflict.englishSummary == "«Обломов» (3) was changed at desk «B» after desk «A» deleted it")
      #expect(conflict.englishSides.last?.hasSuffix("changed year «1859»") == true)
    }
    _ = try a.conflicts.settle(try #require(try a.conflicts.list().first).number, .restore)
    try sync(a)
    try sync(b)
    for store in [a, b] {
      #expect(try store.books.book(inventory: "3")?.year == 1859, "restored with the edit")
      #expect(try store.conflicts.list().isEmpty)
    }
    #expect(try a.sync.canonicalDump() == b.sync.canonicalDump())
  }

  @Test func anEditAfterADeletionIsAConflictThatMayBecomeARestore() throws {
    let (a, b, _) = try twoDesks(books: [("3", "Обломов")], second: "B")
    try a.books.delete(inventory: "3")
    try b.books.update(inventory: "3") { $0.publisher = "Правда" }
    try sync(a)
    try sync(b)
    try sync(a)
    for store in [a, b] {
      #expect(try store.books.book(inventory: "3") == nil, "the deletion stands")
      #expect(try store.conflicts.list().map(\.kind) == [.editAfterDelete])
    }
    let number = try #require(try a.conflicts.list().first).number
    _ = try a.conflicts.settle(number, .restore)
    try sync(a)
    try sync(b)
    for store in [a, b] {
      #expect(try store.books.book(inventory: "3")?.publisher == "Правда")
      #expect(try store.conflicts.list().isEmpty)
    }
  }

  /// Changes that break the rules, written into the central's log by hand (or by an older
  /// central that took them): a desk sets each aside with its reason, lists it among its
  /// conflicts, and applies the rest.
  @Test func aForgedChangeInTheCentralsLogIsSetAsideAndTheRestApplies() throws {
    let (a, b, url) = try twoDesks(books: [("1", "Одна")], second: "B")
    let name = databaseName(url)
    let deskA = try #require(try a.sync.deskTie()).deskID
    let book = try #require(try a.books.book(inventory: "1")).id.text
    for (payload, _) in [
      (#"{"colour": "red"}"#, "a book has no field «colour»"),
      (#"{"year": "nineteen"}"#, "«year» holds text, not a whole number"),
      (#"{"title": ""}"#, "«title» is empty"),
    ] {
      try server.psql(
        """
        INSERT INTO change(id, desk_id, entity, record_id, hlc, payload)
        VALUES (gen_random_uuid(), '\(deskA)', 'book', '\(book)', 1, '\(payload)')
        """, database: name)
    }
    try a.books.update(inventory: "1") { $0.publisher = "Наука" }
    try sync(a)
    let report = try sync(b)
    #expect(report.conflictsRaised == 3)
    #expect(try b.books.book(inventory: "1")?.publisher == "Наука", "the change after them applied")
    #expect(try b.books.book(inventory: "1")?.title == "Одна")
    let aside = try b.conflicts.list()
    #expect(aside.map(\.kind) == [.refusedChange, .refusedChange, .refusedChange])
    #expect(
      aside.map(\.englishSummary) == [
        "«Одна» (1): a change from desk «A» was set aside here: a book has no field «colour»",
        "«Одна» (1): a change from desk «A» was set aside here: «year» holds text, not a whole number",
        "«Одна» (1): a change from desk «A» was set aside here: «title» is empty",
      ])
    #expect(try #require(try b.sync.deskTie()).lastError.isEmpty, "the sync went through")
    // Seen and left aside; the next sync pulls nothing of them again.
    for conflict in aside { try b.conflicts.settle(conflict.number, .drop) }
    #expect(try sync(b).conflictsRaised == 0)
    #expect(try b.conflicts.list().isEmpty)
  }

  /// A hostile desk role pushes every kind of invalid change: each is refused with its reason,
  /// nothing of it is stored, and the other desks keep syncing.
  @Test func theCentralRefusesEveryInvalidChangeAndStoresNoneOfThem() throws {
    let (a, b, url) = try twoDesks(books: [("1", "Одна")], second: "B")
    let reader = try a.readers.add(readerDraft("1001", "Смирнова"))
    try a.circulation.issue(ticket: "1001", inventories: ["1"])
    try sync(a)
    try sync(b)
    let name = databaseName(url)
    let deskA = try #require(try a.sync.deskTie()).deskID
    let book = try #require(try a.books.book(inventory: "1")).id.text
    let loan = try #require(try a.circulation.loans(ofReader: reader).first).loan.id.text
    let stored = try server.psql("SELECT count(*) FROM change", database: name)
    func change(_ entity: String, _ record: String, _ payload: String, hlc: String = "1") -> String {
      #"{"id": "\#(RecordID.random().text)", "entity": "\#(entity)", "record_id": "\#(record)", "hlc": \#(hlc), "payload": \#(payload)}"#
    }
    let huge = String(repeating: "ж", count: 5_000_000)
    let cases: [(String, String)] = [
      (change("book", book, #"{"title": 1984}"#), "«title» holds a number, not text"),
      (change("book", book, #"{"colour": "red"}"#), "a book has no field «colour»"),
      (change("loan", loan, #"{"renewals": -5}"#), "«renewals» is -5, outside 0…1000"),
      (change("book", book, #"{"title": ""}"#), "«title» is empty"),
      (change("loan", loan, #"{"due_date": "yesterday"}"#), "«due_date» «yesterday» is not a day (YYYY-MM-DD)"),
      (change("loan", loan, #"{"returned_at": "yesterday"}"#), "«returned_at» «yesterday» is not a moment"),
      (change("book", book, #"{"inventory": "12\u001b[2J\u202e"}"#), "«inventory» holds a control character"),
      (change("book", book, #"{"title": "\#(huge)"}"#), "«title» is longer than 1000 characters (5000000)"),
      (
        change("book", book, #"{"title": "Когда-нибудь"}"#, hlc: "9223372036854775807"),
        "minutes ahead of the central's"
      ),
      (
        change("loan", RecordID.random().text, #"{"returned_at": "2026-11-30T10:00:00.000Z"}"#),
        "the central does not know this loan"
      ),
      (
        change("reader", reader.id.text, #"{"category": "nobody"}"#),
        "«category» names a category the central does not know"
      ),
      (change("poem", "1", #"{}"#), "no record is of the kind «poem»"),
      (change("loan", loan, #"{"due_date": "2026-12-31"}"#, hlc: "null"), "it has no clock"),
      (
        change(
          "book", RecordID.random().text,
          #"{"created_at": "2026-01-01T10:00:00.000Z", "inventory": "N1", "deleted": "x"}"#),
        "«deleted» holds text, not a whole number"
      ),
    ]
    let central = try CentralConnection(url: url)
    for (pushed, reason) in cases {
      let outcome = try central.transaction { () throws(CentralError) in
        try central.execute("SELECT outcome, detail FROM circdesk_push($1::uuid, $2::jsonb)", [deskA, "[\(pushed)]"])
      }
      #expect(outcome.first?.first == "invalid", "\(reason)")
      #expect(outcome.first?.last??.contains(reason) == true, "\(outcome.first?.last ?? nil ?? "") for \(reason)")
    }
    #expect(try server.psql("SELECT count(*) FROM change", database: name) == stored, "nothing stored")
    // The other desks keep syncing, and their own changes still go through.
    try b.books.update(inventory: "1") { $0.year = "1999" }
    #expect(try sync(b).pushed == 1)
    try sync(a)
    #expect(try a.books.book(inventory: "1")?.year == 1999)
    // The desk's clock: a change from the future is refused; its next changes still go.
    let later = try central.transaction { () throws(CentralError) in
      try central.execute(
        "SELECT outcome FROM circdesk_push($1::uuid, $2::jsonb)",
        [deskA, "[\(change("book", book, #"{"publisher": "Наука"}"#))]"])
    }
    #expect(later.first?.first == "accepted")
  }

  /// A change made here that the central refuses is listed at this desk with the reason; the
  /// record's later changes wait; corrected, the record goes again whole and the others get it.
  @Test func aChangeTheCentralRefusesIsListedHereAndGoesAgainOnceCorrected() throws {
    let (a, b, _) = try twoDesks(books: [("1", "Одна")], second: "B")
    // A title longer than any the central takes, written by an older program (the forms refuse it).
    try a.database.execute(
      "UPDATE book SET title = ?, updated_at = ? WHERE inventory = '1'", String(repeating: "а", count: 5000),
      "2026-11-30T10:00:00.000Z")
    try a.database.execute("UPDATE book SET year = 1900 WHERE inventory = '1'")
    let report = try sync(a)
    #expect(report.refused == 2, "the title refused, the year held back with it")
    let conflict = try #require(try a.conflicts.list().first)
    #expect(conflict.kind == .refusedChange)
    #expect(
      conflict.englishSummary.hasSuffix(
        "the central refused a change made here: «title» is longer than 1000 characters (5000)"))
    #expect(try a.sync.status().held == 1)
    try sync(b)
    #expect(try b.books.book(inventory: "1")?.title == "Одна", "nothing invalid reached the other desk")
    try a.books.update(inventory: "1") { $0.title = "Одна, исправленная" }
    _ = try a.conflicts.settle(conflict.number, .resend)
    try sync(a)
    try sync(b)
    #expect(try b.books.book(inventory: "1")?.title == "Одна, исправленная")
    #expect(try b.books.book(inventory: "1")?.year == 1900)
    #expect(try a.conflicts.list().isEmpty && b.conflicts.list().isEmpty)
    #expect(try a.sync.canonicalDump() == b.sync.canonicalDump())
  }

  /// A sync's failure as the command line says it in English.
  private func english(_ error: any Error) -> String {
    (error as? SyncError).map { EnglishWords().message($0) } ?? "\(error)"
  }

  @Test func aCentralOfAnotherLibraryOrAnOlderSchemaIsRefused() throws {
    let url = try makeCentral()
    let other = try makeCentral()
    let a = try desk("a")
    try Synchronizer.join(store: a, url: url, deskName: "A")
    #expect {
      try Synchronizer(store: a, url: other).sync()
    } throws: { english($0).hasPrefix("The central holds another library") }
    try server.psql("UPDATE circdesk_central SET value = '1' WHERE key = 'schema_version'", database: databaseName(url))
    #expect {
      try sync(a)
    } throws: { english($0).contains("run circdesk central init on it") }
    try server.psql(
      "UPDATE circdesk_central SET value = '99' WHERE key = 'schema_version'", database: databaseName(url))
    #expect {
      try sync(a)
    } throws: { english($0).hasPrefix("The central was set up by a newer circdesk (schema 99") }
    #expect {
      try Synchronizer(store: a, url: "host=\(folder.path)/nowhere port=1 user=x").sync()
    } throws: { english($0).hasPrefix("Cannot reach the central:") }
    let b = try desk("b")
    try server.psql(
      "UPDATE circdesk_central SET value = '\(CentralSchema.latestVersion)' WHERE key = 'schema_version'",
      database: databaseName(url))
    #expect {
      try Synchronizer.join(store: b, url: url, deskName: "A")
    } throws: { english($0).contains("Another desk of this library is called «A»") }
    #expect(try b.sync.deskTie() == nil, "a refused join leaves the file on its own")
  }

  @Test func theKeptURLHasNoPassword() throws {
    let kept = try CentralConnection.withoutPassword("host=/tmp port=5432 user=desk password=s3cret dbname=lib")
    #expect(!kept.contains("s3cret") && kept.contains("user='desk'") && kept.contains("dbname='lib'"))
    #expect(!(try CentralConnection.withoutPassword("postgresql://desk:s3cret@localhost/lib")).contains("s3cret"))
  }
}
