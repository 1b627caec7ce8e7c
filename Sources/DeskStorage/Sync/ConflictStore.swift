import DeskDomain

/// Conflicts between desks: raised when changes meet, listed for a librarian, settled by a
/// change that travels like any other.
extension LibraryStore {
  /// Records a conflict once (its key is the same at every desk that finds it); 1 when new.
  func raiseConflict(
    key: String, kind: ConflictKind, entity: String, record: String, other: String, details: String, now: Timestamp
  ) throws -> Int {
    try database.execute(
      """
      INSERT INTO conflict(key, kind, entity, record_id, other_id, details, raised_at)
      VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT(key) DO NOTHING
      """, key, kind.rawValue, entity, record, other, details, now.iso)
  }

  /// Looks at the open loans of a book after changes from other desks: more than one (the book
  /// was issued at two desks while they were apart) keeps them all, marked, and raises a
  /// conflict naming each; one or none settles any such conflict of the book. Returns 1 when a
  /// conflict was raised.
  func reconcileLoans(bookRowID: Int64, now: Timestamp) throws -> Int {
    guard let book = try database.queryFirst("SELECT uuid FROM book WHERE id = ?", bookRowID, read: { $0.string(0) })
    else { return 0 }
    try closeLoansReturnedHere(bookRowID: bookRowID)
    let open = try database.query(
      "SELECT uuid FROM loan WHERE book_id = ? AND returned_at IS NULL AND deleted = 0 ORDER BY issued_at, uuid",
      bookRowID
    ) { $0.string(0) }
    guard open.count > 1 else {
      try database.execute("UPDATE loan SET conflict = 0 WHERE book_id = ? AND conflict <> 0", bookRowID)
      try database.execute(
        """
        UPDATE conflict SET resolved_at = ?, resolution = ?
        WHERE kind = 'double_issue' AND record_id = ? AND resolved_at IS NULL
        """, now.iso, open.isEmpty ? "every loan closed by a return" : "one loan left open", book)
      return 0
    }
    try database.execute(
      "UPDATE loan SET conflict = id WHERE book_id = ? AND returned_at IS NULL AND deleted = 0", bookRowID)
    let key = "double-issue:" + open.sorted().joined(separator: ",")
    // A third loan, or one of three returned, makes a new conflict of the book; the old one goes.
    try database.execute(
      """
      UPDATE conflict SET resolved_at = ?, resolution = 'superseded'
      WHERE kind = 'double_issue' AND record_id = ? AND resolved_at IS NULL AND key <> ?
      """, now.iso, book, key)
    let details =
      try database.queryFirst(
        """
        SELECT json_group_array(json_object('loan', l.uuid, 'ticket', r.ticket, 'desk', l.desk,
          'issued_at', l.issued_at, 'due', l.due_date))
        FROM (SELECT * FROM loan WHERE book_id = ? AND returned_at IS NULL AND deleted = 0 ORDER BY issued_at, uuid) l
        JOIN reader r ON r.id = l.reader_id
        """, bookRowID
      ) { $0.string(0) } ?? "[]"
    return try raiseConflict(
      key: key, kind: .doubleIssue, entity: "book", record: book, other: open.joined(separator: ","),
      details: details, now: now)
  }

