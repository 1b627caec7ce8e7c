import DeskDomain

/// The tables whose changes travel between the desks of a library, and the fields of each that
/// travel. Local, derived columns (row ids, sort keys, search text, `updated_at`) stay at each
/// desk. The capture triggers of a desk tied to a central are made from this list
/// (`LibraryStore.settleCaptureTriggers`), after every upgrade: a field added later needs nothing
/// more than its declaration here and its column (the migrations that made triggers before keep
/// their own fixed text, `FrozenTriggers`).
struct SyncedTable: Sendable {
  let kind: RecordKind
  /// The name a change gives the table (`book`, `loan`…), and the table's own.
  var entity: String { kind.rawValue }
  /// The column that names a record at every desk: its UUID, or a natural key (a category's code).
  let key: String
  let fields: [SyncedField]
  /// True for tables whose rows are deleted outright (the central hears `deleted: 1`); the others
  /// keep tombstones in their `deleted` column, which travels as a field.
  let deletesRows: Bool
  /// For `setting`: only the library-wide keys travel; a desk's own settings stay with it.
  let keys: [String]?
  /// Each field by its name, and by the name of the increments it takes: a change's fields are
  /// looked up here, several times each as it is applied (a search of the list was 5 % of a
  /// first join of a million books).
  private let byName: [String: SyncedField]
  private let byIncrement: [String: SyncedField]

  init(kind: RecordKind, key: String, fields: [SyncedField], deletesRows: Bool, keys: [String]?) {
    self.kind = kind
    self.key = key
    self.fields = fields
    self.deletesRows = deletesRows
    self.keys = keys
    byName = Dictionary(fields.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    byIncrement = Dictionary(
      fields.compactMap { field in field.increments.map { ($0, field) } }, uniquingKeysWith: { first, _ in first })
  }

  var table: String { entity }

  /// The row id of the record with the bound key.
  var rowSQL: String { "SELECT rowid FROM \(table) WHERE \(key) = ?" }

  func field(_ name: String) -> SyncedField? {
    byName[name]
  }

  /// The count a change's field `name` adds to (`SyncedField.increments`).
  func counter(incrementedBy name: String) -> SyncedField? {
    byIncrement[name]
  }

  /// The rule of a field a change may carry: one of the record's, or a count's increment.
  func rule(of name: String) -> FieldRule? {
    field(name)?.rule ?? counter(incrementedBy: name).map { _ in SyncedTables.incrementRule }
  }

}

struct SyncedField: Sendable {
  let name: String
  /// What the field may hold (`FieldRule`): the central refuses a change that breaks it, and a
  /// desk sets aside one it pulls.
  let rule: FieldRule
  /// A column holding the row id of a record in another table travels as that record's UUID.
  let references: String?
  /// The value of a field added after the central's first changes, for a record made by a change
  /// that was written before the field existed.
  let absent: DatabaseValue?
  /// For a count that merges by adding (a loan's renewals): the name its changes travel under, as
  /// the difference they made. Every desk adds each, so renewals made at two desks apart both
  /// count; a record made whole (its creation) carries the count itself.
  let increments: String?

  init(
    _ name: String, _ rule: FieldRule, references: String? = nil, absent: DatabaseValue? = nil,
    increments: String? = nil
  ) {
    self.name = name
    self.rule = rule
    self.references = references
    self.absent = absent
    self.increments = increments
  }

