import DeskDomain

extension LibraryStore {
  /// The machine's clock as this desk's changes are clocked by it, in milliseconds since 1970:
  /// SQLite's reading, the one the capture triggers take.
  public func wallClockReading() throws(StoreError) -> Int64 {
    try read { Int64(try database.scalarInt("SELECT \(SyncedTables.wallClock)")) }
  }

  /// Takes the offset of the desk's clock from the central's that a sync measured
  /// (`ClockOffset.measured`): from now on changes are clocked by the central's time, and the
  /// changes waiting in the outbox are clocked again by it (`HybridTimestamp.reclocked`), none
  /// later than `centralNow`. The process's clock (a `CorrectedClock`) dates what is done here by
  /// the central's time while the desk's is off by more than the bound.
  public func correctClock(_ offset: ClockOffset, centralNow: Int64) throws(StoreError) {
    try write {
      let previous = Int64(try database.scalarInt("SELECT clock_offset_ms FROM sync_desk WHERE id = 1"))
      let ceiling = HybridTimestamp(milliseconds: centralNow)
      // The desk's last reading the central may know: a reading beyond the central's bound was
      // never taken, so none later than that is kept.
      let known = Int64(try database.scalarInt("SELECT hlc FROM sync_desk WHERE id = 1"))
      let floor = HybridTimestamp(
        rawValue: min(known, HybridTimestamp(milliseconds: centralNow + ClockOffset.boundMilliseconds).rawValue))
      // Within the bound the waiting changes keep their clocks: a join sends a whole library
      // through the outbox, and a few milliseconds either way change no order worth a rewrite.
      let shift = offset.milliseconds - previous
      let last = try database.queryFirst("SELECT hlc FROM outbox ORDER BY seq DESC LIMIT 1", read: { $0.int64(0) })
      let tooLate = (last ?? 0) > HybridTimestamp(milliseconds: centralNow + ClockOffset.boundMilliseconds / 2).rawValue
      if shift.magnitude > UInt64(ClockOffset.boundMilliseconds) || tooLate || known != floor.rawValue {
        try reclockOutbox(shiftedBy: shift, after: floor, notAfter: ceiling)
      }
      try database.execute(
        "UPDATE sync_desk SET clock_offset_ms = ?, hlc = ? WHERE id = 1", offset.milliseconds, floor.rawValue)
    }
    (clock as? CorrectedClock)?.correct(by: offset)
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

  /// Gives the process's clock the offset the last sync measured, for a desk tied to a central.
  func adoptClockCorrection() throws {
    guard let corrected = clock as? CorrectedClock else { return }
    let offset = try database.queryFirst(
      "SELECT clock_offset_ms FROM sync_desk WHERE id = 1 AND central IS NOT NULL", read: { $0.int64(0) })
    corrected.correct(by: ClockOffset(milliseconds: offset ?? 0))
  }
}
