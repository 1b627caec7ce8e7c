import DeskDomain

/// A library file's tie to a central: which central (without its password), which library, and
/// this desk's id and name. Joined, every change of the library is captured in the outbox.
public struct DeskTie: Hashable, Sendable {
  public var deskID: String
  public var deskName: String
  /// The central's connection string, as given but without a password.
  public var central: String
  public var libraryID: String
  /// The last change of the central this desk has applied.
  public var cursor: Int64
  public var lastSync: Timestamp?
  public var lastAttempt: Timestamp?
  /// Why the last attempt failed; empty when it did not.
  public var lastError: String
  /// How far this desk's clock is from the central's: as the last sync found it, carried to now
  /// by the machine's uptime where it can be (`ClockAnchor`).
  public var clockOffset: ClockOffset = .zero
}

/// Who this desk is to a library's central while it is not tied to it: a desk that left it (and
/// records its changes to send when it joins again), or one whose join was cut before it was tied.
public struct DeskIdentity: Hashable, Sendable {
  public var deskID: String
  public var deskName: String
  public var libraryID: String
  /// True for a desk that left: its changes since wait in the outbox, its clocks and its place in
  /// the central's log are kept.
  public var hasLeft: Bool
  /// The central it left, without its password.
  public var central: String
}

/// Where a desk stands with its central, as `sync --status` tells it.
public struct SyncStatus: Hashable, Sendable {
  public var tie: DeskTie?
  /// Who the desk was to a central it left: its changes since wait to go when it joins again.
  public var left: DeskIdentity?
  /// Changes made here that the central has not yet taken.
  public var waiting: Int
  /// Of those, the changes held back by a conflict until it is settled.
  public var held: Int
  public var openConflicts: Int
}

extension SyncStore {
  /// The tie to a central, or nil for a desk on its own.
  public func deskTie() throws(StoreError) -> DeskTie? {
    try read { try currentTie() }
  }

  /// The desk is tied while it knows its central; a desk that left keeps its id and library
  /// (`DeskIdentity`) with the central's address cleared.
  func currentTie() throws -> DeskTie? {
    try database.queryFirst(
      """
      SELECT desk_id, desk_name, central, library_id, cursor, last_sync, last_attempt, last_error, clock_offset_ms
      FROM sync_desk WHERE id = 1 AND desk_id IS NOT NULL AND central IS NOT NULL
      """
    ) {
      DeskTie(
        deskID: $0.string(0), deskName: $0.string(1), central: $0.string(2), libraryID: $0.string(3),
        cursor: $0.int64(4), lastSync: $0.optionalString(5).flatMap(Timestamp.init(iso:)),
        lastAttempt: $0.optionalString(6).flatMap(Timestamp.init(iso:)), lastError: $0.string(7),
        clockOffset: (clock as? CorrectedClock)?.offset ?? ClockOffset(milliseconds: $0.int64(8)))
    }
  }

  /// Who this desk was to a central it is not tied to now: one it left, or one whose join was cut.
  /// Nil for a desk tied to a central, or that never joined one.
  public func deskIdentity() throws(StoreError) -> DeskIdentity? {
    try read {
      try database.queryFirst(
        """
        SELECT desk_id, coalesce(desk_name, ''), coalesce(library_id, ''), capture, coalesce(left_central, '')
        FROM sync_desk WHERE id = 1 AND desk_id IS NOT NULL AND central IS NULL
        """
      ) {
        DeskIdentity(
          deskID: $0.string(0), deskName: $0.string(1), libraryID: $0.string(2), hasLeft: $0.int(3) == 1,
          central: $0.string(4))
      }
    }
  }

  /// Who this file is to centrals, for `JoinPlan` to decide how it joins one.
  public func deskStanding() throws(StoreError) -> DeskStanding {
    if let tie = try deskTie() { return .tied(library: tie.libraryID, desk: tie.deskID) }
    guard let identity = try deskIdentity() else { return .alone }
    return identity.hasLeft
      ? .left(library: identity.libraryID, desk: identity.deskID)
      : .joining(library: identity.libraryID, desk: identity.deskID)
  }

  /// Notes the desk's id for the library it is about to join, before the central hears of it: a
  /// join cut after the central registered the desk is taken up again by the next join under the
  /// same id (and so the same name). A desk that left another library forgets it first.
  public func noteJoining(deskID: String, libraryID: String) throws(StoreError) {
    try write {
      if let identity = try deskIdentity(), identity.libraryID != libraryID {
        try forgetCentral()
      }
      try database.execute(
        "UPDATE sync_desk SET desk_id = ?, library_id = ? WHERE id = 1 AND central IS NULL", deskID, libraryID)
    }
  }