  /// The column in the table: a reference `address` is kept as `address_id`.
  var column: String { references == nil ? name : name + "_id" }
}

/// The rules fields are made of. The lengths are the forms' own (`BookDraft`, `ReaderDraft`): what
/// a desk lets a librarian save, the central takes.
private enum Rule {
  static func text(_ maximum: Int = 500, atLeast minimum: Int = 0) -> FieldRule {
    FieldRule(.text(minimum: minimum, maximum: maximum))
  }
  static func optionalText(_ maximum: Int) -> FieldRule {
    FieldRule(.text(minimum: 0, maximum: maximum), nullable: true)
  }
  static let identifier = FieldRule(.identifier)
  static let moment = FieldRule(.moment)
  static let optionalMoment = FieldRule(.moment, nullable: true)
  static let date = FieldRule(.date)
  static let optionalDate = FieldRule(.date, nullable: true)
  static let flag = FieldRule(.flag)
  static func number(_ range: ClosedRange<Int64>) -> FieldRule { FieldRule(.integer(range)) }
  static func optionalNumber(_ range: ClosedRange<Int64>) -> FieldRule { FieldRule(.integer(range), nullable: true) }
  static func reference(_ entity: String) -> FieldRule { FieldRule(.reference(entity)) }
  static func optionalReference(_ entity: String) -> FieldRule { FieldRule(.reference(entity), nullable: true) }
  /// A desk's name.
  static let desk = text(200)
}

enum SyncedTables {
  /// The settings every desk of a library shares; the others (the desk's name, its scanner, its
  /// bell, whether it is a demo) belong to one desk.
  static let librarySettings = [
    "due_date_mode", "closed_weekdays", "block_on_overdue", "renewal_base", "default_category",
    "reader_code_prefix", "book_code_prefix", "library_name", "library_address", "library_phone", "library_email",
    "hold_pickup_days", "diary_branches",
  ]

  /// In the order a new desk applies a whole library: what others refer to comes first.
  static let all: [SyncedTable] = [
    category,
    SyncedTable(
      kind: .holiday, key: "day", fields: [SyncedField("name", Rule.text(200))], deletesRows: true, keys: nil),
    setting,
    SyncedTable(
      kind: .address, key: "uuid",
      fields: [
        SyncedField("phone", Rule.text(40)), SyncedField("phone_key", Rule.text(40)),
        SyncedField("postcode", Rule.text(20)), SyncedField("city", Rule.text(100)),
        SyncedField("street", Rule.text(200)), SyncedField("house", Rule.text(20)), SyncedField("flat", Rule.text(20)),
        SyncedField("created_at", Rule.moment), SyncedField("deleted", Rule.flag),
      ], deletesRows: false, keys: nil),
    book,
    SyncedTable(
      kind: .reader, key: "uuid",
      fields: [
        SyncedField("ticket", Rule.identifier), SyncedField("surname", Rule.text(100, atLeast: 1)),
        SyncedField("first_name", Rule.text(100)), SyncedField("patronymic", Rule.text(100)),
        SyncedField("birth_year", Rule.optionalNumber(1000...9999)), SyncedField("phone", Rule.text(40)),
        SyncedField("email", Rule.text(200)), SyncedField("category", Rule.reference("category")),
        SyncedField("registered", Rule.date),
        SyncedField("address", Rule.optionalReference("address"), references: "address"),
        SyncedField("created_at", Rule.moment), SyncedField("deleted", Rule.flag),
        // The record an import kept (migration 26).
        SyncedField("source_record", Rule.text(1_000_000), absent: .text("")),
      ], deletesRows: false, keys: nil),
    SyncedTable(
      kind: .loan, key: "uuid",
      fields: [
        SyncedField("book", Rule.reference("book"), references: "book"),
        SyncedField("reader", Rule.reference("reader"), references: "reader"),
        SyncedField("issued_at", Rule.moment), SyncedField("due_date", Rule.date),
        SyncedField("returned_at", Rule.optionalMoment),
        SyncedField("renewals", Rule.number(0...1000), increments: "renewals_added"),
        SyncedField("renewed_at", Rule.optionalMoment), SyncedField("desk", Rule.desk),
        SyncedField("created_at", Rule.moment), SyncedField("deleted", Rule.flag),
        SyncedField("undone_at", Rule.optionalMoment, absent: .null),
      ], deletesRows: false, keys: nil),
    hold,
    visit,
    renewal,
    stocktake,
    stocktakePart,
    stocktakeScan,
  ]

  /// Checks of the stock travel (migration 31), so several desks scan into one check: the check
  /// (closed at any desk), its expected list frozen at its opening in parts of up to
  /// `StocktakeStore.partSize` book UUIDs (JSON), and each scan as the desk that made it sorted it.
  static let stocktake = SyncedTable(
    kind: .stocktake, key: "uuid",
    fields: [
      SyncedField("name", Rule.text(200, atLeast: 1)), SyncedField("scope", Rule.text(100_000)),
      SyncedField("started_at", Rule.moment), SyncedField("closed_at", Rule.optionalMoment),
      SyncedField("desk", Rule.desk), SyncedField("created_at", Rule.moment),
    ], deletesRows: false, keys: nil)

