import DeskDomain
import DeskStorage
import Dispatch

/// Moves changes between a library file and its central: the outbox up in batches (each one
/// PostgreSQL transaction, idempotent by change id), then the changes after the desk's cursor
/// down (each batch one SQLite transaction). Cut at any moment, the next sync finishes the work.
public final class Synchronizer {
  public let store: LibraryStore
  let central: CentralConnection
  let tie: DeskTie
  public var pushBatch = 500
  public var pullBatch = 2000
  /// The page cache of each group of full batches a pull after the first applies
  /// (`LibraryStore.withBulkCache`).
  static let pullCacheKiB = 16384
  /// Changes a join sends that make it send in batches of `pullBatch`.
  static let largeSending = 10_000
  /// Changes a desk catching up applies in one transaction.
  public var catchUpGroup = 50_000
  /// Batches sent and received so far: a watcher on another thread tells a slow sync from a
  /// stuck one by it.
  public let progress = SyncProgress()

  /// Cuts a sync under way from another thread (see `CentralConnection.abort`): it fails with
  /// the connection lost, and the next sync finishes its work.
  public func abort() {
    central.abort()
  }

  /// Connects to the library's central (`url`, or the one it joined) and checks that it is the
  /// same library.
  /// `describing` says a failure as the library keeps it for `sync --status` (the words are the
  /// caller's: the sync has none of its own).
  public init(
    store: LibraryStore, url: String? = nil,
    describing: @escaping @Sendable (SyncError) -> String = { String(describing: $0) }
  ) throws(SyncError) {
    self.store = store
    self.describing = describing
    do {
      (tie, central) = try Synchronizer.connect(store: store, url: url)
    } catch {
      // An unreachable central is an attempt that failed, for `sync --status` to tell.
      try? store.sync.noteSyncAttempt(failure: describing(error))
      throw error
    }
  }

  /// How a failure is said in the library's record of the last attempt.
  private let describing: @Sendable (SyncError) -> String

  private static func connect(store: LibraryStore, url: String?) throws(SyncError) -> (DeskTie, CentralConnection) {
    do {
      guard let tie = try store.sync.deskTie() else { throw SyncError.notJoined }
      let central = try CentralConnection(url: url ?? tie.central)
      let library = try Synchronizer.checkCentral(central)
      guard library == tie.libraryID else { throw SyncError.otherLibrary(desk: tie.libraryID, central: library) }
      return (tie, central)
    } catch {
      throw SyncError(error)
    }
  }

  /// The central's library id, once its schema is known to be this program's.
  static func checkCentral(_ central: CentralConnection) throws(SyncError) -> String {
    do {
      // One statement for a central in order, as every sync meets it; the catalogue is read only
      // to say what is wrong with one that is not.
      if let rows = try? central.execute(
        "SELECT key, value FROM circdesk_central WHERE key IN ('schema_version', 'library_id')")
      {
        var values: [String: String] = [:]
        for row in rows where row.count == 2 {
          if let key = row[0], let value = row[1] { values[key] = value }
        }
        if values["schema_version"].flatMap({ Int($0) }) == CentralSchema.latestVersion,
          let library = values["library_id"]
        {
          return library
        }
      }
      let version = try CentralSchema.currentVersion(central)
      guard version == CentralSchema.latestVersion else {
        throw SyncError.centralNotReady(found: version, needed: CentralSchema.latestVersion)
      }
      let rows = try central.execute("SELECT value FROM circdesk_central WHERE key = 'library_id'")
      return (rows.first?.first ?? nil) ?? ""
    } catch {
      throw SyncError(error)
    }
  }

