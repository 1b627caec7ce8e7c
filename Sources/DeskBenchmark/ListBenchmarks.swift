import DeskDomain
@_spi(Connection) import DeskStorage
import DeskUI

#if canImport(Glibc)
  import Glibc
#endif

/// The figures of the full-screen lists on a large catalogue: the first page painted into a
/// screen buffer, a page down, and the jump to the last page, each beside the OFFSET way.
public enum ListBenchmarks {
  public static func run(path: String, repeats: Int) throws -> [Measurement] {
    var results: [Measurement] = []
    // The file in the system's memory, as at a desk that has been open a while. The last run's
    // held-key row (`heldKey`) dropped it; left so, the first rows here read from the disk at
    // random, one run in one state and the next in another. The held-key row measures the file
    // out of memory.
    readIntoSystemMemory(path)

    let home = try openings(path: path, count: repeats, list: false)
    let firstScreen = try openings(path: path, count: repeats)
    let store = try LibraryStore(path: path, clock: benchmarkClock)
    let count = try store.books.count()
    let offsetFirst = try time(repeats) {
      _ = try store.database.query(
        "SELECT inventory, title FROM book WHERE deleted = 0 ORDER BY sort_key LIMIT 40 OFFSET 0"
      ) { $0.string(0) }
    }
    results.append(
      Measurement(
        scenario: "open the file, Home painted (the desk's first screen, with its counts)", samples: home,
        baselineName: "LIMIT 40 OFFSET 0", baselineSamples: offsetFirst))
    results.append(
      Measurement(
        scenario: "open the file, first book page painted", samples: firstScreen, baselineName: "LIMIT 40 OFFSET 0",
        baselineSamples: offsetFirst))

    let app = makeApp(store)
    openBookList(app)
    _ = app.render(rows: 40, columns: 120)
    let pageDown = time(repeats) { pageDownAndPaint(app) }
    var offset = 0
    let offsetPageDown = try time(repeats) {
      offset += 37
      _ = try store.database.query(
        "SELECT inventory, title FROM book WHERE deleted = 0 ORDER BY sort_key LIMIT 40 OFFSET ?", offset
      ) { $0.string(0) }
    }
    results.append(
      Measurement(
        scenario: "page down", samples: pageDown, baselineName: "LIMIT … OFFSET (near the top)",
        baselineSamples: offsetPageDown))

    // As a librarian pages: a pause between keys, in which the driver ticks and the list reads
    // the next page ahead (untimed), beside the keys pressed back to back with no tick between.
    var now: Int64 = 0
    var paused: [Double] = []
    let backToBack = time(repeats) { pageDownAndPaint(app) }
    for _ in 0..<repeats {
      now += 300
      app.handle(.tick(atMilliseconds: now))
      paused += time(1) { pageDownAndPaint(app, at: now + 100) }
    }
    results.append(
      Measurement(
        scenario: "page down, the desk idle between keys", samples: paused,
        baselineName: "page down, keys back to back", baselineSamples: backToBack))

    let end = time(repeats) {
      app.handle(.key(.home, atMilliseconds: 0))
      app.handle(.key(.end, atMilliseconds: 0))
      _ = app.render(rows: 40, columns: 120)
    }
    let offsetLast = try time(max(3, repeats / 10)) {
      _ = try store.database.query(
        "SELECT inventory, title FROM book WHERE deleted = 0 ORDER BY sort_key LIMIT 40 OFFSET ?", max(0, count - 40)
      ) { $0.string(0) }
    }
    results.append(
      Measurement(
        scenario: "Home, then End (last page)", samples: end, baselineName: "LIMIT 40 OFFSET count-40",
        baselineSamples: offsetLast))
    return results
  }

  /// The file opened and the first book page painted (or with `list` false, Home: the desk's
  /// first screen, with its counts), `count` times, each on a new connection. The connection
  /// closes after the clock stops: closing belongs to the end of a day at the desk, not to its
  /// start (the last connection to close checkpoints the log into the file).
  public static func openings(path: String, count: Int, list: Bool = true) throws -> [Double] {
    var samples: [Double] = []
    for _ in 0..<count {
      let start = monotonicMilliseconds()
      let app = makeApp(try LibraryStore(path: path, clock: benchmarkClock))
      if list { openBookList(app) }
      _ = app.render(rows: 40, columns: 120)
      samples.append(monotonicMilliseconds() - start)
      withExtendedLifetime(app) {}
    }
    return samples
  }

