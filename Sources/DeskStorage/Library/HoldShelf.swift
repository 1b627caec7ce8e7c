import DeskDomain

/// The hold shelf at work: a copy trapped for the first hold that waits for it, passed on when a
/// hold ends, lapses or moves, and released when it can no longer wait.
extension HoldStore {
  /// Ends an active hold; a copy waiting for it on this desk's shelf goes to the next hold, or
  /// back to the shelf (one on another desk's shelf is that desk's to pass on).
  @discardableResult
  func end(_ number: Int, as state: HoldState) throws(StoreError) -> HoldTrap? {
    let now = clock.now().instant
    return try write {
      let hold = try self.hold(number: number)
      guard hold.state.isActive else { throw StoreError.refused([.holdEnded(number: number, state: hold.state)]) }
      if hold.shelfElsewhere != nil {
        try database.execute(
          "UPDATE hold SET state = ?, ended_at = ?, updated_at = ? WHERE id = ?", state.rawValue, now.iso, now.iso,
          number)
        return nil
      }
      let trapped =
        try database.queryFirst(
          "SELECT trapped_book_id FROM hold WHERE id = ?", number, read: { $0.optionalInt(0) }) ?? nil
      try database.execute(
        "UPDATE hold SET state = ?, ended_at = ?, updated_at = ? WHERE id = ?", state.rawValue, now.iso, now.iso,
        number)
      guard let trapped else { return nil }
      return try trap(bookRowID: Int64(trapped))
    }
  }

  /// A copy whose ISBN, author, title or year was corrected: holds on the copy, and a hold it
  /// waits for, follow it to its new title; holds on the old title follow too when no copy is
  /// left with it (the title itself was corrected). Inside the caller's write.
  func moveHolds(ofCopy rowID: Int64, from old: Book, to new: Book, at now: Timestamp) throws {
    try database.execute(
      """
      UPDATE hold SET title_key = ?1, label = ?2, updated_at = ?3
      WHERE state IN ('queued', 'waiting') AND (book_id = ?4 OR trapped_book_id = ?4)
      """, new.titleKey, new.holdLabel, now.iso, rowID)
    guard try copiesOfTitle(of: old).allSatisfy({ $0.rowID == rowID }) else { return }
    try database.execute(
      """
      UPDATE hold SET title_key = ?1, label = ?2, updated_at = ?3
      WHERE state IN ('queued', 'waiting') AND title_key = ?4
      """, new.titleKey, new.holdLabel, now.iso, old.titleKey)
  }

  /// A copy that can no longer wait on the hold shelf (lost, written off, deleted): its hold
  /// queues again in its old place. Inside the caller's write.
  func releaseTrappedCopy(bookRowID: Int64, at now: Timestamp) throws {
    try database.execute(
      """
      UPDATE hold SET state = 'queued', trapped_book_id = NULL, waiting_since = NULL, pickup_by = NULL,
        pickup_desk = '', updated_at = ?
      WHERE state = 'waiting' AND trapped_book_id = ?
      """, now.iso, bookRowID)
  }

  /// The active holds of a reader who leaves the library end; their waiting copies go to the
  /// next holds. Inside the caller's write.
  func cancelHolds(ofReader uuid: String) throws {
    let numbers = try database.query(
      """
      SELECT h.id FROM hold h JOIN reader r ON r.id = h.reader_id
      WHERE r.uuid = ? AND h.state IN ('queued', 'waiting')
      """, uuid
    ) { $0.int(0) }
    for number in numbers { try end(number, as: .cancelled) }
  }

