import DeskDomain

/// Conflicts between desks as a librarian reads them: listed, found by record, each described
/// from its details (raised in `ConflictRaising.swift`, settled in `ConflictSettlement.swift`).
extension ConflictStore {
  /// The conflicts, open ones first (settled ones too with `all`).
  public func list(includingSettled all: Bool = false) throws(StoreError) -> [Conflict] {
    try read {
      try database.query(
        """
        SELECT \(ConflictColumn.list) FROM conflict
        \(all ? "" : "WHERE resolved_at IS NULL") ORDER BY resolved_at IS NOT NULL, id
        """
      ) { row in
        (
          number: row.int(ConflictColumn.id), key: row.string(ConflictColumn.key),
          kind: row.string(ConflictColumn.kind),
          entity: row.string(ConflictColumn.entity), record: row.string(ConflictColumn.recordId),
          other: row.string(ConflictColumn.otherId), details: row.string(ConflictColumn.details),
          raised: row.string(ConflictColumn.raisedAt), resolved: row.optionalString(ConflictColumn.resolvedAt),
          resolution: row.string(ConflictColumn.resolution)
        )
      }.compactMap { row in
        guard let kind = ConflictKind(rawValue: row.kind) else { return nil }
        let (facts, choices) = try describe(
          kind, entity: row.entity, record: row.record, other: row.other, details: row.details)
        return Conflict(
          number: row.number, key: row.key, kind: kind, entity: row.entity, recordID: row.record, otherID: row.other,
          choices: choices, facts: facts,
          raised: try Timestamp.stored(row.raised, column: "conflict.raised_at"),
          resolved: try row.resolved.map { try Timestamp.stored($0, column: "conflict.resolved_at") },
          resolution: row.resolution)
      }
    }
  }

  /// The open conflicts about one record. A clash of numbers is about both records: this desk's,
  /// and the other desk's that has the number; a book's or a reader's include those of its loans
  /// (renewed past the limit, renewed after return).
  public func openConflicts(entity: RecordKind, recordID: RecordID) throws(StoreError) -> [Conflict] {
    let loans: Set<String> =
      entity == .book || entity == .reader
      ? try read {
        Set(
          try database.query(
            """
            SELECT k.record_id FROM conflict k JOIN loan l ON l.uuid = k.record_id
              JOIN \(entity.rawValue) t ON t.id = l.\(entity.rawValue)_id
            WHERE k.resolved_at IS NULL AND k.entity = 'loan' AND t.uuid = ?
            """, recordID.text
          ) { $0.string(0) })
      } : []
    guard
      try read({
        try database.scalarInt(
          "SELECT count(*) FROM conflict WHERE resolved_at IS NULL AND entity = ? AND ? IN (record_id, other_id)",
          entity, recordID.text)
      }) > 0 || !loans.isEmpty
    else { return [] }
    return try list().filter {
      ($0.entity == entity.rawValue && ($0.recordID == recordID.text || $0.otherID == recordID.text))
        || ($0.entity == RecordKind.loan.rawValue && loans.contains($0.recordID))
    }
  }

  /// The number the next conflict raised here will pass: what a sync raised is what is open above it.
  public func mark() throws(StoreError) -> Int {
    try read { try database.scalarInt("SELECT coalesce(max(id), 0) FROM conflict") }
  }

  /// Conflicts raised after `mark` and still open.
  public func openConflicts(after mark: Int) throws(StoreError) -> Int {
    try read { try database.scalarInt("SELECT count(*) FROM conflict WHERE id > ? AND resolved_at IS NULL", mark) }
  }

  public func conflict(number: Int) throws(StoreError) -> Conflict? {
    try list(includingSettled: true).first { $0.number == number }
  }

  /// A record as conflicts name it: a book by its title and inventory number, a reader by name
  /// and ticket.
  private func recordName(_ entity: String, _ record: String) throws -> ConflictFacts.Record {
    switch RecordKind(rawValue: entity) {
    case .book?:
      return try database.queryFirst(
        "SELECT title, inventory FROM book WHERE uuid = ?", record,
        read: { ConflictFacts.Record(isBook: true, name: $0.string(0), number: $0.string(1)) })
        ?? ConflictFacts.Record(isBook: true, name: "", number: record)
    default:
      return try database.queryFirst(
        "SELECT trim(surname || ' ' || first_name), ticket FROM reader WHERE uuid = ?", record,
        read: { ConflictFacts.Record(isBook: false, name: $0.string(0), number: $0.string(1)) })
        ?? ConflictFacts.Record(isBook: false, name: "", number: record)
    }
  }

  /// A moment of a conflict's details in local time, `YYYY-MM-DD HH:MM`.
  private func localMoment(_ iso: String) -> String {
    Timestamp(iso: iso).map { clock.local($0) }.map { "\($0.date.iso) \($0.clockTime)" } ?? iso
  }

