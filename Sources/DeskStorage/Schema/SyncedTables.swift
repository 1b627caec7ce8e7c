/// The tables whose changes travel between the desks of a library, and the fields of each that
/// travel. Local, derived columns (row ids, sort keys, search text, `updated_at`) stay at each
/// desk. Migration 10 made its capture triggers from this list: a field added later comes with a
/// migration of its own that makes the triggers again.
struct SyncedTable: Sendable {
  /// The name a change gives the table (`book`, `loan`…).
  let entity: String
  /// The column that names a record at every desk: its UUID, or a natural key (a category's code).
  let key: String
  let fields: [SyncedField]
  /// True for tables whose rows are deleted outright (the central hears `deleted: 1`); the others
  /// keep tombstones in their `deleted` column, which travels as a field.
  let deletesRows: Bool
  /// For `setting`: only the library-wide keys travel; a desk's own settings stay with it.
  let keys: [String]?

  var table: String { entity }

  /// The row id of the record with the bound key.
  var rowSQL: String { "SELECT rowid FROM \(table) WHERE \(key) = ?" }

  func field(_ name: String) -> SyncedField? {
    fields.first { $0.name == name }
  }

  /// The table with the fields schema version `version` has.
  func asOf(_ version: Int) -> SyncedTable {
    SyncedTable(
      entity: entity, key: key, fields: fields.filter { $0.since <= version }, deletesRows: deletesRows, keys: keys)
  }
}

struct SyncedField: Sendable {
  let name: String
  /// A column holding the row id of a record in another table travels as that record's UUID.
  let references: String?
  /// The schema version that added the field: a migration makes the triggers of the fields of
  /// its own version, never those added later.
  let since: Int
  /// The value of a field added after the central's first changes, for a record made by a change
  /// that was written before the field existed.
  let absent: DatabaseValue?

  init(_ name: String, references: String? = nil, since: Int = 10, absent: DatabaseValue? = nil) {
    self.name = name
    self.references = references
    self.since = since
    self.absent = absent
  }

  /// The column in the table: a reference `address` is kept as `address_id`.
  var column: String { references == nil ? name : name + "_id" }
}

enum SyncedTables {
  /// The settings every desk of a library shares; the others (the desk's name, its scanner, its
  /// bell, whether it is a demo) belong to one desk.
  static let librarySettings = [
    "due_date_mode", "closed_weekdays", "block_on_overdue", "renewal_base", "default_category",
    "reader_code_prefix", "book_code_prefix", "library_name", "library_address", "library_phone", "library_email",
    "hold_pickup_days",
  ]

  /// In the order a new desk applies a whole library: what others refer to comes first.
  static let all: [SyncedTable] = [
    category,
    SyncedTable(entity: "holiday", key: "day", fields: [SyncedField("name")], deletesRows: true, keys: nil),
    setting,
    SyncedTable(
      entity: "address", key: "uuid",
      fields: ["phone", "phone_key", "postcode", "city", "street", "house", "flat", "created_at", "deleted"].map {
        SyncedField($0)
      }, deletesRows: false, keys: nil),
    book,
    SyncedTable(
      entity: "reader", key: "uuid",
      fields: [
        SyncedField("ticket"), SyncedField("surname"), SyncedField("first_name"), SyncedField("patronymic"),
        SyncedField("birth_year"), SyncedField("phone"), SyncedField("email"), SyncedField("category"),
        SyncedField("registered"), SyncedField("address", references: "address"), SyncedField("created_at"),
        SyncedField("deleted"),
      ], deletesRows: false, keys: nil),
    SyncedTable(
      entity: "loan", key: "uuid",
      fields: [
        SyncedField("book", references: "book"), SyncedField("reader", references: "reader"),
        SyncedField("issued_at"), SyncedField("due_date"), SyncedField("returned_at"), SyncedField("renewals"),
        SyncedField("renewed_at"), SyncedField("desk"), SyncedField("created_at"), SyncedField("deleted"),
        SyncedField("undone_at", since: 20, absent: .null),
      ], deletesRows: false, keys: nil),
    hold,
  ]

