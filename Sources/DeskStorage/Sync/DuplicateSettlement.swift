import DeskDomain

extension LibraryStore {
  /// Settles a clash of numbers by saying that this desk's record and the other desk's are one
  /// book (or one reader) catalogued twice: this desk's loans of it move to the other record,
  /// and this desk's record is deleted. The central learns the record only as deleted, and the
  /// loans as loans of the other record.
  func settleAsDuplicate(
    _ number: Int, kind: ConflictKind, entity: String, record: String, refuse: (SettlementRefusal) -> StoreError
  ) throws {
    let isBook = kind == .inventory
    let table = isBook ? "book" : "reader"
    let loanColumn = isBook ? "book_id" : "reader_id"
    guard
      let other = try database.queryFirst(
        "SELECT other_id FROM conflict WHERE id = ?", number, read: { $0.string(0) }),
      let here = try database.queryFirst(
        "SELECT id FROM \(table) WHERE uuid = ? AND deleted = 0", record, read: { $0.int64(0) })
    else { throw refuse(.recordGone) }
    guard
      let there = try database.queryFirst(
        "SELECT id FROM \(table) WHERE uuid = ? AND deleted = 0", other, read: { $0.int64(0) })
    else { throw refuse(.otherRecordDeleted) }
    if isBook {
      let out = try database.scalarInt(
        "SELECT count(*) FROM loan WHERE book_id IN (?, ?) AND returned_at IS NULL AND deleted = 0", here, there)
      let outBoth =
        try database.scalarInt(
          """
          SELECT count(DISTINCT book_id) FROM loan WHERE book_id IN (?, ?) AND returned_at IS NULL AND deleted = 0
          """, here, there) == 2
      guard !outBoth else {
        throw refuse(.bothOut(loans: out))
      }
    }
    // Nothing of this desk's record reached the central (its changes were held), so the moves
    // are made without capture, and the held loans are rewritten to name the other record.
    try withoutCapture {
      try database.execute("UPDATE loan SET \(loanColumn) = ? WHERE \(loanColumn) = ?", there, here)
      try database.execute(
        """
        UPDATE outbox SET payload = json_set(payload, '$.\(entity)', ?)
        WHERE entity = 'loan' AND json_extract(payload, '$.\(entity)') = ?
        """, other, record)
      try database.execute("UPDATE \(table) SET deleted = 1 WHERE id = ?", here)
    }
    // The record goes to the central as made and deleted here; what waited for it follows.
    try sync.releaseSettledClashes()
    let name =
      try database.queryFirst(
        isBook
          ? "SELECT '«' || title || '» (' || inventory || ')' FROM book WHERE id = ?"
          : "SELECT trim(surname || ' ' || first_name) || ' (ticket ' || ticket || ')' FROM reader WHERE id = ?",
        there, read: { $0.string(0) }) ?? other
    try database.execute(
      "UPDATE conflict SET resolution = ? WHERE id = ?", "a duplicate of \(name): its loans moved there", number)
  }
}
