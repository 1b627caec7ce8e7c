import DeskDomain
@_spi(Connection) import DeskStorage
import DeskSync

#if canImport(Glibc)
  import Glibc
#endif

/// A seeded week of a library with several desks: catalogue edits, registrations, issues,
/// returns and renewals, desks going offline and online, desks leaving the central for days and
/// joining again (their edits and the others' on the same and other fields), desks whose clocks
/// are set wrong (a day ahead, an hour and a half behind, within the bound), syncs cut by SIGKILL
/// (of a `circdesk sync` process) and by stopping the server mid-batch; then every desk syncs
/// until nothing is left, and the desks and the central are compared. The same seed makes the same week; its size
/// is a parameter (small in the tests, large in the benchmark).
public struct SyncSimulation {
  public var seed: UInt64
  public var desks = 5
  public var days = 7
  /// Things done at the desks in a day, all desks together.
  public var actionsPerDay = 60
  public var initialBooks = 40
  public var initialReaders = 15
  /// Of the syncs, the share cut by SIGKILL, and the share cut by stopping the server.
  public var killShare = 0.15
  public var serverStopShare = 0.05
  /// The chance that a desk, at one of its actions, leaves the central (working alone from then),
  /// and that a desk that left joins again.
  public var leaveShare = 0.012
  public var rejoinShare = 0.06
  /// How far each desk's clock is set off the machine's, in milliseconds, by desk (a desk past
  /// the list keeps the machine's). The desks' changes must still be ordered by the central's time.
  public var clockOffsets: [Int64] = [0, 86_400_000, -5_400_000, 40_000]
  /// libfaketime, which sets the clock of a sync's own process as its desk's (a desk whose clock
  /// is off has no such syncs without it).
  public var libfaketime = "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1"
  /// Of the syncs, the share run as two at once: a `circdesk sync` process beside the desk's own
  /// (a desk's background sync and a librarian's command).
  public var concurrentShare = 0.05
  /// The folder for the desks' library files.
  public var folder: String
  public var centralURL: String
  /// The `circdesk` program, run for the syncs that are cut.
  public var program: String
  /// Stop the server at once (as a crash) and start it again.
  public var stopServer: () throws -> Void
  public var startServer: () throws -> Void

  public init(
    seed: UInt64, folder: String, centralURL: String, program: String, stopServer: @escaping () throws -> Void,
    startServer: @escaping () throws -> Void
  ) {
    self.seed = seed
    self.folder = folder
    self.centralURL = centralURL
    self.program = program
    self.stopServer = stopServer
    self.startServer = startServer
  }

  /// What the week did, and what the comparison found wrong (nothing, when all is well).
  public struct Outcome: Sendable {
    public var actions = 0
    public var issues = 0
    public var returns = 0
    public var renewals = 0
    public var syncs = 0
    public var killedSyncs = 0
    public var serverStops = 0
    /// Syncs of one desk run in two processes at once.
    public var concurrentSyncs = 0
    /// Desks that left the central and joined it again.
    public var rejoins = 0
    public var doubleIssues = 0
    /// Renewals made apart that met past a loan's limit, or after its return.
    public var renewalConflicts = 0
    /// Invalid changes a hostile desk pushed, each refused by the central.
    public var hostileRefused = 0
    public var clashes = 0
    /// Desks whose clocks were set off beyond the bound, each of which knew it.
    public var skewedDesks = 0
    /// Desks that hold the later of two edits made by desks a day ahead and hours behind.
    public var laterEditsStanding = 0
    public var finalRounds = 0
    public var records = 0
    public var problems: [String] = []
  }

  struct Desk {
    let name: String
    let path: String
    let store: LibraryStore
    /// How far its clock is set off the machine's.
    var clockOff: Int64 = 0
    var online = true
    /// Left the central: working alone until it joins again.
    var left = false
    var id = ""
  }

