import DeskDomain
@_spi(Connection) import DeskStorage
import DeskSync

#if canImport(Glibc)
  import Glibc
#endif

/// Sync with a central: pushing and pulling 10,000 changes beside PostgreSQL's COPY of the same
/// rows, a sync round with nothing to do, the cost of capturing changes on an issue or return, and
/// the first join of an empty desk to a central holding a whole generated catalogue.
public enum SyncBenchmarks {
  /// `makeCentral` gives the URL of a new, empty database on the server measured.
  public static func run(
    makeCentral: () throws -> String, folder: String, changes: Int, repeats: Int,
    progress: (String) -> Void = { _ in }
  ) throws -> [Measurement] {
    var measurements: [Measurement] = []
    progress("measuring change capture on issue and return")
    measurements.append(try captureOverhead(folder: folder, repeats: repeats))

    var pushes: [Double] = []
    var pulls: [Double] = []
    var copiesIn: [Double] = []
    var copiesOut: [Double] = []
    var emptyRounds: [Double] = []
    var connects: [Double] = []
    for round in 0..<3 {
      progress("measuring push and pull of \(changes) changes, round \(round + 1) of 3")
      let url = try makeCentral()
      _ = try CentralSchema.initialize(try CentralConnection(url: url))
      let sender = try LibraryStore(path: folder + "/push-\(round).sqlite", clock: benchmarkClock)
      let receiver = try LibraryStore(path: folder + "/pull-\(round).sqlite", clock: benchmarkClock)
      let library = try CentralConnection(url: url).execute(
        "SELECT value FROM circdesk_central WHERE key = 'library_id'")
      let libraryID = (library.first?.first ?? nil) ?? ""
      for (store, name) in [(sender, "Sender"), (receiver, "Receiver")] {
        let deskID = RecordID.random().text
        try CentralConnection(url: url).execute(
          "SELECT circdesk_join($1::uuid, $2, $3)", [deskID, name, name.lowercased()])
        try store.sync.tie(
          central: url, libraryID: libraryID, deskID: deskID, deskName: name, sendingRecords: false,
          sendingPolicy: false)
      }
      try sender.transaction {
        for number in 0..<changes {
          var draft = BookDraft()
          draft.inventoryNumber = "S\(number)"
          draft.title = "Книга номер \(number)"
          draft.authorSurname = ["Толстой", "Чехов", "Austen"][number % 3]
          draft.year = String(1900 + number % 120)
          try sender.books.add(draft)
        }
      }
      // The baseline first: the same rows, as CSV, through COPY into a table of the log's shape.
      let csv =
        try sender.database.query(
          "SELECT id, entity, record_id, hlc, payload FROM outbox ORDER BY seq"
        ) { row in
          [row.string(0), row.string(1), row.string(2), row.string(3), row.string(4)].map(csvField).joined(
            separator: ",")
        }.joined(separator: "\n") + "\n"
      let central = try CentralConnection(url: url)
      try central.execute(
        "CREATE TABLE change_copy (id uuid, entity text, record_id text, hlc bigint, payload jsonb)")
      copiesIn += try time(1) {
        _ = try central.copyIn("COPY change_copy FROM STDIN WITH (FORMAT csv)", data: Array(csv.utf8))
      }
      pushes += try time(1) { _ = try Synchronizer(store: sender).push() }
      copiesOut += try time(1) {
        _ = try central.copyOut("COPY (SELECT seq, id, desk_id, entity, record_id, hlc, payload FROM change) TO STDOUT")
      }
      pulls += try time(1) { _ = try Synchronizer(store: receiver).pull() }
      guard try receiver.books.count() == changes else { throw BenchmarkError.notDecoded("the pull lost books") }
      if round == 0 {
        progress("measuring sync rounds with nothing to do")
        _ = try Synchronizer(store: receiver).sync()
        emptyRounds = try time(max(20, repeats / 4)) { _ = try Synchronizer(store: receiver).sync() }
        connects = try time(max(20, repeats / 4)) {
          _ = try CentralConnection(url: url).execute("SELECT value FROM circdesk_central WHERE key = 'library_id'")
        }
      }
    }
    measurements.append(
      Measurement(
        scenario: "push \(changes) changes (circdesk_push, batches of 500)", samples: pushes,
        baselineName: "the same rows through COPY … FROM STDIN", baselineSamples: copiesIn))
    measurements.append(
      Measurement(
        scenario: "pull and apply \(changes) changes (batches of 2,000)", samples: pulls,
        baselineName: "the log through COPY … TO STDOUT", baselineSamples: copiesOut))
    measurements.append(
      Measurement(
        scenario: "sync round with nothing to do (connect, push, pull)", samples: emptyRounds,
        baselineName: "connect and one query", baselineSamples: connects))
    return measurements
  }

