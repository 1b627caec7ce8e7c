import DeskDomain

/// The writes of a pulled change into the library's tables: a record made, fields changed, a
/// number another desk took first caught as a clash, the sort key and search words made again.
extension LibraryStore {
  /// The column a field is written to, and its value there: a reference (another record's id)
  /// becomes that record's row here; a reference to a record this desk lacks is a bad change.
  func columnValue(_ table: SyncedTable, _ name: String, _ value: DatabaseValue) throws -> (
    column: String, value: DatabaseValue
  ) {
    guard let field = table.field(name) else { return (name, value) }
    guard let referenced = field.references, case .text(let uuid) = value else { return (field.column, value) }
    guard let id = try database.queryFirst("SELECT id FROM \(referenced) WHERE uuid = ?", uuid, read: { $0.int64(0) })
    else { throw StoreError.badChange("it refers to \(referenced) \(uuid), which this desk does not have") }
    return (field.column, .integer(id))
  }

  /// The insert of a record a change makes: its key, every field in the table's order, then what
  /// the desk makes itself. Made once per table.
  static let creationSQL: [String: String] = Dictionary(
    uniqueKeysWithValues: SyncedTables.all.map { table in
      var columns = [table.key] + table.fields.map(\.column) + ["updated_at"]
      if table.kind == .book || table.kind == .reader { columns += ["sort_key", "search_text"] }
      if table.kind == .loan { columns.append("conflict") }
      // A visit of a reader a desk of the same name counted that day already is that visit.
      let duplicate = table.kind == .visit ? " ON CONFLICT(day, reader_id, desk) DO NOTHING" : ""
      return (
        table.entity,
        "INSERT INTO \(table.table)(\(columns.joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))"
          + duplicate
      )
    })

  /// Inserts the record a change makes; `fields` holds every field of the table (in any order:
  /// the central's JSON keeps no order).
  func insert(
    _ table: SyncedTable, key: String, _ fields: [String: DatabaseValue], deskName: String, now: Timestamp
  ) throws {
    guard let sql = LibraryStore.creationSQL[table.entity] else { return }
    var values: [DatabaseValue] = [.text(key)]
    values.reserveCapacity(table.fields.count + 5)
    for field in table.fields {
      values.append(try columnValue(table, field.name, fields[field.name] ?? field.absent ?? .null).value)
    }
    values.append(.text(now.iso))
    if let (sortKey, searchText) = LibraryStore.derivedColumns(table.kind, key: key, fields) {
      // Made here from the fields, before the insert: the full-text index is written once.
      values += [.text(sortKey), .text(searchText)]
    }
    if table.kind == .loan {
      // Beside another open loan of the book it waits, marked, for `reconcileLoans`.
      values.append(.integer(Int64(try database.scalarInt("SELECT coalesce(max(id), 0) + 1 FROM loan"))))
    }
    let number = fields["inventory"] ?? fields["ticket"]
    try insertCatchingClash(table, key: key, number: number, deskName: deskName, now: now) {
      try database.execute(sql, values: values)
    }
    if table.kind == .book, case .text(let record)? = fields["source_record"], !record.isEmpty {
      try indexOtherISBNs(IRBISKeptRecord(record: record, copy: "", group: "").otherISBNs.map(\.isbn13), ofBook: key)
    }
  }

  func update(
    _ table: SyncedTable, key: String, _ fields: [(name: String, value: DatabaseValue)], deskName: String,
    now: Timestamp
  ) throws {
    guard !fields.isEmpty else { return }
    var assignments: [String] = []
    var values: [DatabaseValue] = []
    for (name, value) in fields {
      let (column, mapped) = try columnValue(table, name, value)
      assignments.append("\(column) = ?")
      values.append(mapped)
    }
    assignments.append("updated_at = ?")
    values.append(.text(now.iso))
    for (column, value) in try derivedAssignments(table, key: key, fields) {
      assignments.append("\(column) = ?")
      values.append(value)
    }
    values.append(.text(key))
    let number = fields.first { $0.name == "inventory" || $0.name == "ticket" }?.value
    try insertCatchingClash(table, key: key, number: number, deskName: deskName, now: now) {
      try database.execute(
        "UPDATE \(table.table) SET \(assignments.joined(separator: ", ")) WHERE \(table.key) = ?", values: values)
    }
    if table.kind == .book, let record = fields.first(where: { $0.name == "source_record" })?.value {
      let text: String
      if case .text(let value) = record { text = value } else { text = "" }
      try indexOtherISBNs(
        IRBISKeptRecord(record: text, copy: "", group: "").otherISBNs.map(\.isbn13), ofBook: key, replacing: true)
    }
  }

