import DeskDomain
@_spi(Connection) import DeskStorage
import DeskUI

#if canImport(Glibc)
  import Glibc
#endif

/// Search as you type, cold start, durable circulation and memory, each beside a baseline
/// measured in the same run.
public enum SearchBenchmarks {
  /// The SQL of the first book page, as the desk asks it; the baselines run the same.
  static let firstPageSQL =
    "SELECT inventory, author_surname, title FROM book WHERE deleted = 0 ORDER BY sort_key LIMIT 40"

  static func ftsSQL(_ query: String) -> String {
    let match = TextFolding.words(query).map { "\"\($0)\"*" }.joined(separator: " ")
    return "SELECT b.inventory, b.title FROM book b WHERE b.deleted = 0 AND b.id IN "
      + "(SELECT rowid FROM book_fts WHERE book_fts MATCH '\(match)' LIMIT 501) ORDER BY b.sort_key LIMIT 40"
  }

  public static func run(path: String, repeats: Int, program: String? = nil) throws -> [Measurement] {
    var results: [Measurement] = []
    let me = ownExecutable()
    let hasSQLite = runChild(["sqlite3", "-version"]).status == 0

    // The desk itself, on a terminal: the Home screen's counts ("N books, M out") are its last
    // line to be worked out.
    if let program, access(program, X_OK) == 0 {
      let painted = (0..<max(5, repeats / 10)).compactMap { _ in
        millisecondsToPaint([program, "--db", path, "--lang", "en"], marker: " books, ")
      }
      let version = (0..<max(5, repeats / 10)).map { _ in runChild([program, "--version"]).milliseconds }
      let hello = (0..<max(5, repeats / 10)).map { _ in runChild(["/bin/true"]).milliseconds }
      results += [
        Measurement(
          scenario: "circdesk started on a terminal to its first screen painted (Home, with the counts)",
          samples: painted, baselineName: "sqlite3 CLI, the first list page's 40 rows",
          baselineSamples: hasSQLite
            ? (0..<max(5, repeats / 10)).map { _ in runChild(["sqlite3", path, firstPageSQL]).milliseconds } : []),
        Measurement(
          scenario: "circdesk --version", samples: version, baselineName: "/bin/true", baselineSamples: hello),
      ]
      // The desk's own memory: the book list opened and searched, letter by letter as typed.
      if let run = TerminalRun([program, "--db", path, "--lang", "en"]), run.read(until: " books, ") {
        run.type("b")
        run.read(until: nil, milliseconds: 300)
        run.type("/")
        for query in ["толстой", "война мир", "толстй"] {
          for letter in query {
            run.type(String(letter))
            run.read(until: nil, milliseconds: 60)
          }
          run.read(until: nil, milliseconds: 400)
          run.type("\u{15}")  // Ctrl-U: the search line emptied
        }
        let sqlite =
          hasSQLite
          ? peakKiBOfForkedChild([
            "sqlite3", path,
            ([firstPageSQL] + ["т", "тол", "толстой", "война мир"].map(ftsSQL)).joined(separator: "; "),
          ]) : 0
        results.append(
          Measurement(
            scenario: "peak memory (MiB, not ms) of circdesk on a terminal, the book list opened and searched",
            samples: [Double(run.peakKiB) / 1024], baselineName: "sqlite3 CLI, same queries",
            baselineSamples: hasSQLite ? [Double(sqlite) / 1024] : []))
      }
    }

    // Cold start: a new process of this benchmark (Foundation and the Swift runtime loaded
    // dynamically, unlike the desk) that opens the file and paints the first list page.
    let cold = (0..<max(5, repeats / 10)).map { _ in runChild([me, "first-page", "--db", path]).milliseconds }
    let coldBaseline =
      hasSQLite ? (0..<max(5, repeats / 10)).map { _ in runChild(["sqlite3", path, firstPageSQL]).milliseconds } : []
    results.append(
      Measurement(
        scenario: "cold start to the first list page painted", samples: cold, baselineName: "sqlite3 CLI, same 40 rows",
        baselineSamples: coldBaseline))

    let store = try LibraryStore(path: path, clock: benchmarkClock)
    // The vocabulary read once, as the desk's search queue reads it while nobody waits.
    try store.vocabulary.readVocabularies()
    // Each keystroke is timed beside the machine's own fixed computation, first alone here.
    let witness = MachineWitness()
    let alone = (0..<repeats).map { _ in witness.sample() }
    // «прес»: four letters that about a hundred words of the generated catalogue continue.
    for query in ["т", "то", "тол", "прес", "толстой", "война мир"] {
      let ours = try witness.time(repeats) { _ = try store.books.searchRows(query) }
      let baseline =
        hasSQLite
        ? (0..<max(5, repeats / 10)).map { _ in runChild(["sqlite3", path, ftsSQL(query)]).milliseconds } : []
      results.append(
        Measurement(
          scenario: "keystroke → results «\(query)»", samples: ours.runs, baselineName: "sqlite3 CLI, same query",
          baselineSamples: baseline, witnessSamples: ours.witness))
    }
    // The desk's typo searches, beside the original app's way of finding a misspelt name, timed
    // in a process of its own: it holds every name of the catalogue in memory (gigabytes of arrays
    // at ten million books, made again by each comparison), which the desk never does, and the
    // searches timed in the process that held them stalled for milliseconds, during and after.
    let typos = ["толстй", "достоевкий", "лермантов", "пастернкак"]
    let ours = try typos.map { query in try witness.time(repeats) { _ = try store.books.searchRows(query) } }
    let namesReport = path + ".names.txt"
    _ = runChild([me, "name-scan", "--db", path, "--query", typos.joined(separator: " ")], output: namesReport)
    let lines = readText(namesReport).split(separator: "\n").map { $0.split(separator: " ").compactMap { Double($0) } }
    let names = lines.first?.first.map { Int($0) } ?? 0
    for (index, query) in typos.enumerated() {
      let scans = index + 1 < lines.count ? lines[index + 1] : []
      results.append(
        Measurement(
          scenario: "keystroke → results, typo «\(query)»", samples: ours[index].runs,
          baselineName: "Levenshtein over all \(names) names", baselineSamples: scans,
          witnessSamples: ours[index].witness))
    }
    // The keyboard forgiven: the wrong layout, and Latin spellings of Russian names, beside the
    // same query typed as the catalogue spells it.
    for (query, meant, how) in [
      ("Ljcnjtdcrbq", "достоевский", "wrong layout"), ("Tolstoy", "толстой", "transliterated"),
      ("Dostoevsky", "достоевский", "transliterated"),
    ] {
      let ours = try witness.time(repeats) { _ = try store.books.searchRows(query) }
      let typedRight = try time(repeats) { _ = try store.books.searchRows(meant) }
      results.append(
        Measurement(
          scenario: "keystroke → results, \(how) «\(query)»", samples: ours.runs,
          baselineName: "the same typed «\(meant)»", baselineSamples: typedRight, witnessSamples: ours.witness))
    }
    results += try searchesAfterAChange(store: store, repeats: repeats, witness: witness)
    results.append(
      Measurement(
        scenario: "the machine itself: a fixed computation (MachineWitness), timed after each keystroke above",
        samples: results.flatMap(\.witnessSamples), baselineName: "the same, timed alone before them",
        baselineSamples: alone))
    results.append(try circulation(store: store, repeats: repeats))
    results.append(try HoldBenchmarks.returnWithAQueue(store: store, repeats: repeats))

    // Memory: a new process opens the file, paints the first page and runs the searches, and
    // says its own peak; it also runs the sqlite3 CLI on the same queries and says that one's.
    let report = path + ".memory.txt"
    _ = runChild([me, "memory-probe", "--db", path], output: report)
    let numbers = readText(report)
    let values = numbers.split(whereSeparator: { $0 == " " || $0 == "\n" }).compactMap { Double(String($0)) }
    results.append(
      Measurement(
        scenario: "peak memory (MiB, not ms) of this benchmark's process with the catalogue open and searched",
        samples: values.prefix(1).map { $0 / 1024 }, baselineName: "sqlite3 CLI, same queries",
        baselineSamples: values.dropFirst().prefix(1).map { $0 / 1024 }))
    return results
  }

