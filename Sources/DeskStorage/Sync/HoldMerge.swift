import DeskDomain

/// Holds changed at several desks: the state merged so that an end stands, a copy put aside at
/// two desks for one hold raised as a conflict, and a copy put aside here for a hold another desk
/// ended given to the next hold.
extension LibraryStore {
  /// Whether a pulled change's state of a hold replaces the one here (`HoldStateMerge`): `pending`
  /// is the clock of this desk's own change of the state not yet at the central.
  func holdState(of change: Change, becomes value: DatabaseValue, pending: Int64?, deskID: String) throws -> Bool {
    guard case .text(let text) = value, let incoming = HoldState(rawValue: text) else {
      throw StoreError.badChange("change \(change.id) (hold \(change.recordID)): «\(value)» is not a state of a hold")
    }
    guard
      let state = try database.queryFirst(
        "SELECT state FROM hold WHERE uuid = ?", change.recordID, read: { HoldState(rawValue: $0.string(0)) }),
      let state
    else { return true }
    let known: (clock: Int64, desk: String)? =
      try pending.map { ($0, deskID) }
      ?? database.queryFirst(
        "SELECT hlc, desk FROM field_clock WHERE entity = 'hold' AND record_id = ? AND field = 'state'",
        change.recordID, read: { ($0.int64(0), $0.string(1)) })
    return HoldStateMerge.replaces(
      .init(state: state, clock: known?.clock ?? 0, desk: known?.desk ?? ""),
      with: .init(state: incoming, clock: change.clock.rawValue, desk: change.deskID))
  }

  /// A pulled change that puts a copy aside for a hold for which another copy is put aside here
  /// (or was, and collected): two desks filled the hold while apart, each knowing nothing of the
  /// other (a desk moves a hold from one copy to another only through the queue, copy none).
  /// Both copies sit on hold shelves; a librarian says which one the reader collects. The same
  /// conflict at every desk: named by the hold and the two copies. Returns 1 when raised.
  func noteDoubleTrap(_ pulled: PulledChange, fields: [(name: String, value: DatabaseValue)], now: Timestamp) throws
    -> Int
  {
    let change = pulled.change
    guard case .text(let incoming)? = fields.first(where: { $0.name == "trapped_book" })?.value,
      let here = try database.queryFirst(
        """
        SELECT b.uuid, b.inventory, h.waiting_since, coalesce(h.pickup_by, ''),
          -- the desk that put it aside: this one, unless the central has another's trap of it
          CASE WHEN EXISTS (SELECT 1 FROM temp.pending_field p WHERE p.entity = 'hold' AND p.record_id = h.uuid
              AND p.field = 'trapped_book') THEN d.desk_name
            ELSE coalesce((SELECT CASE WHEN c.desk = d.desk_id THEN d.desk_name ELSE coalesce(p.name, c.desk) END
              FROM field_clock c LEFT JOIN sync_peer p ON p.desk_id = c.desk
              WHERE c.entity = 'hold' AND c.record_id = h.uuid AND c.field = 'trapped_book'), d.desk_name) END
        FROM hold h JOIN book b ON b.id = h.trapped_book_id, sync_desk d WHERE h.uuid = ? AND d.id = 1
        """, change.recordID,
        read: {
          (
            copy: $0.string(0), inventory: $0.string(1), since: $0.optionalString(2) ?? "", pickup: $0.string(3),
            desk: $0.string(4)
          )
        }),
      here.copy != incoming
    else { return 0 }
    let there = try database.queryFirst("SELECT inventory FROM book WHERE uuid = ?", incoming) { $0.string(0) } ?? ""
    let value = { (name: String) -> String in
      guard case .text(let text)? = fields.first(where: { $0.name == name })?.value else { return "" }
      return text
    }
    let sides = [
      (copy: here.copy, inventory: here.inventory, desk: here.desk, at: here.since, pickup: here.pickup),
      (
        copy: incoming, inventory: there, desk: pulled.deskName,
        at: value("waiting_since").isEmpty ? change.clock.timestamp.iso : value("waiting_since"),
        pickup: value("pickup_by")
      ),
    ].sorted { ($0.at, $0.inventory) < ($1.at, $1.inventory) }
    let copies = try sides.map { side in
      try database.queryFirst(
        "SELECT json_object('copy', ?, 'inventory', ?, 'desk', ?, 'at', ?, 'pickup_by', ?)", side.copy,
        side.inventory, side.desk, side.at, side.pickup, read: { $0.string(0) }) ?? "{}"
    }
    let details =
      try database.queryFirst(
        """
        SELECT json_object('ticket', r.ticket, 'label', h.label, 'copies', json(?))
        FROM hold h JOIN reader r ON r.id = h.reader_id WHERE h.uuid = ?
        """, "[" + copies.joined(separator: ",") + "]", change.recordID, read: { $0.string(0) }) ?? "{}"
    return try raiseConflict(
      key: "trapped-twice:" + change.recordID + ":" + sides.map(\.copy).sorted().joined(separator: ","),
      kind: .trappedTwice, entity: "hold", record: change.recordID, other: sides.map(\.copy).joined(separator: ","),
      details: details, now: now)
  }