  public func run() throws -> Outcome {
    var random = SplitMix64(seed: seed)
    var outcome = Outcome()
    let start = SystemClock().now().instant
    _ = try CentralSchema.initialize(try CentralConnection(url: centralURL))
    var all: [Desk] = []
    for index in 0..<desks {
      let path = folder + "/desk\(index + 1).sqlite"
      let off = index < clockOffsets.count ? clockOffsets[index] : 0
      // The clock the program uses (`CorrectedClock`), on a machine clock set off.
      let clock = CorrectedClock(
        off == 0 ? SystemClock() : ShiftedClock(SystemClock(), by: off), uptime: SystemClock.uptime)
      all.append(
        Desk(name: "Desk \(index + 1)", path: path, store: try LibraryStore(path: path, clock: clock), clockOff: off))
    }
    // The first desk brings the library; the others join empty.
    for number in 1...initialBooks {
      try all[0].store.books.add(draft(inventory: "B\(number)", &random))
    }
    for number in 1...initialReaders {
      var reader = ReaderDraft()
      reader.ticket = "R\(number)"
      reader.surname = ["Смирнова", "Иванов", "Kowalski", "Müller", "Петров"][number % 5]
      reader.firstName = "Имя\(number)"
      try all[0].store.readers.add(reader)
    }
    for index in all.indices {
      try Synchronizer.join(store: all[index].store, url: centralURL, deskName: all[index].name)
      all[index].id = try all[index].store.sync.deskTie()?.deskID ?? ""
    }
    // A hostile desk: joined through the central's function like any desk, it pushes invalid
    // changes every day (`pushForged`); the central must refuse each and store none.
    let hostile = RecordID.random().text
    try CentralConnection(url: centralURL).execute("SELECT circdesk_join($1::uuid, 'Hostile', 'hostile')", [hostile])
    // What the desks did, for the checks at the end.
    var issued: [String] = []
    // Each return made at a desk: loan, moment and desk. Two desks may each take back one loan in
    // the same millisecond; each return is an event of its own.
    var returned: [String: Int] = [:]
    var nextBook = initialBooks + 1
    var nextReader = initialReaders + 1

    for day in 0..<days {
      // A connection of the day's own: the week stops and starts the server.
      let line = try CentralConnection(url: centralURL)
      for (forged, outcomeText) in try pushForged(on: all[0].store, from: hostile, into: line, day: day) {
        if outcomeText == "invalid" {
          outcome.hostileRefused += 1
        } else {
          outcome.problems.append("the central took a forged change (\(outcomeText)): \(forged)")
        }
      }
      // On the second day the second desk leaves for a while, whatever else the seed does.
      if day == 1, all.count > 1, !all[1].left, (try? Synchronizer(store: all[1].store).sync()) != nil,
        (try? all[1].store.sync.untie(discarding: false)) != nil
      {
        all[1].left = true
      }
      for _ in 0..<actionsPerDay {
        let index = Int(random.next() % UInt64(all.count))
        // Now and then a desk loses or finds the network.
        if random.chance(0.08) { all[index].online.toggle() }
        let store = all[index].store
        // Now and then a desk leaves the central (once all it did has gone) and works alone for
        // days; one that left joins again, under its own name.
        if all[index].left, all[index].online, random.chance(rejoinShare) {
          try Synchronizer.join(store: store, url: centralURL, deskName: all[index].name)
          all[index].left = false
          outcome.rejoins += 1
        } else if !all[index].left, all[index].online, random.chance(leaveShare),
          (try? Synchronizer(store: store).sync()) != nil, (try? store.sync.untie(discarding: false)) != nil
        {
          all[index].left = true
        }
        outcome.actions += 1
        let roll = random.next() % 100
        do {
          switch roll {
          case 0..<10:
            // Two desks apart sometimes give one number: a few numbers come from a small pool.
            let number = random.chance(0.35) ? "C\(random.next() % 6)" : "B\(nextBook)"
            nextBook += 1
            try store.books.add(draft(inventory: number, &random))
          case 10..<25:
            guard let book = try randomBook(store, &random) else { break }
            try store.books.update(inventory: book.inventoryNumber) { draft in
              switch random.next() % 3 {
              case 0: draft.title = "\(book.title.split(separator: " ").first ?? "") \(random.next() % 1000)"
              case 1: draft.publisher = ["Наука", "Правда", "Penguin", "Seuil"][Int(random.next() % 4)]
              default: draft.year = String(1900 + random.next() % 125)
              }
            }
          case 25..<28:
            guard let book = try randomBook(store, &random), try store.books.currentLoan(ofBook: book) == nil else {
              break
            }
            try store.books.delete(inventory: book.inventoryNumber)
          case 28..<35:
            var reader = ReaderDraft()
            reader.ticket = random.chance(0.35) ? "T\(random.next() % 4)" : "R\(nextReader)"
            nextReader += 1
            reader.surname = ["Сидорова", "Fischer", "Кузнецов"][Int(random.next() % 3)]
            try store.readers.add(reader)
          case 35..<60:
            guard let book = try randomBook(store, &random), try store.books.currentLoan(ofBook: book) == nil,
              let reader = try randomReader(store, &random)
            else { break }
            let loans = try store.circulation.issue(ticket: reader, inventories: [book.inventoryNumber])
            issued += loans.map(\.loan.id.text)
            outcome.issues += loans.count
          case 60..<85:
            let open = try store.database.query(
              "SELECT b.inventory FROM loan l JOIN book b ON b.id = l.book_id WHERE l.returned_at IS NULL AND l.deleted = 0 AND b.deleted = 0 ORDER BY l.id"
            ) { $0.string(0) }
            guard !open.isEmpty else { break }
            let inventory = open[Int(random.next() % UInt64(open.count))]
            for loan in try store.circulation.returnBooks(inventories: [inventory]) {
              let desk = all[index].id
              returned[loan.loan.id.text + " " + (loan.loan.returned?.iso ?? "") + " " + desk, default: 0] += 1
              outcome.returns += 1
            }
          default:
            let open = try store.database.query(
              "SELECT b.inventory FROM loan l JOIN book b ON b.id = l.book_id WHERE l.returned_at IS NULL AND l.deleted = 0 AND b.deleted = 0 ORDER BY l.id"
            ) { $0.string(0) }
            guard !open.isEmpty else { break }
            let inventory = open[Int(random.next() % UInt64(open.count))]
            if let renewal = try? store.circulation.renew(inventories: [inventory]) {
              outcome.renewals += renewal.count
            }
          }
        } catch let error as StoreError {
          // A refusal (a rule, a number taken here) is the desk saying no, as it would to a librarian.
          if case .database = error { throw error }
        }
        guard all[index].online, !all[index].left, random.chance(0.3) else { continue }
        outcome.syncs += 1
        let cut = random.next() % 1000
        let cuttable = all[index].clockOff == 0 || access(libfaketime, R_OK) == 0
        if Double(cut) < killShare * 1000, cuttable {
          outcome.killedSyncs += 1
          cutSync(all[index], afterMicroseconds: UInt32(random.next() % 60_000), stoppingServer: false)
        } else if Double(cut) < (killShare + serverStopShare) * 1000, cuttable {
          outcome.serverStops += 1
          cutSync(all[index], afterMicroseconds: UInt32(random.next() % 60_000), stoppingServer: true)
        } else if Double(cut) < (killShare + serverStopShare + concurrentShare) * 1000, cuttable {
          outcome.concurrentSyncs += 1
          guard let other = spawnSync(all[index]) else { continue }
          do {
            _ = try Synchronizer(store: store).sync()
          } catch {
            // The other process may hold the write lock longer than the busy timeout: no loss.
          }
          reap(other, all[index])
        } else {
          do {
            _ = try Synchronizer(store: store).sync()
          } catch {
            outcome.problems.append("\(all[index].name): a sync failed with the server up: \(error)")
          }
        }
      }
    }

    // Every desk back online and joined again; clashes of numbers renumbered, as a librarian
    // would; then syncs until a whole round moves nothing.
    for index in all.indices where all[index].left {
      try Synchronizer.join(store: all[index].store, url: centralURL, deskName: all[index].name)
      all[index].left = false
      outcome.rejoins += 1
    }
    // Two desks give one number before they sync again: the week's own share of such numbers
    // depends on which syncs its timing cut, and a loaded machine's week has given none.
    if all.count >= 2 {
      try all[0].store.books.add(draft(inventory: "D\(seed)", &random))
      try all[1].store.books.add(draft(inventory: "D\(seed)", &random))
    }
    var fresh = 0
    func syncUntilStill() throws {
      var rounds = 0
      while true {
        outcome.finalRounds += 1
        rounds += 1
        var moved = 0
        for desk in all {
          for conflict in try desk.store.conflicts.list() where conflict.kind == .inventory || conflict.kind == .ticket
          {
            fresh += 1
            outcome.clashes += 1
            _ = try desk.store.conflicts.settle(conflict.number, .renumber("N\(seed)-\(fresh)"))
          }
          let report = try Synchronizer(store: desk.store).sync()
          moved += report.pushed + report.applied + report.refused
        }
        if moved == 0 || rounds > 20 { break }
      }
    }
    try syncUntilStill()

    // Clocks: a desk set off beyond the bound knows it, and by about as much; the others do not.
    for desk in all {
      let offset = try desk.store.sync.deskTie()?.clockOffset ?? .zero
      let beyond = desk.clockOff.magnitude > UInt64(ClockOffset.boundMilliseconds)
      if offset.isBeyondBound != beyond || (offset.milliseconds + desk.clockOff).magnitude > 5_000 {
        outcome.problems.append(
          "\(desk.name), its clock set \(desk.clockOff) ms off, found it \(-offset.milliseconds) ms off the central's")
      }
      if beyond { outcome.skewedDesks += 1 }
    }
    // What is done later stands, whatever the desks' clocks say: the desk a day ahead renames a
    // book and issues another, then the desk behind, having heard of both, renames the first
    // again and takes the second back. (Heard of: two desks that have not yet heard of each
    // other's edits are ordered by their clocks within the bound, and the desk 40 seconds ahead
    // keeps every desk's hybrid clock as far ahead for a while after its changes.)
    let bound = ClockOffset.boundMilliseconds
    var renamed: (uuid: String, title: String)?
    var crossed: String?
    var crossedInventory: String?
    if let ahead = all.firstIndex(where: { $0.clockOff > bound }),
      let behind = all.firstIndex(where: { $0.clockOff < -bound }),
      let book = try randomBook(all[ahead].store, &random)
    {
      try all[ahead].store.books.update(inventory: book.inventoryNumber) { $0.title = "Часы вперёд \(seed)" }
      if let other = try randomBook(all[ahead].store, &random), other.inventoryNumber != book.inventoryNumber,
        try all[ahead].store.books.currentLoan(ofBook: other) == nil,
        let reader = try randomReader(all[ahead].store, &random)
      {
        let loans = try all[ahead].store.circulation.issue(ticket: reader, inventories: [other.inventoryNumber])
        issued += loans.map(\.loan.id.text)
        crossed = loans.first?.loan.id.text
        crossedInventory = other.inventoryNumber
        outcome.issues += loans.count
      }
      _ = try Synchronizer(store: all[ahead].store).sync()
      _ = try Synchronizer(store: all[behind].store).sync()
      if let crossedInventory {
        for loan in try all[behind].store.circulation.returnBooks(inventories: [crossedInventory]) {
          returned[loan.loan.id.text + " " + (loan.loan.returned?.iso ?? "") + " " + all[behind].id, default: 0] += 1
          outcome.returns += 1
        }
      }
      // Later in real time, an hour and a half earlier by its clock.
      usleep(20_000)
      try all[behind].store.books.update(inventory: book.inventoryNumber) { $0.title = "Часы назад \(seed)" }
      renamed = (book.id.text, "Часы назад \(seed)")
      try syncUntilStill()
    }
    for desk in all {
      if let renamed,
        let title = try desk.store.database.queryFirst(
          "SELECT title FROM book WHERE uuid = ?", renamed.uuid, read: { $0.string(0) }), title != renamed.title
      {
        outcome.problems.append("\(desk.name): the earlier title «\(title)» stands, by a clock a day ahead")
      } else if renamed != nil {
        outcome.laterEditsStanding += 1
      }
      if let crossed,
        try desk.store.database.scalarInt(
          "SELECT count(*) FROM loan WHERE uuid = ? AND returned_at IS NOT NULL", crossed) != 1
      {
        outcome.problems.append("\(desk.name): loan \(crossed), taken back at the desk behind, is not closed")
      }
      // Loans are dated by the library's time, wherever a desk's clock is (joined or away).
      let soon = SystemClock().now().instant.adding(milliseconds: ClockOffset.boundMilliseconds).iso
      let ahead = try desk.store.database.query(
        "SELECT uuid FROM loan WHERE max(issued_at, coalesce(renewed_at, ''), coalesce(returned_at, '')) > ?", soon
      ) { $0.string(0) }
      for loan in ahead { outcome.problems.append("\(desk.name): loan \(loan) is dated ahead of the library's time") }
      let before = start.adding(milliseconds: -ClockOffset.boundMilliseconds).iso
      let behind = try desk.store.database.query("SELECT uuid FROM loan WHERE issued_at < ?", before) { $0.string(0) }
      for loan in behind { outcome.problems.append("\(desk.name): loan \(loan) is dated before the week began") }
      // A loan is never taken back before it was issued.
      let backwards = try desk.store.database.query(
        "SELECT uuid, issued_at, returned_at, desk FROM loan WHERE returned_at IS NOT NULL AND returned_at < issued_at"
      ) {
        "\($0.string(0)) (issued at \($0.string(1)) at «\($0.string(3))») is returned before its issue, at \($0.string(2))"
      }
      for loan in backwards { outcome.problems.append("\(desk.name): loan \(loan)") }
    }

    // The comparison.
    let central = try CentralDump.lines(try CentralConnection(url: centralURL))
    outcome.records = Set(central.map { $0.split(separator: " ").prefix(2).joined(separator: " ") }).count
    for desk in all {
      let dump = try desk.store.sync.canonicalDump()
      if dump != central {
        let missing = Set(central).subtracting(dump).sorted().prefix(3)
        let extra = Set(dump).subtracting(central).sorted().prefix(3)
        outcome.problems.append(
          "\(desk.name) differs from the central: lacks \(Array(missing)), has besides \(Array(extra))")
      }
      if try desk.store.sync.status().waiting > 0 { outcome.problems.append("\(desk.name) still has changes waiting") }
    }
    let connection = try CentralConnection(url: centralURL)
    let kept = try connection.execute("SELECT count(*) FROM change WHERE desk_id = $1::uuid", [hostile])
    if (kept.first?.first ?? nil) != "0" {
      outcome.problems.append("the central stored \(kept.first?.first ?? nil ?? "?") changes of the hostile desk")
    }
    let creations = try connection.execute(
      "SELECT record_id, count(*) FROM change WHERE entity = 'loan' AND payload ? 'book' GROUP BY record_id")
    let created = Dictionary(
      uniqueKeysWithValues: creations.compactMap { row -> (String, Int)? in
        guard let id = row[0], let count = row[1].flatMap({ Int($0) }) else { return nil }
        return (id, count)
      })
    for loan in issued where created[loan] != 1 {
      outcome.problems.append("the issue of loan \(loan) is at the central \(created[loan] ?? 0) times")
    }
    // Every return made at a desk is at the central exactly once, from that desk.
    let returns = try connection.execute(
      """
      SELECT record_id, payload->>'returned_at', desk_id::text, count(*) FROM change
      WHERE entity = 'loan' AND payload->>'returned_at' IS NOT NULL AND NOT payload ? 'book' GROUP BY 1, 2, 3
      """)
    var returnCounts: [String: Int] = [:]
    for row in returns {
      guard let id = row[0], let at = row[1], let desk = row[2], let count = row[3].flatMap({ Int($0) }) else {
        continue
      }
      returnCounts[id + " " + at + " " + desk] = count
    }
    for (event, times) in returned where returnCounts[event] != times {
      outcome.problems.append(
        "the return (loan, moment, desk) \(event) is at the central \(returnCounts[event] ?? 0) times, not \(times)")
    }
    for desk in all {
      let loans = Set(try desk.store.database.query("SELECT uuid FROM loan WHERE deleted = 0") { $0.string(0) })
      let lost = issued.filter { !loans.contains($0) }
      if !lost.isEmpty { outcome.problems.append("\(desk.name) lost \(lost.count) loans") }
      // Two loans of a book open at once exist only in a conflict.
      let doubled = try desk.store.database.query(
        """
        SELECT b.uuid FROM loan l JOIN book b ON b.id = l.book_id WHERE l.returned_at IS NULL AND l.deleted = 0
        GROUP BY b.uuid HAVING count(*) > 1
        """
      ) { $0.string(0) }
      let open = Set(try desk.store.conflicts.list().filter { $0.kind == .doubleIssue }.map(\.recordID))
      for book in doubled where !open.contains(book) {
        outcome.problems.append("\(desk.name): book \(book) is out twice without a conflict")
      }
      // A deleted book or reader still out exists only in a conflict.
      let deletedOut = try desk.store.database.query(
        """
        SELECT DISTINCT b.uuid FROM loan l JOIN book b ON b.id = l.book_id
        WHERE l.returned_at IS NULL AND l.deleted = 0 AND b.deleted = 1
        UNION SELECT DISTINCT r.uuid FROM loan l JOIN reader r ON r.id = l.reader_id
        WHERE l.returned_at IS NULL AND l.deleted = 0 AND r.deleted = 1
        """
      ) { $0.string(0) }
      let flagged = Set(try desk.store.conflicts.list().filter { $0.kind == .editAfterDelete }.map(\.recordID))
      for record in deletedOut where !flagged.contains(record) {
        outcome.problems.append("\(desk.name): \(record) is deleted but out, without a conflict")
      }
      // Every renewal made at any desk counts at every desk (renewals merge as events)…
      let renewals = try desk.store.database.scalarInt("SELECT coalesce(sum(renewals), 0) FROM loan")
      if renewals != outcome.renewals {
        outcome.problems.append("\(desk.name) counts \(renewals) renewals, not the \(outcome.renewals) made")
      }
      // …and an open loan renewed past its limit at desks apart exists only in a conflict.
      let pastLimit = try desk.store.database.query(
        """
        SELECT l.uuid FROM loan l JOIN reader r ON r.id = l.reader_id JOIN category c ON c.code = r.category
        WHERE l.returned_at IS NULL AND l.deleted = 0 AND l.renewals > c.renewal_limit
        """
      ) { $0.string(0) }
      let overLimit = Set(try desk.store.conflicts.list().filter { $0.kind == .renewalLimit }.map(\.recordID))
      for loan in pastLimit where !overLimit.contains(loan) {
        outcome.problems.append("\(desk.name): loan \(loan) is renewed past its limit without a conflict")
      }
      outcome.renewalConflicts = max(
        outcome.renewalConflicts,
        try desk.store.conflicts.list(includingSettled: true).filter {
          $0.kind == .renewalLimit || $0.kind == .renewedAfterReturn
        }.count)
      outcome.doubleIssues = max(
        outcome.doubleIssues,
        try desk.store.conflicts.list(includingSettled: true).filter { $0.kind == .doubleIssue }.count)
    }
    return outcome
  }