  /// What the conflict is about, from its details, and (a book issued twice) each side's ticket.
  private func describe(_ kind: ConflictKind, entity: String, record: String, other: String, details: String) throws
    -> (ConflictFacts, [String])
  {
    if kind == .renewalLimit || kind == .renewedAfterReturn {
      return (try store.describeRenewal(kind, loan: record, details: details), [])
    }
    let name = try recordName(entity, record)
    switch kind {
    case .renewalLimit, .renewedAfterReturn:
      return (try store.describeRenewal(kind, loan: record, details: details), [])
    case .trappedTwice:
      return try describeTrappedTwice(details)
    case .refusedChange:
      let (byCentral, desk, reason) =
        try database.queryFirst(
          """
          SELECT coalesce(json_extract(?1, '$.by_central'), 0), coalesce(json_extract(?1, '$.desk'), ''),
            coalesce(json_extract(?1, '$.reason'), '')
          """, details, read: { ($0.int(0) == 1, $0.string(1), $0.string(2)) }) ?? (false, "", "")
      // A book or a reader by its title or name; another record by its kind and id.
      let named =
        [.book, .reader].contains(RecordKind(rawValue: entity))
        ? name : ConflictFacts.Record(isBook: true, name: entity, number: record)
      return (.refusedChange(record: named, byCentral: byCentral, desk: desk, reason: reason), [])
    case .inventory, .ticket:
      let (number, otherDesk) =
        try database.queryFirst(
          "SELECT json_extract(?1, '$.number'), json_extract(?1, '$.other_desk')", details,
          read: { ($0.string(0), $0.string(1)) }) ?? ("", "")
      return (.clash(number: number, here: name, there: try recordName(entity, other), otherDesk: otherDesk), [])
    case .doubleIssue:
      let sides = try database.query(
        """
        SELECT trim(r.surname || ' ' || r.first_name), json_extract(j.value, '$.ticket'), json_extract(j.value, '$.desk'),
          json_extract(j.value, '$.issued_at'), json_extract(j.value, '$.due')
        FROM json_each(?) j LEFT JOIN reader r ON r.ticket = json_extract(j.value, '$.ticket') AND r.deleted = 0
        ORDER BY json_extract(j.value, '$.issued_at'), json_extract(j.value, '$.desk'), json_extract(j.value, '$.ticket')
        """, details
      ) { row in
        ConflictFacts.IssueSide(
          reader: row.string(0), ticket: row.string(1), desk: row.string(2), issued: localMoment(row.string(3)),
          due: row.string(4))
      }
      return (.doubleIssue(book: name, loans: sides), sides.map(\.ticket))
    case .editAfterDelete:
      let (desk, at, deleter, out) =
        try database.queryFirst(
          """
          SELECT json_extract(?1, '$.desk'), json_extract(?1, '$.at'), json_extract(?1, '$.deleted_by'),
            json_extract(?1, '$.out')
          """, details, read: { ($0.string(0), $0.string(1), $0.string(2), $0.optionalString(3)) })
        ?? ("", "", "", nil)
      if let out {
        let loans = try database.query(
          """
          SELECT json_extract(j.value, '$.ticket'), json_extract(j.value, '$.desk'), json_extract(j.value, '$.title'),
            json_extract(j.value, '$.inventory')
          FROM json_each(coalesce(json_extract(?, '$.loans'), '[]')) j
          """, details
        ) {
          ConflictFacts.OutLoan(ticket: $0.string(0), desk: $0.string(1), title: $0.string(2), inventory: $0.string(3))
        }
        return (.deletedWhileOut(record: name, deletedBy: deleter, out: out, loans: loans), [])
      }
      let changed = try database.query(
        "SELECT key, coalesce(json_extract(?1, '$.fields.' || key), '') FROM json_each(json_extract(?1, '$.fields'))",
        details
      ) { row in
        // A reference (a reader's address) is named without its value, another record's id.
        let isReference = SyncedTables.table(entity)?.field(row.string(0))?.references != nil
        return ConflictFacts.FieldValue(field: row.string(0), value: isReference ? "" : row.string(1))
      }
      return (
        .changedAfterDeletion(record: name, desk: desk, at: localMoment(at), deletedBy: deleter, fields: changed), []
      )
    }
  }

  /// Copies put aside twice for a hold: the reader, the title, each copy.
  private func describeTrappedTwice(_ details: String) throws -> (ConflictFacts, [String]) {
    let (ticket, label) =
      try database.queryFirst(
        "SELECT json_extract(?1, '$.ticket'), json_extract(?1, '$.label')", details,
        read: { ($0.string(0), $0.string(1)) }) ?? ("", "")
    let reader =
      try database.queryFirst(
        "SELECT trim(surname || ' ' || first_name), ticket FROM reader WHERE ticket = ? AND deleted = 0", ticket,
        read: { ConflictFacts.Record(isBook: false, name: $0.string(0), number: $0.string(1)) })
      ?? ConflictFacts.Record(isBook: false, name: "", number: ticket)
    let copies = try database.query(
      """
      SELECT json_extract(j.value, '$.inventory'), json_extract(j.value, '$.desk'), json_extract(j.value, '$.at'),
        json_extract(j.value, '$.pickup_by')
      FROM json_each(coalesce(json_extract(?, '$.copies'), '[]')) j
      """, details
    ) {
      ConflictFacts.TrapSide(
        inventory: $0.string(0), desk: $0.string(1), at: localMoment($0.string(2)), pickupBy: $0.string(3))
    }
    return (.trappedTwice(reader: reader, title: label, copies: copies), copies.map(\.inventory))
  }
}

/// The columns of `conflict`, in the order its list selects them.
enum ConflictColumn: Int32, SelectedColumn {
  case id, key, kind, entity, recordId, otherId, details, raisedAt, resolvedAt, resolution

  var sql: String { columnName }
}