  /// Puts the copy aside for the first hold it fills, if any: holds on the copy itself and on its
  /// title, in the order placed, passing over suspended holds and those no longer wanted. Inside
  /// the caller's write.
  func trap(bookRowID: Int64) throws -> HoldTrap? {
    guard
      let book = try database.queryFirst(
        "SELECT \(LibraryStore.bookColumns) FROM book b WHERE b.id = ?", bookRowID,
        read: { try LibraryStore.decodeBook($0) }), book.status.circulates
    else { return nil }
    let moment = clock.now()
    let today = moment.date.iso
    // The first of each queue, walked in its index's order and stopped at the first hold that
    // is wanted now: the cost does not grow with the queue.
    let wanted =
      "(suspended_until IS NULL OR suspended_until < ?) AND (not_wanted_after IS NULL OR not_wanted_after >= ?)"
    let firstForTitle = try database.queryFirst(
      """
      SELECT id, placed_at FROM hold INDEXED BY hold_queue
      WHERE state = 'queued' AND title_key = ? AND book_id IS NULL AND \(wanted) ORDER BY placed_at, id LIMIT 1
      """, book.titleKey, today, today, read: { (id: $0.int(0), placed: $0.string(1)) })
    let firstForCopy = try database.queryFirst(
      """
      SELECT id, placed_at FROM hold INDEXED BY hold_copy
      WHERE state = 'queued' AND book_id = ? AND \(wanted) ORDER BY placed_at, id LIMIT 1
      """, bookRowID, today, today, read: { (id: $0.int(0), placed: $0.string(1)) })
    let first = [firstForTitle, firstForCopy].compactMap { $0 }.min { ($0.placed, $0.id) < ($1.placed, $1.id) }
    guard let number = first?.id,
      let (ticket, name) = try database.queryFirst(
        """
        SELECT r.ticket, r.surname, r.first_name, r.patronymic FROM hold h JOIN reader r ON r.id = h.reader_id
        WHERE h.id = ?
        """, number,
        read: {
          ($0.string(0), Reader.shortName(surname: $0.string(1), firstName: $0.string(2), patronymic: $0.string(3)))
        })
    else { return nil }
    let policy = try store.policy.current()
    // The last day to collect is a day the library is open.
    let pickupBy = policy.calendar.nextOpenDay(onOrAfter: moment.date.adding(days: policy.holdPickupDays))
    try database.execute(
      """
      UPDATE hold SET state = 'waiting', trapped_book_id = ?, waiting_since = ?, pickup_by = ?,
        pickup_desk = \(HoldStore.thisDesk), updated_at = ?
      WHERE id = ?
      """, bookRowID, moment.instant.iso, pickupBy.iso, moment.instant.iso, number)
    return HoldTrap(
      hold: number, inventory: book.inventoryNumber, readerTicket: ticket, readerName: name, pickupBy: pickupBy)
  }

  /// Ends the holds no longer wanted: waiting ones not collected by their pickup date (each
  /// copy goes to the next hold of its queue, or back to the shelf: the list says where to move
  /// it), and queued ones past the date after which they were not wanted.
  public func expire() throws(StoreError) -> (moves: [HoldMove], lapsed: [HoldRecord]) {
    let moment = clock.now()
    let today = moment.date.iso
    return try write {
      let lapsed = try database.query(
        HoldStore.holdSQL + " WHERE h.state = 'queued' AND h.not_wanted_after < ? ORDER BY h.placed_at", today,
        read: Self.decodeHold)
      try database.execute(
        """
        UPDATE hold SET state = 'expired', ended_at = ?1, updated_at = ?1
        WHERE state = 'queued' AND not_wanted_after < ?2
        """, moment.instant.iso, today)
      // The copies on this desk's shelf: another desk moves its own.
      let late = try database.query(
        HoldStore.holdSQL + """
           WHERE h.state = 'waiting' AND h.pickup_desk = \(HoldStore.thisDesk) AND h.pickup_by < ?
          ORDER BY h.pickup_by
          """, today, read: Self.decodeHold)
      var moves: [HoldMove] = []
      for hold in late {
        let trapped = try database.scalarInt("SELECT trapped_book_id FROM hold WHERE id = ?", hold.number)
        try database.execute(
          "UPDATE hold SET state = 'expired', ended_at = ?, updated_at = ? WHERE id = ?", moment.instant.iso,
          moment.instant.iso, hold.number)
        moves.append(
          HoldMove(
            inventory: hold.waitingCopy ?? "", label: hold.label, fromReader: hold.readerName,
            next: try trap(bookRowID: Int64(trapped))))
      }
      return (moves, lapsed)
    }
  }

