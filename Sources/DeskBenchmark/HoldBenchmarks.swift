import DeskDomain
@_spi(Connection) import DeskStorage

enum HoldBenchmarks {
  /// How many readers queue for the held copy.
  static let queueLength = 1000

  /// A durable return of a copy that a thousand readers queue for (the first gets it on the
  /// hold shelf), against the return of a copy nobody holds. Between returns, the copy goes to
  /// the reader it was put aside for, so the queue stays near a thousand. The holds and the
  /// loans are removed at the end: the catalogue is left as it was found, for the next run.
  static func returnWithAQueue(store: LibraryStore, repeats: Int) throws -> Measurement {
    try store.policy.setCategory(
      ReaderCategory(
        code: "bench", name: "Bench", loanDays: 14, loanLimit: 1_000_000, renewalLimit: 9, holdLimit: 1_000_000))
    let tickets = (0...queueLength).map { "bench-hold-\($0)" }
    for ticket in tickets where try store.readers.reader(ticket: ticket) == nil {
      var draft = ReaderDraft()
      draft.ticket = ticket
      draft.surname = "Очередников"
      draft.category = "bench"
      try store.readers.add(draft)
    }
    var policy = try store.policy.current()
    policy.blockOnOverdue = false
    try store.policy.setCurrent(policy)
    let shelf = try store.books.page(filter: .available, limit: 2).map(\.book.inventoryNumber)
    guard shelf.count == 2 else { throw BenchmarkError.scenarioFailed("two books on the shelf were not found") }
    let (held, free) = (shelf[0], shelf[1])
    try store.circulation.issue(ticket: tickets[0], inventories: [held])
    try store.transaction {
      for ticket in tickets.dropFirst() { try store.holds.place(ticket: ticket, on: .copy(held)) }
    }
    defer {
      // Leave the catalogue as it was: no holds of the bench's readers, nothing out to them.
      _ = try? store.database.inTransaction {
        try store.database.execute(
          "DELETE FROM hold WHERE reader_id IN (SELECT id FROM reader WHERE ticket LIKE 'bench-hold-%')")
      }
      _ = try? store.circulation.returnBooks(inventories: [held])
    }
    let count = min(repeats, queueLength / 2)
    var queued: [Double] = []
    var holder = tickets[0]
    for _ in 0..<count {
      var trap: HoldTrap?
      queued += try time(1) { trap = try store.circulation.returnBooks(inventories: [held]).first?.heldFor }
      guard let next = trap?.readerTicket, next != holder else {
        throw BenchmarkError.scenarioFailed("the returned copy went to no hold")
      }
      holder = next
      try store.circulation.issue(ticket: holder, inventories: [held])
    }
    var none: [Double] = []
    for _ in 0..<count {
      try store.circulation.issue(ticket: tickets[0], inventories: [free])
      none += try time(1) { _ = try store.circulation.returnBooks(inventories: [free]) }
    }
    return Measurement(
      scenario: "durable return of a copy \(queueLength) readers queue for (put aside for the first)",
      samples: queued, baselineName: "the same return of a copy nobody holds", baselineSamples: none)
  }
}