  public func status() throws(StoreError) -> SyncStatus {
    try read {
      SyncStatus(
        tie: try currentTie(), left: try deskIdentity().flatMap { $0.hasLeft ? $0 : nil },
        waiting: try database.scalarInt("SELECT count(*) FROM outbox"),
        held: try database.scalarInt("SELECT count(*) FROM outbox WHERE held <> 0"),
        openConflicts: try database.scalarInt("SELECT count(*) FROM conflict WHERE resolved_at IS NULL"))
    }
  }

  /// Ties the library to a central. From now on every change is captured. With `sendingRecords`
  /// (a file that has records of its own) every record is put in the outbox as it stands, for the
  /// central and the other desks to learn; an empty file gets the library by pulling it. A desk
  /// that left this library and joins again sends none: only the changes it made while alone,
  /// which wait in its outbox with their own clocks.
  /// Returns the number of changes queued.
  @discardableResult
  public func tie(
    central: String, libraryID: String, deskID: String, deskName: String, sendingRecords: Bool,
    sendingPolicy: Bool
  ) throws(StoreError) -> Int {
    try write {
      if let tie = try currentTie() {
        guard tie.libraryID == libraryID, tie.deskID == deskID else {
          throw StoreError.syncRefused(
            "This library is joined to another central already (\(tie.central)): run circdesk central leave first")
        }
      }
      try database.execute(
        """
        UPDATE sync_desk SET desk_id = ?, desk_name = ?, central = ?, library_id = ?, capture = 1, applying = 0,
          left_central = NULL
        WHERE id = 1
        """, deskID, deskName, central, libraryID)
      try settleCaptureTriggers()
      // Loans made here carry the desk's name.
      try database.execute(
        "INSERT INTO setting(key, value) VALUES ('desk_name', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
        deskName)
      let before = try database.scalarInt("SELECT count(*) FROM outbox")
      let reading = try database.scalarInt("SELECT \(SyncedTables.nextClock)")
      // The policy of the first desk becomes the library's; a desk joining later takes the
      // library's instead of overriding it with its own.
      for table in SyncedTables.all where table.deletesRows ? sendingPolicy : sendingRecords {
        try database.execute(SyncedTables.snapshot(of: table), reading)
        try database.execute(
          "INSERT OR REPLACE INTO sync_snapshot(entity, last_row, hlc) SELECT ?, coalesce(max(rowid), 0), ? FROM \(table.table)",
          table.entity, reading)
      }
      try database.execute("UPDATE sync_desk SET hlc = max(hlc, ?) WHERE id = 1", reading)
      return try database.scalarInt("SELECT count(*) FROM outbox") - before
    }
  }

  /// Unties the library from its central: it is a desk on its own again. Refused while changes
  /// made here have not reached the central, unless `discarding` them.
  ///
  /// The desk keeps who it was to the library (its id, the clock of every field, its place in the
  /// central's log) and goes on recording its changes: joining again, it takes what the other
  /// desks did meanwhile and sends only what it changed, each field with its own clock, so that
  /// no newer work done elsewhere is undone. With `forgetting` it keeps nothing of the central
  /// (joining again, it is a new desk that sends the library as it stands).
  public func untie(discarding: Bool, forgetting: Bool = false) throws(StoreError) {
    try write {
      let waiting = try database.scalarInt("SELECT count(*) FROM outbox")
      if waiting > 0 && !discarding {
        throw StoreError.syncRefused(
          "\(englishPlural(waiting, "change")) made here \(waiting == 1 ? "has" : "have") not reached the central: "
            + "run circdesk sync first, "
            + "or leave with --discard to drop them from the outbox (the library keeps them)")
      }
      if forgetting {
        try forgetCentral()
        return
      }
      try database.executeScript(
        """
        UPDATE sync_desk SET left_central = central, central = NULL, applying = 0, last_attempt = NULL,
          last_error = '' WHERE id = 1;
        DELETE FROM outbox;
        """)
    }
    // A desk that left keeps the central's time it last read: what it does alone is dated by it,
    // as it will be when it joins again.
    if forgetting { (clock as? CorrectedClock)?.correct(by: nil) }
  }

  /// Forgets everything of a central: the desk's id, its clocks, its outbox and its place in the
  /// log. In the caller's transaction.
  private func forgetCentral() throws {
    try database.executeScript(
      """
      UPDATE sync_desk SET desk_id = NULL, desk_name = NULL, central = NULL, library_id = NULL, capture = 0,
        applying = 0, cursor = 0, last_sync = NULL, last_attempt = NULL, last_error = '', left_central = NULL,
        clock_offset_ms = 0, clock_anchor_central_ms = NULL, clock_anchor_boot = NULL, clock_anchor_uptime_ms = NULL
        WHERE id = 1;
      DELETE FROM outbox; DELETE FROM field_clock; DELETE FROM sync_tombstone; DELETE FROM sync_peer;
      DELETE FROM sync_snapshot;
      """)
    try settleCaptureTriggers()
  }