  /// A book or reader deleted at one desk while another desk issued the book (in either order):
  /// the loans stand, and the record is a conflict until it is restored or its loans are closed.
  /// Found from the state the changes leave, so every desk finds the same. Returns 1 when raised.
  func reconcileDeletion(entity: RecordKind, rowID: Int64, now: Timestamp) throws -> Int {
    guard
      let record = try database.queryFirst(
        "SELECT uuid, deleted FROM \(entity.rawValue) WHERE id = ?", rowID,
        read: { (uuid: $0.string(0), deleted: $0.bool(1)) })
    else { return 0 }
    let out =
      record.deleted
      ? try database.query(
        """
        SELECT l.uuid, r.ticket, l.desk, b.title, b.inventory FROM loan l JOIN reader r ON r.id = l.reader_id
          JOIN book b ON b.id = l.book_id
        WHERE l.\(entity)_id = ? AND l.returned_at IS NULL AND l.deleted = 0 ORDER BY l.uuid
        """, rowID
      ) {
        (
          loan: $0.string(0), ticket: $0.string(1), desk: $0.string(2), book: "«\($0.string(3))» (\($0.string(4)))",
          title: $0.string(3), inventory: $0.string(4)
        )
      } : []
    guard !out.isEmpty else {
      try database.execute(
        """
        UPDATE conflict SET resolved_at = ?, resolution = ?
        WHERE kind = 'edit_after_delete' AND record_id = ? AND key LIKE 'deleted-while-out:%' AND resolved_at IS NULL
        """, now.iso, record.deleted ? "its loans closed" : "restored", record.uuid)
      return 0
    }
    let deleter =
      try database.queryFirst(
        """
        SELECT coalesce(p.name, '') FROM sync_tombstone t LEFT JOIN sync_peer p ON p.desk_id = t.desk_id
        WHERE t.entity = ? AND t.record_id = ?
        """, entity, record.uuid, read: { $0.string(0) }) ?? ""
    let key = "deleted-while-out:" + record.uuid + ":" + out.map(\.loan).joined(separator: ",")
    try database.execute(
      """
      UPDATE conflict SET resolved_at = ?, resolution = 'superseded'
      WHERE kind = 'edit_after_delete' AND record_id = ? AND key LIKE 'deleted-while-out:%' AND key <> ?
        AND resolved_at IS NULL
      """, now.iso, record.uuid, key)
    // The loans in parts too, for a desk that words them in another language.
    let loans = try out.map { loan in
      try database.queryFirst(
        "SELECT json_object('ticket', ?, 'desk', ?, 'title', ?, 'inventory', ?)", loan.ticket, loan.desk, loan.title,
        loan.inventory, read: { $0.string(0) }) ?? "{}"
    }
    let details =
      try database.queryFirst(
        "SELECT json_object('out', ?, 'deleted_by', ?, 'loans', json(?))",
        out.map { entity == .book ? "ticket \($0.ticket) at desk «\($0.desk)»" : "\($0.book) at desk «\($0.desk)»" }
          .joined(separator: "; "), deleter, "[" + loans.joined(separator: ",") + "]"
      ) { $0.string(0) } ?? "{}"
    return try raiseConflict(
      key: key, kind: .editAfterDelete, entity: entity.rawValue, record: record.uuid,
      other: out.map(\.loan).joined(separator: ","),
      details: details, now: now)
  }

  /// Koha's rule for offline circulation: a return closes the open loan of the book, whoever holds
  /// it. A loan this desk learns of only now, issued elsewhere before the book came back at this
  /// desk, is closed at that return, by this desk alone (the one that saw the book come back) and
  /// sent on like any return: every other desk learns it once. A librarian's settling of a
  /// conflict is not a return at the counter, and closes only what it says. (Read from what the
  /// desk keeps anyway: a return at the counter writes nothing more for this rule.)
  private func closeLoansReturnedHere(bookRowID: Int64) throws {
    let closes = try database.query(
      """
      SELECT l.id, min(m.returned_at) FROM loan l
        JOIN loan m ON m.book_id = l.book_id AND m.id <> l.id AND m.deleted = 0 AND m.returned_at >= l.issued_at
      WHERE l.book_id = ?1 AND l.returned_at IS NULL AND l.deleted = 0
        -- returned here: the value is this desk's, sent or still in the outbox,
        AND (EXISTS (SELECT 1 FROM field_clock c WHERE c.entity = 'loan' AND c.record_id = m.uuid
              AND c.field = 'returned_at' AND c.desk = (SELECT desk_id FROM sync_desk WHERE id = 1))
          OR EXISTS (SELECT 1 FROM outbox o WHERE o.entity = 'loan' AND o.record_id = m.uuid
              AND json_type(o.payload, '$.returned_at') = 'text'))
        -- and not closed by the settling of a conflict of the book (settled at that very moment).
        AND NOT EXISTS (SELECT 1 FROM conflict k WHERE k.record_id = (SELECT uuid FROM book WHERE id = ?1)
          AND k.resolved_at = m.returned_at)
      GROUP BY l.id
      """, bookRowID
    ) { (loan: $0.int64(0), returned: $0.string(1)) }
    guard !closes.isEmpty else { return }
    try asThisDesk {
      for close in closes {
        try database.execute(
          "UPDATE loan SET returned_at = ?, updated_at = ? WHERE id = ?", close.returned, close.returned, close.loan)
      }
    }
  }

