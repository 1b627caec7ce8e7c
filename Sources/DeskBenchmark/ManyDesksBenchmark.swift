import DeskDomain
@_spi(Connection) import DeskStorage
import DeskSync

#if canImport(Glibc)
  import Glibc
#endif

/// Many desks on one central at once, each a process of its own working and syncing as a busy
/// desk does: whether every desk ends with the central's library, how long a sync round takes
/// under that load, and what the load costs the central.
public enum ManyDesksBenchmark {
  /// The library the desks share: small, so that fifty joins take seconds; the load is the
  /// desks' work, not the catalogue.
  static let books = 2_000
  static let readers = 300

  /// `desks` desks join a new central holding a generated library, then all work at once, each
  /// for `rounds` rounds (two changes, a pause of `pace` milliseconds on average, a sync) in a
  /// `circdesk-bench desk-worker` process of `bench`, at most `seconds` long.
  /// `centralCPUSeconds` reads the server's processor time so far (its processes and those it
  /// has reaped).
  public static func run(
    desks: Int, rounds: Int, pace: Int, seconds: Int, makeCentral: () throws -> String, folder: String,
    program: String, bench: String, centralCPUSeconds: () -> Double, progress: (String) -> Void = { _ in }
  ) throws -> [Measurement] {
    let url = try makeCentral()
    _ = try CentralSchema.initialize(try CentralConnection(url: url))
    let source = folder + "/many-source.sqlite"
    let store = try LibraryStore(path: source)
    try CatalogueGenerator(books: books, readers: readers).fill(store) { _ in }
    guard runChild([program, "central", "join", "--url", url, "--desk", "Desk 1", "--db", source]).status == 0 else {
      throw BenchmarkError.notDecoded("the first desk's join failed")
    }
    var paths = [source]
    for number in 2...max(2, desks) {
      progress("joining desk \(number)")
      let path = folder + "/many-\(number).sqlite"
      guard runChild([program, "central", "join", "--url", url, "--desk", "Desk \(number)", "--db", path]).status == 0
      else { throw BenchmarkError.notDecoded("desk \(number)'s join failed") }
      paths.append(path)
    }
    progress("\(paths.count) desks working and syncing at once")
    let central = try CentralConnection(url: url)
    let changesBefore = try changeCount(central)
    let cpuBefore = centralCPUSeconds()
    let start = monotonicMilliseconds()
    // The desks' own processor time: their processes, reaped below, are this one's children.
    let desksCPUBefore = childrenCPUSeconds()
    var workers: [(pid: pid_t, output: String)] = []
    for (index, path) in paths.enumerated() {
      let output = path + ".rounds"
      let arguments = [
        bench, "desk-worker", "--db", path, "--repeats", "\(rounds)", "--pace", "\(pace)", "--seed", "\(index + 1)",
      ]
      guard let pid = spawnChild(arguments, output: output) else {
        throw BenchmarkError.notDecoded("cannot start a desk's process")
      }
      workers.append((pid, output))
    }
    // Bounded in time: a desk still working at the limit is stopped, and counts as not converged.
    var late = 0
    for worker in workers {
      var status: Int32 = 0
      while waitpid(worker.pid, &status, WNOHANG) == 0 {
        if monotonicMilliseconds() - start > Double(seconds) * 1000 {
          kill(worker.pid, SIGKILL)
          late += 1
          waitpid(worker.pid, &status, 0)
          break
        }
        usleep(20_000)
      }
    }
    let wall = (monotonicMilliseconds() - start) / 1000
    let cpu = centralCPUSeconds() - cpuBefore
    let desksCPU = childrenCPUSeconds() - desksCPUBefore
    let changes = try changeCount(central) - changesBefore
    // Each desk's first round opens its file and connects as fifty processes start at once: a
    // first run like any scenario's, kept apart from the median and p99. The slowest of them is
    // shown as the first run.
    var firstRounds: [Double] = []
    var samples: [Double] = []
    var failed = 0
    for worker in workers {
      var rounds: [Double] = []
      for line in readText(worker.output).split(separator: "\n") {
        if let value = Double(line) { rounds.append(value) } else if line.hasPrefix("failed") { failed += 1 }
      }
      if let first = rounds.first { firstRounds.append(first) }
      samples += rounds.dropFirst()
    }
    // Then every desk syncs until a whole round moves nothing, and each is compared with the
    // central.
    progress("every desk syncing until still")
    let stores = try paths.map { try LibraryStore(path: $0) }
    for _ in 0..<5 {
      var moved = 0
      for store in stores {
        let report = try Synchronizer(store: store).sync()
        moved += report.pushed + report.applied
      }
      if moved == 0 { break }
    }
    let lines = try CentralDump.lines(central)
    let differing = try stores.filter { try $0.sync.canonicalDump() != lines }.count
    let verdict =
      differing == 0 && late == 0 && failed == 0
      ? "every desk converged"
      : "\(differing) differ, \(late) stopped at the limit, \(failed) failed"
    return [
      Measurement(
        scenario:
          "\(paths.count) desks syncing at once, a round each \(pace) ms on average: a sync round (\(verdict); "
          + "the central took \(changes) changes in "
          + "\((wall * 10).rounded() / 10) s, \(Int(Double(changes) / max(wall, 0.001))) a second, "
          + "\((cpu * 10).rounded() / 10) s of its processor time; the desks \((desksCPU * 10).rounded() / 10) s of "
          + "theirs, \((desksCPU * 10_000 / Double(max(1, samples.count + firstRounds.count))).rounded() / 10) ms a round "
          + "with its two changes)",
        samples: [firstRounds.max() ?? .nan] + samples)
    ]
  }