  /// Migration 14 made holds travel: each event (placed, trapped, fulfilled, cancelled, expired,
  /// suspended) is one change of the fields it set. A hold is never deleted: it ends in a state.
  static let hold = SyncedTable(
    entity: "hold", key: "uuid",
    fields: [
      SyncedField("reader", references: "reader", since: 14), SyncedField("title_key", since: 14),
      SyncedField("book", references: "book", since: 14), SyncedField("label", since: 14),
      SyncedField("placed_at", since: 14), SyncedField("not_wanted_after", since: 14),
      SyncedField("suspended_until", since: 14), SyncedField("state", since: 14),
      SyncedField("trapped_book", references: "book", since: 14), SyncedField("waiting_since", since: 14),
      SyncedField("pickup_by", since: 14), SyncedField("ended_at", since: 14), SyncedField("desk", since: 14),
      SyncedField("created_at", since: 14), SyncedField("pickup_desk", since: 16, absent: .text("")),
    ], deletesRows: false, keys: nil)

  /// Migration 12 added the status and the fields an import keeps.
  static let setting = SyncedTable(
    entity: "setting", key: "key", fields: [SyncedField("value")], deletesRows: true, keys: librarySettings)

  static let category = SyncedTable(
    entity: "category", key: "code",
    fields: ["name", "loan_days", "loan_limit", "renewal_limit"].map { SyncedField($0) } + [
      SyncedField("hold_limit", since: 13, absent: .integer(5))
    ], deletesRows: true, keys: nil)

  static let book = SyncedTable(
    entity: "book", key: "uuid",
    fields: [
      "inventory", "isbn", "isbn13", "author_surname", "author_initials", "title", "publisher", "city", "year",
      "pages", "price_minor", "bbk", "author_mark", "place", "received", "created_at", "deleted",
    ].map { SyncedField($0) } + [
      SyncedField("status", since: 12, absent: .text("available")),
      SyncedField("source_record", since: 12, absent: .text("")),
      SyncedField("source_copy", since: 12, absent: .text("")),
      SyncedField("record_group", since: 12, absent: .text("")),
    ], deletesRows: false, keys: nil)

  static func table(_ entity: String) -> SyncedTable? {
    all.first { $0.entity == entity }
  }

  /// The desk's hybrid clock read for a change made now: the wall clock in milliseconds (shifted
  /// past the 16 bits of the counter), or one more than the last reading when the wall clock has
  /// not moved on (or went back). The last reading is the newest change in the outbox, or the
  /// desk's own (kept in `sync_desk` when the outbox empties and when other desks' changes come
  /// in): a change writes nothing but its outbox row, which keeps a durable issue or return cheap.
  static let nextClock = """
    max((SELECT hlc FROM sync_desk WHERE id = 1) + 1, coalesce((SELECT hlc FROM outbox ORDER BY seq DESC LIMIT 1), 0) + 1,
      CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER) * 65536)
    """

  /// Triggers write the outbox only on a desk joined to a central, and not while the desk applies
  /// what it pulled.
  static let capturing = "(SELECT capture = 1 AND applying = 0 FROM sync_desk WHERE id = 1)"

  /// A settled conflict travels to the other desks. A clash of numbers is this desk's own (the
  /// central never took the record); the others are found alike at every desk, and settling one
  /// settles it everywhere.
  static let conflictCapture = """
    CREATE TRIGGER conflict_captured AFTER UPDATE OF resolved_at ON conflict
    WHEN \(capturing) AND NEW.resolved_at IS NOT NULL AND NEW.kind NOT IN ('inventory', 'ticket')
    BEGIN
      INSERT INTO outbox(entity, record_id, hlc, payload)
        VALUES ('conflict', NEW.key, \(nextClock), json_object('kind', NEW.kind, 'entity', NEW.entity,
          'record_id', NEW.record_id, 'other_id', NEW.other_id, 'details', NEW.details,
          'resolved_at', NEW.resolved_at, 'resolution', NEW.resolution, 'holder', NEW.holder));
    END;
    """

  /// Every capture trigger as this version of the schema has them: what a desk tied to a central
  /// holds (migration 18).
  static var currentCaptureTriggers: String {
    conflictCapture + "\n" + captureTriggers(schemaVersion: Migrations.latestVersion)
  }

