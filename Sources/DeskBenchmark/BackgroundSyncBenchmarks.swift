import DeskDomain
@_spi(Connection) import DeskStorage
import DeskSync
import DeskUI
import Dispatch
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// The desk's own speed while it keeps in step with a central: keystrokes in the book list's
/// search and page-downs, with the background sync running (every second, pulling what another
/// desk keeps sending) beside the same with no sync at all.
public enum BackgroundSyncBenchmarks {
  /// `catalogue` is copied and joined to a new central as desk «Lending» (which pushes the whole
  /// catalogue there); desk «Reading room» joins empty and, during the measured runs with sync,
  /// works as a busy desk does (see `OtherDesk`). Runs with and without sync alternate in
  /// blocks, so that neither gets the warmer cache; each phase of a block (page-downs, then a
  /// search typed) lasts `phaseSeconds` at least. A run shorter than a second a phase checks the
  /// benchmark works: two blocks, and the sync settles for a phase's time only.
  public static func run(
    catalogue path: String, makeCentral: () throws -> String, folder: String, program: String, repeats: Int,
    phaseSeconds: Double = 3, progress: (String) -> Void = { _ in }
  ) throws -> [Measurement] {
    let url = try makeCentral()
    _ = try CentralSchema.initialize(try CentralConnection(url: url))
    let lending = folder + "/busy-lending.sqlite"
    let reading = folder + "/busy-reading.sqlite"
    for file in [lending, reading] {
      for suffix in ["", "-wal", "-shm"] { unlink(file + suffix) }
    }
    guard runChild(["/bin/cp", path, lending]).status == 0 else {
      throw BenchmarkError.notDecoded("cannot copy \(path)")
    }
    let books = try LibraryStore(path: lending, clock: benchmarkClock).books.count()
    progress("pushing a catalogue of \(books) books to the central (the first join)")
    guard runChild([program, "central", "join", "--url", url, "--desk", "Lending", "--db", lending]).status == 0 else {
      throw BenchmarkError.notDecoded("the lending desk's join failed")
    }
    progress("joining the reading room, empty")
    guard runChild([program, "central", "join", "--url", url, "--desk", "Reading room", "--db", reading]).status == 0
    else { throw BenchmarkError.notDecoded("the reading room's join failed") }

    let store = try LibraryStore(path: lending, clock: SystemClock())
    var policy = try store.policy.current()
    policy.syncIntervalSeconds = 1
    try store.policy.setCurrent(policy)
    let other = try LibraryStore(path: reading, clock: SystemClock())
    let inventories = try other.database.query(
      """
      SELECT inventory FROM book b WHERE deleted = 0
        AND NOT EXISTS (SELECT 1 FROM loan l WHERE l.book_id = b.id AND l.returned_at IS NULL) ORDER BY id LIMIT 5000
      """
    ) { $0.string(0) }
    let tickets = try other.database.query(
      """
      SELECT ticket FROM reader r WHERE deleted = 0
      ORDER BY (SELECT count(*) FROM loan l WHERE l.reader_id = r.id AND l.returned_at IS NULL), id LIMIT 200
      """
    ) { $0.string(0) }
    let writer = OtherDesk(store: other, inventories: inventories, tickets: tickets)

    var pageDowns: (off: [Double], on: [Double]) = ([], [])
    var keystrokes: (off: [Double], on: [Double]) = ([], [])
    let blocks = phaseSeconds < 1 ? 2 : 4
    var arrivals = 0
    for block in 0..<blocks {
      for withSync in [false, true] {
        progress("measuring, block \(block + 1) of \(blocks), sync \(withSync ? "on" : "off")")
        let service =
          withSync
          ? BackgroundSyncService(clock: SystemClock()) { try LibraryStore(path: lending, clock: SystemClock()) }
          : nil
        if withSync {
          writer.start()
          // Let the first round settle, as at a desk that has been open a while.
          usleep(UInt32(min(1.5, phaseSeconds) * 1_000_000))
        }
        let app = ListBenchmarks.makeApp(store, sync: service)
        let (pages, keys) = measure(app, repeats: max(1, repeats / blocks), seconds: phaseSeconds)
        if withSync {
          arrivals += service?.state.arrivals ?? 0
          writer.stop()
          service?.stop(waitingAtMost: 5000)
          pageDowns.on += pages
          keystrokes.on += keys
        } else {
          pageDowns.off += pages
          keystrokes.off += keys
        }
      }
    }
    let sent = writer.sent
    let reaching = try timeArrivals(
      at: store, path: lending, from: other, inventories: inventories, rounds: max(3, repeats / 2))
    let catchingUp = try keystrokesDuringCatchUp(
      of: store, path: lending, from: other, changes: min(50_000, books), progress: progress)
    return [
      Measurement(
        scenario:
          "page down, background sync on (\(books) books; another desk sent \(sent) changes, \(arrivals) syncs "
          + "brought them)",
        samples: pageDowns.on, baselineName: "no sync", baselineSamples: pageDowns.off),
      Measurement(
        scenario: "keystroke in the book search, results painted, background sync on",
        samples: keystrokes.on, baselineName: "no sync", baselineSamples: keystrokes.off),
      Measurement(
        scenario: "another desk's change in this desk's file, from the start of that desk's sync (interval 30 s)",
        samples: reaching),
      Measurement(
        scenario:
          "keystroke in the book search, results painted, while the background sync applies \(catchingUp.changes) "
          + "changes of another desk (\(Int(catchingUp.seconds)) s)",
        samples: catchingUp.keystrokes, baselineName: "no sync", baselineSamples: keystrokes.off),
    ]
  }

