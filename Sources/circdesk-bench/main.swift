import DeskBenchmark
import DeskDomain
import DeskScratch
import DeskStorage

#if canImport(Glibc)
  import Glibc
#endif

// circdesk-bench generate --books N [--readers N] --db PATH
// circdesk-bench page-probe|search-probe [--query TEXT] [--open] [--held] [--changed] [--repeats N] [--db PATH]
// circdesk-bench walk-probe [--query WORD] [--repeats N] [--db PATH]
// circdesk-bench sync [--changes N] [--repeats N] [--join] [--background] [--books N] [--desks N] [--quick] [--db PATH]
// circdesk-bench desk-worker --db PATH [--repeats N] [--pace MS] [--seed N]   (one desk of sync --desks)
// circdesk-bench photos --folder DIR   (ZXing's black-box test photos: what the desk reads of them)
// circdesk-bench diary [--books N] [--loans N] [--repeats N] [--db PATH]   (the work diary on a year of loans)
// circdesk-bench stocktake [--books N] [--repeats N] [--db PATH]   (a check of a tenth of the catalogue)
// circdesk-bench sip2 [--kiosks N] [--checkouts N]   (checkouts through the SIP2 server, kiosks at once)
// circdesk-bench [--books N] [--readers N] [--repeats N] [--db PATH] [--out FILE.json] [--skip-exchange] [--quick]
//
// Figures are the first run, and the median and 99th percentile of the runs after it, each
// beside a baseline measured in the same run. The catalogue is generated once per size and kept (default
// .build/bench/books-N.sqlite), since generating a million books takes longer than measuring.

func option(_ name: String, _ arguments: [String]) -> String? {
  guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
  return arguments[index + 1]
}

func fail(_ message: String) -> Never {
  fputs("circdesk-bench: \(message)\n", stderr)
  exit(64)
}