  /// Holds that changes from other desks ended while a copy waited for them on this desk's hold
  /// shelf: the copy goes to the next hold of its queue, or back to the shelf, as at a
  /// cancellation here, and the change travels. Only the desk that put the copy aside does it
  /// (the one whose shelf the copy is on), so it is done once.
  func reconcileHolds(_ holds: [String], deskID: String) throws -> [HoldMove] {
    var moves: [HoldMove] = []
    for uuid in holds {
      guard
        let ended = try database.queryFirst(
          """
          SELECT h.trapped_book_id, b.inventory, h.label, r.surname, r.first_name, r.patronymic
          FROM hold h JOIN book b ON b.id = h.trapped_book_id JOIN reader r ON r.id = h.reader_id
          WHERE h.uuid = ?1 AND h.state IN ('fulfilled', 'cancelled', 'expired')
            -- ended at another desk,
            AND EXISTS (SELECT 1 FROM field_clock c WHERE c.entity = 'hold' AND c.record_id = ?1
                  AND c.field = 'state' AND c.desk <> ?2)
            AND NOT EXISTS (SELECT 1 FROM temp.pending_field p WHERE p.entity = 'hold' AND p.record_id = ?1
                  AND p.field = 'state')
            -- put aside here,
            AND (EXISTS (SELECT 1 FROM field_clock c WHERE c.entity = 'hold' AND c.record_id = ?1
                  AND c.field = 'trapped_book' AND c.desk = ?2)
              OR EXISTS (SELECT 1 FROM temp.pending_field p WHERE p.entity = 'hold' AND p.record_id = ?1
                  AND p.field = 'trapped_book'))
            -- and neither collected nor waiting for a hold since.
            AND NOT EXISTS (SELECT 1 FROM loan l WHERE l.book_id = h.trapped_book_id AND l.returned_at IS NULL
                  AND l.deleted = 0)
            AND NOT EXISTS (SELECT 1 FROM hold o WHERE o.trapped_book_id = h.trapped_book_id AND o.state = 'waiting')
            AND NOT EXISTS (SELECT 1 FROM hold o WHERE o.trapped_book_id = h.trapped_book_id AND o.id <> h.id
                  AND o.waiting_since > h.waiting_since)
          """, uuid, deskID,
          read: {
            (
              book: $0.int64(0), inventory: $0.string(1), label: $0.string(2),
              reader: Reader.shortName(surname: $0.string(3), firstName: $0.string(4), patronymic: $0.string(5))
            )
          })
      else { continue }
      // Done as this desk's own act: captured, and sent on.
      try database.execute("UPDATE sync_desk SET applying = 0 WHERE id = 1")
      let next = try trap(bookRowID: ended.book)
      try database.execute("UPDATE sync_desk SET applying = 1 WHERE id = 1")
      moves.append(HoldMove(inventory: ended.inventory, label: ended.label, fromReader: ended.reader, next: next))
    }
    return moves
  }
}

extension LibraryStore {
  /// Copies put aside twice for one hold, settled: the hold keeps `inventory` (the copy the
  /// reader collects) while it waits; each other copy, neither out nor waiting for another hold,
  /// goes to the next hold of its queue or back to the shelf. Inside `settle`'s write.
  func settleTrappedTwice(
    _ number: Int, hold uuid: String, keeping inventory: String, now: Timestamp,
    refuse: (SettlementRefusal) -> StoreError
  ) throws {
    let copies = try database.query(
      """
      SELECT json_extract(j.value, '$.copy'), json_extract(j.value, '$.inventory'), json_extract(j.value, '$.at'),
        json_extract(j.value, '$.pickup_by'), b.id
      FROM conflict k, json_each(json_extract(k.details, '$.copies')) j
        LEFT JOIN book b ON b.uuid = json_extract(j.value, '$.copy')
      WHERE k.id = ?
      """, number
    ) { (inventory: $0.string(1), at: $0.string(2), pickup: $0.string(3), row: $0.optionalInt(4).map(Int64.init)) }
    guard let kept = copies.first(where: { $0.inventory == inventory }), let keptRow = kept.row else {
      throw refuse(.notOneOfTheCopies(inventory, copies: copies.map(\.inventory)))
    }
    guard
      let hold = try database.queryFirst(
        "SELECT id, state, trapped_book_id FROM hold WHERE uuid = ?", uuid,
        read: { (id: $0.int(0), state: $0.string(1), trapped: $0.optionalInt(2).map(Int64.init)) })
    else { throw refuse(.recordGone) }
    if hold.state == HoldState.waiting.rawValue && hold.trapped != keptRow {
      // From one copy to another through the queue, as a desk does it: another desk that hears
      // of it sees no copy put aside twice.
      try database.execute(
        """
        UPDATE hold SET state = 'queued', trapped_book_id = NULL, waiting_since = NULL, pickup_by = NULL,
          updated_at = ? WHERE id = ?
        """, now.iso, hold.id)
      try database.execute(
        """
        UPDATE hold SET state = 'waiting', trapped_book_id = ?, waiting_since = ?, pickup_by = ?, updated_at = ?
        WHERE id = ?
        """, keptRow, kept.at, kept.pickup.isEmpty ? nil : kept.pickup, now.iso, hold.id)
    }
    var outcomes = ["the reader collects \(inventory)"]
    for other in copies where other.inventory != inventory {
      guard let row = other.row,
        try database.scalarInt(
          """
          SELECT (SELECT count(*) FROM loan WHERE book_id = ?1 AND returned_at IS NULL AND deleted = 0)
            + (SELECT count(*) FROM hold WHERE trapped_book_id = ?1 AND state = 'waiting')
          """, row) == 0
      else { continue }
      if let next = try trap(bookRowID: row) {
        outcomes.append("\(other.inventory) put aside for \(next.readerName) (ticket \(next.readerTicket))")
      } else {
        outcomes.append("\(other.inventory) back on the shelf")
      }
    }
    try database.execute(
      "UPDATE conflict SET resolved_at = ?, resolution = ? WHERE id = ?", now.iso, outcomes.joined(separator: "; "),
      number)
  }
}
