import CSQLite
import DeskDomain

/// What a batch pulled from the central did here.
public struct ApplyReport: Hashable, Sendable {
  /// Changes of other desks applied (each field only where its clock is later than the value's).
  public var applied = 0
  /// This desk's own changes, back from the central: already in the library.
  public var own = 0
  public var conflictsRaised = 0
  /// Copies put aside here for holds that another desk ended: where each goes now.
  public var holdShelfMoves: [HoldMove] = []
}

/// The records a batch touched, looked at again once the whole batch is in.
private struct Touched {
  var books: Set<Int64> = []
  var readers: Set<Int64> = []
  var holds: Set<String> = []
  /// Copies on this desk's hold shelf that the merge took out of their holds.
  var displaced: [Int64: String] = [:]
}

extension LibraryStore {
  /// Applies a batch of changes pulled from the central, in the central's order and in one
  /// transaction, without capturing them again, and moves the desk's cursor to `cursor`. A change
  /// that names an unknown kind of record or field, breaks a rule of its fields (`FieldRule`),
  /// refers to a record this desk does not have or breaks a rule of the schema is set aside with
  /// its reason, listed as a conflict of this desk, and the rest applies: one change never stops
  /// a desk's syncing. (Found out by applying: the batch is applied again without it.)
  public func apply(_ batch: [PulledChange], cursor: Int64) throws(StoreError) -> ApplyReport {
    var aside: [(change: PulledChange, reason: String)] = []
    while true {
      var failing: (id: String, reason: String)?
      do throws(StoreError) {
        return try apply(batch, cursor: cursor, settingAside: aside, failing: &failing)
      } catch {
        guard let failing, !aside.contains(where: { $0.change.change.id == failing.id }),
          let change = batch.first(where: { $0.change.id == failing.id })
        else { throw error }
        aside.append((change, failing.reason))
      }
    }
  }

  private func apply(
    _ batch: [PulledChange], cursor: Int64, settingAside aside: [(change: PulledChange, reason: String)],
    failing: inout (id: String, reason: String)?
  ) throws(StoreError) -> ApplyReport {
    let now = clock.now().instant
    let skipped = Set(aside.map(\.change.change.id))
    return try write {
      guard let tie = try currentTie() else {
        throw StoreError.syncRefused("This library has not joined a central: run circdesk central join")
      }
      var latest: Int64 = 0
      let report = try withoutCapture { () throws -> ApplyReport in
        try notePendingClocks()
        var report = ApplyReport()
        var touched = Touched()
        var peers: [String: String] = [:]
        for pulled in batch where peers[pulled.change.deskID] != pulled.deskName {
          peers[pulled.change.deskID] = pulled.deskName
          try database.execute(
            "INSERT INTO sync_peer(desk_id, name) VALUES (?, ?) ON CONFLICT(desk_id) DO UPDATE SET name = excluded.name",
            pulled.change.deskID, pulled.deskName)
        }
        for (change, reason) in aside {
          try setAside(change, reason: reason, now: now)
          report.conflictsRaised += 1
        }
        let applying = batch.filter { !skipped.contains($0.change.id) }
        // A large batch (a desk catching up) adds books as an import does: the full-text index and
        // the count brought up to date once, at the end of the batch.
        if batch.count >= LibraryStore.bulkApplyThreshold {
          try addingBooksInBulk {
            try applyAll(
              applying, deskID: tie.deskID, now: now, report: &report, touched: &touched, latest: &latest,
              failing: &failing)
          }
        } else {
          try applyAll(
            applying, deskID: tie.deskID, now: now, report: &report, touched: &touched, latest: &latest,
            failing: &failing)
        }
        for (change, _) in aside { latest = max(latest, change.change.clock.rawValue) }
        for book in touched.books.sorted() {
          report.conflictsRaised += try reconcileLoans(bookRowID: book, now: now)
          report.conflictsRaised += try reconcileDeletion(entity: "book", rowID: book, now: now)
        }
        for reader in touched.readers.sorted() {
          report.conflictsRaised += try reconcileDeletion(entity: "reader", rowID: reader, now: now)
        }
        report.holdShelfMoves += try reconcileHolds(touched.holds.sorted(), deskID: tie.deskID)
        report.holdShelfMoves += try passOn(displaced: touched.displaced)
        report.holdShelfMoves += try settleTrappedTwiceByTheHolds(now: now)
        return report
      }
      // The clock moves past every change heard of: what this desk does next orders after them.
      try database.execute(
        "UPDATE sync_desk SET cursor = max(cursor, ?), hlc = max(hlc, ?) WHERE id = 1", cursor, latest)
      return report
    }
  }