  /// Gives the file the capture triggers of this version of the schema when the desk is tied to a
  /// central (`capture` on), and takes them away when it is not: a desk on its own has no use for
  /// them, and every new connection parses every trigger (migration 18). In the caller's
  /// transaction.
  func settleCaptureTriggers() throws {
    let names = try database.query(
      "SELECT name FROM sqlite_schema WHERE type = 'trigger' AND name GLOB '*_captured*' ORDER BY name"
    ) { $0.string(0) }
    // Names from the schema itself, quoted: no outside text reaches this DDL.
    for name in names { try database.executeScript("DROP TRIGGER \"\(name)\"") }
    let capturing = try database.scalarInt("SELECT coalesce(max(capture), 0) FROM sync_desk WHERE id = 1")
    if capturing == 1 { try database.executeScript(SyncedTables.currentCaptureTriggers) }
  }

  /// Notes the end of a sync: its time, and why it failed (nil when it did not).
  public func noteSyncAttempt(failure: String?) throws(StoreError) {
    let now = clock.now().instant.iso
    // A note of the desk's state, not of the library: a power cut may show an earlier sync. Its
    // commit, once a sync round, does not wait for the disk: fifty desks syncing on one machine
    // spent 7.9 s of their 2,121 rounds in it waiting, 2.9 s not (rounds of 40.9 ms median and
    // 215 ms p99, then 32.6 and 191).
    try store.notWaitingForTheDisk { () throws(StoreError) in
      try write {
        if let failure {
          try database.execute("UPDATE sync_desk SET last_attempt = ?, last_error = ? WHERE id = 1", now, failure)
        } else {
          try database.execute(
            "UPDATE sync_desk SET last_attempt = ?, last_sync = ?, last_error = '' WHERE id = 1", now, now)
        }
      }
    }
  }

  /// Changes of one record made here and not yet at the central (for "not synced yet" marks); a
  /// book's or a reader's include those of its loans (an issue made offline).
  public func unsyncedChanges(entity: RecordKind, recordID: RecordID) throws(StoreError) -> Int {
    try read {
      let loans =
        entity == .book || entity == .reader
        ? """
        OR (entity = 'loan' AND record_id IN (SELECT l.uuid FROM loan l JOIN \(entity.rawValue) t
          ON t.id = l.\(entity.rawValue)_id WHERE t.uuid = ?1))
        """ : ""
      return try database.scalarInt(
        "SELECT count(*) FROM outbox WHERE (entity = ?2 AND record_id = ?1) \(loans)", recordID.text, entity)
    }
  }

  /// The books (by inventory number) and readers (by ticket) with changes made here that the
  /// central has not yet taken, a loan's change marking its book and its reader: for the marks
  /// in lists, which show those numbers. Nil when more than
  /// `limit` changes wait (a desk sending a whole library, which the status line tells; reading
  /// them all again after every change would cost the screen more than the marks say).
  public func unsyncedRecords(limit: Int = 10_000) throws(StoreError) -> (books: Set<String>, readers: Set<String>)? {
    try read {
      guard try database.scalarInt("SELECT count(*) FROM (SELECT 1 FROM outbox LIMIT ?)", limit + 1) <= limit else {
        return nil
      }
      let rows = try database.query(
        """
        SELECT 'book', b.inventory FROM outbox o JOIN book b ON b.uuid = o.record_id WHERE o.entity = 'book'
        UNION SELECT 'reader', r.ticket FROM outbox o JOIN reader r ON r.uuid = o.record_id WHERE o.entity = 'reader'
        UNION SELECT 'book', b.inventory FROM outbox o JOIN loan l ON l.uuid = o.record_id
          JOIN book b ON b.id = l.book_id WHERE o.entity = 'loan'
        UNION SELECT 'reader', r.ticket FROM outbox o JOIN loan l ON l.uuid = o.record_id
          JOIN reader r ON r.id = l.reader_id WHERE o.entity = 'loan'
        """
      ) { ($0.string(0), $0.string(1)) }
      return (
        Set(rows.filter { $0.0 == "book" }.map(\.1)), Set(rows.filter { $0.0 == "reader" }.map(\.1))
      )
    }
  }
}

/// What a record's screen or `show` says of its place in the shared library.
public struct SyncMark: Hashable, Sendable {
  /// Changes of the record made here that the central has not yet taken.
  public var unsynced: Int
  public var conflicts: [Conflict]
}

extension SyncStore {
  /// The record's changes still on their way to the central and its open conflicts; nil on a
  /// desk that has not joined a central.
  public func mark(entity: RecordKind, recordID: RecordID) throws(StoreError) -> SyncMark? {
    guard try deskTie() != nil else { return nil }
    let unsynced = try unsyncedChanges(entity: entity, recordID: recordID)
    return SyncMark(
      unsynced: unsynced, conflicts: try store.conflicts.openConflicts(entity: entity, recordID: recordID))
  }
}
