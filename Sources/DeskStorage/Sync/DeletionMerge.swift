import DeskDomain

/// Deletions meeting edits: the deletion stands, and an edit it overruled is a conflict for a
/// librarian to turn into a restore, the same at every desk.
extension LibraryStore {
  /// Deletions in the central's order (the same at every desk): an edit of a record that another
  /// desk deleted before it reached the central is a conflict, for a librarian to turn into a
  /// restore, and so is an edit made later than a deletion that reaches the central after it (the
  /// edit's field clocks are later than the deletion's). The deletion stands.
  func noteDeletion(_ pulled: PulledChange, deleted: DatabaseValue?, now: Timestamp) throws -> Int {
    let change = pulled.change
    switch deleted {
    case .integer(1)?:
      try database.execute(
        "INSERT OR REPLACE INTO sync_tombstone(entity, record_id, desk_id, change_id) VALUES (?, ?, ?, ?)",
        change.entity, change.recordID, change.deskID, change.id)
      return try noteEditsLaterThan(pulled, now: now)
    case .integer(0)?:
      try database.execute(
        "DELETE FROM sync_tombstone WHERE entity = ? AND record_id = ?", change.entity, change.recordID)
      return 0
    default:
      guard
        let deleter = try database.queryFirst(
          """
          SELECT t.desk_id, coalesce(p.name, ''), t.change_id FROM sync_tombstone t
            LEFT JOIN sync_peer p ON p.desk_id = t.desk_id
          WHERE t.entity = ? AND t.record_id = ?
          """, change.entity, change.recordID, read: { (id: $0.string(0), name: $0.string(1), change: $0.string(2)) }),
        deleter.id != change.deskID
      else { return 0 }
      let details =
        try database.queryFirst(
          "SELECT json_object('fields', json(?), 'desk', ?, 'at', ?, 'deleted_by', ?)", change.payload, pulled.deskName,
          change.clock.timestamp.iso, deleter.name
        ) { $0.string(0) } ?? "{}"
      // Named by the deletion: one conflict of a deletion and the edits after it, the same at the
      // desk that hears of the edit first and at the one that hears of the deletion first.
      return try raiseConflict(
        key: "edit-after-delete:" + (deleter.change.isEmpty ? change.id : deleter.change), kind: .editAfterDelete,
        entity: change.entity, record: change.recordID, other: change.id, details: details, now: now)
    }
  }

  /// A deletion that reaches the central after another desk's later edit of the record: the
  /// edit's fields, as they stand, are listed in a conflict (the same at every desk, which all
  /// hold the same field clocks by then).
  func noteEditsLaterThan(_ pulled: PulledChange, now: Timestamp) throws -> Int {
    let change = pulled.change
    guard let table = SyncedTables.table(change.entity) else { return 0 }
    let later = try database.query(
      """
      SELECT f.field, f.hlc, coalesce(p.name, (SELECT desk_name FROM sync_desk WHERE desk_id = f.desk), '')
      FROM field_clock f LEFT JOIN sync_peer p ON p.desk_id = f.desk
      WHERE f.entity = ? AND f.record_id = ? AND f.hlc > ? AND f.desk <> ? AND f.field <> 'deleted'
      ORDER BY f.hlc, f.field
      """, change.entity, change.recordID, change.clock.rawValue, change.deskID
    ) { (field: $0.string(0), clock: HybridTimestamp(rawValue: $0.int64(1)), desk: $0.string(2)) }
    guard let last = later.last else { return 0 }
    var fields: [String] = []
    for field in later.map(\.field) where table.field(field) != nil {
      guard let column = table.field(field)?.column else { continue }
      // A reference (a reader's address) is named, not shown: its value is another record's id.
      let value =
        table.field(field)?.references != nil
        ? ""
        : try database.queryFirst(
          "SELECT coalesce(CAST(\(column) AS TEXT), '') FROM \(table.table) WHERE \(table.key) = ?", change.recordID,
          read: { $0.string(0) }) ?? ""
      fields.append(
        try database.queryFirst("SELECT json_object(?, ?)", field, value, read: { $0.string(0) }) ?? "{}")
    }
    let merged =
      try database.queryFirst(
        "SELECT json_group_object(j.key, j.value) FROM json_each(?) AS a, json_each(a.value) AS j",
        "[" + fields.joined(separator: ",") + "]", read: { $0.string(0) }) ?? "{}"
    let details =
      try database.queryFirst(
        "SELECT json_object('fields', json(?), 'desk', ?, 'at', ?, 'deleted_by', ?)", merged, last.desk,
        last.clock.timestamp.iso, pulled.deskName
      ) { $0.string(0) } ?? "{}"
    return try raiseConflict(
      key: "edit-after-delete:" + change.id, kind: .editAfterDelete, entity: change.entity, record: change.recordID,
      other: change.id, details: details, now: now)
  }
}
