import DeskDomain
@_spi(Connection) import DeskStorage

/// A check of a tenth of the catalogue (one of ten halls): its opening, each scan's sorting, and
/// the report of what is missing, each beside a plain read of the same rows.
public enum StocktakeBenchmarks {
  public static func run(path: String, repeats: Int) throws -> [Measurement] {
    let store = try LibraryStore(path: path, clock: benchmarkClock)
    let database = store.database
    // Ten halls, a tenth of the books each, given once.
    if try database.scalarInt("SELECT count(*) FROM book WHERE place = ''") > 0 {
      try store.transaction { try database.execute("UPDATE book SET place = 'Зал ' || (id % 10) WHERE place = ''") }
    }
    let books = try database.scalarInt("SELECT count(*) FROM book WHERE deleted = 0")
    var measurements: [Measurement] = []
    var check: StocktakeStore.Check?
    let opened = try time(1) {
      check = try store.stocktakes.start(name: "bench", scope: StocktakeScope(placePrefixes: ["зал 3"]))
    }
    let openedBaseline = try time(1) {
      _ = try database.query("SELECT id, place, bbk, status FROM book WHERE deleted = 0") { $0.int64(0) }
    }
    guard let check else { return [] }
    measurements.append(
      Measurement(
        scenario:
          "a check opened over a hall of \(check.expected) of \(books) books, its list in parts "
          + "(peak memory \(ExchangeBenchmarks.peakMemoryMiB()) MiB)", samples: opened,
        baselineName: "reading every book's place, code and status", baselineSamples: openedBaseline))
    // Scans of copies taken across the catalogue: most of another hall (outside the check), a tenth
    // of this one, some twice.
    let inventories = try database.query(
      "SELECT inventory FROM book WHERE deleted = 0 ORDER BY random() LIMIT ?", repeats
    ) { $0.string(0) }
    var next = 0
    let scans = try time(inventories.count) {
      _ = try store.stocktakes.scan(inventories[next % inventories.count], in: check, at: "Зал 3")
      next += 1
    }
    next = 0
    let lookups = try time(inventories.count) {
      _ = try store.books.book(inventory: inventories[next % inventories.count])
      next += 1
    }
    measurements.append(
      Measurement(
        scenario: "a scan sorted and kept in the check (peak memory \(ExchangeBenchmarks.peakMemoryMiB()) MiB)",
        samples: scans,
        baselineName: "the same copy read by its number", baselineSamples: lookups))
    let report = try time(max(1, min(5, repeats / 40))) { _ = try store.stocktakes.report(check) }
    let reportBaseline = try time(max(1, min(5, repeats / 40))) {
      _ = try database.query(
        """
        SELECT b.inventory, b.author_surname, b.title, b.place, b.bbk, b.status FROM stocktake_expected e
        JOIN book b ON b.id = e.book_id WHERE e.stocktake_id = ?
        """, check.number
      ) { [$0.string(0), $0.string(1), $0.string(2), $0.string(3), $0.string(4), $0.string(5)] }
    }
    measurements.append(
      Measurement(
        scenario:
          "the report: \(check.expected) expected, the missing listed (peak memory \(ExchangeBenchmarks.peakMemoryMiB()) MiB)",
        samples: report,
        baselineName: "reading the check's expected books", baselineSamples: reportBaseline))
    // The close gives each copy found its last check: one UPDATE over the scans.
    let closed = try time(1) { try store.stocktakes.close(check) }
    measurements.append(
      Measurement(
        scenario:
          "the close: \(inventories.count) scans, each copy found its last check (peak memory \(ExchangeBenchmarks.peakMemoryMiB()) MiB)",
        samples: closed))
    return measurements
  }
}
