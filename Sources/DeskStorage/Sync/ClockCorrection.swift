import DeskDomain

extension SyncStore {
  /// The machine's clock as this desk's changes are clocked by it, in milliseconds since 1970:
  /// SQLite's reading, the one the capture triggers take.
  public func wallClockReading() throws(StoreError) -> Int64 {
    try read { Int64(try database.scalarInt("SELECT \(SyncedTables.wallClock)")) }
  }

  /// Takes the offset of the desk's clock from the central's that a sync measured
  /// (`ClockOffset.measured`): from now on changes are clocked by the central's time, and the
  /// changes waiting in the outbox are clocked again by it (`HybridTimestamp.reclocked`), none
  /// later than `centralNow`. The process's clock (a `CorrectedClock`) dates what is done here by
  /// the central's time while the desk's is off by more than the bound, carried by `anchor` (the
  /// central's time tied to the machine's uptime) until the next sync.
  /// Its commit, once a sync, does not wait for the disk: lost to a power cut, the desk keeps the
  /// correction before (its outbox clocked as that left it) until the next sync, and the next
  /// change made here, written durably, carries it to the disk anyway.
  public func correctClock(_ offset: ClockOffset, centralNow: Int64, anchor: ClockAnchor? = nil)
    throws(StoreError)
  {
    try store.notWaitingForTheDisk { () throws(StoreError) in
      try correctingClock(offset, centralNow: centralNow, anchor: anchor)
    }
    (clock as? CorrectedClock)?.correct(by: anchor)
  }

  private func correctingClock(_ offset: ClockOffset, centralNow: Int64, anchor: ClockAnchor?) throws(StoreError) {
    try write {
      let previous = Int64(try database.scalarInt("SELECT clock_offset_ms FROM sync_desk WHERE id = 1"))
      let applied = SyncStore.clockedOffset(offset)
      let ceiling = HybridTimestamp(milliseconds: centralNow)
      // The desk's last reading the central may know: a reading beyond the central's bound was
      // never taken, so none later than that is kept.
      let known = Int64(try database.scalarInt("SELECT hlc FROM sync_desk WHERE id = 1"))
      let floor = HybridTimestamp(
        rawValue: min(known, HybridTimestamp(milliseconds: centralNow + ClockOffset.refusedAheadMilliseconds).rawValue))
      // Within the bound the waiting changes keep their clocks: a join sends a whole library
      // through the outbox, and a few milliseconds either way change no order worth a rewrite.
      let shift = applied - previous
      let last = try database.queryFirst("SELECT hlc FROM outbox ORDER BY seq DESC LIMIT 1", read: { $0.int64(0) })
      let tooLate = (last ?? 0) > HybridTimestamp(milliseconds: centralNow + ClockOffset.boundMilliseconds / 2).rawValue
      if shift.magnitude > UInt64(ClockOffset.boundMilliseconds) || tooLate || known != floor.rawValue {
        try reclockOutbox(shiftedBy: shift, after: floor, notAfter: ceiling)
      }
      try database.execute(
        """
        UPDATE sync_desk SET clock_offset_ms = ?, hlc = ?, clock_anchor_central_ms = ?, clock_anchor_boot = ?,
          clock_anchor_uptime_ms = ?
        WHERE id = 1
        """, applied, floor.rawValue, anchor?.central, anchor?.uptime.boot, anchor?.uptime.milliseconds)
    }
  }

  private func reclockOutbox(shiftedBy shift: Int64, after floor: HybridTimestamp, notAfter ceiling: HybridTimestamp)
    throws
  {
    let waiting = try database.query("SELECT seq, hlc FROM outbox ORDER BY seq") {
      (seq: $0.int64(0), clock: HybridTimestamp(rawValue: $0.int64(1)))
    }
    let clocks = HybridTimestamp.reclocked(waiting.map(\.clock), shiftedBy: shift, after: floor, notAfter: ceiling)
    for (change, clock) in zip(waiting, clocks) where change.clock != clock {
      try database.execute("UPDATE outbox SET hlc = ? WHERE seq = ?", clock.rawValue, change.seq)
    }
  }

  /// Gives the process's clock the central's time the last sync read, for a desk tied to a
  /// central, and clocks changes by it from now on: a machine's clock set right (or wrong) since
  /// the sync changes the offset at once (`refreshClockOffset`).
  func adoptClockCorrection() throws {
    guard let corrected = clock as? CorrectedClock else { return }
    corrected.correct(by: try clockAnchor())
    if !store.isReadOnly { try refreshClockOffset() }
  }

  /// The central's time the last sync read, tied to the machine's uptime; nil for a desk that
  /// never joined a central (a desk that left keeps it).
  private func clockAnchor() throws -> ClockAnchor? {
    try database.queryFirst(
      """
      SELECT clock_anchor_central_ms, clock_anchor_boot, clock_anchor_uptime_ms FROM sync_desk
      WHERE id = 1 AND desk_id IS NOT NULL AND clock_anchor_central_ms IS NOT NULL
      """
    ) {
      ClockAnchor(central: $0.int64(0), uptime: UptimeReading(boot: $0.string(1), milliseconds: $0.int64(2)))
    }
  }

  /// Moves the offset that clocks this desk's changes to what the central's time, carried by the
  /// machine's uptime, says now: the machine's clock was set right or wrong since the last sync.
  /// Nothing is written while it stands within half the bound of the last reading.
  public func refreshClockOffset() throws(StoreError) {
    guard let corrected = clock as? CorrectedClock else { return }
    let stored = try read { try database.scalarInt("SELECT clock_offset_ms FROM sync_desk WHERE id = 1") }
    guard let current = corrected.offset.map(SyncStore.clockedOffset),
      (current - Int64(stored)).magnitude > UInt64(ClockOffset.boundMilliseconds / 2)
    else { return }
    try write {
      try database.execute("UPDATE sync_desk SET clock_offset_ms = ? WHERE id = 1", current)
    }
  }

  /// What is added to the machine's clock to clock a change: the offset from the central's, when
  /// beyond the bound. Within it the machine's clock stands: desks whose clocks NTP keeps right
  /// order their changes by them, not by each sync's measure, which errs by a few milliseconds
  /// either way (two desks' edits a millisecond apart kept their order only so).
  static func clockedOffset(_ offset: ClockOffset) -> Int64 {
    offset.isBeyondBound ? offset.milliseconds : 0
  }
}