  static let stocktakePart = SyncedTable(
    kind: .stocktakePart, key: "uuid",
    fields: [
      SyncedField("stocktake", Rule.reference("stocktake"), references: "stocktake"),
      SyncedField("books", Rule.text(100_000, atLeast: 2)), SyncedField("created_at", Rule.moment),
    ], deletesRows: false, keys: nil)

  static let stocktakeScan = SyncedTable(
    kind: .stocktakeScan, key: "uuid",
    fields: [
      SyncedField("stocktake", Rule.reference("stocktake"), references: "stocktake"),
      SyncedField("code", Rule.text(2000, atLeast: 1)),
      SyncedField("book", Rule.optionalReference("book"), references: "book"),
      SyncedField("place", Rule.text(200)),
      SyncedField("finding", FieldRule(.choice(StocktakeFinding.kinds))),
      SyncedField("scanned_at", Rule.moment), SyncedField("desk", Rule.desk), SyncedField("created_at", Rule.moment),
    ], deletesRows: false, keys: nil)

  /// The tables whose records are named by a UUID, as a list for SQL (`'book', 'reader'…`): a
  /// record made at one desk has no earlier change at another.
  static let uuidEntities = all.filter { $0.key == "uuid" }.map { "'\($0.entity)'" }.joined(separator: ", ")

  /// The work diary's events travel (migration 29), so a desk joined to the central counts every
  /// desk's: a reader at a counter, once a day a desk (never changed; a second of the same day,
  /// reader and desk is the same visit), and each renewal of a loan (undone: `deleted`).
  static let visit = SyncedTable(
    kind: .visit, key: "uuid",
    fields: [
      SyncedField("reader", Rule.reference("reader"), references: "reader"), SyncedField("day", Rule.date),
      SyncedField("at", Rule.moment), SyncedField("desk", Rule.desk), SyncedField("created_at", Rule.moment),
    ], deletesRows: false, keys: nil)

  static let renewal = SyncedTable(
    kind: .renewal, key: "uuid",
    fields: [
      SyncedField("loan", Rule.reference("loan"), references: "loan"), SyncedField("renewed_at", Rule.moment),
      SyncedField("desk", Rule.desk), SyncedField("created_at", Rule.moment), SyncedField("deleted", Rule.flag),
    ], deletesRows: false, keys: nil)

  /// Migration 14 made holds travel: each event (placed, trapped, fulfilled, cancelled, expired,
  /// suspended) is one change of the fields it set. A hold is never deleted: it ends in a state.
  static let hold = SyncedTable(
    kind: .hold, key: "uuid",
    fields: [
      SyncedField("reader", Rule.reference("reader"), references: "reader"),
      SyncedField("title_key", Rule.text(2000)),
      SyncedField("book", Rule.optionalReference("book"), references: "book"),
      SyncedField("label", Rule.text(2000)),
      SyncedField("placed_at", Rule.moment), SyncedField("not_wanted_after", Rule.optionalDate),
      SyncedField("suspended_until", Rule.optionalDate),
      SyncedField("state", FieldRule(.choice(HoldState.allCases.map(\.rawValue)))),
      SyncedField("trapped_book", Rule.optionalReference("book"), references: "book"),
      SyncedField("waiting_since", Rule.optionalMoment),
      SyncedField("pickup_by", Rule.optionalDate), SyncedField("ended_at", Rule.optionalMoment),
      SyncedField("desk", Rule.desk), SyncedField("created_at", Rule.moment),
      SyncedField("pickup_desk", Rule.desk, absent: .text("")),
    ], deletesRows: false, keys: nil)

  /// Migration 12 added the status and the fields an import keeps.
  static let setting = SyncedTable(
    kind: .setting, key: "key", fields: [SyncedField("value", Rule.text(1000))], deletesRows: true,
    keys: librarySettings)