  /// Keystrokes in the book search while the desk's background sync takes `changes` changes that
  /// another desk made at once (a new shelf place for that many books) and sent: the sync applies
  /// them in short transactions while the librarian types.
  static func keystrokesDuringCatchUp(
    of store: LibraryStore, path: String, from other: LibraryStore, changes: Int, progress: (String) -> Void
  ) throws -> (keystrokes: [Double], changes: Int, seconds: Double) {
    progress("another desk moves \(changes) books and sends them")
    try other.transaction {
      try other.database.execute(
        "UPDATE book SET place = 'Хранение ' || (id % 13) WHERE id IN (SELECT id FROM book ORDER BY id LIMIT ?)",
        changes)
    }
    _ = try Synchronizer(store: other).sync()
    guard let target = try other.sync.deskTie()?.cursor else {
      throw BenchmarkError.notDecoded("the other desk is not tied")
    }
    progress("typing while this desk's background sync takes them")
    let service = BackgroundSyncService(clock: SystemClock()) { try LibraryStore(path: path, clock: SystemClock()) }
    let app = ListBenchmarks.makeApp(store, sync: service)
    ListBenchmarks.openBookList(app, at: 0)
    var now: Int64 = 0
    var keystrokes: [Double] = []
    let start = monotonicMilliseconds()
    while try (store.sync.deskTie()?.cursor ?? 0) < target, monotonicMilliseconds() - start < 300_000 {
      keystrokes += typeWord(app, now: &now)
    }
    let seconds = (monotonicMilliseconds() - start) / 1000
    service.stop(waitingAtMost: 5000)
    guard try (store.sync.deskTie()?.cursor ?? 0) >= target else {
      throw BenchmarkError.notDecoded("the background sync did not take the other desk's changes in 300 s")
    }
    return (keystrokes, changes, seconds)
  }

  /// Types a name into the book list's search, a letter at a time, each painted: the time of
  /// each letter.
  static func typeWord(_ app: DeskApp, now: inout Int64) -> [Double] {
    var keys: [Double] = []
    now += 300
    app.handle(.key(.character("/"), atMilliseconds: now))
    for letter in "толстой" {
      keys += time(1) {
        now += 300
        app.handle(.key(.character(letter), atMilliseconds: now))
        app.handle(.tick(atMilliseconds: now + 60))
        _ = app.render(rows: 40, columns: 120)
      }
    }
    now += 300
    app.handle(.key(.escape, atMilliseconds: now))
    return keys
  }