  /// Page down with the key held, beside keys back to back, each from the top of the book list on
  /// the file out of the system's memory. The last list figure measured, though shown with the
  /// others: the searches measured after it would read again from the disk what it dropped.
  public static func heldKey(path: String, repeats: Int) throws -> Measurement {
    let app = try bookListOutOfMemory(path: path)
    let backToBack = time(repeats) { pageDownAndPaint(app) }
    return Measurement(
      scenario: "page down, the key held down (repeating every 33 ms), the file out of the system's memory",
      samples: try heldPageDowns(path: path, count: repeats),
      baselineName: "page down, keys back to back, the same", baselineSamples: backToBack)
  }

  /// Page downs from the top of the book list: keys back to back, or with `held` as a key held down.
  public static func pageDowns(path: String, count: Int, held: Bool = false) throws -> [Double] {
    if held { return try heldPageDowns(path: path, count: count) }
    let app = makeApp(try LibraryStore(path: path, clock: benchmarkClock))
    openBookList(app)
    _ = app.render(rows: 40, columns: 120)
    return time(count) { pageDownAndPaint(app) }
  }

  /// Page downs from the top of the book list with the key held, after the file's pages are
  /// dropped from the system's memory: as on a catalogue larger than that memory, each page is
  /// read from the disk unless the desk read it ahead.
  static func heldPageDowns(path: String, count: Int) throws -> [Double] {
    heldPageDowns(try bookListOutOfMemory(path: path), count: count)
  }

  /// A desk on the file, its book list open at the top, the rest of the file dropped from the
  /// system's memory.
  static func bookListOutOfMemory(path: String) throws -> DeskApp {
    let app = makeApp(try LibraryStore(path: path, clock: benchmarkClock))
    dropFromSystemMemory(path)
    openBookList(app)
    _ = app.render(rows: 40, columns: 120)
    return app
  }

  /// Reads the whole file once, so that the system keeps its pages in memory.
  static func readIntoSystemMemory(_ path: String) {
    let file = open(path, O_RDONLY)
    guard file >= 0 else { return }
    defer { close(file) }
    var buffer = [UInt8](repeating: 0, count: 1 << 20)
    while read(file, &buffer, buffer.count) > 0 {}
  }

  /// Asks the system to forget the pages of the file it keeps in memory (those not waiting to be
  /// written; no privileges needed): the next reads of them go to the disk.
  static func dropFromSystemMemory(_ path: String) {
    let file = open(path, O_RDONLY)
    guard file >= 0 else { return }
    _ = posix_fadvise(file, 0, 0, Int32(POSIX_FADV_DONTNEED))
    close(file)
  }

  /// Page down with the key held, as a terminal repeats it (30 a second, the usual rate of X,
  /// Wayland desktops and Windows), the desk driven as `DeskRunner` drives it: each key handled and
  /// painted, then a tick as soon as no key waits, in which the list reads its next page ahead.
  /// Each sample runs from the key's arrival to its screen painted, so a read-ahead that
  /// outlasts the gap between keys delays the next key, and that delay is counted.
  static func heldPageDowns(_ app: DeskApp, count: Int) -> [Double] {
    let intervalMilliseconds = 33.0
    var samples: [Double] = []
    let start = monotonicMilliseconds()
    var arrival = start
    for _ in 0..<count {
      let now = monotonicMilliseconds()
      if now < arrival { usleep(useconds_t((arrival - now) * 1000)) }
      pageDownAndPaint(app, at: Int64(arrival - start))
      samples.append(monotonicMilliseconds() - arrival)
      app.handle(.tick(atMilliseconds: Int64(monotonicMilliseconds() - start)))
      arrival += intervalMilliseconds
    }
    return samples
  }

  /// One page down, and the screen painted.
  static func pageDownAndPaint(_ app: DeskApp, at time: Int64 = 0) {
    app.handle(.key(.pageDown, atMilliseconds: time))
    _ = app.render(rows: 40, columns: 120)
  }

  /// Opens the book list from Home as a librarian does: `b`, then the pause in which the driver
  /// ticks and the scanner detector takes the key for typed, not for the start of a scan. Without
  /// the tick the key waits, and what is painted is Home. By default a second before the keys
  /// that follow, which the benchmarks send at 0 ms and after.
  static func openBookList(_ app: DeskApp, at time: Int64 = -1000) {
    app.handle(.key(.character("b"), atMilliseconds: time))
    app.handle(.tick(atMilliseconds: time + 60))
  }

  /// The desk as the benchmark drives it: English, in colour, searches answered at once.
  static func makeApp(_ store: LibraryStore, sync: (any SyncService)? = nil) -> DeskApp {
    DeskApp(
      context: UIContext(
        store: store, strings: EnglishStrings(), theme: Theme(colors: true), clock: store.clock,
        databaseName: "bench"),
      search: ImmediateSearchService(store: store), sync: sync)
  }
}
