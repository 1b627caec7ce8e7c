import DeskDomain

/// Changes made here, in the order they were made, on their way to the central.
public struct OutboxBatch: Sendable {
  /// A JSON array of changes (`id`, `entity`, `record_id`, `hlc`, `payload`), as the central's
  /// `circdesk_push` takes it.
  public let json: String
  public let count: Int
  /// Where each change of the batch sits in the outbox.
  let sequences: [String: Int64]
}

/// What the central said of one change sent to it.
public enum PushOutcome: Hashable, Sendable {
  /// Taken (or taken already by an earlier attempt whose answer was lost).
  case accepted
  /// Refused: its inventory number or ticket belongs to another record at the central.
  case clash(otherRecord: String, otherDesk: String)
  /// Not sent on: it depends on a record refused earlier in the same batch.
  case held(dependsOn: String)
  /// Refused: it breaks a rule of its fields, names a record the central does not know, or its
  /// clock is ahead of the central's. It goes no further; the desk lists it.
  case invalid(reason: String)
}

extension SyncStore {
  /// The next changes to send, oldest first; nil when none is waiting. Changes of a record whose
  /// number clashes at the central, and loans that depend on such a record, wait until a librarian
  /// settles the clash.
  public func outboxBatch(limit: Int) throws(StoreError) -> OutboxBatch? {
    try write {
      try releaseSettledClashes()
      try holdDependents()
      var sequences: [String: Int64] = [:]
      try database.forEachRow("SELECT id, seq FROM outbox WHERE held = 0 ORDER BY seq LIMIT ?", limit) { row in
        sequences[row.string(0)] = row.int64(1)
      }
      guard !sequences.isEmpty else { return nil }
      let json =
        try database.queryFirst(
          """
          SELECT json_group_array(json_object('id', id, 'entity', entity, 'record_id', record_id,
            'hlc', hlc, 'payload', json(payload)))
          FROM (SELECT * FROM outbox WHERE held = 0 ORDER BY seq LIMIT ?)
          """, limit
        ) { $0.string(0) } ?? "[]"
      return OutboxBatch(json: json, count: sequences.count, sequences: sequences)
    }
  }

  /// Takes in what the central said of each change sent: taken changes leave the outbox; a clash
  /// raises a conflict and holds the record's changes back.
  public func acknowledge(_ outcomes: [(changeID: String, outcome: PushOutcome)], of batch: OutboxBatch)
    throws(StoreError)
  {
    let now = clock.now().instant
    try write {
      // The clock's last reading stays when the outbox empties: the newest change taken is kept.
      // (Read from the rows taken: the outbox has no index of clocks, and reading its newest
      // clock whole each batch took 30–80 ms of a batch of 500 while a desk sent 125,000.)
      var newestTaken: Int64 = 0
      let taken = try takeAccepted(outcomes, of: batch, newest: &newestTaken)
      for (changeID, outcome) in outcomes {
        if case .accepted = outcome, let seq = batch.sequences[changeID], taken.contains(seq) { continue }
        // The outbox has no index of change ids (one index less to write with every change):
        // the batch says where each sits, unless a settled clash moved it meanwhile.
        guard
          let seq = try batch.sequences[changeID].flatMap({ seq in
            try database.queryFirst("SELECT seq FROM outbox WHERE seq = ? AND id = ?", seq, changeID) { $0.int64(0) }
          }) ?? database.queryFirst("SELECT seq FROM outbox WHERE id = ?", changeID, read: { $0.int64(0) })
        else { continue }
        switch outcome {
        case .accepted:
          try keepClocks(ofChangesWhere: "o.seq = ?", seq)
          let clock = try database.queryFirst("DELETE FROM outbox WHERE seq = ? RETURNING hlc", seq) { $0.int64(0) }
          newestTaken = max(newestTaken, clock ?? 0)
        case .clash(let other, let otherDesk):
          try raiseClash(seq: seq, otherRecord: other, otherDesk: otherDesk, at: now)
        case .invalid(let reason):
          try store.raiseRefused(seq: seq, reason: reason, at: now)
        case .held(let record):
          // Waiting for a clashing record, or for a loan that waits for one.
          let conflict = try database.scalarInt(
            """
            SELECT coalesce(
              (SELECT id FROM conflict k WHERE record_id = ?1 AND \(SyncStore.holdingConflict) AND resolved_at IS NULL),
              (SELECT max(held) FROM outbox WHERE record_id = ?1 AND held <> 0), -1)
            """, record)
          try database.execute("UPDATE outbox SET held = ? WHERE seq = ?", conflict, seq)
        }
      }
      try database.execute("UPDATE sync_desk SET hlc = max(hlc, ?) WHERE id = 1", newestTaken)
    }
  }