  /// How long another desk's change takes to reach this desk's file, from the start of that
  /// desk's sync, with this desk's background sync at its default interval of 30 s: the central's word
  /// (`NOTIFY`) brings it; without it, it waits half the interval on average.
  static func timeArrivals(
    at store: LibraryStore, path: String, from other: LibraryStore, inventories: [String], rounds: Int
  ) throws -> [Double] {
    var policy = try store.policy.current()
    policy.syncIntervalSeconds = 30
    try store.policy.setCurrent(policy)
    let service = BackgroundSyncService(clock: SystemClock()) { try LibraryStore(path: path, clock: SystemClock()) }
    defer { service.stop(waitingAtMost: 5000) }
    let started = monotonicMilliseconds()
    while service.state.lastSync == nil && monotonicMilliseconds() - started < 60_000 { usleep(10_000) }
    let talker = try Synchronizer(store: other)
    var samples: [Double] = []
    for round in 0..<rounds where !inventories.isEmpty {
      let inventory = inventories[round % inventories.count]
      let place = "Полка \(round + 1)"
      try other.books.update(inventory: inventory) { $0.place = place }
      // From the start of the other desk's sync: this desk may have it before that sync ends.
      let start = monotonicMilliseconds()
      _ = try talker.sync()
      while try store.books.book(inventory: inventory)?.place != place, monotonicMilliseconds() - start < 60_000 {
        usleep(1_000)
      }
      samples.append(monotonicMilliseconds() - start)
    }
    return samples
  }

  /// Page-downs through the book list, then a search typed a key at a time (each key: the key,
  /// the scanner detector's pause, the results painted): each for `seconds` of the wall clock and
  /// at least `repeats` times, so that the runs with sync span several of its rounds.
  static func measure(_ app: DeskApp, repeats: Int, seconds: Double) -> (pageDowns: [Double], keystrokes: [Double]) {
    var now: Int64 = 0
    ListBenchmarks.openBookList(app, at: now)
    _ = app.render(rows: 40, columns: 120)
    var pages: [Double] = []
    var start = monotonicMilliseconds()
    while pages.count < repeats || monotonicMilliseconds() - start < seconds * 1000 {
      now += 300
      pages += time(1) { ListBenchmarks.pageDownAndPaint(app, at: now) }
    }
    var keys: [Double] = []
    start = monotonicMilliseconds()
    while keys.count < repeats || monotonicMilliseconds() - start < seconds * 1000 {
      keys += typeWord(app, now: &now)
    }
    return (pages, keys)
  }

  /// Another desk of the library at work, on a thread of its own: every half second it issues a
  /// book or takes one back (twenty out at most), gives another book a new shelf place, and
  /// syncs: four changes a second, a busy lending desk's pace.
  final class OtherDesk: @unchecked Sendable {
    let store: LibraryStore
    let inventories: [String]
    let tickets: [String]
    private let running = Atomic<Bool>(false)
    private let done = DispatchSemaphore(value: 0)
    private(set) var sent = 0
    private var next = 0
    private var out: [String] = []

    init(store: LibraryStore, inventories: [String], tickets: [String]) {
      self.store = store
      self.inventories = inventories
      self.tickets = tickets
    }

    func start() {
      running.store(true, ordering: .relaxed)
      DispatchQueue(label: "circdesk.bench.other-desk").async { [self] in
        let synchronizer = try? Synchronizer(store: store)
        // A small catalogue's readers may all hold books: the fewest first, and the shelf places
        // change whatever the issues do.
        while running.load(ordering: .relaxed), !inventories.isEmpty {
          next += 1
          if out.count < 20, !tickets.isEmpty {
            let inventory = inventories[(next * 2) % inventories.count]
            if (try? store.circulation.issue(ticket: tickets[next % tickets.count], inventories: [inventory])) != nil {
              out.append(inventory)
              sent += 1
            }
          } else if !out.isEmpty, (try? store.circulation.returnBooks(inventories: [out.removeFirst()])) != nil {
            sent += 1
          }
          if (try? store.books.update(inventory: inventories[(next * 2 + 1) % inventories.count]) {
            $0.place = "Зал \(next % 7)"
          }) != nil {
            sent += 1
          }
          _ = try? synchronizer?.sync()
          usleep(500_000)
        }
        done.signal()
      }
    }

    func stop() {
      running.store(false, ordering: .relaxed)
      done.wait()
    }
  }
}