  /// Pushes a day's forged changes, as a hostile desk with the desks' rights would, against
  /// records the library has: a title that is a number, an unknown field, renewals below zero, an
  /// empty title, a day and a moment that are not, an inventory number with ESC and U+202E, a
  /// title of 100,000 letters, a clock at the end of time, a loan nobody made. Returns each with
  /// what the central said.
  private func pushForged(on store: LibraryStore, from desk: String, into central: CentralConnection, day: Int)
    throws -> [(String, String)]
  {
    guard let book = try store.database.queryFirst("SELECT uuid FROM book ORDER BY id LIMIT 1", read: { $0.string(0) })
    else { return [] }
    let loan = try store.database.queryFirst("SELECT uuid FROM loan ORDER BY id LIMIT 1") { $0.string(0) }
    func change(_ entity: String, _ record: String, _ payload: String, hlc: String = "1") -> String {
      #"{"id": "\#(RecordID.random().text)", "entity": "\#(entity)", "record_id": "\#(record)", "hlc": \#(hlc), "payload": \#(payload)}"#
    }
    var forged = [
      change("book", book, #"{"title": \#(1900 + day)}"#), change("book", book, #"{"colour": "red"}"#),
      change("book", book, #"{"title": ""}"#), change("book", book, #"{"inventory": "1\u001b[2J\u202e"}"#),
      change("book", book, #"{"title": "\#(String(repeating: "ж", count: 100_000))"}"#),
      change("book", book, #"{"title": "Когда-нибудь"}"#, hlc: "9223372036854775807"),
      change("loan", RecordID.random().text, #"{"returned_at": "2026-11-30T10:00:00.000Z"}"#),
    ]
    if let loan {
      forged += [
        change("loan", loan, #"{"renewals": -5}"#), change("loan", loan, #"{"due_date": "yesterday"}"#),
        change("loan", loan, #"{"renewals_added": 5000}"#),
      ]
    }
    var outcomes: [(String, String)] = []
    for text in forged {
      let rows = try central.transaction { () throws(CentralError) in
        try central.execute("SELECT outcome FROM circdesk_push($1::uuid, $2::jsonb)", [desk, "[\(text)]"])
      }
      outcomes.append((String(text.prefix(160)), (rows.first?.first ?? nil) ?? "nothing"))
    }
    return outcomes
  }

  private func draft(inventory: String, _ random: inout SplitMix64) -> BookDraft {
    var draft = BookDraft()
    draft.inventoryNumber = inventory
    draft.title = ["Война и мир", "Мастер и Маргарита", "Emma", "Dubliners", "Обломов"][Int(random.next() % 5)]
    draft.authorSurname = ["Толстой", "Булгаков", "Austen", "Joyce", "Гончаров"][Int(random.next() % 5)]
    return draft
  }

  private func randomBook(_ store: LibraryStore, _ random: inout SplitMix64) throws -> Book? {
    let count = try store.database.scalarInt("SELECT count(*) FROM book WHERE deleted = 0 AND clash = 0")
    guard count > 0 else { return nil }
    let inventory = try store.database.queryFirst(
      "SELECT inventory FROM book WHERE deleted = 0 AND clash = 0 ORDER BY id LIMIT 1 OFFSET ?",
      Int(random.next() % UInt64(count))
    ) { $0.string(0) }
    return try inventory.flatMap { try store.books.book(inventory: $0) }
  }

  private func randomReader(_ store: LibraryStore, _ random: inout SplitMix64) throws -> String? {
    let count = try store.database.scalarInt("SELECT count(*) FROM reader WHERE deleted = 0 AND clash = 0")
    guard count > 0 else { return nil }
    return try store.database.queryFirst(
      "SELECT ticket FROM reader WHERE deleted = 0 AND clash = 0 ORDER BY id LIMIT 1 OFFSET ?",
      Int(random.next() % UInt64(count))
    ) { $0.string(0) }
  }

  /// Runs `circdesk sync` on a desk's file and cuts it: SIGKILL after the delay, or the server
  /// stopped under it (and started again once the sync has given up).
  private func cutSync(_ desk: Desk, afterMicroseconds delay: UInt32, stoppingServer: Bool) {
    guard let pid = spawnSync(desk) else { return }
    usleep(delay)
    if stoppingServer {
      try? stopServer()
    } else {
      kill(pid, SIGKILL)
    }
    reap(pid, desk)
    if stoppingServer { try? startServer() }
  }

  /// Waits for a sync's process to end. libfaketime keeps a semaphore and a shared memory
  /// object named by the process's id, removed when it exits: a process killed leaves them, and
  /// a later `faketime` given that id again fails ("sem_open: File exists").
  private func reap(_ pid: pid_t, _ desk: Desk) {
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    if desk.clockOff != 0 {
      sem_unlink("/faketime_sem_\(pid)")
      shm_unlink("/faketime_shm_\(pid)")
    }
  }

  /// Starts `circdesk sync` on a desk's file, its output dropped; its process's clock is set off
  /// as the desk's is (libfaketime preloaded into the program itself, so that a SIGKILL reaches
  /// the sync: the `faketime` command would leave it running in a child of its own).
  private func spawnSync(_ desk: Desk) -> pid_t? {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    var environment: [String] = []
    var index = 0
    while let entry = environ[index] {
      let text = String(cString: entry)
      if !text.hasPrefix("LD_PRELOAD=") && !text.hasPrefix("FAKETIME=") { environment.append(text) }
      index += 1
    }
    if desk.clockOff != 0 {
      let off = desk.clockOff.magnitude
      let milliseconds = String(off % 1000)
      environment += [
        "LD_PRELOAD=" + libfaketime,
        "FAKETIME=" + (desk.clockOff < 0 ? "-" : "+") + "\(off / 1000)."
          + String(repeating: "0", count: 3 - milliseconds.count) + milliseconds,
      ]
    }
    let words: [String] = [program, "sync", "--db", desk.path]
    var argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
    var envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup($0) } + [nil]
    defer { for pointer in argv + envp { free(pointer) } }
    var pid: pid_t = 0
    guard posix_spawn(&pid, program, &actions, nil, &argv, &envp) == 0 else { return nil }
    return pid
  }
}

extension SplitMix64 {
  mutating func chance(_ share: Double) -> Bool {
    Double(next() % 1_000_000) < share * 1_000_000
  }
}