  /// Durable issue and return of one book, each a transaction with synchronous=FULL, against
  /// one raw UPDATE a transaction at the same settings.
  static func circulation(store: LibraryStore, repeats: Int) throws -> Measurement {
    try store.policy.setCategory(
      ReaderCategory(code: "bench", name: "Bench", loanDays: 14, loanLimit: 1_000_000, renewalLimit: 9))
    var ticket = "bench-reader"
    if try store.readers.reader(ticket: ticket) == nil {
      var draft = ReaderDraft()
      draft.ticket = ticket
      draft.surname = "Бенчмарков"
      draft.category = "bench"
      try store.readers.add(draft)
    }
    ticket = "bench-reader"
    var policy = try store.policy.current()
    policy.blockOnOverdue = false
    try store.policy.setCurrent(policy)
    guard let book = try store.books.page(filter: .available, limit: 1).first?.book else {
      throw BenchmarkError.notDecoded("no book")
    }
    let operations = max(200, repeats * 2)
    var samples: [Double] = []
    for _ in 0..<(operations / 2) {
      samples += try time(1) { try store.circulation.issue(ticket: ticket, inventories: [book.inventoryNumber]) }
      samples += try time(1) { try store.circulation.returnBooks(inventories: [book.inventoryNumber]) }
    }
    let rowID = try store.database.scalarInt("SELECT max(id) FROM loan")
    var stamp = 0
    let raw = try time(operations) {
      // A change each time (a row rewritten with the same values may cost less than a real write).
      stamp += 1
      _ = try store.database.inTransaction(.immediate) {
        try store.database.execute("UPDATE loan SET updated_at = ? WHERE id = ?", "bench-\(stamp)", rowID)
      }
    }
    let perSecond = Int(1000 / (samples.reduce(0, +) / Double(samples.count)))
    return Measurement(
      scenario: "durable issue or return (WAL, synchronous=FULL), \(perSecond)/s", samples: samples,
      baselineName: "raw UPDATE a transaction, same settings", baselineSamples: raw)
  }

