import DeskDomain

extension SyncStore {
  /// Every shared field of every record, a sorted line each (`entity record field value`, the
  /// value typed: `s:text`, `n:12`, `null`), with references as UUIDs: two desks that hold the
  /// same library give the same lines, whatever their row ids, and so does the central
  /// (`CentralDump`). Deleted categories, holidays and settings are absent; tombstones are in.
  public func canonicalDump() throws(StoreError) -> [String] {
    try read {
      var lines: [String] = []
      for table in SyncedTables.all {
        let keys = table.keys.map { keys in "WHERE t.key IN (" + keys.map { "'\($0)'" }.joined(separator: ", ") + ")" }
        try database.forEachRow(
          """
          SELECT t.\(table.key), j.key, j.type, j.atom
          FROM \(table.table) t, json_each(\(SyncedTables.wholeRecord(table, row: "t"))) j \(keys ?? "")
          """
        ) { row in
          let field = row.string(1)
          if table.deletesRows && field == "deleted" { return }
          lines.append("\(table.entity) \(row.string(0)) \(field) \(SyncStore.typed(row.string(2), row.value(3)))")
        }
      }
      return lines.sorted()
    }
  }

  public static func typed(_ type: String, _ value: DatabaseValue) -> String {
    switch value {
    case .null: return "null"
    case .integer(let number): return "n:\(number)"
    case .real(let number): return "n:\(number)"
    case .text(let text): return type == "text" ? "s:" + text : "n:" + text
    case .blob: return "null"
    }
  }
}