  /// Ties a library file to the central at `url` as the desk `name`, and syncs: an empty file
  /// gets the whole library; a file with records sends them (a number another desk has already
  /// given becomes a conflict here; nothing is dropped). A desk that left this library joins again
  /// as itself: it takes what the others did meanwhile first, then sends what it changed alone.
  /// A join cut at any point is taken up by the next one under the same desk id.
  /// `indexesPutOffFrom` is how many of the other desks' changes make the first pull put
  /// indexes off (`bringsMostOfTheLibrary`).
  @discardableResult
  public static func join(
    store: LibraryStore, url: String, deskName: String, indexesPutOffFrom: Int = Synchronizer.indexesPutOffFrom,
    describing: @escaping @Sendable (SyncError) -> String = { String(describing: $0) }
  ) throws(SyncError) -> (queued: Int, report: SyncReport) {
    do {
      let central = try CentralConnection(url: url)
      let library = try checkCentral(central)
      let standing = try store.sync.deskStanding()
      let fileHasRecords = try !store.isEmpty()
      let centralHasPolicy = try !central.execute(
        "SELECT 1 FROM change WHERE entity IN ('category', 'setting', 'holiday') LIMIT 1"
      ).isEmpty
      let plan: JoinPlan
      do {
        plan = try JoinPlan.joining(
          library, standing: standing, fileHasRecords: fileHasRecords, centralHasPolicy: centralHasPolicy,
          newDeskID: RecordID.random().text)
      } catch {
        switch error {
        case .otherLibrary(let desk, let central): throw SyncError.otherLibrary(desk: desk, central: central)
        }
      }
      // Folded (case, accents) with its spaces made single: «Читальный  зал » is «Читальный зал».
      let key = TextFolding.fold(deskName.split(whereSeparator: { $0.isWhitespace }).joined(separator: " "))
      let taken = try central.execute(
        "SELECT name FROM desk WHERE name_key = $1 AND id <> $2::uuid", [key, plan.deskID])
      if let other = taken.first?.first ?? nil { throw SyncError.deskNameTaken(other) }
      // Kept here before the central hears of it: a join cut from now on is taken up again.
      if plan.notesIdentityFirst { try store.sync.noteJoining(deskID: plan.deskID, libraryID: library) }
      do {
        try central.execute("SELECT circdesk_join($1::uuid, $2, $3)", [plan.deskID, deskName, key])
      } catch {
        // Two desks joining with one name at once: the central's index lets one through.
        if case .query(let message) = error, message.contains("desk_name") { throw SyncError.deskNameTaken(deskName) }
        throw error
      }
      // Measured before the tie: the reading that clocks the records a desk brings (and that its
      // later changes follow) is the central's time, not a clock a day ahead.
      _ = try checkClock(of: store, against: central)
      let queued = try store.sync.tie(
        central: try CentralConnection.withoutPassword(url), libraryID: library, deskID: plan.deskID,
        deskName: deskName,
        sendingRecords: plan.sendsRecords, sendingPolicy: plan.sendsPolicy)
      let synchronizer = try Synchronizer(store: store, url: url, describing: describing)
      synchronizer.indexesPutOffFrom = indexesPutOffFrom
      // A library sent whole goes in larger batches: fewer round trips and transactions (the
      // central's lock is held a batch at a time, so other desks' syncs wait longer meanwhile).
      if queued >= Synchronizer.largeSending { synchronizer.pushBatch = synchronizer.pullBatch }
      return (queued, try synchronizer.sync(pullingFirst: plan.pullsFirst))
    } catch {
      throw SyncError(error)
    }
  }

  /// Sends what waits in the outbox, then applies what other desks did. The outcome, failed or
  /// not, is noted in the library for `sync --status`. `pullingFirst` (a desk joining again after
  /// days alone) takes the others' work before sending its own.
  @discardableResult
  public func sync(pullingFirst: Bool = false) throws(SyncError) -> SyncReport {
    var report = SyncReport()
    do throws(SyncError) {
      let mark: Int
      do { mark = try store.conflicts.mark() } catch { throw .store(error) }
      report.clockOffset = try Synchronizer.checkClock(of: store, against: central)
      if !pullingFirst { try push(&report) }
      try pull(&report)
      // What applying made here (a loan closed by a return made here) goes out at once.
      try push(&report)
      do {
        // New conflicts are those still open at the end: one raised and settled within the
        // batches pulled (a desk catching up with history) is no news.
        report.conflictsRaised = try store.conflicts.openConflicts(after: mark)
        try store.sync.noteSyncAttempt(failure: nil)
      } catch {
        throw .store(error)
      }
      return report
    } catch {
      try? store.sync.noteSyncAttempt(failure: describing(error))
      throw error
    }
  }

  /// Measures the desk's clock against the central's, which clocks this desk's changes from now
  /// on (`LibraryStore.correctClock`).
  private static func checkClock(of store: LibraryStore, against central: CentralConnection) throws(SyncError)
    -> ClockOffset
  {
    do {
      let uptime = store.clock as? CorrectedClock
      let (upBefore, before) = (uptime?.uptimeReading(), try store.sync.wallClockReading())
      let rows = try central.execute("SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint")
      let (after, upAfter) = (try store.sync.wallClockReading(), uptime?.uptimeReading())
      guard let answer = rows.first?.first ?? nil, let now = Int64(answer) else {
        throw CentralError.query("the central did not tell its time")
      }
      let offset = ClockOffset.measured(deskBefore: before, central: now, deskAfter: after)
      // The central's answer tied to the machine's uptime half-way through the exchange.
      var anchor: ClockAnchor?
      if let upBefore, let upAfter, upBefore.boot == upAfter.boot {
        anchor = ClockAnchor(
          central: now,
          uptime: UptimeReading(
            boot: upAfter.boot, milliseconds: upBefore.milliseconds + (upAfter.milliseconds - upBefore.milliseconds) / 2
          ))
      }
      try store.sync.correctClock(offset, centralNow: now, anchor: anchor)
      return offset
    } catch {
      throw SyncError(error)
    }
  }