  /// A conflict settled at another desk is settled here too.
  ///
  /// Two desks may settle one conflict differently before they hear of each other: the later
  /// settlement (by the hybrid clock) stands at every desk. When it names another holder of a
  /// book issued twice than this desk's did, the loan this desk closed is opened again, as a
  /// change of this desk that travels on (the other desk closes the loan this desk kept open).
  func applySettlement(
    _ change: Change, deskID: String, now: Timestamp, books: inout Set<Int64>, shelfMoves: inout [HoldMove]
  ) throws {
    let fields = try database.queryFirst(
      """
      SELECT json_extract(?1, '$.kind'), json_extract(?1, '$.entity'), json_extract(?1, '$.record_id'),
        coalesce(json_extract(?1, '$.other_id'), ''), coalesce(json_extract(?1, '$.details'), '{}'),
        json_extract(?1, '$.resolved_at'), coalesce(json_extract(?1, '$.resolution'), ''),
        coalesce(json_extract(?1, '$.holder'), '')
      WHERE json_valid(?1)
      """, change.payload
    ) {
      (
        kind: $0.optionalString(0), entity: $0.optionalString(1), record: $0.optionalString(2), other: $0.string(3),
        details: $0.string(4), resolved: $0.optionalString(5), resolution: $0.string(6), holder: $0.string(7)
      )
    }
    guard let fields, let kindText = fields.kind, let kind = ConflictKind(rawValue: kindText),
      let entity = fields.entity, let record = fields.record, let resolved = fields.resolved
    else {
      throw StoreError.badChange("change \(change.id) settles a conflict but does not say which, or how")
    }
    // The settlement this desk holds, its own (sent or not) or another desk's, and its clock.
    let pending =
      try database.queryFirst(
        "SELECT max(hlc) FROM outbox WHERE entity = 'conflict' AND record_id = ?", change.recordID
      ) { $0.isNull(0) ? nil : $0.int64(0) } ?? nil
    let incoming = FieldVersion(change)
    if let pending, FieldVersion(rawClock: pending, desk: deskID) > incoming { return }
    let kept = try database.queryFirst(
      "SELECT hlc, desk FROM field_clock WHERE entity = 'conflict' AND record_id = ? AND field = 'resolution'",
      change.recordID, read: { FieldVersion(rawClock: $0.int64(0), desk: $0.string(1)) })
    if let kept, kept > incoming { return }
    try database.execute(
      """
      INSERT INTO field_clock(entity, record_id, field, hlc, desk) VALUES ('conflict', ?, 'resolution', ?, ?)
      ON CONFLICT (entity, record_id, field) DO UPDATE SET hlc = excluded.hlc, desk = excluded.desk
      """, change.recordID, change.clock.rawValue, change.deskID)
    let previous = try database.queryFirst(
      "SELECT resolved_at, holder FROM conflict WHERE key = ?", change.recordID,
      read: { (resolved: $0.optionalString(0), holder: $0.string(1)) })
    try database.execute(
      """
      INSERT INTO conflict(key, kind, entity, record_id, other_id, details, raised_at, resolved_at, resolution, holder)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT(key) DO UPDATE SET resolved_at = excluded.resolved_at, resolution = excluded.resolution,
        holder = excluded.holder
      """, change.recordID, kindText, entity, record, fields.other, fields.details, now.iso, resolved,
      fields.resolution, fields.holder)
    if kind == .trappedTwice {
      // Each desk does what the standing settlement asks of the copies on its own shelf.
      let byTheHolds = fields.holder.hasPrefix(LibraryStore.settledByTheHolds)
      shelfMoves += try mendTrappedTwice(
        conflict: change.recordID,
        keptCopy: String(fields.holder.dropFirst(byTheHolds ? LibraryStore.settledByTheHolds.count : 0)),
        now: now, reassert: !byTheHolds)
      return
    }
    // Only the desk whose settlement gave way mends what it did; the others hear it from that desk.
    let mine = pending != nil || kept?.desk == deskID
    guard kind == .doubleIssue, mine, let previous, let closedAt = previous.resolved, !previous.holder.isEmpty,
      previous.holder != fields.holder, !fields.holder.isEmpty
    else { return }
    // This desk had settled it otherwise and closed the loan the later settlement keeps.
    guard
      let loan = try database.queryFirst(
        "SELECT id, book_id FROM loan WHERE uuid = ? AND returned_at = ?", fields.holder, closedAt,
        read: { (id: $0.int64(0), book: $0.int64(1)) })
    else { return }
    try asThisDesk {
      try database.execute(
        "UPDATE loan SET returned_at = NULL, conflict = id, updated_at = ? WHERE id = ?", now.iso, loan.id)
    }
    books.insert(loan.book)
  }

