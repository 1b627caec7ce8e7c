import DeskDomain

/// Renewals made at desks apart, as events: each renewal adds one to the loan's count at every
/// desk (`SyncedField.increments`), so two desks' renewals both count; where they pass the
/// reader's limit together, or one was made after another desk took the book back, a conflict
/// names it, the same at every desk (its key is the loan's).
extension LibraryStore {
  /// A renewal and a return of one loan that met: a renewal whose clock is later than the return
  /// was made by a desk that did not know the book was back. Found whichever comes second here.
  func noteRenewalMeetingReturn(_ pulled: PulledChange, renewed: Bool, returned: Bool, now: Timestamp) throws
    -> Int
  {
    guard renewed || returned else { return 0 }
    let change = pulled.change
    let renewal: (clock: Int64, desk: String)
    let giveBack: (clock: Int64, desk: String)
    if renewed {
      guard let back = try latestClock(loan: change.recordID, field: "returned_at"),
        back.clock < change.clock.rawValue
      else { return 0 }
      (renewal, giveBack) = ((change.clock.rawValue, pulled.deskName), back)
    } else {
      guard let renewedLater = try latestClock(loan: change.recordID, field: "renewals_added"),
        renewedLater.clock > change.clock.rawValue
      else { return 0 }
      (renewal, giveBack) = (renewedLater, (change.clock.rawValue, pulled.deskName))
    }
    guard
      let details = try database.queryFirst(
        """
        SELECT json_object('renewed_by', ?, 'returned_by', ?, 'returned_at', returned_at, 'due', due_date)
        FROM loan WHERE uuid = ? AND returned_at IS NOT NULL
        """, renewal.desk, giveBack.desk, change.recordID, read: { $0.string(0) })
    else { return 0 }
    return try raiseConflict(
      key: "renewed-after-return:" + change.recordID, kind: .renewedAfterReturn, entity: "loan",
      record: change.recordID, other: change.id, details: details, now: now)
  }

  /// An open loan whose renewals, counted together, pass its reader's category's limit: renewed
  /// at two desks apart, each within the limit. `before` is the renewal known here before the
  /// change (its desk, and the due date as it stood), `dueGiven` the date the change gave.
  func noteRenewalsPastLimit(
    _ pulled: PulledChange, before: (desk: String, due: String)?, dueGiven: String?, now: Timestamp
  ) throws -> Int {
    let change = pulled.change
    guard
      let loan = try database.queryFirst(
        """
        SELECT l.renewals, c.renewal_limit, l.due_date FROM loan l
          JOIN reader r ON r.id = l.reader_id JOIN category c ON c.code = r.category
        WHERE l.uuid = ? AND l.returned_at IS NULL AND l.deleted = 0
        """, change.recordID, read: { (renewals: $0.int(0), limit: $0.int(1), due: $0.string(2)) }),
      loan.renewals > loan.limit
    else { return 0 }
    // One renewal fewer: the earlier of the dates the renewals apart gave.
    let earlier = [before?.due, dueGiven, loan.due].compactMap { $0 }.min() ?? loan.due
    let sides = [before, (pulled.deskName, dueGiven ?? loan.due)].compactMap { $0 }
    let values: [any DatabaseValueConvertible] =
      [loan.renewals, loan.limit, loan.due, earlier]
      + sides.flatMap {
        [$0.0, $0.1] as [any DatabaseValueConvertible]
      }
    let sideObjects = Array(repeating: "json_object('desk', ?, 'due', ?)", count: sides.count)
    let details =
      try database.queryFirst(
        "SELECT json_object('renewals', ?, 'limit', ?, 'due', ?, 'due_before', ?, 'sides', json_array("
          + sideObjects.joined(separator: ", ") + "))", arguments: values, read: { $0.string(0) }) ?? "{}"
    return try raiseConflict(
      key: "renewal-limit:" + change.recordID, kind: .renewalLimit, entity: "loan", record: change.recordID,
      other: change.id, details: details, now: now)
  }

  /// The latest clock of a loan's field, and the name of the desk it came from: a change made
  /// here and not yet at the central counts.
  func latestClock(loan: String, field: String) throws -> (clock: Int64, desk: String)? {
    let here = try database.queryFirst("SELECT coalesce(desk_name, '') FROM sync_desk WHERE id = 1") { $0.string(0) }
    let pending =
      hasPending
      ? try database.queryFirst(
        "SELECT hlc FROM temp.pending_field WHERE entity = 'loan' AND record_id = ? AND field = ?", loan, field,
        read: { $0.int64(0) }) : nil
    let kept = try database.queryFirst(
      """
      SELECT f.hlc, coalesce(p.name, CASE WHEN f.desk = d.desk_id THEN d.desk_name END, '')
      FROM field_clock f JOIN sync_desk d ON d.id = 1 LEFT JOIN sync_peer p ON p.desk_id = f.desk
      WHERE f.entity = 'loan' AND f.record_id = ? AND f.field = ?
      """, loan, field, read: { (clock: $0.int64(0), desk: $0.string(1)) })
    if let pending, pending > (kept?.clock ?? 0) { return (pending, here ?? "") }
    return kept
  }