  /// Takes the accepted changes that sit where the batch says out of the outbox, their fields'
  /// clocks kept, by a statement each for all of them (a change at a time, three statements each
  /// took about 2 s of a desk sending 125,000); says which. Taken before the batch's other
  /// outcomes, as one at a time in order would: no change of a record refused in the batch is
  /// accepted after it.
  private func takeAccepted(
    _ outcomes: [(changeID: String, outcome: PushOutcome)], of batch: OutboxBatch, newest: inout Int64
  ) throws -> Set<Int64> {
    try database.executeScript(
      """
      CREATE TEMP TABLE IF NOT EXISTS outbox_taken (seq INTEGER PRIMARY KEY, id TEXT NOT NULL);
      DELETE FROM temp.outbox_taken;
      """)
    for (changeID, outcome) in outcomes {
      guard case .accepted = outcome, let seq = batch.sequences[changeID] else { continue }
      try database.execute("INSERT OR IGNORE INTO temp.outbox_taken(seq, id) VALUES (?, ?)", seq, changeID)
    }
    // Only rows still there with the same change: a settled clash may have moved one meanwhile.
    let there = "SELECT t.seq FROM temp.outbox_taken t JOIN outbox o ON o.seq = t.seq AND o.id = t.id"
    try keepClocks(ofChangesWhere: "o.seq IN (\(there))")
    var taken: Set<Int64> = []
    try database.forEachRow("DELETE FROM outbox WHERE seq IN (\(there)) RETURNING seq, hlc") { row in
      taken.insert(row.int64(0))
      newest = max(newest, row.int64(1))
    }
    return taken
  }

  /// The clocks of the fields a change of this desk set, once the central has it: a change from
  /// another desk with an older clock leaves those fields alone. (While the change waits in the
  /// outbox, its clock is read there.) The creation of a record with a UUID needs none: no other
  /// desk can have changed the record before it.
  private func keepClocks(ofChangesWhere condition: String, _ arguments: any DatabaseValueConvertible...) throws {
    try database.execute(
      """
      INSERT INTO field_clock(entity, record_id, field, hlc, desk)
        SELECT o.entity, o.record_id, j.key, o.hlc, d.desk_id FROM outbox o, json_each(o.payload) j, sync_desk d
        WHERE \(condition) AND d.id = 1
          AND NOT (o.entity IN (\(SyncedTables.uuidEntities)) AND json_type(o.payload, '$.created_at') IS NOT NULL)
        ORDER BY o.seq
      ON CONFLICT (entity, record_id, field) DO UPDATE SET hlc = excluded.hlc, desk = excluded.desk
        WHERE (excluded.hlc, excluded.desk) > (field_clock.hlc, field_clock.desk)
      """, arguments: arguments)
  }

  private func raiseClash(seq: Int64, otherRecord: String, otherDesk: String, at now: Timestamp) throws {
    guard
      let (entity, record) = try database.queryFirst(
        "SELECT entity, record_id FROM outbox WHERE seq = ?", seq, read: { ($0.string(0), $0.string(1)) }),
      let kind = RecordKind(rawValue: entity)
    else { return }
    try markClash(entity: kind, record: record, otherRecord: otherRecord, otherDesk: otherDesk, now: now)
  }