  /// The clocks of the fields changed here and not yet at the central, by record, for the batch
  /// to compare with: the outbox itself has no index of records (one write less for every change
  /// made at the desk), and is mostly empty or small.
  private func notePendingClocks() throws {
    try database.executeScript(
      """
      CREATE TEMP TABLE IF NOT EXISTS pending_field (
        entity TEXT NOT NULL, record_id TEXT NOT NULL, field TEXT NOT NULL, hlc INTEGER NOT NULL,
        PRIMARY KEY (entity, record_id, field)) WITHOUT ROWID;
      DELETE FROM temp.pending_field;
      INSERT INTO temp.pending_field
        SELECT o.entity, o.record_id, j.key, max(o.hlc) FROM outbox o, json_each(o.payload) j GROUP BY 1, 2, 3;
      """)
    hasPending = try database.scalarInt("SELECT count(*) FROM temp.pending_field") > 0
  }

  /// Batches this long are applied with the books' triggers put off (`addingBooksInBulk`).
  static let bulkApplyThreshold = 200

  /// Applies the changes in order; one that cannot be applied is named in `failing` (its id and
  /// why) before the error goes up, for `apply` to set it aside. A failure of the file itself
  /// (busy, full, an I/O error) is no fault of the change, and stops the batch as it is.
  private func applyAll(
    _ batch: [PulledChange], deskID: String, now: Timestamp, report: inout ApplyReport, touched: inout Touched,
    latest: inout Int64, failing: inout (id: String, reason: String)?
  ) throws {
    for pulled in batch {
      let change = pulled.change
      latest = max(latest, change.clock.rawValue)
      do {
        try applyOne(pulled, deskID: deskID, now: now, touched: &touched, report: &report)
      } catch StoreError.badChange(let reason) {
        failing = (change.id, reason)
        throw StoreError.badChange(
          "change \(change.id) from desk «\(pulled.deskName)» (\(change.entity) \(change.recordID)): \(reason)")
      } catch let error as DatabaseError where [SQLITE_ERROR, SQLITE_CONSTRAINT, SQLITE_MISMATCH].contains(error.code) {
        failing = (change.id, error.message)
        throw StoreError.badChange(
          "change \(change.id) from desk «\(pulled.deskName)» (\(change.entity) \(change.recordID)): \(error.message)")
      }
    }
  }

