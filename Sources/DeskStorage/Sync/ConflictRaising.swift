import DeskDomain

/// Conflicts raised when changes meet: one record of each, whichever desk finds it first,
/// and the loans and deletions that meeting changes leave to be looked at again.
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
}