let helpText = """
  OVERVIEW: Measures Circulation Desk on a generated catalogue, each figure beside a baseline.

  USAGE: circdesk-bench [--books <n>] [--readers <n>] [--repeats <n>] [--db <path>] [--out <file.json>]
                        [--skip-exchange] [--quick]
         circdesk-bench generate --books <n> [--readers <n>] --db <path>
         circdesk-bench page-probe|search-probe [--query <text>] [--open] [--held] [--changed]
                                                [--repeats <n>] [--statements] [--db <path>]
         circdesk-bench walk-probe [--query <word>] [--repeats <n>] [--db <path>]
         circdesk-bench sync [--changes <n>] [--repeats <n>] [--join] [--background] [--books <n>]
                             [--desks <n> [--pace <ms>]] [--quick] [--db <path>]
         circdesk-bench photos --folder <dir>
         circdesk-bench diary [--books <n>] [--readers <n>] [--loans <n>] [--repeats <n>] [--db <path>]
         circdesk-bench stocktake [--books <n>] [--repeats <n>] [--db <path>]
         circdesk-bench sip2 [--kiosks <n>] [--checkouts <n>]

  OPTIONS:
    --books <n>       Books in the catalogue (default 1000000).
    --readers <n>     Readers in the catalogue (default 200000).
    --repeats <n>     Runs of each scenario (default 200).
    --db <path>       The catalogue file (default .build/bench/books-<n>.sqlite, generated once).
    --out <file>      Also write the figures as JSON.
    --skip-exchange   Leave out the export and import of the whole catalogue.
    --quick           A run that checks the benchmark works rather than measures: 14 of the photos'
                      likenesses (each code plain, and the pictures without one) instead of all
                      158, and sync's timed phases of half a second instead of three.
    --query <text>    What search-probe searches for (default «война мир»); walk-probe: the misspelt
                      word whose corrections it finds in the books' vocabulary alone, without SQL
                      (default «лермантов»).
    --open            page-probe: open the file and paint the first book page, instead of paging down.
    --held            page-probe: page down with the key held (repeating every 33 ms, a tick between
                      keys as the desk's driver sends it), instead of keys back to back.
    --changed         search-probe: each search just after a book's words changed, when the
                      vocabulary read before is out of date.
    --statements      page-probe, search-probe: list each SQL statement of one first page (of one
                      search) with SQLite's time for it, the slowest first.
    --changes <n>     What sync pushes and pulls (default 10000).
    --join            sync: also join an empty desk to a central holding the whole catalogue.
    --background      sync: also time the desk's page-downs and search keystrokes with its
                      background sync running against a central holding the whole catalogue,
                      beside the same without sync.
    --desks <n>       sync: also start n desk processes (at most 64) on one central, each working
                      and syncing --repeats rounds at once with the others: whether every desk
                      converges, each round's time, the central's changes a second and its
                      processor time.
    --pace <ms>       sync --desks: each desk's pause between rounds, on average (default 1000:
                      a change pair a second, a busy counter's pace; 25 loads the central as
                      fast as the desks can go).
    --folder <dir>    photos: the folder of ZXing's black-box test photos
                      (core/src/test/resources/blackbox in github.com/zxing/zxing): what the desk
                      and zbarimg read of its EAN, Code 128, Codabar, QR and code-free sets.
    --loans <n>       diary: the returned loans of the year the catalogue is given once (default
                      10 per book), each with its reader's visit; then the diary's year and last 30
                      days are timed beside a plain GROUP BY of the same loans.
    --kiosks <n>      sip2: kiosks checking out at once, each on its own connection (default 50).
    --checkouts <n>   sip2: checkouts in all (default 5000), each a durable transaction, timed
                      beside the same checkouts made on the store by one caller (a fresh library
                      in a temporary folder).
    -h, --help        Show this help.

  Each scenario's first run, and the median and 99th percentile of the runs after it, are
  printed as a table. The probes print the median, the 99th percentile and the slowest of their
  runs. `sync` starts a throwaway PostgreSQL server of its own (as the tests do) and stops it at
  the end.

  """

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.contains("--help") || arguments.contains("-h") {
  print(helpText, terminator: "")
  exit(0)
}
// Refuse what it does not know, rather than start an hour of measuring with it ignored.
do {
  let valued: Set = [
    "--books", "--readers", "--repeats", "--db", "--out", "--query", "--changes", "--desks", "--seed", "--pace",
    "--folder", "--loans", "--kiosks", "--checkouts",
  ]
  let flags: Set = [
    "--skip-exchange", "--quick", "--join", "--background", "--statements", "--open", "--held", "--changed",
  ]
  let commands: Set = [
    "generate", "first-page", "page-probe", "search-probe", "memory-probe", "name-scan", "sync", "walk-probe",
    "desk-worker", "photos", "diary", "stocktake", "sip2",
  ]
  var index = 0
  while index < arguments.count {
    let word = arguments[index]
    if valued.contains(word) {
      index += 2
    } else if flags.contains(word) || (index == 0 && commands.contains(word)) {
      index += 1
    } else {
      fail("unknown argument «\(word)»; see circdesk-bench --help")
    }
  }
}

/// Progress on standard error: redrawn in place on a terminal, one line a step elsewhere (a log).
func progress(_ text: String, final: Bool = false) {
  if isatty(2) != 0 {
    fputs("\r\(text)\u{1B}[K" + (final ? "\n" : ""), stderr)
  } else {
    fputs(text + "\n", stderr)
  }
}
/// A probe's figures, on one line: the median, the p99 and the slowest of its runs.
func printFigures(_ times: [Double]) {
  print(Measurement.percentile(times, 0.5), Measurement.percentile(times, 0.99), times.max() ?? .nan)
}

func number(_ name: String, default value: Int) -> Int {
  guard let text = option(name, arguments) else { return value }
  guard let number = Int(text), number >= 0 else { fail("\(name) takes a whole number, not «\(text)»") }
  return number
}

let books = number("--books", default: 1_000_000)
let readers = number("--readers", default: 200_000)
let repeats = max(1, number("--repeats", default: 200))
let path = option("--db", arguments) ?? ".build/bench/books-\(books).sqlite"

func generate(into path: String) throws {
  let store = try LibraryStore(path: path, clock: benchmarkClock)
  guard try store.isEmpty() else { fail("\(path) is not empty: generate into a new file") }
  let start = monotonicMilliseconds()
  try CatalogueGenerator(books: books, readers: readers).fill(store) { done in
    progress("generating: \(done) of \(books) books")
  }
  progress(
    "generated \(books) books and \(readers) readers in \(Int((monotonicMilliseconds() - start) / 1000)) s",
    final: true)
}