  static let category = SyncedTable(
    kind: .category, key: "code",
    fields: [
      SyncedField("name", Rule.text(200, atLeast: 1)), SyncedField("loan_days", Rule.number(1...3650)),
      SyncedField("loan_limit", Rule.number(0...100_000)), SyncedField("renewal_limit", Rule.number(0...1000)),
      SyncedField("hold_limit", Rule.number(0...100_000), absent: .integer(5)),
      SyncedField("written_as", Rule.text(2000), absent: .text("")),
    ], deletesRows: true, keys: nil)

  static let book = SyncedTable(
    kind: .book, key: "uuid",
    fields: [
      SyncedField("inventory", Rule.identifier), SyncedField("isbn", Rule.optionalText(40)),
      SyncedField("isbn13", Rule.optionalText(13)), SyncedField("author_surname", Rule.text(200)),
      SyncedField("author_initials", Rule.text(50)), SyncedField("title", Rule.text(1000, atLeast: 1)),
      SyncedField("publisher", Rule.text()), SyncedField("city", Rule.text(200)),
      SyncedField("year", Rule.optionalNumber(0...9999)), SyncedField("pages", Rule.optionalNumber(0...1_000_000)),
      SyncedField("price_minor", Rule.optionalNumber(0...1_000_000_000_000)), SyncedField("bbk", Rule.text(100)),
      SyncedField("author_mark", Rule.text(20)), SyncedField("place", Rule.text(100)),
      SyncedField("received", Rule.optionalDate), SyncedField("created_at", Rule.moment),
      SyncedField("deleted", Rule.flag),
      SyncedField(
        "status", FieldRule(.choice(CopyStatus.allCases.map(\.rawValue))), absent: .text("available")),
      // The whole record an import kept (an IRBIS record runs to some kilobytes).
      SyncedField("source_record", Rule.text(1_000_000), absent: .text("")),
      SyncedField("source_copy", Rule.text(100_000), absent: .text("")),
      SyncedField("record_group", Rule.text(200), absent: .text("")),
      // The day a closed check last found the copy (migration 31).
      SyncedField("last_checked", Rule.optionalDate, absent: .null),
    ], deletesRows: false, keys: nil)

  /// What one change may add to a count (a renewal adds one, its undo takes one).
  static let incrementRule = FieldRule(.integer(-1000...1000))

  /// Every field that travels with its rule, a record's id as the field "" of its kind: the rules
  /// the central checks each change against (written into its `field_rule` by `central init`).
  static var travellingFields: [TravellingField] {
    var rows: [TravellingField] = []
    for table in all {
      let id: FieldRule
      switch table.key {
      case "uuid": id = FieldRule(.uuid)
      case "day": id = FieldRule(.date)
      case "key": id = FieldRule(.choice(table.keys ?? []))
      default: id = FieldRule(.identifier)
      }
      rows.append(TravellingField(entity: table.entity, field: "", rule: id, neededToCreate: false))
      for field in table.fields {
        // A record made at a desk comes whole, its empty fields as nulls; a field added later may
        // be missing from what an older desk made.
        rows.append(
          TravellingField(
            entity: table.entity, field: field.name, rule: field.rule,
            neededToCreate: !table.deletesRows && field.absent == nil))
        if let increments = field.increments {
          rows.append(
            TravellingField(entity: table.entity, field: increments, rule: incrementRule, neededToCreate: false))
        }
      }
      if table.deletesRows {
        rows.append(
          TravellingField(entity: table.entity, field: "deleted", rule: FieldRule(.flag), neededToCreate: false))
      }
    }
    // A settled conflict travels as a record of its own (`conflictCapture`).
    let conflict: [(String, FieldRule)] = [
      ("", FieldRule(.text(minimum: 1, maximum: 300))), ("kind", FieldRule(.text(minimum: 1, maximum: 100))),
      ("entity", FieldRule(.text(minimum: 1, maximum: 100))), ("record_id", FieldRule(.text(minimum: 0, maximum: 300))),
      ("other_id", FieldRule(.text(minimum: 0, maximum: 300))),
      ("details", FieldRule(.text(minimum: 0, maximum: 100_000))),
      ("resolved_at", FieldRule(.moment)), ("resolution", FieldRule(.text(minimum: 0, maximum: 2000))),
      ("holder", FieldRule(.text(minimum: 0, maximum: 300))),
    ]
    rows += conflict.map { TravellingField(entity: "conflict", field: $0.0, rule: $0.1, neededToCreate: false) }
    return rows
  }