  /// One query searched `count` times in a row, as the desk searches it (with the vocabulary
  /// read, as the desk reads it while idle, and after one search to warm the caches): for a
  /// profiler to watch.
  /// With `afterAChange`, each search comes just after a book's words changed (untimed), as in
  /// `searchesAfterAChange`.
  public static func searches(path: String, query: String, count: Int, afterAChange: Bool = false) throws
    -> [Double]
  {
    let store = try LibraryStore(path: path, clock: benchmarkClock)
    try store.vocabulary.readVocabularies()
    _ = try store.books.searchRows(query)
    guard afterAChange else { return try time(count) { _ = try store.books.searchRows(query) } }
    let bookID = try firstBook(in: store)
    var samples: [Double] = []
    for _ in 0..<count {
      try changeWords(of: bookID, in: store)
      samples += try time(1) { _ = try store.books.searchRows(query) }
    }
    return samples
  }

  /// The statements of one search (after one to warm the caches), with SQLite's time of each;
  /// with `afterAChange`, of a search just after a book's words changed.
  public static func searchStatements(path: String, query: String, afterAChange: Bool = false) throws
    -> [ProfiledStatement]
  {
    let store = try LibraryStore(path: path, clock: benchmarkClock)
    try store.vocabulary.readVocabularies()
    _ = try store.books.searchRows(query)
    if afterAChange {
      try changeWords(of: try firstBook(in: store), in: store)
    }
    return try store.database.profilingStatements { try store.books.searchRows(query) }.statements
  }

  /// The book whose words the searches after a change change.
  static func firstBook(in store: LibraryStore) throws -> Int {
    try store.database.scalarInt("SELECT min(id) FROM book WHERE deleted = 0")
  }

  /// Writes a book's search text again with a space more: the same words, in a text the
  /// full-text trigger sees as changed and writes as news for the vocabulary.
  static func changeWords(of bookID: Int, in store: LibraryStore) throws {
    try store.database.execute("UPDATE book SET search_text = search_text || ' ' WHERE id = ?", bookID)
  }