  /// The hold a copy waits for on the hold shelf, if it does.
  public func waiting(forBook inventory: String) throws(StoreError) -> HoldRecord? {
    try read {
      try database.queryFirst(
        HoldStore.holdSQL + """
           WHERE h.state = 'waiting' AND h.trapped_book_id = (SELECT id FROM book WHERE inventory = ? AND deleted = 0)
          """, inventory.identifierForm, read: Self.decodeHold)
    }
  }

  /// The open conflicts of copies put aside twice that name the copy with row id `?1`: while one
  /// is open, each of its copies waits for that hold, whichever the merged hold names.
  static let contestedCopy = contested(copy: "?1")

  /// The same, for the copy whose row id is the SQL expression `copy`.
  static func contested(copy: String) -> String {
    """
    SELECT k.record_id FROM conflict k WHERE k.kind = 'trapped_twice' AND k.resolved_at IS NULL
      AND instr(k.other_id, (SELECT uuid FROM book WHERE id = \(copy))) > 0
    """
  }

  /// The hold a copy waits for, if it is on the hold shelf (or is one of the copies put aside for
  /// a hold at two desks, until a librarian settles which).
  func waitingHold(bookRowID: Int64) throws -> (number: Int, readerRowID: Int64, ticket: String, name: String)? {
    try database.queryFirst(
      """
      SELECT h.id, h.reader_id, r.ticket, r.surname, r.first_name, r.patronymic
      FROM hold h JOIN reader r ON r.id = h.reader_id
      WHERE h.trapped_book_id = ?1 AND h.state = 'waiting'
        OR h.uuid IN (\(HoldStore.contestedCopy)) AND h.state IN ('queued', 'waiting')
      LIMIT 1
      """, bookRowID,
      read: {
        (
          $0.int(0), $0.int64(1), $0.string(2),
          Reader.shortName(surname: $0.string(3), firstName: $0.string(4), patronymic: $0.string(5))
        )
      })
  }

  /// After an issue of `book` to the reader: their hold on it (waiting for this copy, or queued
  /// for its title or the copy) is fulfilled. Inside the caller's write.
  func fulfilHolds(of readerRowID: Int64, book: Book, bookRowID: Int64, at now: Timestamp) throws {
    // One statement, as an issue runs it every time: the holds fulfilled say which copies
    // waited for them. Another copy of the title that waited for the reader on this desk's shelf is
    // theirs no longer (one on another desk's shelf is that desk's to pass on):
    // it goes to the next hold.
    let elsewhere = try database.query(
      """
      UPDATE hold SET state = 'fulfilled', ended_at = ?1, updated_at = ?1
      WHERE reader_id = ?2 AND state IN ('waiting', 'queued') AND (trapped_book_id = ?3 OR title_key = ?4)
      RETURNING CASE WHEN pickup_desk = \(HoldStore.thisDesk) THEN trapped_book_id END
      """, now.iso, readerRowID, bookRowID, book.titleKey
    ) { $0.optionalInt(0).map(Int64.init) }.compactMap { $0 }.filter { $0 != bookRowID }
    for copy in elsewhere { _ = try trap(bookRowID: copy) }
  }

  /// The first reader who waits for the copy's title (or the copy) while no other copy of it is
  /// free: a renewal would keep them waiting.
  func readerWaiting(forBookRowID rowID: Int64, book: Book) throws -> (ticket: String, name: String)? {
    let today = self.today.iso
    guard
      let waiting = try database.queryFirst(
        """
        SELECT r.ticket, r.surname, r.first_name, r.patronymic FROM hold h JOIN reader r ON r.id = h.reader_id
        WHERE h.state = 'queued' AND (h.title_key = ? AND h.book_id IS NULL OR h.book_id = ?)
          AND (h.suspended_until IS NULL OR h.suspended_until < ?3) AND (h.not_wanted_after IS NULL OR h.not_wanted_after >= ?3)
        ORDER BY h.placed_at, h.id LIMIT 1
        """, book.titleKey, rowID, today,
        read: {
          (
            ticket: $0.string(0),
            name: Reader.shortName(surname: $0.string(1), firstName: $0.string(2), patronymic: $0.string(3))
          )
        })
    else { return nil }
    if try copyOnShelf(ofTitle: book, excluding: rowID) != nil { return nil }
    return waiting
  }
}