  static func table(_ entity: String) -> SyncedTable? {
    RecordKind(rawValue: entity).flatMap(table)
  }

  static func table(_ kind: RecordKind) -> SyncedTable? {
    all.first { $0.kind == kind }
  }

  /// The desk's hybrid clock read for a change made now: the wall clock in milliseconds moved to
  /// the central's time by the offset the last sync measured (shifted past the 16 bits of the
  /// counter), or one more than the last reading when that has not moved on (or went back). The
  /// last reading is the newest change in the outbox, or the desk's own (kept in `sync_desk` when
  /// the outbox empties and when other desks' changes come in): a change writes nothing but its
  /// outbox row, which keeps a durable issue or return cheap.
  static let nextClock = """
    max((SELECT hlc FROM sync_desk WHERE id = 1) + 1, coalesce((SELECT hlc FROM outbox ORDER BY seq DESC LIMIT 1), 0) + 1,
      (\(wallClock) + (SELECT clock_offset_ms FROM sync_desk WHERE id = 1)) * 65536)
    """

  /// The machine's clock as SQLite reads it, in milliseconds since 1970: what clocks a change.
  static let wallClock = "CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)"

  /// Triggers write the outbox only on a desk joined to a central, and not while the desk applies
  /// what it pulled.
  static let capturing = "(SELECT capture = 1 AND applying = 0 FROM sync_desk WHERE id = 1)"

  /// A settled conflict travels to the other desks. A clash of numbers is this desk's own (the
  /// central never took the record), and so is a change not taken (refused by the central, or
  /// set aside here); the others are found alike at every desk, and settling one settles it
  /// everywhere.
  static let conflictCapture = """
    CREATE TRIGGER conflict_captured AFTER UPDATE OF resolved_at ON conflict
    WHEN \(capturing) AND NEW.resolved_at IS NOT NULL AND NEW.kind NOT IN ('inventory', 'ticket', 'refused_change')
    BEGIN
      INSERT INTO outbox(entity, record_id, hlc, payload)
        VALUES ('conflict', NEW.key, \(nextClock), json_object('kind', NEW.kind, 'entity', NEW.entity,
          'record_id', NEW.record_id, 'other_id', NEW.other_id, 'details', NEW.details,
          'resolved_at', NEW.resolved_at, 'resolution', NEW.resolution, 'holder', NEW.holder));
    END;
    """

  /// The triggers that write each change into the outbox, in the same transaction as the change:
  /// what a desk tied to a central holds (migration 18).
  static var currentCaptureTriggers: String {
    ([conflictCapture] + all.map(triggers(for:))).joined(separator: "\n")
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

  /// The capture triggers of `table`.
  static func triggers(for table: SyncedTable) -> String {
    let name = table.entity
    func onlyKeys(_ row: String) -> String {
      guard let keys = table.keys else { return "" }
      return " AND \(row).key IN (" + keys.map { "'\($0)'" }.joined(separator: ", ") + ")"
    }
    let whenNew = capturing + onlyKeys("NEW")
    let whenOld = capturing + onlyKeys("OLD")
    let changed = table.fields.map { field in
      let name = field.increments ?? field.name
      let value = field.increments == nil ? value(field, of: "NEW") : "NEW.\(field.column) - OLD.\(field.column)"
      return "SELECT '\(name)' AS f, \(value) AS v WHERE NEW.\(field.column) IS NOT OLD.\(field.column)"
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

/// A field that travels between desks, with its rule (the field "" is the record's id).
public struct TravellingField: Hashable, Sendable {
  public let entity: String
  public let field: String
  public let rule: FieldRule
  /// True when a record made at a desk must bring the field (a change of one need not).
  public let neededToCreate: Bool
}

extension LibraryStore {
  /// Every field that travels, with its rule: what the central checks each change against.
  public static var travellingFields: [TravellingField] { SyncedTables.travellingFields }

  /// The kinds of record a desk deletes outright (the others keep a `deleted` field).
  public static var entitiesDeletedOutright: Set<String> {
    Set(SyncedTables.all.filter(\.deletesRows).map(\.entity))
  }
}
