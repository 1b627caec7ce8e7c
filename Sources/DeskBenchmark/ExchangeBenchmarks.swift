import DeskDomain
import DeskExchange
import DeskStorage

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
      report = try IRBISTextImport.run(path: file, encoding: nil, store: importer, update: false, dryRun: false)
    }
    let afterImport = peakMemoryMiB()
    guard report.booksAdded == exported else { throw BenchmarkError.notDecoded(file) }
    return [
      Measurement(
        scenario: "export \(exported) books to IRBIS text (peak memory \(afterExport) MiB)", samples: exportTime),
      Measurement(
        scenario: "import \(report.booksAdded) books from IRBIS text (peak memory \(afterImport) MiB)",
        samples: importTime),
    ]
  }

  /// The most memory the process has held, in MiB.
  public static func peakMemoryMiB() -> Int {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Int(usage.ru_maxrss / 1024)
  }
}