  private func applyOne(
    _ pulled: PulledChange, deskID: String, now: Timestamp, touched: inout Touched, report: inout ApplyReport
  ) throws {
    let change = pulled.change
    func bad(_ reason: String) -> StoreError { .badChange(reason) }
    let own = change.deskID == deskID
    if change.kind == .conflict {
      if !own {
        try applySettlement(
          change, deskID: deskID, now: now, books: &touched.books, shelfMoves: &report.holdShelfMoves)
      }
      own ? (report.own += 1) : (report.applied += 1)
      return
    }
    guard let table = SyncedTables.table(change.entity) else {
      throw bad("no record is of the kind «\(change.entity)»")
    }
    // One reading of the JSON: malformed text fails, and an array or a bare value has keys that
    // are not names.
    let fields: [(name: String, value: DatabaseValue, type: String)]
    do {
      fields = try database.query("SELECT key, value, type, typeof(key) = 'text' FROM json_each(?)", change.payload) {
        row in
        guard row.bool(3) else { throw bad("its fields are not a JSON object") }
        return (name: row.string(0), value: row.value(1), type: row.string(2))
      }
    } catch let error as DatabaseError where error.message.contains("JSON") {
      throw bad("its fields are not a JSON object")
    }
    // The rules the central checks, checked again: a change it stored before it checked them
    // (an older central), or one written into its log by hand.
    for field in fields {
      let rule: FieldRule
      if let known = table.rule(of: field.name) {
        rule = known
      } else if field.name == "deleted" && table.deletesRows {
        rule = FieldRule(.flag)
      } else {
        throw bad("a \(change.entity) has no field «\(field.name)»")
      }
      if let problem = rule.problem(FieldValue(field.value, type: field.type)) {
        throw bad("«\(field.name)» \(problem)")
      }
    }
    let deleted = fields.first { $0.name == "deleted" }?.value
    if !table.deletesRows {
      report.conflictsRaised += try noteDeletion(pulled, deleted: deleted, now: now)
    }
    // Loans, this desk's own too, have their book's loans looked at again once the batch is in.
    if change.kind == .loan, let book = try loanBook(change, fields: fields) { touched.books.insert(book) }
    // Readers of loans and deleted books and readers are looked at again too: deleted, yet out?
    if change.kind == .loan, let reader = try loanReader(change, fields: fields) { touched.readers.insert(reader) }
    if deleted == .integer(1) || deleted == .integer(0) {
      if change.kind == .book,
        let row = try database.queryFirst(
          "SELECT id FROM book WHERE uuid = ?", change.recordID, read: { $0.int64(0) })
      {
        touched.books.insert(row)
      }
      if change.kind == .reader,
        let row = try database.queryFirst(
          "SELECT id FROM reader WHERE uuid = ?", change.recordID, read: { $0.int64(0) })
      {
        touched.readers.insert(row)
      }
    }
    if own {
      report.own += 1
      return
    }
    report.applied += 1
    if change.kind == .hold {
      touched.holds.insert(change.recordID)
      report.conflictsRaised += try noteDoubleTrap(
        pulled, fields: fields.map { ($0.name, $0.value) }, now: now, displaced: &touched.displaced)
    }
    let row = try database.queryFirst(table.rowSQL, change.recordID) { $0.int64(0) }
    let exists = row != nil
    if !exists && !table.deletesRows {
      // A record made at another desk: its first change brings every field, and nothing here is
      // newer than it.
      let given = Dictionary(fields.map { ($0.name, $0.value) }, uniquingKeysWith: { _, last in last })
      let missing = table.fields.filter { given[$0.name] == nil && $0.absent == nil }.map(\.name)
      guard missing.isEmpty else {
        throw bad(
          "this desk does not have the \(change.entity), and the change does not make it "
            + "(no \(missing.joined(separator: ", ")))")
      }
      try insert(table, key: change.recordID, given, deskName: pulled.deskName, now: now, bad: bad)
      return
    }
    // Per-field last-writer-wins: a field changed here (or by another desk) later keeps its value.
    // Changes made here and not yet at the central carry their clocks in the outbox.
    var pending: [String: Int64] = [:]
    if hasPending {
      try database.forEachRow(
        "SELECT field, hlc FROM temp.pending_field WHERE entity = ? AND record_id = ?", change.entity, change.recordID
      ) { row in pending[row.string(0)] = row.int64(1) }
    }
    // A record this desk sent whole when it joined holds every field as of that reading.
    let floor =
      try row.flatMap { row in
        try database.queryFirst(
          "SELECT hlc FROM sync_snapshot WHERE entity = ? AND last_row >= ?", change.entity, row, read: { $0.int64(0) })
      } ?? 0
    let incoming = FieldVersion(change)
    if floor > 0, !incoming.replaces(FieldVersion(rawClock: floor, desk: deskID)) {
      pending = pending.merging(fields.map { ($0.name, floor) }) { max($0, $1) }
    }
    // A loan a settled double issue keeps open stays open against a return older than the
    // settlement (the return came from a desk whose own, earlier settlement gave way).
    if change.kind == .loan, fields.contains(where: { $0.name == "returned_at" }),
      let settled = try database.queryFirst(
        """
        SELECT coalesce(max(c.hlc), 0) FROM conflict k JOIN (
            SELECT record_id, hlc FROM field_clock WHERE entity = 'conflict' AND field = 'resolution'
            UNION ALL SELECT record_id, hlc FROM temp.pending_field WHERE entity = 'conflict' AND field = 'resolution'
          ) c ON c.record_id = k.key
        WHERE k.kind = 'double_issue' AND k.holder = ? AND k.resolved_at IS NOT NULL
        """, change.recordID, read: { $0.int64(0) }), settled > change.clock.rawValue
    {
      pending["returned_at"] = max(pending["returned_at"] ?? 0, settled)
    }
    var winners: [(name: String, value: DatabaseValue)] = []
    // What the change adds to a count: applied whatever the clocks (each change comes once).
    var increments: [(counter: SyncedField, by: Int64)] = []
    for field in fields {
      if let counter = table.counter(incrementedBy: field.name) {
        if case .integer(let by) = field.value, by != 0 { increments.append((counter, by)) }
        continue
      }
      if change.kind == .hold, field.name == "state" {
        // A hold that ended stays ended, whatever the clocks say (`HoldStateMerge`).
        if try holdState(of: change, becomes: field.value, pending: pending["state"], deskID: deskID) {
          winners.append((field.name, field.value))
        }
        continue
      }
      if let mine = pending[field.name], !incoming.replaces(FieldVersion(rawClock: mine, desk: deskID)) { continue }
      let current = try database.queryFirst(
        "SELECT hlc, desk FROM field_clock WHERE entity = ? AND record_id = ? AND field = ?", change.entity,
        change.recordID, field.name
      ) { FieldVersion(rawClock: $0.int64(0), desk: $0.string(1)) }
      guard incoming.replaces(current) else { continue }
      winners.append((field.name, field.value))
    }
    if table.deletesRows {
      if deleted == .integer(1) {
        if winners.contains(where: { $0.name == "deleted" }) {
          try database.execute("DELETE FROM \(table.table) WHERE \(table.key) = ?", change.recordID)
        }
      } else {
        let values = winners.filter { $0.name != "deleted" }
        let deletedLater = !exists && deleted != nil && !winners.contains { $0.name == "deleted" }
        if !values.isEmpty && !deletedLater {
          try upsert(table, key: change.recordID, values, exists: exists, bad: bad)
        }
      }
      try recordClocks(winners.map(\.name), of: change)
      return
    }
    // A book added earlier in this batch is indexed before it changes.
    if change.kind == .book { try catchUpBulkBooks() }
    if change.kind == .loan {
      // Put aside from the one-open-loan index while it changes; `reconcileLoans` sets it right.
      try database.execute("UPDATE loan SET conflict = id WHERE uuid = ?", change.recordID)
    }
    let renewed = change.kind == .loan && increments.contains { $0.by > 0 }
    // The renewal known here before this one: its desk, and the due date as it stands.
    let before =
      renewed
      ? try latestClock(loan: change.recordID, field: "renewals_added").flatMap { renewal in
        try database.queryFirst(
          "SELECT due_date FROM loan WHERE uuid = ?", change.recordID, read: { (renewal.desk, $0.string(0)) })
      } : nil
    try update(table, key: change.recordID, winners, deskName: pulled.deskName, now: now, bad: bad)
    try recordClocks(winners.map(\.name), of: change)
    try add(increments, to: table, of: change)
    if change.kind == .loan {
      report.conflictsRaised += try noteRenewalMeetingReturn(
        pulled, renewed: renewed, returned: winners.contains { $0.name == "returned_at" && $0.value != .null },
        now: now)
    }
    if renewed {
      var dueGiven: String?
      if case .text(let due)? = fields.first(where: { $0.name == "due_date" })?.value { dueGiven = due }
      report.conflictsRaised += try noteRenewalsPastLimit(pulled, before: before, dueGiven: dueGiven, now: now)
    }
    try refreshDerived(table, key: change.recordID)
  }