  /// Adds or changes a row of a table whose rows are deleted outright (categories, holidays,
  /// settings).
  func upsert(
    _ table: SyncedTable, key: String, _ fields: [(name: String, value: DatabaseValue)], exists: Bool
  ) throws {
    let columns = fields.map(\.name)
    if exists {
      try database.execute(
        "UPDATE \(table.table) SET \(columns.map { "\($0) = ?" }.joined(separator: ", ")) WHERE \(table.key) = ?",
        values: fields.map(\.value) + [.text(key)])
    } else {
      try database.execute(
        "INSERT INTO \(table.table)(\(([table.key] + columns).joined(separator: ", "))) VALUES (\(([table.key] + columns).map { _ in "?" }.joined(separator: ", ")))",
        values: [.text(key)] + fields.map(\.value))
    }
  }

  /// A number that another desk took first at the central, while this desk gave it to a record
  /// of its own not yet sent: the central's record comes in, this desk's keeps the number marked
  /// as a clash, and its changes wait until a librarian gives it another.
  func insertCatchingClash(
    _ table: SyncedTable, key: String, number: DatabaseValue?, deskName: String, now: Timestamp,
    _ write: () throws -> Void
  ) throws {
    do {
      try write()
    } catch let error as DatabaseError where error.isUniqueViolation {
      guard table.kind == .book || table.kind == .reader, case .text(let number)? = number,
        let local = try database.queryFirst(
          table.kind == .book
            ? "SELECT uuid FROM book WHERE inventory = ? AND deleted = 0 AND clash = 0 AND uuid <> ?"
            : "SELECT uuid FROM reader WHERE ticket = ? AND deleted = 0 AND clash = 0 AND uuid <> ?",
          number, key, read: { $0.string(0) })
      else { throw error }
      try sync.markClash(entity: table.kind, record: local, otherRecord: key, otherDesk: deskName, now: now)
      try write()
    }
  }

  /// The sort key and search words that an update of `fields` changes, to be written by the same
  /// statement: a pulled title change then rewrites the book's row and its list index once, not
  /// three times. Each is written only when it changed: the full-text trigger fires on any write
  /// of `search_text` and makes every search read the whole vocabulary again (about half a
  /// second at a million books), which another desk's change of a shelf place or a price must
  /// not cost.
  private func derivedAssignments(
    _ table: SyncedTable, key: String, _ fields: [(name: String, value: DatabaseValue)]
  ) throws -> [(column: String, value: DatabaseValue)] {
    guard let inputs = LibraryStore.derivedFrom[table.kind], fields.contains(where: { inputs.contains($0.name) })
    else { return [] }
    let columns = inputs.map { table.field($0)?.column ?? $0 } + ["sort_key", "search_text"]
    guard
      var merged = try database.queryFirst(
        "SELECT \(columns.joined(separator: ", ")) FROM \(table.table) WHERE \(table.key) = ?", key,
        read: { row in
          Dictionary(
            uniqueKeysWithValues: columns.indices.map { (columns[$0], DatabaseValue.text(row.string(Int32($0)))) })
        })
    else { return [] }
    let current = (sortKey: merged["sort_key"], searchText: merged["search_text"])
    for (name, column) in zip(inputs, columns) where name != column { merged[name] = merged[column] }
    for (name, value) in fields where inputs.contains(name) { merged[name] = value }
    guard let (sortKey, searchText) = LibraryStore.derivedColumns(table.kind, key: key, merged) else { return [] }
    var assignments: [(column: String, value: DatabaseValue)] = []
    if current.sortKey != .text(sortKey) { assignments.append(("sort_key", .text(sortKey))) }
    if current.searchText != .text(searchText) { assignments.append(("search_text", .text(searchText))) }
    return assignments
  }

  /// The sort key and search words, which each desk makes from the record's fields, made again
  /// after a write that `update` did not make (a conflict's resolution). Each is written only
  /// when it changed, for the full-text trigger's sake (`derivedAssignments`).
  func refreshDerived(_ table: SyncedTable, key: String) throws {
    switch table.kind {
    case .book:
      guard
        let book = try database.queryFirst(
          "SELECT \(LibraryStore.bookColumns) FROM book b WHERE b.uuid = ?", key,
          read: { try LibraryStore.decodeBook($0) })
      else { return }
      try database.execute(
        "UPDATE book SET sort_key = ?1 WHERE uuid = ?2 AND sort_key IS NOT ?1", book.sortKey, key)
      try database.execute(
        "UPDATE book SET search_text = ?1 WHERE uuid = ?2 AND search_text IS NOT ?1", book.searchText, key)
    case .reader:
      guard
        let reader = try database.queryFirst(
          "SELECT \(ReaderStore.readerColumns) FROM \(ReaderStore.readerFrom) WHERE r.uuid = ?", key,
          read: { try ReaderStore.decodeReader($0) })
      else { return }
      try database.execute(
        "UPDATE reader SET sort_key = ?1 WHERE uuid = ?2 AND sort_key IS NOT ?1", reader.sortKey, key)
      try database.execute(
        "UPDATE reader SET search_text = ?1 WHERE uuid = ?2 AND search_text IS NOT ?1", reader.searchText, key)
    default:
      return
    }
  }
}
