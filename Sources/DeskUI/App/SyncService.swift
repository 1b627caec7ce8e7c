import DeskDomain
import DeskStorage
import DeskSync
import DeskWords
import Dispatch
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// Where the desk stands with its central, as the status line and Home tell it.
public struct SyncState: Equatable, Sendable {
  /// The tie to a central; nil for a desk on its own (nothing about sync is shown).
  public var tie: DeskTie?
  public var syncing = false
  /// The last sync that went through, this session or before.
  public var lastSync: Timestamp?
  /// Since when the central has not answered; nil while it answers.
  public var offlineSince: Timestamp?
  /// Why the last attempt failed, when the central answered but refused (not the network).
  public var failure = ""
  /// Changes made here that the central has not yet taken.
  public var waiting = 0
  public var conflicts = 0
  /// Moves each time a sync brought changes from other desks: open screens show them.
  public var arrivals = 0
  /// Copies on this desk's hold shelf whose holds other desks ended, this session, oldest first:
  /// the desk tells the librarian of each once.
  public var holdShelfMoves: [HoldMove] = []

  public init(
    tie: DeskTie? = nil, syncing: Bool = false, lastSync: Timestamp? = nil, offlineSince: Timestamp? = nil,
    failure: String = "", waiting: Int = 0, conflicts: Int = 0, arrivals: Int = 0
  ) {
    self.tie = tie
    self.syncing = syncing
    self.lastSync = lastSync
    self.offlineSince = offlineSince
    self.failure = failure
    self.waiting = waiting
    self.conflicts = conflicts
    self.arrivals = arrivals
  }
}

/// Keeps a joined desk in step with its central while the librarian works.
public protocol SyncService: AnyObject {
  /// The newest state; cheap, read after every event.
  var state: SyncState { get }
  /// A change was made here: sync soon.
  func nudge()
  /// Stops syncing, waiting at most `milliseconds` for a sync under way: what it left undone
  /// the next sync finishes (a push is idempotent, a pull resumes at the desk's cursor).
  func stop(waitingAtMost milliseconds: Int)
}

/// No central, or a test that sets the state by hand.
public final class StaticSyncService: SyncService {
  public var state: SyncState

  public init(_ state: SyncState = SyncState()) {
    self.state = state
  }

  public func nudge() {}
  public func stop(waitingAtMost milliseconds: Int) {}
}

/// Syncs on a queue of its own with a connection of its own, never on the screen's thread: soon
/// after a change made here, and every `syncIntervalSeconds` otherwise. An offline central is
/// tried again each interval; the desk works on meanwhile.
public final class BackgroundSyncService: SyncService, @unchecked Sendable {
  private let shared = Mutex(SyncState())
  private let wake = Wakeup()
  private let finished = DispatchSemaphore(value: 0)
  private let stopping = Atomic<Bool>(false)
  private let openStore: @Sendable () throws -> LibraryStore
  private let clock: any Clock
  /// Says why a sync was refused, in the desk's language.
  private let describe: @Sendable (SyncError) -> String
  /// The sync under way, for the watcher: its number and its synchronizer.
  private let round = Mutex<(number: Int, synchronizer: Synchronizer?)>((0, nil))
  /// A sync that moves no batch for this long is cut (the server stopped answering without
  /// closing the connection) and the desk counts as offline; a slow one that moves goes on.
  let stallMilliseconds: Int64

  /// `openStore` opens the sync's own connection, on the sync's queue.
  public init(
    clock: any Clock, stallMilliseconds: Int64 = 30_000,
    describe: @escaping @Sendable (SyncError) -> String = { EnglishWords().message($0) },
    openStore: @escaping @Sendable () throws -> LibraryStore
  ) {
    self.clock = clock
    self.describe = describe
    self.stallMilliseconds = stallMilliseconds
    self.openStore = openStore
    BackgroundThread.start(lowered: BackgroundThread.niceness) { [self] in
      run()
      finished.signal()
    }
  }

  public var state: SyncState { shared.withLock { $0 } }

  public func nudge() {
    wake.signal()
  }

  public func stop(waitingAtMost milliseconds: Int) {
    stopping.store(true, ordering: .relaxed)
    wake.signal()
    _ = finished.wait(timeout: .now() + .milliseconds(milliseconds))
  }

  /// Watches sync `number` from another thread and cuts it when it stalls. The cut is made under
  /// the lock the sync's end takes, so it never reaches a connection that is done with.
  private func watch(_ number: Int, _ synchronizer: Synchronizer) {
    DispatchQueue.global().async { [self] in
      var seen = synchronizer.progress.count
      var since = Self.monotonicMilliseconds()
      while true {
        usleep(250_000)
        let over = round.withLock { state -> Bool in
          guard state.number == number, state.synchronizer != nil else { return true }
          let now = Self.monotonicMilliseconds()
          let progress = synchronizer.progress.count
          if progress != seen {
            (seen, since) = (progress, now)
          } else if now - since > stallMilliseconds {
            synchronizer.abort()
            return true
          }
          return false
        }
        if over { return }
      }
    }
  }