  /// The processor time of this process's children reaped so far, in seconds.
  private static func childrenCPUSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_CHILDREN.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
      + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1_000_000
  }

  /// A desk at work (`circdesk-bench desk-worker`): `rounds` rounds of a title edited, a book
  /// issued or taken back, a pause and a sync through one kept connection, as the desk's
  /// background sync keeps it. The pause is drawn evenly from 0 to twice `pace` milliseconds, so
  /// that the desks' rounds fall at random against each other. Returns each sync's time in
  /// milliseconds.
  public static func work(path: String, rounds: Int, pace: Int, seed: UInt64) throws -> [Double] {
    let store = try LibraryStore(path: path)
    var random = SplitMix64(seed: seed)
    let inventories = try store.database.query("SELECT inventory FROM book WHERE deleted = 0 ORDER BY id") {
      $0.string(0)
    }
    let tickets = try store.database.query("SELECT ticket FROM reader WHERE deleted = 0 ORDER BY id") { $0.string(0) }
    guard !inventories.isEmpty, !tickets.isEmpty else { return [] }
    let synchronizer = try Synchronizer(store: store)
    synchronizer.catchUpGroup = synchronizer.pullBatch
    var samples: [Double] = []
    for round in 0..<rounds {
      let inventory = inventories[Int(random.next() % UInt64(inventories.count))]
      try store.books.update(inventory: inventory) { $0.publisher = "Издательство \(seed)-\(round)" }
      let other = inventories[Int(random.next() % UInt64(inventories.count))]
      // A refusal (the book is out, the reader at a limit) is the desk saying no, as it would.
      guard let book = try store.books.book(inventory: other) else { continue }
      if try store.books.currentLoan(ofBook: book) == nil {
        _ = try? store.circulation.issue(
          ticket: tickets[Int(random.next() % UInt64(tickets.count))], inventories: [other])
      } else {
        _ = try? store.circulation.returnBooks(inventories: [other])
      }
      usleep(UInt32(random.next() % UInt64(max(1, 2 * pace * 1000))))
      let start = monotonicMilliseconds()
      _ = try synchronizer.sync()
      samples.append(monotonicMilliseconds() - start)
    }
    return samples
  }

  private static func changeCount(_ central: CentralConnection) throws -> Int {
    Int(try central.execute("SELECT count(*) FROM change").first?.first.flatMap { $0 } ?? "") ?? 0
  }
}