  /// The triggers that write each change into the outbox, in the same transaction as the change.
  static func captureTriggers(schemaVersion: Int) -> String {
    // A table that travels only from a later version (holds) has no triggers yet.
    all.filter { table in table.fields.contains { $0.since <= schemaVersion } }.map {
      triggers(for: $0, schemaVersion: schemaVersion)
    }.joined(separator: "\n")
  }

  /// Puts every record of `table` in the outbox as it stands (a library joining a central with
  /// records of its own) at the bound clock reading; with `oneKey`, the record whose key is bound
  /// next. Without `created_at` (`asCreation` false) the record goes as a change of every field
  /// of a record the central knows.
  static func snapshot(of table: SyncedTable, oneKey: Bool = false, asCreation: Bool = true) -> String {
    var conditions: [String] = []
    if let keys = table.keys { conditions.append("t.key IN (" + keys.map { "'\($0)'" }.joined(separator: ", ") + ")") }
    if oneKey { conditions.append("t.\(table.key) = ?") }
    return """
      INSERT INTO outbox(entity, record_id, hlc, payload)
        SELECT '\(table.entity)', t.\(table.key), ?, \(wholeRecord(table, row: "t", creation: asCreation))
        FROM \(table.table) t \(conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")) ORDER BY t.rowid
      """
  }

  /// A whole record as a JSON object, as its insert sends it.
  static func wholeRecord(_ table: SyncedTable, row: String, creation: Bool = true) -> String {
    // A row deleted outright may come back: its insert says so, for the clock of `deleted`.
    let fields =
      table.fields.filter { creation || $0.name != "created_at" }.map { "'\($0.name)', \(value($0, of: row))" }
      + (table.deletesRows ? ["'deleted', 0"] : [])
    return "json_object(" + fields.joined(separator: ", ") + ")"
  }

  private static func value(_ field: SyncedField, of row: String) -> String {
    guard let referenced = field.references else { return "\(row).\(field.column)" }
    return "(SELECT uuid FROM \(referenced) WHERE id = \(row).\(field.column))"
  }

  /// The capture triggers of `table` as schema version `schemaVersion` has its fields.
  static func triggers(for whole: SyncedTable, schemaVersion: Int) -> String {
    let table = whole.asOf(schemaVersion)
    let name = table.entity
    func onlyKeys(_ row: String) -> String {
      guard let keys = table.keys else { return "" }
      return " AND \(row).key IN (" + keys.map { "'\($0)'" }.joined(separator: ", ") + ")"
    }
    let whenNew = capturing + onlyKeys("NEW")
    let whenOld = capturing + onlyKeys("OLD")
    let changed = table.fields.map { field in
      "SELECT '\(field.name)' AS f, \(value(field, of: "NEW")) AS v WHERE NEW.\(field.column) IS NOT OLD.\(field.column)"
    }.joined(separator: " UNION ALL ")
    var sql = """
      CREATE TRIGGER \(name)_captured_insert AFTER INSERT ON \(table.table) WHEN \(whenNew)
      BEGIN
        INSERT INTO outbox(entity, record_id, hlc, payload)
          VALUES ('\(name)', NEW.\(table.key), \(nextClock), \(wholeRecord(table, row: "NEW")));
      END;
      CREATE TRIGGER \(name)_captured_update AFTER UPDATE ON \(table.table) WHEN \(whenNew)
      BEGIN
        INSERT INTO outbox(entity, record_id, hlc, payload)
          SELECT '\(name)', NEW.\(table.key), \(nextClock), p.payload
          FROM (SELECT json_group_object(f, v) AS payload FROM (\(changed))) p WHERE p.payload <> '{}';
      END;

      """
    if table.deletesRows {
      sql += """
        CREATE TRIGGER \(name)_captured_delete AFTER DELETE ON \(table.table) WHEN \(whenOld)
        BEGIN
          INSERT INTO outbox(entity, record_id, hlc, payload)
            VALUES ('\(name)', OLD.\(table.key), \(nextClock), json_object('deleted', 1));
        END;

        """
    }
    return sql
  }
}