  /// The conflicts, open ones first (settled ones too with `all`).
  public func conflicts(includingSettled all: Bool = false) throws(StoreError) -> [Conflict] {
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
          summary: facts.summary, sides: facts.sides, choices: choices, facts: facts,
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
    return try conflicts().filter {
      ($0.entity == entity.rawValue && ($0.recordID == recordID.text || $0.otherID == recordID.text))
        || ($0.entity == RecordKind.loan.rawValue && loans.contains($0.recordID))
    }
  }

  /// The number the next conflict raised here will pass: what a sync raised is what is open above it.
  public func conflictMark() throws(StoreError) -> Int {
    try read { try database.scalarInt("SELECT coalesce(max(id), 0) FROM conflict") }
  }

  /// Conflicts raised after `mark` and still open.
  public func openConflicts(after mark: Int) throws(StoreError) -> Int {
    try read { try database.scalarInt("SELECT count(*) FROM conflict WHERE id > ? AND resolved_at IS NULL", mark) }
  }

  public func conflict(number: Int) throws(StoreError) -> Conflict? {
    try conflicts(includingSettled: true).first { $0.number == number }
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
      return (try describeRenewal(kind, loan: record, details: details), [])
    }
    let name = try recordName(entity, record)
    switch kind {
    case .renewalLimit, .renewedAfterReturn:
      return (try describeRenewal(kind, loan: record, details: details), [])
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

  /// How a librarian settles a conflict.
  public enum Settlement: Hashable, Sendable {
    /// A double issue: the reader with this ticket holds the book; the other loans are closed
    /// as returned now.
    case holder(ticket: String)
    /// A clash of numbers: this desk's record takes another number.
    case renumber(String)
    /// A clash of numbers: this desk's record is the same book or reader as the other desk's; its
    /// loans move to that record and it is deleted.
    case duplicate
    /// A change after a deletion: the record comes back, with the change.
    case restore
    case keepDeleted
    /// Copies put aside twice for a hold: the reader collects this copy; the others go to the
    /// next holds of their queues, or back to the shelf.
    case copy(inventory: String)
    /// A change the central refused: the record, corrected here, goes to it again whole.
    case resend
    /// A change not taken goes nowhere.
    case drop
    /// A loan renewed past its limit at desks apart: the renewals stand.
    case keepRenewals
    /// A loan renewed past its limit at desks apart: its renewals come back to the limit, its due
    /// date to the earlier one the renewals gave.
    case takeBackRenewal
    /// A renewal made after the book was back: nothing to change.
    case acknowledge
  }

  /// Settles an open conflict; the settlement travels to the other desks like any change.
  @discardableResult
  public func settle(_ number: Int, _ settlement: Settlement) throws(StoreError) -> Conflict {
    try settleMoving(number, settlement).conflict
  }

  /// Settles an open conflict, and says where the copies on this desk's hold shelf that the
  /// settlement frees go (copies put aside twice).
  public func settleMoving(_ number: Int, _ settlement: Settlement) throws(StoreError)
    -> (conflict: Conflict, shelfMoves: [HoldMove])
  {
    let now = clock.now().instant
    var shelfMoves: [HoldMove] = []
    try write {
      guard
        let row = try database.queryFirst(
          "SELECT kind, entity, record_id FROM conflict WHERE id = ? AND resolved_at IS NULL", number,
          read: { (kind: ConflictKind(rawValue: $0.string(0)), entity: $0.string(1), record: $0.string(2)) }),
        let kind = row.kind
      else { throw StoreError.conflictNotFound(number) }
      func refuse(_ refusal: SettlementRefusal) -> StoreError {
        .settlementRefused(number: number, kind: kind, refusal)
      }
      switch (kind, settlement) {
      case (.doubleIssue, .holder(let ticket)):
        let book = try database.scalarInt("SELECT id FROM book WHERE uuid = ?", row.record)
        guard
          let holder = try database.queryFirst(
            """
            SELECT l.id, r.surname || ' ' || r.first_name FROM loan l JOIN reader r ON r.id = l.reader_id
            WHERE l.book_id = ? AND l.returned_at IS NULL AND l.deleted = 0 AND r.ticket = ?
            """, book, ticket.identifierForm, read: { (loan: $0.int64(0), name: $0.string(1)) })
        else { throw refuse(.noLoanToTicket(ticket)) }
        let resolution = "held by \(holder.name) (ticket \(ticket.identifierForm)); the other loans closed"
        let holderID = try database.queryFirst("SELECT uuid FROM loan WHERE id = ?", holder.loan) { $0.string(0) } ?? ""
        try database.execute(
          "UPDATE conflict SET resolved_at = ?, resolution = ?, holder = ? WHERE id = ?", now.iso, resolution, holderID,
          number)
        try database.execute(
          """
          UPDATE loan SET returned_at = ?, updated_at = ?
          WHERE book_id = ? AND returned_at IS NULL AND deleted = 0 AND id <> ?
          """, now.iso, now.iso, book, holder.loan)
        _ = try reconcileLoans(bookRowID: Int64(book), now: now)
      case (.inventory, .renumber(let typed)), (.ticket, .renumber(let typed)):
        let isBook = kind == .inventory
        let field: Field = isBook ? .inventoryNumber : .ticket
        let number: String
        do throws(ValidationErrors) {
          number = try field.validatedNumber(typed)
        } catch {
          throw StoreError.invalid(error)
        }
        let taken = try database.scalarInt(
          isBook
            ? "SELECT count(*) FROM book WHERE inventory = ? AND deleted = 0"
            : "SELECT count(*) FROM reader WHERE ticket = ? AND deleted = 0", number)
        guard taken == 0 else { throw refuse(.numberTaken(number)) }
        try database.execute(
          isBook
            ? "UPDATE book SET inventory = ?, clash = 0, updated_at = ? WHERE uuid = ?"
            : "UPDATE reader SET ticket = ?, clash = 0, updated_at = ? WHERE uuid = ?", number, now.iso, row.record)
        if let table = SyncedTables.table(row.entity) { try refreshDerived(table, key: row.record) }
        // The record goes to the central again, whole, at the next sync.
        try releaseSettledClashes()
      case (.inventory, .duplicate), (.ticket, .duplicate):
        try settleAsDuplicate(number, kind: kind, entity: row.entity, record: row.record) { refuse($0) }
      case (.editAfterDelete, .restore):
        guard let table = SyncedTables.table(row.entity), table.field("deleted") != nil else {
          throw refuse(.cannotRestore(entity: row.entity))
        }
        try database.execute(
          "UPDATE \(table.table) SET deleted = 0, updated_at = ? WHERE \(table.key) = ?", now.iso, row.record)
        let resolution = "restored with the change"
        try database.execute(
          "UPDATE conflict SET resolved_at = ?, resolution = ? WHERE id = ?", now.iso, resolution, number)
      case (.editAfterDelete, .keepDeleted):
        guard let table = SyncedTables.table(row.entity) else { throw refuse(.cannotDelete(entity: row.entity)) }
        if table.kind == .reader {
          let holding = try database.scalarInt(
            """
            SELECT count(*) FROM loan l JOIN reader r ON r.id = l.reader_id
            WHERE r.uuid = ? AND l.returned_at IS NULL AND l.deleted = 0
            """, row.record)
          guard holding == 0 else {
            throw refuse(.readerHoldsBooks(holding))
          }
        }
        let resolution = "kept deleted"
        try database.execute(
          "UPDATE conflict SET resolved_at = ?, resolution = ? WHERE id = ?", now.iso, resolution, number)
        // The deletion said again, with this moment's clock: a restore settled elsewhere before
        // it gives way, as a later one would win over it.
        let wasDeleted =
          try database.scalarInt(
            "SELECT deleted FROM \(table.table) WHERE \(table.key) = ?", row.record) == 1
        if wasDeleted {
          try database.execute(
            """
            INSERT INTO outbox(entity, record_id, hlc, payload)
            SELECT ?, ?, \(SyncedTables.nextClock), '{"deleted":1}' WHERE \(SyncedTables.capturing)
            """, row.entity, row.record)
        } else {
          try database.execute(
            "UPDATE \(table.table) SET deleted = 1, updated_at = ? WHERE \(table.key) = ?", now.iso, row.record)
        }
        if table.kind == .book {
          // A book kept deleted is gone: a loan of it made at another desk is closed now.
          try database.execute(
            """
            UPDATE loan SET returned_at = ?, updated_at = ?
            WHERE book_id = (SELECT id FROM book WHERE uuid = ?) AND returned_at IS NULL AND deleted = 0
            """, now.iso, now.iso, row.record)
        }
      case (.trappedTwice, .copy(let inventory)):
        try settleTrappedTwice(number, keeping: inventory.identifierForm, now: now) { refuse($0) }
        let key = try database.queryFirst("SELECT key, holder FROM conflict WHERE id = ?", number) {
          (key: $0.string(0), copy: $0.string(1))
        }
        if let key {
          shelfMoves = try mendTrappedTwice(conflict: key.key, keptCopy: key.copy, now: now)
        }
      case (.renewalLimit, .keepRenewals), (.renewalLimit, .takeBackRenewal), (.renewedAfterReturn, .acknowledge):
        let resolution =
          kind == .renewedAfterReturn
          ? "the book was back already: the renewal changes nothing"
          : try settleRenewal(number, loan: row.record, takingBack: settlement == .takeBackRenewal, now: now)
        try database.execute(
          "UPDATE conflict SET resolved_at = ?, resolution = ? WHERE id = ?", now.iso, resolution, number)
      case (.refusedChange, .resend), (.refusedChange, .drop):
        try settleRefused(number, entity: row.entity, record: row.record, resending: settlement == .resend, now: now)
      default:
        throw refuse(.doesNotSettle)
      }
    }
    guard let settled = try conflict(number: number) else { throw StoreError.conflictNotFound(number) }
    return (settled, shelfMoves)
  }
}

/// The columns of `conflict`, in the order its list selects them.
enum ConflictColumn: Int32, SelectedColumn {
  case id, key, kind, entity, recordId, otherId, details, raisedAt, resolvedAt, resolution

  var sql: String { columnName }
}
