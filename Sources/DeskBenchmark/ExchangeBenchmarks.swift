import DeskDomain
import DeskExchange
@_spi(Connection) import DeskStorage

#if canImport(Glibc)
  import Glibc
#endif

/// Export of the whole catalogue to an IRBIS file, and import of that file into an empty
/// library: one run each (they take seconds), with the peak memory of the process.
public enum ExchangeBenchmarks {
  public static func run(path: String, folder: String, books: Int) throws -> [Measurement] {
    let store = try LibraryStore(path: path, clock: benchmarkClock)
    let file = "\(folder)/books-\(books).irbis.txt"
    var exported = 0
    let exportTime = try time(1) {
      let writer = try TextWriter(path: file, encoding: .cp1251)
      exported = try IRBISExport.books(.all, from: store, to: writer)
      try writer.close()
    }
    let afterExport = peakMemoryMiB()
    let target = "\(folder)/import-\(books).sqlite"
    for suffix in ["", "-wal", "-shm"] { unlink(target + suffix) }
    let importer = try LibraryStore(path: target, clock: benchmarkClock)
    var report = ImportReport()
    let importTime = try time(1) {
      // As `circdesk import` does it: a new library's first import writes with a rollback journal.
      report = try importer.asFirstImport {
        try IRBISTextImport.run(path: file, encoding: nil, store: importer, update: false, dryRun: false)
      }
    }
    let afterImport = peakMemoryMiB()
    guard report.booksAdded == exported else { throw BenchmarkError.notDecoded(file) }
    let dump = runChild(["sqlite3", path, "SELECT * FROM book"], output: "\(folder)/books-\(books).dump.txt")
    var measurements = [
      Measurement(
        scenario: "export \(exported) books to IRBIS text (peak memory \(afterExport) MiB)", samples: exportTime,
        baselineName: "sqlite3 CLI writing the same rows to a file",
        baselineSamples: dump.status == 0 ? [dump.milliseconds] : []),
      Measurement(
        scenario: "import \(report.booksAdded) books from IRBIS text (peak memory \(afterImport) MiB)",
        samples: importTime, baselineName: "the same rows inserted by a plain loop, one transaction",
        baselineSamples: try plainInsert(from: target, into: "\(folder)/plain-\(books).sqlite")),
    ]
    measurements += try update(file: file, folder: folder, books: books, store: importer)
    measurements += try withKeptFields(file: file, folder: folder, books: books)
    return measurements
  }

  /// The yardstick of an import: the book rows of `source` inserted into an empty library as a
  /// program without the import's care would, one bound INSERT a row in one transaction, the
  /// schema's triggers (full-text index, counters) running for each, with the import's page
  /// cache. Its time, in one sample.
  static func plainInsert(from source: String, into target: String) throws -> [Double] {
    for suffix in ["", "-wal", "-shm"] { unlink(target + suffix) }
    let empty = try LibraryStore(path: target, clock: benchmarkClock)
    let rows = try Database(path: source, flags: [.readOnly])
    let columns = try rows.query("SELECT name FROM pragma_table_info('book') WHERE name <> 'id'") { $0.string(0) }
    let select = "SELECT \(columns.joined(separator: ", ")) FROM book ORDER BY id"
    let insert =
      "INSERT INTO book(\(columns.joined(separator: ", "))) VALUES (\(Array(repeating: "?", count: columns.count).joined(separator: ", ")))"
    return try time(1) {
      try empty.withBulkCache {
        try empty.database.inTransaction {
          try rows.forEachRow(select) { row in
            _ = try empty.database.execute(insert, values: (0..<Int32(columns.count)).map { row.value($0) })
          }
        }
      }
    }
  }