  /// Marks a book or reader of this desk whose number the central gave to another record first:
  /// it keeps the number, marked, and its changes wait for a librarian to give it another.
  func markClash(entity: RecordKind, record: String, otherRecord: String, otherDesk: String, now: Timestamp) throws {
    let isBook = entity == .book
    let number = try database.queryFirst(
      isBook ? "SELECT inventory, title FROM book WHERE uuid = ?" : "SELECT ticket, surname FROM reader WHERE uuid = ?",
      record
    ) { (number: $0.string(0), name: $0.string(1)) }
    let details = JSON.object([
      ("number", .string(number?.number ?? "")), ("name", .string(number?.name ?? "")),
      ("other_desk", .string(otherDesk)),
    ]).compact
    let key = "clash:" + record + ":" + (number?.number ?? "")
    _ = try store.raiseConflict(
      key: key, kind: isBook ? .inventory : .ticket, entity: entity.rawValue, record: record, other: otherRecord,
      details: details, now: now)
    let conflict = try database.scalarInt("SELECT id FROM conflict WHERE key = ?", key)
    try database.execute("UPDATE \(isBook ? "book" : "reader") SET clash = id WHERE uuid = ? AND clash = 0", record)
    try database.execute("UPDATE outbox SET held = ? WHERE entity = ? AND record_id = ?", conflict, entity, record)
  }

  /// The conflicts that hold a record's changes back, `k` a conflict: a number that clashes, and a
  /// change of this desk the central refused.
  static let holdingConflict = """
    (k.kind IN ('inventory', 'ticket') OR (k.kind = 'refused_change' AND json_extract(k.details, '$.by_central') = 1))
    """

  /// Holds back what depends on a record whose number clashes: its later changes, and loans and
  /// holds of it.
  private func holdDependents() throws {
    guard
      try database.scalarInt(
        "SELECT count(*) FROM conflict k WHERE resolved_at IS NULL AND \(SyncStore.holdingConflict)") > 0
    else { return }
    try database.execute(
      """
      UPDATE outbox AS o SET held = (SELECT k.id FROM conflict k WHERE k.resolved_at IS NULL
          AND \(SyncStore.holdingConflict)
          AND ((k.entity = o.entity AND k.record_id = o.record_id)
            OR (o.entity IN ('loan', 'hold', 'visit', 'stocktake_scan') AND k.record_id IN (json_extract(o.payload, '$.book'),
              json_extract(o.payload, '$.reader'), json_extract(o.payload, '$.trapped_book')))))
      WHERE o.held = 0 AND EXISTS (SELECT 1 FROM conflict k WHERE k.resolved_at IS NULL
          AND \(SyncStore.holdingConflict)
          AND ((k.entity = o.entity AND k.record_id = o.record_id)
            OR (o.entity IN ('loan', 'hold', 'visit', 'stocktake_scan') AND k.record_id IN (json_extract(o.payload, '$.book'),
              json_extract(o.payload, '$.reader'), json_extract(o.payload, '$.trapped_book')))))
      """)
    // A renewal of a held loan waits with it.
    try database.execute(
      """
      UPDATE outbox AS o SET held = (SELECT max(h.held) FROM outbox h
          WHERE h.held <> 0 AND h.entity = 'loan' AND h.record_id = json_extract(o.payload, '$.loan'))
      WHERE o.held = 0 AND o.entity = 'renewal' AND EXISTS (SELECT 1 FROM outbox h WHERE h.held <> 0
          AND h.entity = 'loan' AND h.record_id = json_extract(o.payload, '$.loan'))
      """)
    // A part or scan of a held check waits with it.
    try database.execute(
      """
      UPDATE outbox AS o SET held = (SELECT max(h.held) FROM outbox h
          WHERE h.held <> 0 AND h.entity = 'stocktake' AND h.record_id = json_extract(o.payload, '$.stocktake'))
      WHERE o.held = 0 AND o.entity IN ('stocktake_part', 'stocktake_scan') AND EXISTS (SELECT 1 FROM outbox h
          WHERE h.held <> 0 AND h.entity = 'stocktake' AND h.record_id = json_extract(o.payload, '$.stocktake'))
      """)
    // Later changes of a held loan, hold, visit, renewal or check wait with its first.
    try database.execute(
      """
      UPDATE outbox AS o SET held = (SELECT max(h.held) FROM outbox h
          WHERE h.held <> 0 AND h.entity = o.entity AND h.record_id = o.record_id)
      WHERE o.held = 0 AND EXISTS (SELECT 1 FROM outbox h WHERE h.held <> 0 AND h.entity = o.entity
          AND h.record_id = o.record_id)
      """)
  }