  /// Adds a change's increments to their counts (never below zero), and keeps the latest clock of
  /// each for what later changes are compared with (a renewal after a return).
  private func add(_ increments: [(counter: SyncedField, by: Int64)], to table: SyncedTable, of change: Change) throws {
    for (counter, by) in increments {
      try database.execute(
        "UPDATE \(table.table) SET \(counter.column) = max(0, \(counter.column) + ?) WHERE \(table.key) = ?", by,
        change.recordID)
      try database.execute(
        """
        INSERT INTO field_clock(entity, record_id, field, hlc, desk) VALUES (?, ?, ?, ?, ?)
        ON CONFLICT (entity, record_id, field) DO UPDATE SET hlc = excluded.hlc, desk = excluded.desk
          WHERE (excluded.hlc, excluded.desk) > (field_clock.hlc, field_clock.desk)
        """, change.entity, change.recordID, counter.increments ?? counter.name, change.clock.rawValue, change.deskID)
    }
  }

  /// The row id of the reader a loan change is about.
  private func loanReader(_ change: Change, fields: [(name: String, value: DatabaseValue, type: String)]) throws
    -> Int64?
  {
    if let known = try database.queryFirst(
      "SELECT reader_id FROM loan WHERE uuid = ?", change.recordID, read: { $0.int64(0) })
    {
      return known
    }
    guard case .text(let reader)? = fields.first(where: { $0.name == "reader" })?.value else { return nil }
    return try database.queryFirst("SELECT id FROM reader WHERE uuid = ?", reader) { $0.int64(0) }
  }

