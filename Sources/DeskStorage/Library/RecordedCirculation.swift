import DeskDomain

/// An issue or a return, as exchange files list them.
public struct CirculationEvent: Equatable, Sendable {
  /// A renewal is the last of the loan's (the desk keeps the time of its latest only).
  public enum Kind: Sendable { case issue, renewal, giveBack }
  public var time: Timestamp
  public var kind: Kind
  public var ticket: String
  public var inventory: String
}

/// Circulation replayed from another desk's record (Koha's offline files): each happened at its
/// own time, so the rules of the day decide the due date, and nothing is refused — the desk that
/// recorded it already lent the book.
extension CirculationStore {
  public func circulationEvents(since: Timestamp?) throws(StoreError) -> [CirculationEvent] {
    let from = since?.iso ?? ""
    return try read {
      try database.query(
        """
        SELECT l.issued_at, l.returned_at, r.ticket, b.inventory, l.renewed_at FROM loan l
        JOIN book b ON b.id = l.book_id JOIN reader r ON r.id = l.reader_id
        WHERE l.deleted = 0 AND (l.issued_at >= ?1 OR l.returned_at >= ?1 OR l.renewed_at >= ?1)
        """, from
      ) { row -> [CirculationEvent] in
        var events: [CirculationEvent] = []
        if let issued = Timestamp(iso: row.string(0)), row.string(0) >= from {
          events.append(CirculationEvent(time: issued, kind: .issue, ticket: row.string(2), inventory: row.string(3)))
        }
        if let text = row.optionalString(4), !text.isEmpty, text >= from, let renewed = Timestamp(iso: text) {
          events.append(
            CirculationEvent(time: renewed, kind: .renewal, ticket: row.string(2), inventory: row.string(3)))
        }
        if let text = row.optionalString(1), text >= from, let returned = Timestamp(iso: text) {
          events.append(
            CirculationEvent(time: returned, kind: .giveBack, ticket: row.string(2), inventory: row.string(3)))
        }
        return events
      }.flatMap { $0 }
    }
  }

  /// True when a transaction of another system's file, by its key, was replayed here before.
  public func wasReplayed(_ key: String) throws(StoreError) -> Bool {
    try read { try database.scalarInt("SELECT count(*) FROM replayed_transaction WHERE key = ?", key) > 0 }
  }

  /// Notes a transaction of another system's file as replayed, in the transaction open.
  public func noteReplayed(_ key: String) throws(StoreError) {
    let now = clock.now().instant.iso
    try write {
      try database.execute(
        "INSERT OR IGNORE INTO replayed_transaction(key, replayed_at) VALUES (?, ?)", key, now)
    }
  }

  /// Issues the book as of `time`, its due date by the rules of that day.
  public func issueRecorded(ticket: String, inventory: String, at time: Timestamp) throws(StoreError) {
    let policy = try store.policy.current()
    guard let reader = try store.readers.reader(ticket: ticket) else { throw .readerNotFound(ticket) }
    guard let category = try store.policy.category(code: reader.category) else {
      throw .categoryNotFound(reader.category)
    }
    let day = clock.local(time).date
    try recordLoan(
      ticket: ticket, inventory: inventory, issued: time, due: policy.dueDate(issuedOn: day, category: category),
      desk: policy.deskName)
  }

  /// Returns the book as of `time`.
  public func returnRecorded(inventory: String, at time: Timestamp) throws(StoreError) {
    try write {
      let changed = try database.execute(
        """
        UPDATE loan SET returned_at = ?, updated_at = ?
        WHERE book_id = (SELECT id FROM book WHERE inventory = ? AND deleted = 0) AND returned_at IS NULL AND deleted = 0
        """, time.iso, clock.now().instant.iso, inventory)
      guard changed == 1 else { throw StoreError.refused([.notOnLoan(book: inventory, inventory: inventory)]) }
      // Back at the desk as any return is: the first hold it fills gets it.
      if let rowID = try store.books.bookRowID(inventory: inventory) { _ = try store.holds.trap(bookRowID: rowID) }
    }
  }

  /// Renews the book's loan as of `time`: a new period from the old due date or that day.
  public func renewRecorded(inventory: String, at time: Timestamp) throws(StoreError) {
    let policy = try store.policy.current()
    guard let book = try store.books.book(inventory: inventory),
      let current = try store.books.currentLoan(ofBook: book),
      let reader = try store.readers.reader(ticket: current.readerTicket),
      let category = try store.policy.category(code: reader.category)
    else { throw .refused([.notOnLoan(book: inventory, inventory: inventory)]) }
    let due = policy.renewedDueDate(oldDue: current.loan.due, today: clock.local(time).date, category: category)
    try write {
      try database.execute(
        "UPDATE loan SET due_date = ?, renewals = renewals + 1, renewed_at = ?, updated_at = ? WHERE uuid = ?",
        due.iso, time.iso, clock.now().instant.iso, current.loan.id.text)
    }
  }
}