  /// Listens for the central's word that other desks' changes came (`CentralSchema.changesChannel`).
  public func listenForChanges() throws(SyncError) {
    do {
      try central.listen(CentralSchema.changesChannel)
    } catch {
      throw SyncError(error)
    }
  }

  /// Waits up to `milliseconds` for the central's word that another desk's changes came, or for
  /// `other` (a file descriptor) to be readable. True when another desk's changes came; what this
  /// desk sent itself is no news.
  public func waitForOtherDesks(milliseconds: Int32, orReadable other: Int32) throws(SyncError) -> Bool {
    do {
      return try central.waitForNotifications(milliseconds: milliseconds, orReadable: other).contains {
        $0 != tie.deskID
      }
    } catch {
      throw SyncError(error)
    }
  }

  /// Only sends the outbox (for measuring the two halves apart).
  public func push() throws(SyncError) -> SyncReport {
    var report = SyncReport()
    try push(&report)
    return report
  }

  /// Only applies the other desks' changes.
  public func pull() throws(SyncError) -> SyncReport {
    var report = SyncReport()
    try pull(&report)
    return report
  }

  private func push(_ report: inout SyncReport) throws(SyncError) {
    while true {
      let outcomes: [(changeID: String, outcome: PushOutcome)]
      do {
        guard let batch = try store.sync.outboxBatch(limit: pushBatch) else { return }
        // One statement, a transaction of its own: the central's lock on pushes, which
        // `circdesk_push` takes, is let go as the statement commits there, not after a COMMIT
        // sent by the desk (a desk descheduled between the answer and its COMMIT held up every
        // other desk's push).
        let rows = try central.execute(
          "SELECT change_id::text, outcome, detail FROM circdesk_push($1::uuid, $2::jsonb)", [tie.deskID, batch.json])
        outcomes = rows.compactMap { row in
          guard row.count == 3, let id = row[0], let outcome = row[1] else { return nil }
          switch outcome {
          case "clash":
            let detail = (row[2] ?? "").split(separator: " ", maxSplits: 1).map(String.init)
            return (id, .clash(otherRecord: detail.first ?? "", otherDesk: detail.count > 1 ? detail[1] : ""))
          case "held": return (id, .held(dependsOn: row[2] ?? ""))
          case "invalid": return (id, .invalid(reason: row[2] ?? ""))
          default: return (id, .accepted)
          }
        }
        try store.sync.acknowledge(outcomes, of: batch)
        progress.advance()
      } catch {
        throw SyncError(error)
      }
      for (_, outcome) in outcomes {
        if case .accepted = outcome { report.pushed += 1 } else { report.refused += 1 }
      }
      if outcomes.isEmpty { return }
    }
  }

  private func pull(_ report: inout SyncReport) throws(SyncError) {
    do {
      // A desk's first pull writes the whole library and takes the bulk cache; a desk that has
      // pulled before takes what came since with a smaller one.
      let first = try store.sync.deskTie()?.cursor ?? 0 == 0
      let puttingOff = first ? try bringsMostOfTheLibrary() : false
      let cache =
        puttingOff ? LibraryStore.putOffCacheKiB : first ? LibraryStore.bulkCacheKiB : Synchronizer.pullCacheKiB
      // A later pull takes the bulk cache for each group of full batches only (a desk far
      // behind). (It switched SQLite's temporary store then, which empties its schemas, every
      // statement then read again: around every sync of fifty desks in step on one machine, a
      // round took 32.6 ms median and 191 ms p99, against 27.9 and 135 without it.)
      let catchUp = { (report: inout SyncReport) throws -> Void in
        try self.store.catchingUp(cacheKiB: first ? cache : nil) {
          try self.pullAll(&report, groupCacheKiB: first ? nil : cache)
        }
      }
      // The indexes are made again after the bulk cache is given back, sorting on disk
      // (`restoreIndexesPutOff`).
      if puttingOff {
        try store.puttingOffIndexes { try catchUp(&report) }
      } else {
        try catchUp(&report)
      }
      // A desk in step pulls a few changes a sync, a few pages of the log: the checkpoint after
      // each (two writes waiting for the disk) is left to SQLite's own, a thousand pages on.
      if report.pulled >= pullBatch { store.checkpoint() }
    } catch {
      throw SyncError(error)
    }
  }

