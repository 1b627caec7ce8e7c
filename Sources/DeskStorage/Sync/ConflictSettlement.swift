import DeskDomain

/// Conflicts settled: by a librarian here, the settlement travelling like any change, or by one
/// that arrives from another desk.
extension ConflictStore {
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
        _ = try store.reconcileLoans(bookRowID: Int64(book), now: now)
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
        if let table = SyncedTables.table(row.entity) { try store.refreshDerived(table, key: row.record) }
        // The record goes to the central again, whole, at the next sync.
        try store.sync.releaseSettledClashes()
      case (.inventory, .duplicate), (.ticket, .duplicate):
        try store.settleAsDuplicate(number, kind: kind, entity: row.entity, record: row.record) { refuse($0) }
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
        try store.settleTrappedTwice(number, keeping: inventory.identifierForm, now: now) { refuse($0) }
        let key = try database.queryFirst("SELECT key, holder FROM conflict WHERE id = ?", number) {
          (key: $0.string(0), copy: $0.string(1))
        }
        if let key {
          shelfMoves = try store.mendTrappedTwice(conflict: key.key, keptCopy: key.copy, now: now)
        }
      case (.renewalLimit, .keepRenewals), (.renewalLimit, .takeBackRenewal), (.renewedAfterReturn, .acknowledge):
        let resolution =
          kind == .renewedAfterReturn
          ? "the book was back already: the renewal changes nothing"
          : try store.settleRenewal(number, loan: row.record, takingBack: settlement == .takeBackRenewal, now: now)
        try database.execute(
          "UPDATE conflict SET resolved_at = ?, resolution = ? WHERE id = ?", now.iso, resolution, number)
      case (.refusedChange, .resend), (.refusedChange, .drop):
        try store.settleRefused(
          number, entity: row.entity, record: row.record, resending: settlement == .resend, now: now)
      default:
        throw refuse(.doesNotSettle)
      }
    }
    guard let settled = try conflict(number: number) else { throw StoreError.conflictNotFound(number) }
    return (settled, shelfMoves)
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
      shelfMoves += try store.mendTrappedTwice(
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
    try store.asThisDesk {
      try database.execute(
        "UPDATE loan SET returned_at = NULL, conflict = id, updated_at = ? WHERE id = ?", now.iso, loan.id)
    }
    books.insert(loan.book)
  }
}