  /// `import irbis --update` of records whose titles changed, into the library just imported,
  /// beside an import of as many new records into it: a changed record should cost at most
  /// twice a new one.
  static func update(file: String, folder: String, books: Int, store: LibraryStore) throws -> [Measurement] {
    let records = min(3_000, books)
    let (changed, added) = ("\(folder)/books-\(books).changed.irbis.txt", "\(folder)/books-\(books).new.irbis.txt")
    try excerpt(file, to: changed, records: records) { line in
      line.hasPrefix("#200: ^A") ? "#200: ^AНовое издание: " + line.dropFirst("#200: ^A".count) : line
    }
    try excerpt(file, to: added, records: records) { line in
      line.hasPrefix("#910: ") ? line.replacing("^B", with: "^BN") : line
    }
    var (updated, new) = (ImportReport(), ImportReport())
    let addTime = try time(1) {
      new = try IRBISTextImport.run(path: added, encoding: nil, store: store, update: false, dryRun: false)
    }
    let updateTime = try time(1) {
      updated = try IRBISTextImport.run(path: changed, encoding: nil, store: store, update: true, dryRun: false)
    }
    guard new.booksAdded >= records, updated.booksUpdated >= records else { throw BenchmarkError.notDecoded(changed) }
    return [
      Measurement(
        scenario: "import --update of \(updated.booksUpdated) books whose titles changed, into \(books) books",
        samples: updateTime, baselineName: "import of \(new.booksAdded) new books into the same library",
        baselineSamples: addTime)
    ]
  }

  /// Copies the first `records` records of an IRBIS file (Windows-1251, CRLF), each line through
  /// `change`.
  static func excerpt(_ source: String, to target: String, records: Int, change: (String) -> String) throws {
    var written = 0
    try copyLines(source, to: target) { text in
      guard written < records else { return nil }
      if text.hasPrefix("*****") { written += 1 }
      return change(text)
    }
  }

  /// The same catalogue as another system writes it: every record with fields the desk does not
  /// model (language, a subject heading, a processing history), which an import keeps and an
  /// export writes back, and every 50th copy written off. Imported into an empty library, then
  /// exported again.
  static func withKeptFields(file: String, folder: String, books: Int) throws -> [Measurement] {
    let real = "\(folder)/books-\(books).kept.irbis.txt"
    try rewrite(file, to: real)
    let target = "\(folder)/import-kept-\(books).sqlite"
    for suffix in ["", "-wal", "-shm"] { unlink(target + suffix) }
    let store = try LibraryStore(path: target, clock: benchmarkClock)
    var report = ImportReport()
    let importTime = try time(1) {
      report = try IRBISTextImport.run(path: real, encoding: nil, store: store, update: false, dryRun: false)
    }
    let afterImport = peakMemoryMiB()
    guard report.booksAdded == books else { throw BenchmarkError.notDecoded(real) }
    var exported = 0
    let exportTime = try time(1) {
      let writer = try TextWriter(path: "\(folder)/books-\(books).kept.out.txt", encoding: .cp1251)
      exported = try IRBISExport.books(.all, from: store, to: writer)
      try writer.close()
    }
    let writtenOff = try store.books.count(filter: .notForLoan)
    return [
      Measurement(
        scenario:
          "import \(report.booksAdded) books with kept fields, \(writtenOff) written off (peak memory \(afterImport) MiB)",
        samples: importTime),
      Measurement(
        scenario: "export \(exported) books with kept fields (peak memory \(peakMemoryMiB()) MiB)", samples: exportTime),
    ]
  }

  /// Copies an IRBIS file (Windows-1251, CRLF), adding three unmodelled fields after each
  /// record's worksheet and writing off every 50th copy.
  static func rewrite(_ source: String, to target: String) throws {
    var record = 0
    let extra = "#101: rus\r\n#606: ^AХудожественная литература^BРоманы\r\n#907: ^CПК^A20180613^BИвановаМА\r\n"
    try copyLines(source, to: target) { text in
      if text.hasPrefix("#920:") {
        record += 1
        return text + extra
      }
      if text.hasPrefix("#910: ^A0"), record % 50 == 0 { return "#910: ^A6" + text.dropFirst("#910: ^A0".count) }
      return text
    }
  }

  /// Copies a Windows-1251 text file a line at a time (line ends kept), each line as `change`
  /// makes it, until `change` says nil.
  private static func copyLines(_ source: String, to target: String, change: (String) -> String?) throws {
    guard let input = fopen(source, "rb") else { throw BenchmarkError.notDecoded(source) }
    defer { fclose(input) }
    let writer = try TextWriter(path: target, encoding: .cp1251)
    var line: UnsafeMutablePointer<CChar>?
    var capacity = 0
    defer { free(line) }
    while getline(&line, &capacity, input) > 0, let line {
      guard let text = change(Windows1251.decode(UnsafeRawBufferPointer(start: line, count: strlen(line)))) else {
        break
      }
      writer.write(text)
    }
    try writer.close()
  }

  /// The most memory the process has held, in MiB.
  public static func peakMemoryMiB() -> Int {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Int(usage.ru_maxrss / 1024)
  }
}