/// The figures as a table on standard output, and as JSON with `--out`.
func report(_ measurements: [Measurement], title: String) {
  progress("done", final: true)
  print(renderTable(measurements, title: title))
  if let out = option("--out", arguments) {
    let json = renderJSON(measurements, books: books, readers: readers)
    guard let file = fopen(out, "w") else { fail("cannot write \(out)") }
    fputs(json, file)
    fclose(file)
  }
}

/// `circdesk-bench sync`: its server and files are gone when it returns.
func measureSync() throws {
  let server = try PostgresServer()
  // The desk program beside this one, run as the desks' processes.
  let circdesk = "/" + ownExecutable().split(separator: "/").dropLast().joined(separator: "/") + "/circdesk"
  var databases = 0
  let makeCentral = { () throws -> String in
    databases += 1
    try server.createDatabase("bench\(databases)")
    return server.url(database: "bench\(databases)")
  }
  let folder = TemporaryFolder()
  let changes = number("--changes", default: 10_000)
  var measurements = try SyncBenchmarks.run(
    makeCentral: makeCentral, folder: folder.path, changes: changes, repeats: repeats, progress: { progress($0) })
  if arguments.contains("--background") {
    if access(path, F_OK) != 0 { try generate(into: path) }
    measurements += try BackgroundSyncBenchmarks.run(
      catalogue: path, makeCentral: makeCentral, folder: folder.path, program: circdesk,
      repeats: repeats, phaseSeconds: arguments.contains("--quick") ? 0.5 : 3, progress: { progress($0) })
  }
  if arguments.contains("--join") {
    if access(path, F_OK) != 0 { try generate(into: path) }
    measurements += try SyncBenchmarks.join(
      catalogue: path, makeCentral: makeCentral, folder: folder.path, program: circdesk,
      progress: { progress($0) })
  }
  if option("--desks", arguments) != nil, case let desks = number("--desks", default: 0), desks > 0 {
    measurements += try ManyDesksBenchmark.run(
      desks: min(desks, 64), rounds: repeats, pace: number("--pace", default: 1000), seconds: 300,
      makeCentral: makeCentral, folder: folder.path,
      program: circdesk, bench: ownExecutable(), centralCPUSeconds: { server.cpuSeconds() },
      progress: { progress($0) })
  }
  report(measurements, title: "circdesk-bench sync: \(changes) changes, PostgreSQL on a Unix socket")
}

