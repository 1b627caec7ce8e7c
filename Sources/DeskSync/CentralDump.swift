import DeskDomain
import DeskStorage

/// The library as the central's log of changes makes it: for each field of each record, the value
/// of the change with the latest clock (ties to the greater desk id), as desks merge them (a
/// hold's state as `HoldStateMerge` says, in the central's order; a loan's renewals added up). In the
/// lines of `LibraryStore.canonicalDump`, for comparing a desk with the central.
public enum CentralDump {
  public static func lines(_ central: CentralConnection) throws(CentralError) -> [String] {
    let rows = try central.execute(
      """
      SELECT entity, record_id, key, jsonb_typeof(value), value #>> '{}'
      FROM (
        SELECT DISTINCT ON (c.entity, c.record_id, f.key) c.entity, c.record_id, f.key, f.value
        FROM change c, jsonb_each(c.payload) f
        WHERE c.entity <> 'conflict' AND NOT (c.entity = 'hold' AND f.key = 'state') AND f.key <> 'renewals_added'
        ORDER BY c.entity, c.record_id, f.key, c.hlc DESC, c.desk_id::text DESC
      ) latest
      """)
    var deletedOutright: Set<String> = []
    var fields: [(record: String, line: String)] = []
    let deletesRows = LibraryStore.entitiesDeletedOutright
    for row in rows {
      guard row.count == 5, let entity = row[0], let record = row[1], let field = row[2] else { continue }
      let value: String
      switch row[3] {
      case "string": value = "s:" + (row[4] ?? "")
      case "number": value = "n:" + (row[4] ?? "")
      default: value = "null"
      }
      if deletesRows.contains(entity) && field == "deleted" {
        if value == "n:1" { deletedOutright.insert(entity + " " + record) }
        continue
      }
      fields.append((entity + " " + record, "\(entity) \(record) \(field) \(value)"))
    }
    var holdStates: [String: HoldStateMerge.Side] = [:]
    for row in try central.execute(
      """
      SELECT record_id, payload->>'state', hlc::text, desk_id::text FROM change
      WHERE entity = 'hold' AND payload ? 'state' ORDER BY seq
      """)
    {
      guard row.count == 4, let record = row[0], let state = row[1].flatMap(HoldState.init(rawValue:)),
        let clock = row[2].flatMap({ Int64($0) }), let desk = row[3]
      else { continue }
      let incoming = HoldStateMerge.Side(state: state, clock: clock, desk: desk)
      if let current = holdStates[record], !HoldStateMerge.replaces(current, with: incoming) { continue }
      holdStates[record] = incoming
    }
    for (record, side) in holdStates {
      fields.append(("hold " + record, "hold \(record) state s:\(side.state.rawValue)"))
    }
    // A loan's renewals: the count its latest whole record carried, and every renewal after it.
    var renewals: [String: Int64] = [:]
    for row in try central.execute(
      """
      SELECT c.record_id, sum((c.payload->>'renewals_added')::bigint)
      FROM change c
      WHERE c.entity = 'loan' AND c.payload ? 'renewals_added' AND c.seq > coalesce((
          SELECT max(w.seq) FROM change w WHERE w.entity = 'loan' AND w.record_id = c.record_id AND w.payload ? 'renewals'
        ), 0)
      GROUP BY c.record_id
      """)
    {
      guard row.count == 2, let record = row[0], let added = row[1].flatMap({ Int64($0) }) else { continue }
      renewals[record] = added
    }
    fields = fields.map { field in
      let prefix = "loan \(field.record.dropFirst(5)) renewals n:"
      guard field.record.hasPrefix("loan "), field.line.hasPrefix(prefix),
        let added = renewals[String(field.record.dropFirst(5))], let base = Int64(field.line.dropFirst(prefix.count))
      else { return field }
      return (field.record, prefix + String(max(0, base + added)))
    }
    return fields.filter { !deletedOutright.contains($0.record) }.map(\.line).sorted()
  }
}