  /// The statements of the first book page painted on a file just opened, with their times.
  public static func firstPageStatements(path: String) throws -> [ProfiledStatement] {
    let store = try LibraryStore(path: path, clock: benchmarkClock)
    return store.database.profilingStatements {
      let app = ListBenchmarks.makeApp(store)
      ListBenchmarks.openBookList(app)
      _ = app.render(rows: 40, columns: 120)
    }.statements
  }

  /// What `circdesk-bench first-page` does in its own process.
  public static func paintFirstPage(path: String) throws {
    let app = ListBenchmarks.makeApp(try LibraryStore(path: path, clock: benchmarkClock))
    ListBenchmarks.openBookList(app)
    _ = app.render(rows: 40, columns: 120)
  }

  /// What `circdesk-bench memory-probe` does in its own process; prints its peak and the
  /// sqlite3 CLI's, in KiB.
  public static func probeMemory(path: String) throws {
    let script = ([firstPageSQL] + ["т", "тол", "толстой", "война мир"].map(ftsSQL)).joined(separator: "; ")
    let sqlite = peakKiBOfForkedChild(["sqlite3", path, script])
    try paintFirstPage(path: path)
    let store = try LibraryStore(path: path, clock: benchmarkClock)
    for query in ["т", "тол", "толстой", "война мир", "толстй"] { _ = try store.books.searchRows(query) }
    print(ownPeakKiB(), sqlite)
  }
}

extension SearchBenchmarks {
  /// The corrections of `word` found `count` times in the books' vocabulary, read from the
  /// catalogue by the store: how many words it has, what the word's nearest are, and the
  /// times of the walks alone.
  public static func walks(path: String, word: String, count: Int) throws -> (
    words: Int, corrections: [String], times: [Double]
  ) {
    let vocabulary = try LibraryStore(path: path, clock: benchmarkClock).vocabulary.bookVocabulary()
    let corrections = vocabulary.corrections(of: word, limit: 3).map(\.word)
    return (vocabulary.count, corrections, time(count) { _ = vocabulary.corrections(of: word, limit: 3) })
  }

  /// What `circdesk-bench name-scan` does in its own process: the original desk app's way of
  /// finding a misspelt name, every name of the catalogue compared in full, three times for each
  /// of `queries`. Prints how many names, then a line of three timings for each query.
  public static func scanEveryName(path: String, queries: [String]) throws {
    let store = try LibraryStore(path: path, clock: benchmarkClock)
    let surnames = try store.database.query("SELECT author_surname FROM book WHERE deleted = 0") { Array($0.string(0)) }
    print(surnames.count)
    for query in queries {
      let word = Array(query)
      let scans = time(3) {
        var best = Int.max
        for name in surnames {
          best = min(best, Fuzzy.distance(word, Array(String(name).lowercased()), limit: 100) ?? Int.max)
        }
      }
      print(scans.map { String($0) }.joined(separator: " "))
    }
  }

  /// Searches just after a book's words changed (added or edited here, pulled from another desk,
  /// imported), when the vocabulary read before is out of date: a word of more than five letters
  /// and a typo, which both bring the vocabulary up to date with the news first. Each run first
  /// writes one book's search text again with a space more, untimed; the full-text trigger
  /// writes that as news.
  /// Beside each, the same search with the vocabulary brought up to date since, as the desk does
  /// while nobody waits for a search.
  static func searchesAfterAChange(store: LibraryStore, repeats: Int, witness: MachineWitness) throws
    -> [Measurement]
  {
    let bookID = try firstBook(in: store)
    return try [("толстой", "keystroke → results «толстой»"), ("лермантов", "keystroke → results, typo «лермантов»")]
      .map { query, scenario in
        var afterChange: (runs: [Double], witness: [Double]) = ([], [])
        for _ in 0..<max(3, repeats / 10) {
          try changeWords(of: bookID, in: store)
          let run = try witness.time(1) { _ = try store.books.searchRows(query) }
          afterChange.runs += run.runs
          afterChange.witness += run.witness
        }
        try store.vocabulary.readVocabularies()
        let read = try time(repeats) { _ = try store.books.searchRows(query) }
        return Measurement(
          scenario: "\(scenario), a book's words just changed", samples: afterChange.runs,
          baselineName: "the same, the vocabulary read again since", baselineSamples: read,
          witnessSamples: afterChange.witness)
      }
  }
}