do {
  if arguments.first == "generate" {
    try generate(into: path)
    exit(0)
  }
  // The parts the benchmark times in processes of their own.
  if arguments.first == "first-page" {
    try SearchBenchmarks.paintFirstPage(path: path)
    exit(0)
  }
  if arguments.contains("--statements"), arguments.first == "page-probe" || arguments.first == "search-probe" {
    // Where one operation's time goes: each statement it ran, the slowest first.
    let statements =
      arguments.first == "page-probe"
      ? try SearchBenchmarks.firstPageStatements(path: path)
      : try SearchBenchmarks.searchStatements(
        path: path, query: option("--query", arguments) ?? "война мир", afterAChange: arguments.contains("--changed"))
    print(renderStatements(statements), terminator: "")
    exit(0)
  }
  if arguments.first == "page-probe" {
    // Many page-downs in a row, or with --open the file opened and the first page painted many
    // times, for a profiler to watch.
    let times =
      arguments.contains("--open")
      ? try ListBenchmarks.openings(path: path, count: repeats)
      : try ListBenchmarks.pageDowns(path: path, count: repeats, held: arguments.contains("--held"))
    printFigures(times)
    exit(0)
  }
  if arguments.first == "search-probe" {
    // One query searched many times in a row, for a profiler to watch: --query TEXT.
    let query = option("--query", arguments) ?? "война мир"
    let times = try SearchBenchmarks.searches(
      path: path, query: query, count: repeats, afterAChange: arguments.contains("--changed"))
    printFigures(times)
    exit(0)
  }
  if arguments.first == "walk-probe" {
    // The typo walk over the vocabulary, apart from the SQL of the search around it.
    let query = option("--query", arguments) ?? "лермантов"
    let (words, corrections, times) = try SearchBenchmarks.walks(path: path, word: query, count: repeats)
    print("\(words) words; \(query) → \(corrections.joined(separator: ", "))")
    printFigures(times)
    exit(0)
  }
  if arguments.first == "memory-probe" {
    try SearchBenchmarks.probeMemory(path: path)
    exit(0)
  }
  if arguments.first == "name-scan" {
    let queries = (option("--query", arguments) ?? "").split(separator: " ").map(String.init)
    try SearchBenchmarks.scanEveryName(path: path, queries: queries)
    exit(0)
  }
  if arguments.first == "sync" {
    try measureSync()
    exit(0)
  }
  if arguments.first == "diary" {
    if access(path, F_OK) != 0 { try generate(into: path) }
    let wanted = number("--loans", default: books * 10)
    progress("giving the catalogue a year of \(wanted) loans (once)")
    let start = monotonicMilliseconds()
    _ = try DiaryBenchmarks.addHistory(path: path, loans: wanted)
    progress("loans ready in \(Int((monotonicMilliseconds() - start) / 1000)) s", final: true)
    progress("measuring the work diary")
    report(
      try DiaryBenchmarks.run(path: path, repeats: repeats), title: "circdesk-bench diary: \(books) books, \(path)")
    exit(0)
  }
  if arguments.first == "stocktake" {
    if access(path, F_OK) != 0 { try generate(into: path) }
    progress("checking a hall of the catalogue")
    report(
      try StocktakeBenchmarks.run(path: path, repeats: repeats),
      title: "circdesk-bench stocktake: \(books) books, \(path)")
    exit(0)
  }
  if arguments.first == "sip2" {
    let folder = TemporaryFolder()
    let kiosks = number("--kiosks", default: 50)
    report(
      try KioskBenchmarks.run(
        folder: folder.path, kiosks: kiosks, checkouts: number("--checkouts", default: 5000),
        progress: { progress($0) }),
      title: "circdesk-bench sip2: \(kiosks) kiosks")
    exit(0)
  }
  if arguments.first == "photos" {
    guard let folder = option("--folder", arguments) else {
      fail("photos needs --folder DIR; see circdesk-bench --help")
    }
    progress("reading the photos")
    report(try PhotoSetBenchmarks.run(folder: folder), title: "circdesk-bench photos: \(folder)")
    exit(0)
  }
  // One desk of `sync --desks`: each sync's time on a line of its own.
  if arguments.first == "desk-worker" {
    do {
      let samples = try ManyDesksBenchmark.work(
        path: path, rounds: repeats, pace: number("--pace", default: 1000), seed: UInt64(number("--seed", default: 1)))
      print(samples.map { String($0) }.joined(separator: "\n"))
    } catch {
      print("failed: \(error)")
      exit(1)
    }
    exit(0)
  }
  if access(path, F_OK) != 0 { try generate(into: path) }
  progress("measuring the lists")
  var measurements = try ListBenchmarks.run(path: path, repeats: repeats)
  progress("measuring search and circulation")
  measurements += try SearchBenchmarks.run(
    path: path, repeats: repeats,
    program: "/" + ownExecutable().split(separator: "/").dropLast().joined(separator: "/") + "/circdesk")
  progress("measuring page down with the key held")
  measurements.insert(
    try ListBenchmarks.heldKey(path: path, repeats: repeats),
    at: measurements.lastIndex { $0.scenario.hasPrefix("page down") }.map { $0 + 1 } ?? 0)
  progress("measuring decoding")
  let folder = path.split(separator: "/").dropLast().joined(separator: "/")
  let images = (path.hasPrefix("/") ? "/" : "") + (folder.isEmpty ? "." : folder) + "/images"
  measurements += try DecodeBenchmarks.run(folder: images, repeats: max(10, repeats / 4))
  progress("measuring what is read in photos' likenesses")
  measurements += try DecodeQualityBenchmarks.run(
    folder: images + "/likenesses-2", few: arguments.contains("--quick"))
  if !arguments.contains("--skip-exchange") {
    progress("measuring export and import")
    measurements += try ExchangeBenchmarks.run(
      path: path, folder: (path.hasPrefix("/") ? "/" : "") + (folder.isEmpty ? "." : folder), books: books)
  }
  report(measurements, title: "circdesk-bench: \(books) books, \(repeats) runs each, \(path)")
} catch {
  fputs("circdesk-bench: \(error)\n", stderr)
  exit(1)
}