  /// What a renewal conflict is about: the loan's book and reader, and its details.
  func describeRenewal(_ kind: ConflictKind, loan: String, details: String) throws -> ConflictFacts {
    let parties =
      try database.queryFirst(
        """
        SELECT b.title, b.inventory, trim(r.surname || ' ' || r.first_name), r.ticket
        FROM loan l JOIN book b ON b.id = l.book_id JOIN reader r ON r.id = l.reader_id WHERE l.uuid = ?
        """, loan,
        read: {
          (
            book: ConflictFacts.Record(isBook: true, name: $0.string(0), number: $0.string(1)),
            reader: ConflictFacts.Record(isBook: false, name: $0.string(2), number: $0.string(3))
          )
        })
      ?? (
        book: ConflictFacts.Record(isBook: true, name: "", number: loan),
        reader: ConflictFacts.Record(isBook: false, name: "", number: "")
      )
    if kind == .renewalLimit {
      let (count, limit, before) =
        try database.queryFirst(
          """
          SELECT coalesce(json_extract(?1, '$.renewals'), 0), coalesce(json_extract(?1, '$.limit'), 0),
            coalesce(json_extract(?1, '$.due_before'), '')
          """, details, read: { ($0.int(0), $0.int(1), $0.string(2)) }) ?? (0, 0, "")
      let renewals = try database.query(
        "SELECT json_extract(j.value, '$.desk'), json_extract(j.value, '$.due') FROM json_each(?, '$.sides') j",
        details
      ) { ConflictFacts.RenewalSide(desk: $0.string(0), due: $0.string(1)) }
      return .renewedPastLimit(
        book: parties.book, reader: parties.reader, count: count, limit: limit, dueBefore: before, renewals: renewals)
    }
    let (renewedBy, due, returnedBy, returned) =
      try database.queryFirst(
        """
        SELECT coalesce(json_extract(?1, '$.renewed_by'), ''), coalesce(json_extract(?1, '$.due'), ''),
          coalesce(json_extract(?1, '$.returned_by'), ''), coalesce(json_extract(?1, '$.returned_at'), '')
        """, details, read: { ($0.string(0), $0.string(1), $0.string(2), $0.string(3)) }) ?? ("", "", "", "")
    let moment = Timestamp(iso: returned).map { clock.local($0) }.map { "\($0.date.iso) \($0.clockTime)" } ?? returned
    return .renewedAfterReturn(
      book: parties.book, reader: parties.reader, renewedBy: renewedBy, due: due, returnedBy: returnedBy,
      returned: moment)
  }

  /// Settles a renewal conflict, in the caller's transaction: the renewals past the limit kept, or
  /// taken back to the limit (the due date back to the earlier one the renewals gave, a change
  /// that travels); a renewal after the return acknowledged (the book is back, nothing changes).
  /// Returns the resolution's words.
  func settleRenewal(_ number: Int, loan: String, takingBack: Bool, now: Timestamp) throws -> String {
    let details =
      try database.queryFirst("SELECT details FROM conflict WHERE id = ?", number, read: { $0.string(0) }) ?? "{}"
    let (limit, due, before) =
      try database.queryFirst(
        """
        SELECT coalesce(json_extract(?1, '$.limit'), 0), coalesce(json_extract(?1, '$.due'), ''),
          coalesce(json_extract(?1, '$.due_before'), '')
        """, details, read: { ($0.int(0), $0.string(1), $0.string(2)) }) ?? (0, "", "")
    guard takingBack else { return "the renewals stand: due \(due)" }
    let changed = try database.execute(
      """
      UPDATE loan SET renewals = min(renewals, ?), due_date = CASE WHEN ? <> '' THEN ? ELSE due_date END,
        updated_at = ?
      WHERE uuid = ? AND returned_at IS NULL AND deleted = 0
      """, limit, before, before, now.iso, loan)
    if changed > 0 {
      // The renewals past the limit, the latest, count in the work diary no more; ties go by UUID,
      // which every desk orders alike (row ids differ from desk to desk).
      try database.execute(
        """
        UPDATE renewal SET deleted = 1 WHERE id IN (
          SELECT n.id FROM renewal n JOIN loan x ON x.id = n.loan_id WHERE x.uuid = ?1 AND n.deleted = 0
          ORDER BY n.renewed_at, n.uuid LIMIT -1 OFFSET ?2)
        """, loan, limit)
    }
    return "renewals taken back to \(limit): due \(before.isEmpty ? due : before)"
  }
}