  private static func monotonicMilliseconds() -> Int64 {
    Int64(DispatchTime.now().uptimeNanoseconds / 1_000_000)
  }

  private func run() {
    var store: LibraryStore?
    var synchronizer: Synchronizer?
    var nextDue: Int64 = 0
    while !stopping.load(ordering: .relaxed) {
      let now = Self.monotonicMilliseconds()
      // Looks every second: a change made here by another program on this file counts too.
      let waiting = Int32(max(0, min(1000, nextDue - now)))
      // Between syncs the desk listens on its connection: the central's word that another desk's
      // changes came makes it pull at once (`circdesk-bench sync --background`: another desk's
      // change is in this desk's file 30 to 95 ms, median, after that desk's sync began, where the
      // 30 s interval took 26.7 s on average). Without a connection, or with a central that never
      // says, the interval stands.
      var news = false
      if let listening = synchronizer {
        do {
          news = try listening.waitForOtherDesks(milliseconds: waiting, orReadable: wake.readEnd)
        } catch {
          // The connection broke: a new one is made for the next sync.
          synchronizer = nil
        }
        wake.drain()
      } else {
        wake.wait(milliseconds: waiting)
      }
      guard !stopping.load(ordering: .relaxed) else { return }
      do {
        if store == nil { store = try openStore() }
      } catch {
        nextDue = Self.monotonicMilliseconds() + 30_000
        continue
      }
      guard let store else { continue }
      let interval = Int64((try? store.policy.current().syncIntervalSeconds) ?? 30) * 1000
      // A machine's clock set right (or wrong) while the desk is open clocks its changes rightly
      // from the next second on.
      try? store.sync.refreshClockOffset()
      guard let status = try? store.sync.status(), let tie = status.tie else {
        // A desk on its own: look again in a second whether it has joined meanwhile.
        synchronizer = nil
        nextDue = Self.monotonicMilliseconds() + 1000
        shared.withLock { $0 = SyncState() }
        continue
      }
      let offline = shared.withLock { state in
        state.tie = tie
        state.lastSync = tie.lastSync
        state.waiting = status.waiting
        state.conflicts = status.openConflicts
        if state.offlineSince == nil, !tie.lastError.isEmpty, let attempt = tie.lastAttempt,
          attempt > (tie.lastSync ?? Timestamp(millisecondsSinceEpoch: 0))
        {
          // A desk that starts after failed attempts: offline since the first of them we know.
          state.offlineSince = attempt
        }
        return state.offlineSince != nil || !state.failure.isEmpty
      }
      // Changes waiting to go (not those held by a conflict) go at once; while the central
      // does not answer they wait for the next interval like everything else.
      let due =
        news || Self.monotonicMilliseconds() >= nextDue || (!offline && status.waiting > status.held)
      guard due else { continue }
      shared.withLock { $0.syncing = true }
      let outcome: Result<SyncReport, SyncError>
      do {
        if synchronizer == nil {
          let connected = try Synchronizer(store: store, describing: { EnglishWords().message($0) })
          // Short transactions: the librarian's own writes never wait long behind a catch-up.
          connected.catchUpGroup = connected.pullBatch
          try connected.listenForChanges()
          synchronizer = connected
        }
        guard let synchronizer else { continue }
        let number = round.withLock { state in
          state = (state.number + 1, synchronizer)
          return state.number
        }
        watch(number, synchronizer)
        defer { round.withLock { $0.synchronizer = nil } }
        outcome = .success(try synchronizer.sync())
      } catch {
        outcome = .failure(error)
        // A broken connection is opened afresh next time.
        synchronizer = nil
      }
      nextDue = Self.monotonicMilliseconds() + interval
      let after = try? store.sync.status()
      let finishedAt = clock.now().instant
      shared.withLock { state in
        state.syncing = false
        state.waiting = after?.waiting ?? state.waiting
        state.conflicts = after?.openConflicts ?? state.conflicts
        switch outcome {
        case .success(let report):
          state.lastSync = after?.tie?.lastSync ?? finishedAt
          // The clock's offset the sync measured.
          if let tie = after?.tie { state.tie = tie }
          state.offlineSince = nil
          state.failure = ""
          if report.applied > 0 { state.arrivals += 1 }
          state.holdShelfMoves += report.holdShelfMoves
        case .failure(let error):
          if error.isOffline {
            if state.offlineSince == nil { state.offlineSince = finishedAt }
            state.failure = ""
          } else {
            state.failure = describe(error)
          }
        }
      }
    }
  }
}
