import DeskDomain

/// Holds changed at several desks: a copy put aside at two desks for one hold raised as a
/// conflict, and a copy put aside here for a hold another desk ended given to the next hold (the
/// state itself merges by `HoldStateMerge`, through `FieldMerge`).
extension LibraryStore {
  /// A pulled change that puts a copy aside for a hold for which another copy is put aside here
  /// (or was, and collected): two desks filled the hold while apart, each knowing nothing of the
  /// other (a desk moves a hold from one copy to another only through the queue, copy none).
  /// Both copies sit on hold shelves; a librarian says which one the reader collects. The same
  /// conflict at every desk: named by the hold and the two copies. Returns 1 when raised.
  ///
  /// A hold that ended meanwhile (the reader collected a copy at one desk, or it was cancelled)
  /// needs no librarian: the copy of this desk's shelf that the merge leaves out is `displaced`,
  /// and passed on once the batch is in.
  func noteDoubleTrap(
    _ pulled: PulledChange, fields: [(name: String, value: DatabaseValue)], now: Timestamp,
    displaced: inout [Int64: String]
  ) throws -> Int {
    let change = pulled.change
    guard case .text(let incoming)? = fields.first(where: { $0.name == "trapped_book" })?.value,
      let here = try database.queryFirst(
        """
        SELECT b.uuid, b.inventory, h.waiting_since, coalesce(h.pickup_by, ''),
          CASE WHEN h.pickup_desk <> '' THEN h.pickup_desk ELSE \(HoldStore.thisDesk) END,
          h.state IN ('queued', 'waiting'), b.id, h.pickup_desk = \(HoldStore.thisDesk)
        FROM hold h JOIN book b ON b.id = h.trapped_book_id WHERE h.uuid = ?
        """, change.recordID,
        read: {
          (
            copy: $0.string(0), inventory: $0.string(1), since: $0.optionalString(2) ?? "", pickup: $0.string(3),
            desk: $0.string(4), active: $0.bool(5), row: $0.int64(6), onThisShelf: $0.bool(7)
          )
        }),
      here.copy != incoming
    else { return 0 }
    let endsIt = fields.contains { field in
      guard field.name == "state", case .text(let state) = field.value else { return false }
      return HoldState(rawValue: state)?.isActive == false
    }
    guard here.active && !endsIt else {
      if here.onThisShelf { displaced[here.row] = change.recordID }
      return 0
    }
    let there = try database.queryFirst("SELECT inventory FROM book WHERE uuid = ?", incoming) { $0.string(0) } ?? ""
    let value = { (name: String) -> String in
      guard case .text(let text)? = fields.first(where: { $0.name == name })?.value else { return "" }
      return text
    }
    let sides = [
      (copy: here.copy, inventory: here.inventory, desk: here.desk, at: here.since, pickup: here.pickup),
      (
        copy: incoming, inventory: there, desk: value("pickup_desk").isEmpty ? pulled.deskName : value("pickup_desk"),
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
  /// cancellation here, and the change travels. Only the desk whose shelf the copy is on does it,
  /// so it is done once.
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
            -- put aside here (on this desk's shelf),
            AND h.pickup_desk = \(HoldStore.thisDesk)
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
      var next: HoldTrap?
      try asThisDesk { next = try self.holds.trap(bookRowID: ended.book) }
      moves.append(
        HoldMove(
          inventory: ended.inventory, label: ended.label, fromReader: ended.reader, next: next, cause: .endedElsewhere))
    }
    return moves
  }
}

extension LibraryStore {
  /// Copies put aside twice for one hold, settled here: the reader collects `inventory`. The
  /// settlement says which copy (`holder`: its UUID), and travels; each desk then does what the
  /// standing settlement asks of the copies on its own shelf (`mendTrappedTwice`). Inside
  /// `settle`'s write.
  func settleTrappedTwice(
    _ number: Int, keeping inventory: String, now: Timestamp, refuse: (SettlementRefusal) -> StoreError
  ) throws {
    let copies = try trappedTwiceCopies(conflict: number)
    guard let kept = copies.first(where: { $0.inventory == inventory }) else {
      throw refuse(.notOneOfTheCopies(inventory, copies: copies.map(\.inventory)))
    }
    let others = copies.filter { $0.inventory != inventory }
      .map { "\($0.inventory) goes to the next hold or back to the shelf at desk «\($0.desk)»" }
    let resolution = (["the reader collects \(inventory) (at desk «\(kept.desk)»)"] + others).joined(separator: "; ")
    try database.execute(
      "UPDATE conflict SET resolved_at = ?, resolution = ?, holder = ? WHERE id = ?", now.iso, resolution, kept.copy,
      number)
  }

  /// The copies of a conflict of copies put aside twice, as its details name them.
  private func trappedTwiceCopies(conflict number: Int) throws
    -> [(copy: String, inventory: String, desk: String, at: String, pickup: String)]
  {
    try database.query(
      """
      SELECT json_extract(j.value, '$.copy'), json_extract(j.value, '$.inventory'), json_extract(j.value, '$.desk'),
        json_extract(j.value, '$.at'), json_extract(j.value, '$.pickup_by')
      FROM conflict k, json_each(json_extract(k.details, '$.copies')) j WHERE k.id = ?
      """, number
    ) { ($0.string(0), $0.string(1), $0.string(2), $0.string(3), $0.string(4)) }
  }

  /// What the standing settlement of copies put aside twice asks of this desk, for the copies on
  /// its own shelf: the kept copy's hold waits for it again (through the queue, as a desk moves a
  /// hold, and at this moment's clock, so that it stands over what a settlement that gave way
  /// did), and each other copy, neither out nor waiting for another hold, goes to the next hold
  /// or back to the shelf. Returns where those copies go. Done as this desk's own acts: captured,
  /// and sent on.
  func mendTrappedTwice(conflict key: String, keptCopy: String, now: Timestamp, reassert: Bool = true) throws
    -> [HoldMove]
  {
    guard
      let number = try database.queryFirst(
        "SELECT id FROM conflict WHERE key = ?", key, read: { $0.int(0) }),
      let hold = try database.queryFirst(
        """
        SELECT h.id, h.state, h.label, r.surname, r.first_name, r.patronymic FROM conflict k
          JOIN hold h ON h.uuid = k.record_id JOIN reader r ON r.id = h.reader_id WHERE k.id = ?
        """, number,
        read: {
          (
            id: $0.int(0), state: HoldState(rawValue: $0.string(1)), label: $0.string(2),
            reader: Reader.shortName(surname: $0.string(3), firstName: $0.string(4), patronymic: $0.string(5))
          )
        })
    else { return [] }
    let here = try database.queryFirst("SELECT \(HoldStore.thisDesk)", read: { $0.string(0) }) ?? ""
    var moves: [HoldMove] = []
    try asThisDesk {
      for copy in try trappedTwiceCopies(conflict: number) where copy.desk == here {
        guard let row = try database.queryFirst("SELECT id FROM book WHERE uuid = ?", copy.copy, read: { $0.int64(0) })
        else { continue }
        if copy.copy == keptCopy {
          guard reassert, hold.state?.isActive == true else { continue }
          try database.execute(
            """
            UPDATE hold SET state = 'queued', trapped_book_id = NULL, waiting_since = NULL, pickup_by = NULL,
              pickup_desk = '', updated_at = ? WHERE id = ?
            """, now.iso, hold.id)
          try database.execute(
            """
            UPDATE hold SET state = 'waiting', trapped_book_id = ?, waiting_since = ?, pickup_by = ?,
              pickup_desk = ?, updated_at = ? WHERE id = ?
            """, row, copy.at, copy.pickup.isEmpty ? nil : copy.pickup, here, now.iso, hold.id)
          continue
        }
        // Free unless out, or waiting for a hold other than this one (which the kept copy's desk
        // moves to its copy).
        guard
          try database.scalarInt(
            """
            SELECT (SELECT count(*) FROM loan WHERE book_id = ?1 AND returned_at IS NULL AND deleted = 0)
              + (SELECT count(*) FROM hold WHERE trapped_book_id = ?1 AND state = 'waiting' AND id <> ?2)
            """, row, hold.id) == 0
        else { continue }
        moves.append(
          HoldMove(
            inventory: copy.inventory, label: hold.label, fromReader: hold.reader, next: try holds.trap(bookRowID: row),
            cause: hold.state?.isActive == true ? .settled : .endedElsewhere))
      }
    }
    return moves
  }

  /// Copies of this desk's shelf that the merge took out of holds that ended meanwhile (book row
  /// id → the hold's UUID): each one neither out nor waiting for a hold goes to the next hold, or
  /// back to the shelf.
  func passOn(displaced copies: [Int64: String]) throws -> [HoldMove] {
    var moves: [HoldMove] = []
    for (row, hold) in copies.sorted(by: { $0.key < $1.key }) {
      guard
        let last = try database.queryFirst(
          """
          SELECT b.inventory, h.label, r.surname, r.first_name, r.patronymic FROM book b, hold h
            JOIN reader r ON r.id = h.reader_id
          WHERE b.id = ?1 AND h.uuid = ?2
            AND NOT EXISTS (SELECT 1 FROM loan WHERE book_id = ?1 AND returned_at IS NULL AND deleted = 0)
            AND NOT EXISTS (SELECT 1 FROM hold WHERE trapped_book_id = ?1 AND state = 'waiting')
          """, row, hold,
          read: {
            (
              inventory: $0.string(0), label: $0.string(1),
              reader: Reader.shortName(surname: $0.string(2), firstName: $0.string(3), patronymic: $0.string(4))
            )
          })
      else { continue }
      try asThisDesk {
        moves.append(
          HoldMove(
            inventory: last.inventory, label: last.label, fromReader: last.reader, next: try holds.trap(bookRowID: row),
            cause: .endedElsewhere))
      }
    }
    return moves
  }

  /// Open conflicts of copies put aside twice that the holds themselves have settled: the hold
  /// ended (its reader collected a copy at one desk, or it was cancelled), or it waits for one of
  /// the copies while every other one is out or waits for another hold. Marked settled here, as
  /// at every desk that finds it so; the copies of this desk's shelf left free move on.
  func settleTrappedTwiceByTheHolds(now: Timestamp) throws -> [HoldMove] {
    let open = try database.query(
      """
      SELECT k.id, k.key, h.state, coalesce((SELECT uuid FROM book WHERE id = h.trapped_book_id), ''),
        (SELECT count(*) FROM json_each(json_extract(k.details, '$.copies')) j
          JOIN book b ON b.uuid = json_extract(j.value, '$.copy')
          WHERE b.id IS NOT h.trapped_book_id
            AND NOT EXISTS (SELECT 1 FROM loan l WHERE l.book_id = b.id AND l.returned_at IS NULL AND l.deleted = 0)
            AND NOT EXISTS (SELECT 1 FROM hold o WHERE o.trapped_book_id = b.id AND o.state = 'waiting' AND o.id <> h.id))
      FROM conflict k JOIN hold h ON h.uuid = k.record_id
      WHERE k.kind = 'trapped_twice' AND k.resolved_at IS NULL
      """
    ) {
      (
        number: $0.int(0), key: $0.string(1), state: HoldState(rawValue: $0.string(2)), copy: $0.string(3),
        loose: $0.int(4)
      )
    }
    var moves: [HoldMove] = []
    for conflict in open {
      let resolution: String
      let kept: String
      if let state = conflict.state, !state.isActive {
        resolution = "the hold ended (\(state.rawValue)) before it was settled"
        kept = ""
      } else if conflict.state == .waiting, conflict.loose == 0 {
        let inventory =
          try database.queryFirst("SELECT inventory FROM book WHERE uuid = ?", conflict.copy) {
            $0.string(0)
          } ?? conflict.copy
        resolution = "the reader collects \(inventory); the other copies went on"
        kept = conflict.copy
      } else {
        continue
      }
      // The holder says the holds settled it, so that no desk moves the hold to the copy again.
      try database.execute(
        "UPDATE conflict SET resolved_at = ?, resolution = ?, holder = ? WHERE id = ?", now.iso, resolution,
        LibraryStore.settledByTheHolds + kept, conflict.number)
      moves += try mendTrappedTwice(conflict: conflict.key, keptCopy: kept, now: now, reassert: false)
    }
    return moves
  }

  /// The start of the holder of a conflict of copies put aside twice that the holds settled.
  static let settledByTheHolds = "by-holds:"
}