  /// The row id of the book a loan change is about (for the loans of that book to be looked at
  /// again), whether the loan is known here yet or comes with the change.
  private func loanBook(_ change: Change, fields: [(name: String, value: DatabaseValue, type: String)]) throws -> Int64?
  {
    if let known = try database.queryFirst(
      "SELECT book_id FROM loan WHERE uuid = ?", change.recordID, read: { $0.int64(0) })
    {
      return known
    }
    guard case .text(let book)? = fields.first(where: { $0.name == "book" })?.value else { return nil }
    return try database.queryFirst("SELECT id FROM book WHERE uuid = ?", book) { $0.int64(0) }
  }

  /// Deletions in the central's order (the same at every desk): an edit of a record that another
  /// desk deleted before it reached the central is a conflict, for a librarian to turn into a
  /// restore, and so is an edit made later than a deletion that reaches the central after it (the
  /// edit's field clocks are later than the deletion's). The deletion stands.
  private func noteDeletion(_ pulled: PulledChange, deleted: DatabaseValue?, now: Timestamp) throws -> Int {
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
  private func noteEditsLaterThan(_ pulled: PulledChange, now: Timestamp) throws -> Int {
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

  private func columnValue(
    _ table: SyncedTable, _ name: String, _ value: DatabaseValue, bad: (String) -> StoreError
  ) throws -> (column: String, value: DatabaseValue) {
    guard let field = table.field(name) else { return (name, value) }
    guard let referenced = field.references, case .text(let uuid) = value else { return (field.column, value) }
    guard let id = try database.queryFirst("SELECT id FROM \(referenced) WHERE uuid = ?", uuid, read: { $0.int64(0) })
    else { throw bad("it refers to \(referenced) \(uuid), which this desk does not have") }
    return (field.column, .integer(id))
  }

  /// The insert of a record a change makes: its key, every field in the table's order, then what
  /// the desk makes itself. Made once per table.
  private static let creationSQL: [String: String] = Dictionary(
    uniqueKeysWithValues: SyncedTables.all.map { table in
      var columns = [table.key] + table.fields.map(\.column) + ["updated_at"]
      if table.kind == .book || table.kind == .reader { columns += ["sort_key", "search_text"] }
      if table.kind == .loan { columns.append("conflict") }
      return (
        table.entity,
        "INSERT INTO \(table.table)(\(columns.joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))"
      )
    })

  /// Inserts the record a change makes; `fields` holds every field of the table (in any order:
  /// the central's JSON keeps no order).
  private func insert(
    _ table: SyncedTable, key: String, _ fields: [String: DatabaseValue], deskName: String, now: Timestamp,
    bad: (String) -> StoreError
  ) throws {
    guard let sql = LibraryStore.creationSQL[table.entity] else { return }
    var values: [DatabaseValue] = [.text(key)]
    values.reserveCapacity(table.fields.count + 5)
    for field in table.fields {
      values.append(try columnValue(table, field.name, fields[field.name] ?? field.absent ?? .null, bad: bad).value)
    }
    values.append(.text(now.iso))
    if let (sortKey, searchText) = LibraryStore.derivedColumns(table.entity, key: key, fields) {
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
  }

  /// The sort key and search words of a book or reader that a change makes, from its fields.
  static func derivedColumns(_ entity: String, key: String, _ fields: [String: DatabaseValue]) -> (String, String)? {
    func text(_ name: String) -> String {
      guard case .text(let value)? = fields[name] else { return "" }
      return value
    }
    let epoch = Timestamp(millisecondsSinceEpoch: 0)
    switch entity {
    case "book":
      let book = Book(
        id: RecordID(key), inventoryNumber: text("inventory"), authorSurname: text("author_surname"),
        authorInitials: text("author_initials"), title: text("title"), publisher: text("publisher"), created: epoch,
        updated: epoch)
      return (book.sortKey, book.searchText)
    case "reader":
      let reader = Reader(
        id: RecordID(key), ticket: text("ticket"), surname: text("surname"), firstName: text("first_name"),
        patronymic: text("patronymic"), category: "", registered: LocalDate(daysSinceEpoch: 0), created: epoch,
        updated: epoch)
      return (reader.sortKey, reader.searchText)
    default:
      return nil
    }
  }

  private func update(
    _ table: SyncedTable, key: String, _ fields: [(name: String, value: DatabaseValue)], deskName: String,
    now: Timestamp, bad: (String) -> StoreError
  ) throws {
    guard !fields.isEmpty else { return }
    var assignments: [String] = []
    var values: [DatabaseValue] = []
    for (name, value) in fields {
      let (column, mapped) = try columnValue(table, name, value, bad: bad)
      assignments.append("\(column) = ?")
      values.append(mapped)
    }
    assignments.append("updated_at = ?")
    values += [.text(now.iso), .text(key)]
    let number = fields.first { $0.name == "inventory" || $0.name == "ticket" }?.value
    try insertCatchingClash(table, key: key, number: number, deskName: deskName, now: now) {
      try database.execute(
        "UPDATE \(table.table) SET \(assignments.joined(separator: ", ")) WHERE \(table.key) = ?", values: values)
    }
  }

  /// Adds or changes a row of a table whose rows are deleted outright (categories, holidays,
  /// settings).
  private func upsert(
    _ table: SyncedTable, key: String, _ fields: [(name: String, value: DatabaseValue)], exists: Bool,
    bad: (String) -> StoreError
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
  private func insertCatchingClash(
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
      try markClash(entity: table.entity, record: local, otherRecord: key, otherDesk: deskName, now: now)
      try write()
    }
  }

  private func recordClocks(_ fields: [String], of change: Change) throws {
    for field in fields {
      try database.execute(
        """
        INSERT INTO field_clock(entity, record_id, field, hlc, desk) VALUES (?, ?, ?, ?, ?)
        ON CONFLICT (entity, record_id, field) DO UPDATE SET hlc = excluded.hlc, desk = excluded.desk
        """, change.entity, change.recordID, field, change.clock.rawValue, change.deskID)
    }
  }

  /// The sort key and search words, which each desk makes from the record's fields. Each is
  /// written only when it changed: the full-text trigger fires on any write of `search_text` and
  /// makes every search read the whole vocabulary again (about half a second at a million
  /// books), which another desk's change of a shelf place or a price must not cost.
  func refreshDerived(_ table: SyncedTable, key: String) throws {
    switch table.entity {
    case "book":
      guard
        let book = try database.queryFirst(
          "SELECT \(LibraryStore.bookColumns) FROM book b WHERE b.uuid = ?", key,
          read: { try LibraryStore.decodeBook($0) })
      else { return }
      try database.execute(
        "UPDATE book SET sort_key = ?1 WHERE uuid = ?2 AND sort_key IS NOT ?1", book.sortKey, key)
      try database.execute(
        "UPDATE book SET search_text = ?1 WHERE uuid = ?2 AND search_text IS NOT ?1", book.searchText, key)
    case "reader":
      guard
        let reader = try database.queryFirst(
          "SELECT \(LibraryStore.readerColumns) FROM \(LibraryStore.readerFrom) WHERE r.uuid = ?", key,
          read: { try LibraryStore.decodeReader($0) })
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

extension FieldValue {
  /// A value as SQLite's `json_each` gives it, with its JSON type.
  init(_ value: DatabaseValue, type: String) {
    switch (type, value) {
    case ("null", _): self = .null
    case ("integer", .integer(let number)): self = .integer(number)
    case ("real", .real(let number)): self = .real(number)
    case ("text", .text(let text)): self = .text(text)
    default: self = .other(type == "true" || type == "false" ? "a yes or no" : "an \(type)")
    }
  }
}
