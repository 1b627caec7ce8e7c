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

extension SyncStore {
  /// Applies a batch of changes pulled from the central, in the central's order and in one
  /// transaction, without capturing them again, and moves the desk's cursor to `cursor`. A change
  /// that names an unknown kind of record or field, breaks a rule of its fields (`FieldRule`),
  /// refers to a record this desk does not have or breaks a rule of the schema is set aside with
  /// its reason, listed as a conflict of this desk, and the rest applies: one change never stops
  /// a desk's syncing. (Found out by applying: the batch is applied again without it.)
  ///
  /// `partOfGroup` applies the batch as part of the transaction already open (a desk catching
  /// up takes many batches in one), without a savepoint of its own (`writeWithin`): a change that
  /// cannot be applied then fails the whole group with `StoreError.badChange`, for the caller
  /// to apply the batches again one by one.
  public func apply(_ batch: [PulledChange], cursor: Int64, partOfGroup: Bool = false) throws(StoreError)
    -> ApplyReport
  {
    if partOfGroup {
      var failing: (id: String, reason: String)?
      return try apply(batch, cursor: cursor, settingAside: [], failing: &failing, within: true)
    }
    var aside: [(change: PulledChange, reason: String)] = []
    while true {
      var failing: (id: String, reason: String)?
      do throws(StoreError) {
        return try apply(batch, cursor: cursor, settingAside: aside, failing: &failing, within: false)
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
    failing: inout (id: String, reason: String)?, within: Bool
  ) throws(StoreError) -> ApplyReport {
    let now = clock.now().instant
    let skipped = Set(aside.map(\.change.change.id))
    let transaction = { (body: () throws -> ApplyReport) throws(StoreError) -> ApplyReport in
      within ? try self.writeWithin(body) : try self.write(body)
    }
    return try transaction {
      guard let tie = try currentTie() else {
        throw StoreError.syncRefused("This library has not joined a central: run circdesk central join")
      }
      // Another sync of this file (the desk's background sync and a `circdesk sync`, say) may have
      // applied part of the batch since it was fetched: what the file's cursor, read under the
      // write lock, has passed is not applied again (a renewal would count twice).
      let batch = batch.filter { $0.sequence > tie.cursor }
      // The clock moves past every change heard of before anything is written: what this desk
      // does itself as it applies them (a return that closes every loan of a book issued twice,
      // captured as this desk's) is ordered after the changes it answers.
      let latest = batch.map(\.change.clock.rawValue).max() ?? 0
      try database.execute("UPDATE sync_desk SET hlc = max(hlc, ?) WHERE id = 1", latest)
      let report = try store.withoutCapture { () throws -> ApplyReport in
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
        for (change, reason) in aside where change.sequence > tie.cursor {
          try store.setAside(change, reason: reason, now: now)
          report.conflictsRaised += 1
        }
        let applying = batch.filter { !skipped.contains($0.change.id) }
        // A large batch (a desk catching up) adds books as an import does: the full-text index and
        // the count brought up to date once, at the end of the batch.
        if batch.count >= SyncStore.bulkApplyThreshold {
          try store.addingBooksInBulk {
            try applyAll(
              applying, deskID: tie.deskID, now: now, report: &report, touched: &touched, failing: &failing)
          }
        } else {
          try applyAll(
            applying, deskID: tie.deskID, now: now, report: &report, touched: &touched, failing: &failing)
        }
        for book in touched.books.sorted() {
          report.conflictsRaised += try store.reconcileLoans(bookRowID: book, now: now)
          report.conflictsRaised += try store.reconcileDeletion(entity: .book, rowID: book, now: now)
        }
        for reader in touched.readers.sorted() {
          report.conflictsRaised += try store.reconcileDeletion(entity: .reader, rowID: reader, now: now)
        }
        report.holdShelfMoves += try store.reconcileHolds(touched.holds.sorted(), deskID: tie.deskID)
        report.holdShelfMoves += try store.passOn(displaced: touched.displaced)
        report.holdShelfMoves += try store.settleTrappedTwiceByTheHolds(now: now)
        return report
      }
      try database.execute("UPDATE sync_desk SET cursor = max(cursor, ?) WHERE id = 1", cursor)
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
    store.hasPending = try database.scalarInt("SELECT count(*) FROM temp.pending_field") > 0
  }

  /// Batches this long are applied with the books' triggers put off (`addingBooksInBulk`).
  static let bulkApplyThreshold = 200

  /// Applies the changes in order; one that cannot be applied is named in `failing` (its id and
  /// why) before the error goes up, for `apply` to set it aside. A failure of the file itself
  /// (busy, full, an I/O error) is no fault of the change, and stops the batch as it is.
  private func applyAll(
    _ batch: [PulledChange], deskID: String, now: Timestamp, report: inout ApplyReport, touched: inout Touched,
    failing: inout (id: String, reason: String)?
  ) throws {
    for pulled in batch {
      let change = pulled.change
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

  /// The fields a change sets, as its record's table reads them.
  private typealias ChangedFields = [(name: String, value: DatabaseValue, type: String)]

  private func applyOne(
    _ pulled: PulledChange, deskID: String, now: Timestamp, touched: inout Touched, report: inout ApplyReport
  ) throws {
    let change = pulled.change
    let own = change.deskID == deskID
    if change.kind == .conflict {
      if !own {
        try store.conflicts.applySettlement(
          change, deskID: deskID, now: now, books: &touched.books, shelfMoves: &report.holdShelfMoves)
      }
      own ? (report.own += 1) : (report.applied += 1)
      return
    }
    guard let table = SyncedTables.table(change.entity) else {
      throw StoreError.badChange("no record is of the kind «\(change.entity)»")
    }
    let fields = try checkedFields(of: change, in: table)
    let deleted = fields.first { $0.name == "deleted" }?.value
    if !table.deletesRows {
      report.conflictsRaised += try store.noteDeletion(pulled, deleted: deleted, now: now)
    }
    try noteTouched(change, fields: fields, deleted: deleted, in: &touched)
    if own {
      report.own += 1
      return
    }
    report.applied += 1
    if change.kind == .hold {
      touched.holds.insert(change.recordID)
      report.conflictsRaised += try store.noteDoubleTrap(
        pulled, fields: fields.map { ($0.name, $0.value) }, now: now, displaced: &touched.displaced)
    }
    let row = try database.queryFirst(table.rowSQL, change.recordID) { $0.int64(0) }
    guard row != nil || table.deletesRows else {
      try insertNew(pulled, fields: fields, in: table, now: now)
      return
    }
    // Per-field last-writer-wins (`FieldMerge`): a field changed here (sent or not) or by another
    // desk later keeps its value. What the change adds to a count applies whatever the clocks
    // (each change comes once).
    var increments: [(counter: SyncedField, by: Int64)] = []
    var setting: [(name: String, value: DatabaseValue)] = []
    for field in fields {
      if let counter = table.counter(incrementedBy: field.name) {
        if case .integer(let by) = field.value, by != 0 { increments.append((counter, by)) }
      } else {
        setting.append((field.name, field.value))
      }
    }
    let winners = try winningFields(setting, of: change, in: table, row: row, thisDesk: deskID)
    if table.deletesRows {
      try applyToRowThatDeletes(change, winners: winners, deleted: deleted, exists: row != nil, in: table)
      return
    }
    try applyUpdate(
      pulled, fields: fields, winners: winners, increments: increments, in: table, now: now, report: &report)
  }

  /// The change's fields, read once from its JSON and checked against the rules the central
  /// checks (again: a change an older central stored before it checked them, or one written into
  /// its log by hand).
  private func checkedFields(of change: Change, in table: SyncedTable) throws -> ChangedFields {
    func bad(_ reason: String) -> StoreError { .badChange(reason) }
    // Malformed text fails, and an array or a bare value has keys that are not names.
    let fields: ChangedFields
    do {
      fields = try database.query("SELECT key, value, type, typeof(key) = 'text' FROM json_each(?)", change.payload) {
        row in
        guard row.bool(3) else { throw bad("its fields are not a JSON object") }
        return (name: row.string(0), value: row.value(1), type: row.string(2))
      }
    } catch let error as DatabaseError where error.message.contains("JSON") {
      throw bad("its fields are not a JSON object")
    }
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
    return fields
  }

  /// Notes the books and readers a change may leave in a state to look at again once the batch is
  /// in: a loan's book and reader (this desk's own loans too), a book or reader deleted or restored.
  private func noteTouched(_ change: Change, fields: ChangedFields, deleted: DatabaseValue?, in touched: inout Touched)
    throws
  {
    if change.kind == .loan, let book = try loanBook(change, fields: fields) { touched.books.insert(book) }
    if change.kind == .loan, let reader = try loanReader(change, fields: fields) { touched.readers.insert(reader) }
    guard deleted == .integer(1) || deleted == .integer(0) else { return }
    if change.kind == .book,
      let row = try database.queryFirst("SELECT id FROM book WHERE uuid = ?", change.recordID, read: { $0.int64(0) })
    {
      touched.books.insert(row)
    }
    if change.kind == .reader,
      let row = try database.queryFirst("SELECT id FROM reader WHERE uuid = ?", change.recordID, read: { $0.int64(0) })
    {
      touched.readers.insert(row)
    }
  }

  /// A record made at another desk: its first change brings every field, and nothing here is
  /// newer than it.
  private func insertNew(_ pulled: PulledChange, fields: ChangedFields, in table: SyncedTable, now: Timestamp) throws {
    let change = pulled.change
    let given = Dictionary(fields.map { ($0.name, $0.value) }, uniquingKeysWith: { _, last in last })
    let missing = table.fields.filter { given[$0.name] == nil && $0.absent == nil }.map(\.name)
    guard missing.isEmpty else {
      throw StoreError.badChange(
        "this desk does not have the \(change.entity), and the change does not make it "
          + "(no \(missing.joined(separator: ", ")))")
    }
    try store.insert(table, key: change.recordID, given, deskName: pulled.deskName, now: now)
  }

  /// The fields of `setting` whose value wins over what this desk knows (`FieldMerge`).
  private func winningFields(
    _ setting: [(name: String, value: DatabaseValue)], of change: Change, in table: SyncedTable, row: Int64?,
    thisDesk deskID: String
  ) throws -> [(name: String, value: DatabaseValue)] {
    var holdState: HoldState?
    if table.kind == .hold, let state = setting.first(where: { $0.name == "state" })?.value {
      guard case .text(let text) = state, let known = HoldState(rawValue: text) else {
        throw StoreError.badChange("«\(state)» is not a state of a hold")
      }
      holdState = known
    }
    let known = try knownRecord(
      change, table: table, row: row, settingReturn: setting.contains { $0.name == "returned_at" })
    let winning = Set(
      FieldMerge.winners(
        of: IncomingChange(
          version: FieldVersion(change), kind: table.kind, fields: setting.map(\.name), holdState: holdState),
        thisDesk: deskID, known: known))
    return setting.filter { winning.contains($0.name) }
  }

  /// A change of a table whose rows are deleted, not marked (a category's, a holiday's): the
  /// winning deletion deletes the row; other winners write it, unless it was deleted later.
  private func applyToRowThatDeletes(
    _ change: Change, winners: [(name: String, value: DatabaseValue)], deleted: DatabaseValue?, exists: Bool,
    in table: SyncedTable
  ) throws {
    if deleted == .integer(1) {
      if winners.contains(where: { $0.name == "deleted" }) {
        try database.execute("DELETE FROM \(table.table) WHERE \(table.key) = ?", change.recordID)
      }
    } else {
      let values = winners.filter { $0.name != "deleted" }
      let deletedLater = !exists && deleted != nil && !winners.contains { $0.name == "deleted" }
      if !values.isEmpty && !deletedLater {
        try store.upsert(table, key: change.recordID, values, exists: exists)
      }
    }
    try recordClocks(winners.map(\.name), of: change)
  }

  /// Writes the winning fields of a record this desk has, its counts' increments, and what a
  /// loan's renewal meets: a return, or the renewal limit.
  private func applyUpdate(
    _ pulled: PulledChange, fields: ChangedFields, winners: [(name: String, value: DatabaseValue)],
    increments: [(counter: SyncedField, by: Int64)], in table: SyncedTable, now: Timestamp,
    report: inout ApplyReport
  ) throws {
    let change = pulled.change
    // A book added earlier in this batch is indexed before it changes.
    if change.kind == .book { try store.catchUpBulkBooks() }
    if change.kind == .loan {
      // Put aside from the one-open-loan index while it changes; `reconcileLoans` sets it right.
      try database.execute("UPDATE loan SET conflict = id WHERE uuid = ?", change.recordID)
    }
    let renewed = change.kind == .loan && increments.contains { $0.by > 0 }
    // The renewal known here before this one: its desk, and the due date as it stands.
    let before =
      renewed
      ? try store.latestClock(loan: change.recordID, field: "renewals_added").flatMap { renewal in
        try database.queryFirst(
          "SELECT due_date FROM loan WHERE uuid = ?", change.recordID, read: { (renewal.desk, $0.string(0)) })
      } : nil
    try store.update(table, key: change.recordID, winners, deskName: pulled.deskName, now: now)
    try recordClocks(winners.map(\.name), of: change)
    try add(increments, to: table, of: change)
    if change.kind == .loan {
      report.conflictsRaised += try store.noteRenewalMeetingReturn(
        pulled, renewed: renewed, returned: winners.contains { $0.name == "returned_at" && $0.value != .null },
        now: now)
    }
    if renewed {
      var dueGiven: String?
      if case .text(let due)? = fields.first(where: { $0.name == "due_date" })?.value { dueGiven = due }
      report.conflictsRaised += try store.noteRenewalsPastLimit(pulled, before: before, dueGiven: dueGiven, now: now)
    }
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

  /// What this desk knows of the record a change is about, for `FieldMerge`: the versions of its
  /// fields, this desk's own changes not yet sent, whether it was sent whole when the desk joined,
  /// a settlement that keeps a loan open, a hold's state.
  private func knownRecord(_ change: Change, table: SyncedTable, row: Int64?, settingReturn: Bool) throws
    -> KnownRecord
  {
    var known = KnownRecord()
    try database.forEachRow(
      "SELECT field, hlc, desk FROM field_clock WHERE entity = ? AND record_id = ?", change.entity, change.recordID
    ) { row in known.stored[row.string(0)] = FieldVersion(rawClock: row.int64(1), desk: row.string(2)) }
    // Changes made here and not yet at the central carry their clocks in the outbox.
    if store.hasPending {
      try database.forEachRow(
        "SELECT field, hlc FROM temp.pending_field WHERE entity = ? AND record_id = ?", change.entity, change.recordID
      ) { row in known.pending[row.string(0)] = HybridTimestamp(rawValue: row.int64(1)) }
    }
    if let row,
      let whole = try database.queryFirst(
        "SELECT hlc FROM sync_snapshot WHERE entity = ? AND last_row >= ?", change.entity, row, read: { $0.int64(0) }),
      whole > 0
    {
      known.sentWhole = HybridTimestamp(rawValue: whole)
    }
    if table.kind == .loan, settingReturn,
      let settled = try database.queryFirst(
        """
        SELECT coalesce(max(c.hlc), 0) FROM conflict k JOIN (
            SELECT record_id, hlc FROM field_clock WHERE entity = 'conflict' AND field = 'resolution'
            UNION ALL SELECT record_id, hlc FROM temp.pending_field WHERE entity = 'conflict' AND field = 'resolution'
          ) c ON c.record_id = k.key
        WHERE k.kind = 'double_issue' AND k.holder = ? AND k.resolved_at IS NOT NULL
        """, change.recordID, read: { $0.int64(0) }), settled > 0
    {
      known.keptOpen = HybridTimestamp(rawValue: settled)
    }
    if table.kind == .hold {
      known.holdState =
        try database.queryFirst(
          "SELECT state FROM hold WHERE uuid = ?", change.recordID, read: { HoldState(rawValue: $0.string(0)) }) ?? nil
    }
    return known
  }

  /// The row id of the reader a loan change is about.
  private func loanReader(_ change: Change, fields: ChangedFields) throws
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
  private func loanBook(_ change: Change, fields: ChangedFields) throws -> Int64? {
    if let known = try database.queryFirst(
      "SELECT book_id FROM loan WHERE uuid = ?", change.recordID, read: { $0.int64(0) })
    {
      return known
    }
    guard case .text(let book)? = fields.first(where: { $0.name == "book" })?.value else { return nil }
    return try database.queryFirst("SELECT id FROM book WHERE uuid = ?", book) { $0.int64(0) }
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
