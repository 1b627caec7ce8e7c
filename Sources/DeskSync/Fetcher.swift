import DeskDomain

/// Reads the central's changes after a cursor, a batch at a time, into a pipe.
final class Fetcher: @unchecked Sendable {
  // Used by one thread at a time: the fetching thread while the pull runs, then the synchronizer.
  let central: CentralConnection
  let batch: Int
  /// Called after each batch fetched.
  let fetched: @Sendable () -> Void

  init(central: CentralConnection, batch: Int, fetched: @escaping @Sendable () -> Void) {
    self.central = central
    self.batch = batch
    self.fetched = fetched
  }

  func run(after start: Int64, into pipe: BatchPipe<PulledChange>) {
    var cursor = start
    do {
      while true {
        let rows = try central.execute(
          """
          SELECT c.seq, c.id::text, c.desk_id::text, coalesce(d.name, ''), c.entity, c.record_id, c.hlc, c.payload::text
          FROM change c LEFT JOIN desk d ON d.id = c.desk_id
          WHERE c.seq > $1 ORDER BY c.seq LIMIT $2
          """, [String(cursor), String(batch)])
        let changes = rows.compactMap { row -> PulledChange? in
          guard row.count == 8, let seq = row[0].flatMap({ Int64($0) }), let id = row[1], let desk = row[2],
            let entity = row[4], let record = row[5], let clock = row[6].flatMap({ Int64($0) }), let payload = row[7]
          else { return nil }
          return PulledChange(
            sequence: seq,
            change: Change(
              id: id, entity: entity, recordID: record, clock: HybridTimestamp(rawValue: clock), deskID: desk,
              payload: payload), deskName: row[3] ?? "")
        }
        guard changes.count == rows.count else {
          throw CentralError.query("the central sent a change that is not whole")
        }
        fetched()
        guard let last = changes.last?.sequence, pipe.send(changes) else { break }
        cursor = last
        if rows.count < batch { break }
      }
      pipe.finish()
    } catch {
      pipe.finish(throwing: error)
    }
  }
}