  /// Whether a first pull brings many more records than the desk holds (an empty desk joining a
  /// large library), told by the other desks' changes: it then puts off the indexes that new rows
  /// would each be inserted into at random (`LibraryStore.puttingOffIndexes`). A desk that sent
  /// a library of its own keeps them: making them again would cost it more than it saves.
  private func bringsMostOfTheLibrary() throws -> Bool {
    let rows = try central.execute("SELECT count(*) FROM change WHERE desk_id <> $1::uuid", [tie.deskID])
    guard let waiting = (rows.first?.first ?? nil).flatMap({ Int($0) }) else { return false }
    return try store.putsOffIndexes(bringing: waiting, minimum: indexesPutOffFrom)
  }

  /// The other desks' changes from which a first pull puts indexes off.
  public static let indexesPutOffFrom = LibraryStore.indexesPutOffFrom
  public var indexesPutOffFrom = Synchronizer.indexesPutOffFrom

  /// `groupCacheKiB`: the bulk cache each group of full batches takes, when the pull as a whole
  /// took none.
  private func pullAll(_ report: inout SyncReport, groupCacheKiB: Int?) throws {
    do {
      try pullBatches(&report, groupCacheKiB: groupCacheKiB)
    } catch is GroupRefused {
      // A change of a group could not be applied: the group was undone whole, and the batches
      // are applied one by one, each setting aside what it cannot apply.
      try pullBatches(&report, oneByOne: true, groupCacheKiB: groupCacheKiB)
    }
  }

  /// A group of batches undone because one of its changes could not be applied.
  private struct GroupRefused: Error {}

  /// Pulls on one thread and applies on this one: the central prepares the next batch while the
  /// desk writes the last (measured: a fifth off a first join of 125,000 changes, which waited on
  /// the network for a third of its time). At most two batches wait in between.
  private func pullBatches(_ report: inout SyncReport, oneByOne: Bool = false, groupCacheKiB: Int?) throws {
    let start = try store.sync.deskTie()?.cursor ?? 0
    let pipe = BatchPipe<PulledChange>(capacity: 2)
    let fetcher = Fetcher(central: central, batch: pullBatch, deskID: tie.deskID) { [progress] in
      progress.advance()
    }
    let done = DispatchSemaphore(value: 0)
    // A thread of the applying thread's priority: below the screen's in the desk's background.
    BackgroundThread.start {
      fetcher.run(after: start, into: pipe)
      done.signal()
    }
    // The fetching thread has let go of the connection before it is used again.
    defer { done.wait() }
    do {
      var next = try pipe.receive()
      // A failed fetch ends the group: what was applied commits, then the failure is told.
      var fetchFailure: (any Error)?
      while let first = next {
        // A desk far behind (a first join) takes full batches together, up to `catchUpGroup`
        // changes a transaction: fewer commits, and the log checkpointed less often (measured: a
        // commit every 2,000 changes made a first join of a million books a third slower). A
        // desk in step commits each batch at once, keeping the write lock briefly.
        // Books are indexed and counted once a group, as an import does; a batch that is not
        // full (a desk in step) goes in its own short transaction, its triggers as they are.
        // The batches of a group are part of its transaction, without savepoints of their own
        // (`LibraryStore.writeWithin`).
        let grouped = first.count == pullBatch && !oneByOne
        var taking = SyncReport()
        let group = { () throws -> Void in
          var batch = first
          var taken = 0
          while true {
            guard let last = batch.last?.sequence else { break }
            let applied = try self.store.sync.apply(batch, cursor: last, partOfGroup: grouped)
            taking.pulled += batch.count
            taking.applied += applied.applied
            taking.conflictsRaised += applied.conflictsRaised
            taking.holdShelfMoves += applied.holdShelfMoves
            taken += batch.count
            do {
              next = try pipe.receive()
            } catch {
              fetchFailure = error
              next = nil
            }
            guard batch.count == self.pullBatch, taken < self.catchUpGroup, let following = next else { break }
            batch = following
          }
        }
        if grouped {
          do {
            if let groupCacheKiB {
              try store.withBulkCache(kibibytes: groupCacheKiB) { try store.addingBooksInBulk(group) }
            } else {
              try store.addingBooksInBulk(group)
            }
          } catch let error as StoreError {
            guard case .badChange = error else { throw error }
            throw GroupRefused()
          }
        } else {
          try group()
        }
        report.pulled += taking.pulled
        report.applied += taking.applied
        report.conflictsRaised += taking.conflictsRaised
        report.holdShelfMoves += taking.holdShelfMoves
      }
      if let fetchFailure { throw fetchFailure }
    } catch {
      pipe.cancel()
      throw error
    }
  }
}
