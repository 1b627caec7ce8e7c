import DeskDomain
import DeskKiosks
import DeskScratch
@_spi(Connection) import DeskStorage
import Synchronization

/// Checkouts through the SIP2 server, many kiosks at once, beside the same checkout made on the
/// store directly by one caller. Each checkout is a durable transaction of its own (the file's
/// `synchronous = FULL`): the disk's flushes bound both.
public enum KioskBenchmarks {
  public static func run(folder: String, kiosks: Int, checkouts: Int, progress: (String) -> Void) throws
    -> [Measurement]
  {
    let path = folder + "/kiosks.sqlite"
    let store = try LibraryStore(path: path)
    try store.policy.setCategory(
      ReaderCategory(
        code: "bench", name: "Bench", loanDays: 14, loanLimit: 1_000_000, renewalLimit: 9, holdLimit: 10))
    // One reader a kiosk, and a book for each checkout: through SIP2, then directly.
    let perKiosk = max(1, checkouts / kiosks)
    // Then one kiosk alone: a checkout's own time, without fifty others queued before it.
    let alone = min(1000, perKiosk * kiosks)
    progress("making \(kiosks) readers and \(2 * perKiosk * kiosks + alone) books")
    try store.transaction {
      for kiosk in 0..<kiosks {
        var reader = ReaderDraft()
        reader.ticket = "k\(kiosk)"
        reader.surname = "Киосков"
        reader.category = "bench"
        try store.readers.add(reader)
      }
      try store.addingBooksInBulk {
        for number in 0..<(2 * perKiosk * kiosks + alone) {
          var draft = BookDraft()
          draft.inventoryNumber = "b\(number)"
          draft.title = "Книга \(number)"
          try store.books.add(draft)
        }
      }
    }
    guard case .success(let hash) = KioskPassword.hash("bench") else {
      throw BenchmarkError.scenarioFailed("libargon2 made no hash")
    }
    try store.kiosks.add(KioskAccount(name: "bench", location: "MAIN"), passwordHash: hash)
    let server = try SIP2Server(
      host: "127.0.0.1", port: 0, settings: SIP2Server.Settings(path: path, idleSeconds: 60, log: { _ in }))
    BackgroundThread.start { server.run() }
    defer { server.stop() }

    progress("\(kiosks) kiosks checking out \(perKiosk) books each")
    let clients = try (0..<kiosks).map { _ in try KioskClient(server.address) }
    for client in clients {
      guard try client.ask("9300CNbench|CObench|CPMAIN|").hasPrefix("941") else {
        throw BenchmarkError.scenarioFailed("a kiosk could not log in")
      }
    }
    let date = SIP2Date.text(store.clock.now())
    let latencies = Mutex<[Double]>([])
    let refused = Mutex(0)
    let start = monotonicMilliseconds()
    runAtOnce(kiosks) { kiosk in
      var mine: [Double] = []
      for index in 0..<perKiosk {
        let book = "b\(kiosk * perKiosk + index)"
        let began = monotonicMilliseconds()
        let reply = (try? clients[kiosk].ask("11YN\(date)\(SIP2Date.blank)AOMAIN|AAk\(kiosk)|AB\(book)|AC|")) ?? ""
        mine.append(monotonicMilliseconds() - began)
        if !reply.hasPrefix("121") { refused.withLock { $0 += 1 } }
      }
      latencies.withLock { $0 += mine }
    }
    let seconds = (monotonicMilliseconds() - start) / 1000
    guard refused.withLock({ $0 }) == 0 else {
      throw BenchmarkError.scenarioFailed("\(refused.withLock { $0 }) checkouts were refused")
    }
    let done = perKiosk * kiosks
    progress("the same checkouts on the store")
    let readers = try (0..<kiosks).map { kiosk in try store.readers.reader(ticket: "k\(kiosk)") }
    var next = 0
    let directStart = monotonicMilliseconds()
    let direct = try time(done) {
      let kiosk = next % kiosks
      let book = "b\(done + next)"
      next += 1
      guard case .done(.issued) = try store.circulation.circulate(book, reader: readers[kiosk], intent: .issue) else {
        throw BenchmarkError.scenarioFailed("a direct checkout was not made")
      }
    }
    let directSeconds = (monotonicMilliseconds() - directStart) / 1000
    progress("one kiosk alone checking out \(alone) books")
    var first = 2 * done
    let single = try time(alone) {
      let reply = try clients[0].ask("11YN\(date)\(SIP2Date.blank)AOMAIN|AAk0|ABb\(first)|AC|")
      first += 1
      guard reply.hasPrefix("121") else { throw BenchmarkError.scenarioFailed("a checkout was refused: \(reply)") }
    }
    return [
      Measurement(
        scenario: "a checkout through SIP2, one kiosk alone", samples: single,
        baselineName: "the same checkout on the store", baselineSamples: direct),
      Measurement(
        scenario:
          "a checkout through SIP2, \(kiosks) kiosks at once: \(done) in \(format(seconds)) s, "
          + "\(Int(Double(done) / seconds)) a second",
        samples: latencies.withLock { $0 },
        baselineName:
          "the same checkout on the store, one caller: \(Int(Double(done) / directSeconds)) a second",
        baselineSamples: direct),
    ]
  }

  private static func format(_ value: Double) -> String {
    String(Double(Int(value * 100)) / 100)
  }
}
