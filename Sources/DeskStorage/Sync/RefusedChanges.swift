import DeskDomain

/// Changes that could not be taken: one made here that the central refused, and one pulled from
/// the central that this desk could not apply. Neither stops the sync: each is listed as a
/// conflict of this desk alone, with its reason, and the rest goes on.
extension LibraryStore {
  /// A change of this desk the central refused: it leaves the outbox (no other desk gets it), and
  /// the record's later changes, and the loans and holds of it, wait for a librarian, who corrects
  /// the record and sends it again whole (`Settlement.resend`) or lets the change go (`.drop`).
  func raiseRefused(seq: Int64, reason: String, at now: Timestamp) throws {
    guard
      let change = try database.queryFirst(
        """
        SELECT id, entity, record_id, json_type(payload, '$.created_at') IS NOT NULL, json_object('reason', ?2,
          'by_central', 1, 'creation', json_type(payload, '$.created_at') IS NOT NULL, 'change', id,
          'fields', (SELECT json_group_array(key) FROM json_each(payload)))
        FROM outbox WHERE seq = ?1
        """, seq, reason,
        read: { (id: $0.string(0), entity: $0.string(1), record: $0.string(2), details: $0.string(4)) })
    else { return }
    let key = "refused:" + change.id
    _ = try raiseConflict(
      key: key, kind: .refusedChange, entity: change.entity, record: change.record, other: "", details: change.details,
      now: now)
    let conflict = try database.scalarInt("SELECT id FROM conflict WHERE key = ?", key)
    try database.execute("DELETE FROM outbox WHERE seq = ?", seq)
    try database.execute(
      "UPDATE outbox SET held = ? WHERE entity = ? AND record_id = ? AND held = 0", conflict, change.entity,
      change.record)
  }

  /// A change pulled from the central that this desk cannot apply (it breaks a rule here, or its
  /// record is unknown): set aside with its reason, listed among the conflicts as Evergreen lists
  /// offline exceptions. The rest of the batch applies.
  func setAside(_ pulled: PulledChange, reason: String, now: Timestamp) throws {
    let change = pulled.change
    let details = JSON.object([
      ("reason", .string(reason)), ("by_central", .int(0)), ("desk", .string(pulled.deskName)),
      ("change", .string(change.id)), ("payload", .string(String(change.payload.prefix(10_000)))),
    ]).compact
    _ = try raiseConflict(
      key: "aside:" + change.id, kind: .refusedChange, entity: change.entity, record: change.recordID, other: "",
      details: details, now: now)
  }

  /// Settles a change not taken. `resend`: the record goes to the central again whole, as it
  /// stands now (corrected), and what waited for it follows. `drop`: the change goes nowhere;
  /// what waited for it is sent as it is.
  func settleRefused(_ number: Int, entity: String, record: String, resending: Bool, now: Timestamp) throws {
    let (byCentral, creation) =
      try database.queryFirst(
        """
        SELECT coalesce(json_extract(details, '$.by_central'), 0), coalesce(json_extract(details, '$.creation'), 0)
        FROM conflict WHERE id = ?
        """, number, read: { ($0.int(0) == 1, $0.int(1) == 1) }) ?? (false, false)
    if resending {
      guard byCentral, let table = SyncedTables.table(entity),
        try database.scalarInt("SELECT count(*) FROM \(table.table) WHERE \(table.key) = ?", record) > 0
      else {
        throw StoreError.settlementRefused(number: number, kind: .refusedChange, .doesNotSettle)
      }
      try sync.sendAgainWhole(table, record: record, asCreation: creation, heldBy: number)
    }
    try database.execute(
      "UPDATE conflict SET resolved_at = ?, resolution = ? WHERE id = ?", now.iso,
      resending ? "sent again as it stands" : (byCentral ? "dropped: the other desks never get it" : "left aside"),
      number)
  }
}