  static func csvField(_ text: String) -> String {
    "\"" + text.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"") + "\""
  }

  /// A durable issue and return, change capture on (a desk joined to a central) beside off.
  static func captureOverhead(folder: String, repeats: Int) throws -> Measurement {
    let store = try LibraryStore(path: folder + "/capture.sqlite", clock: benchmarkClock)
    try store.books.add(
      {
        var draft = BookDraft()
        draft.inventoryNumber = "C1"
        draft.title = "Книга"
        return draft
      }())
    var reader = ReaderDraft()
    reader.ticket = "C1"
    reader.surname = "Бенчмарков"
    try store.readers.add(reader)
    func pairs(_ count: Int) throws -> [Double] {
      var samples: [Double] = []
      for _ in 0..<count {
        samples += try time(1) { try store.circulation.issue(ticket: "C1", inventories: ["C1"]) }
        samples += try time(1) { try store.circulation.returnBooks(inventories: ["C1"]) }
      }
      return samples
    }
    // Warm, then alternate so that neither side has the better minute.
    _ = try pairs(max(100, repeats))
    var off: [Double] = []
    var on: [Double] = []
    try store.sync.tie(
      central: "bench", libraryID: "bench", deskID: RecordID.random().text, deskName: "Bench", sendingRecords: false,
      sendingPolicy: false)
    // Off and on in turns of ten issues and returns: the disk's slower and faster minutes fall on
    // both sides alike (in two long halves they made the difference swing from 15 to 36 %).
    for _ in 0..<(max(100, repeats) / 5) {
      try store.database.execute("UPDATE sync_desk SET capture = 0")
      off += try pairs(10)
      try store.database.execute("UPDATE sync_desk SET capture = 1")
      on += try pairs(10)
    }
    return Measurement(
      scenario: "durable issue or return, changes captured for the central", samples: on,
      baselineName: "the same, capture switched off (a desk on its own has no capture triggers)",
      baselineSamples: off)
  }

  /// The first join of an empty desk to a central that holds the catalogue at `path` (pushed
  /// there first by a desk joining with it), each as a `circdesk central join` process: wall
  /// time and peak memory.
  public static func join(
    catalogue path: String, makeCentral: () throws -> String, folder: String, program: String,
    progress: (String) -> Void = { _ in }
  ) throws -> [Measurement] {
    let url = try makeCentral()
    _ = try CentralSchema.initialize(try CentralConnection(url: url))
    let big = folder + "/join-source.sqlite"
    let empty = folder + "/join-empty.sqlite"
    for file in [big, empty] {
      for suffix in ["", "-wal", "-shm"] { unlink(file + suffix) }
    }
    guard runChild(["/bin/cp", path, big]).status == 0 else { throw BenchmarkError.notDecoded("cannot copy \(path)") }
    let books = try LibraryStore(path: big, clock: benchmarkClock).books.count()
    progress("pushing a catalogue of \(books) books to the central")
    let pushed = runChildWatchingMemory([program, "central", "join", "--url", url, "--desk", "Source", "--db", big])
    guard pushed.status == 0 else { throw BenchmarkError.notDecoded("the first desk's join failed") }
    progress("joining an empty desk")
    let joined = runChildWatchingMemory([program, "central", "join", "--url", url, "--desk", "Empty", "--db", empty])
    guard joined.status == 0 else { throw BenchmarkError.notDecoded("the empty desk's join failed") }
    let copy = try time(1) {
      _ = try CentralConnection(url: url).copyOut(
        "COPY (SELECT seq, id, desk_id, entity, record_id, hlc, payload FROM change) TO STDOUT")
    }
    guard try LibraryStore(path: empty, clock: benchmarkClock).books.count() == books else {
      throw BenchmarkError.notDecoded("the joined desk lacks books")
    }
    // A day's work elsewhere: the first desk changes titles, and the joined desk pulls them.
    let changed = min(10_000, books)
    progress("pulling \(changed) changed titles into the joined desk")
    let source = try LibraryStore(path: big, clock: benchmarkClock)
    try source.transaction {
      try source.database.execute(
        "UPDATE book SET title = title || ' (2)' WHERE id IN (SELECT id FROM book ORDER BY id LIMIT ?)", changed)
    }
    guard runChild([program, "sync", "--db", big]).status == 0 else {
      throw BenchmarkError.notDecoded("the first desk's sync failed")
    }
    let pulled = runChildWatchingMemory([program, "sync", "--db", empty])
    guard pulled.status == 0 else { throw BenchmarkError.notDecoded("the joined desk's sync failed") }
    let copyChanged = try time(1) {
      _ = try CentralConnection(url: url).copyOut(
        """
        COPY (SELECT seq, id, desk_id, entity, record_id, hlc, payload FROM change ORDER BY seq DESC LIMIT \(changed))
        TO STDOUT
        """)
    }
    guard
      try LibraryStore(path: empty, clock: benchmarkClock).database.scalarInt(
        "SELECT count(*) FROM book WHERE title LIKE '% (2)'") == changed
    else { throw BenchmarkError.notDecoded("the joined desk lacks the changed titles") }
    return [
      Measurement(
        scenario: "first join of a desk with \(books) books: push them (peak memory \(pushed.peakKiB / 1024) MiB)",
        samples: [pushed.milliseconds]),
      Measurement(
        scenario: "first join of an empty desk to that central (peak memory \(joined.peakKiB / 1024) MiB)",
        samples: [joined.milliseconds], baselineName: "the central's log through COPY … TO STDOUT",
        baselineSamples: copy),
      Measurement(
        scenario:
          "sync pulling \(changed) changed titles into that desk of \(books) books (peak memory \(pulled.peakKiB / 1024) MiB)",
        samples: [pulled.milliseconds], baselineName: "those changes through COPY … TO STDOUT",
        baselineSamples: copyChanged),
    ]
  }
}