  /// Sends a record to the central again whole, as it stands now, with a new clock: as a creation
  /// when the central never took it, else as a change of every field. What waited for it (held
  /// by `conflict`) follows in its order: a change never goes before the record's creation.
  func sendAgainWhole(_ table: SyncedTable, record: String, asCreation: Bool, heldBy conflict: Int) throws {
    try database.execute(
      "UPDATE sync_desk SET hlc = max(hlc, coalesce((SELECT max(hlc) FROM outbox), 0)) WHERE id = 1")
    try database.execute("DELETE FROM outbox WHERE entity = ? AND record_id = ?", table.entity, record)
    let reading = try database.scalarInt("SELECT \(SyncedTables.nextClock)")
    try database.execute(SyncedTables.snapshot(of: table, oneKey: true, asCreation: asCreation), reading, record)
    // What waited for it, and whatever else was done since to the same records (a return of a
    // loan held back).
    let waiting = try database.query(
      """
      SELECT seq FROM outbox WHERE held = ?1
        OR (entity, record_id) IN (SELECT entity, record_id FROM outbox WHERE held = ?1) ORDER BY seq
      """, conflict
    ) { $0.int64(0) }
    for seq in waiting {
      try database.execute("UPDATE outbox SET seq = (SELECT max(seq) + 1 FROM outbox), held = 0 WHERE seq = ?", seq)
    }
  }

  /// A clash is settled when the record was given another number (or deleted): the record goes to
  /// the central again whole, as it stands now, and what waited for it follows.
  func releaseSettledClashes() throws {
    let open = try database.query(
      """
      SELECT k.id, k.entity, k.record_id, json_extract(k.details, '$.number'),
        coalesce(b.inventory, r.ticket), coalesce(b.deleted, r.deleted, 1)
      FROM conflict k LEFT JOIN book b ON k.entity = 'book' AND b.uuid = k.record_id
        LEFT JOIN reader r ON k.entity = 'reader' AND r.uuid = k.record_id
      WHERE k.resolved_at IS NULL AND k.kind IN ('inventory', 'ticket')
      """
    ) {
      (
        id: $0.int(0), entity: $0.string(1), record: $0.string(2), refused: $0.string(3), now: $0.string(4),
        deleted: $0.bool(5)
      )
    }
    for clash in open where clash.now != clash.refused || clash.deleted {
      guard let table = SyncedTables.table(clash.entity) else { continue }
      // Made here and never taken by the central, the record goes as a creation; known there
      // (only a change of its number clashed), as a change of every field.
      let unknown =
        try database.scalarInt(
          """
          SELECT count(*) FROM outbox WHERE entity = ? AND record_id = ? AND held <> 0
            AND json_type(payload, '$.created_at') IS NOT NULL
          """, clash.entity, clash.record) > 0
      try sendAgainWhole(table, record: clash.record, asCreation: unknown, heldBy: clash.id)
      let resolution =
        clash.deleted ? "deleted here" : "renumbered here: \(clash.now)"
      try database.execute(
        "UPDATE conflict SET resolved_at = ?, resolution = ? WHERE id = ?", clock.now().instant.iso, resolution,
        clash.id)
      try database.execute("UPDATE \(table.table) SET clash = 0 WHERE uuid = ?", clash.record)
    }
    // Anything still held for a conflict no longer open goes out after the rest. (Looked for
    // through the held changes' index first: the search by record reads the whole outbox, which
    // took 37 ms of every batch of 500 while a desk sent a library of 125,000 records.)
    guard
      try database.scalarInt(
        "SELECT count(*) FROM outbox WHERE held <> 0 AND held NOT IN (SELECT id FROM conflict WHERE resolved_at IS NULL)"
      ) > 0
    else { return }
    let orphans = try database.query(
      """
      SELECT seq FROM outbox WHERE (entity, record_id) IN (SELECT entity, record_id FROM outbox
        WHERE held <> 0 AND held NOT IN (SELECT id FROM conflict WHERE resolved_at IS NULL)) ORDER BY seq
      """
    ) { $0.int64(0) }
    for seq in orphans {
      try database.execute("UPDATE outbox SET seq = (SELECT max(seq) + 1 FROM outbox), held = 0 WHERE seq = ?", seq)
    }
  }
}
