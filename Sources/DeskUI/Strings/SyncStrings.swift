import DeskDomain
import DeskStorage
import DeskSync

/// The words of the desk about its central: the status line, Home, marks, and conflicts.
public protocol SyncStrings {
  // The status line
  func syncedSecondsAgo(_ seconds: Int) -> String
  func syncedMinutesAgo(_ minutes: Int) -> String
  /// Synced at a time of day (`HH:MM`), or a date and time for an older sync.
  func syncedAt(_ when: String) -> String
  var notSyncedYet: String { get }
  var syncing: String { get }
  func offlineSince(_ when: String) -> String
  var syncRefused: String { get }
  /// Why a sync was refused, whole in the table's language (Home shows it).
  func syncFailure(_ error: SyncError) -> String
  func changesWaiting(_ count: Int) -> String
  /// The desk's clock is off by more than the bound (`ClockOffset`): a few words.
  func clockOff(_ offset: ClockOffset) -> String
  /// The highlighted badge at the right of the status line, with the key that opens them.
  func conflictsBadge(_ count: Int, key: String) -> String

  // Home
  var sectionConflicts: String { get }
  func homeCentral(_ central: String, desk: String) -> String
  func homeLastSync(_ state: String) -> String
  /// What a clock that is off means, and what to do.
  func clockOffAdvice(_ offset: ClockOffset) -> String
  /// The same in one short line, among Home's warnings.
  func clockOffWarning(_ offset: ClockOffset) -> String

  // Marks on records
  /// What the list's mark for a record changed here and not yet at the central means.
  var unsyncedLegend: String { get }
  func unsyncedChanges(_ count: Int) -> String
  func recordConflict(_ number: Int, _ kind: String, _ summary: String) -> String

  // Conflicts
  var conflictsTitle: String { get }
  var keyConflicts: String { get }
  var noConflicts: String { get }
  func conflictTitle(_ number: Int, _ kind: String) -> String
  /// One line: what happened.
  /// What each side says, a line each.
  func conflictRaised(_ when: String) -> String
  func conflictSettledAlready(_ when: String, _ resolution: String) -> String
  var conflictWhatSettles: String { get }
  func sideHeading(_ index: Int) -> String
  func actionHolder(_ side: Int, ticket: String) -> String
  var actionKeepBoth: String { get }
  var actionRenumber: String { get }
  func actionDuplicate(isBook: Bool) -> String
  var actionRestore: String { get }
  var actionKeepDeleted: String { get }
  /// A change the central refused: send the record again, as corrected here.
  var actionResend: String { get }
  /// A change not taken: let it go.
  func actionDrop(byCentral: Bool) -> String
  /// A loan renewed past its limit at desks apart: the renewals stand.
  var actionKeepRenewals: String { get }
  /// …or they come back to the limit, the loan due on `due`.
  func actionTakeBackRenewals(limit: Int, due: String) -> String
  func confirmTakeBackRenewals(limit: Int, due: String) -> String
  /// A renewal made after the book was back: nothing to change.
  var actionAcknowledge: String { get }
  var actionGoOn: String { get }
  func renumberPrompt(isBook: Bool) -> String
  func confirmHolder(_ side: String) -> String
  /// Copies put aside twice: the reader collects this copy.
  func actionCopy(_ inventory: String) -> String
  func confirmCopy(_ inventory: String) -> String
  /// A copy on this desk's hold shelf that a settlement of copies put aside twice frees.
  func holdFreedBySettlement(_ move: HoldMove) -> String
  func confirmDuplicate(isBook: Bool) -> String
  var confirmKeepDeleted: String { get }
  /// A conflict settled here just now, by `settlement` (the store's `resolution` in English).
  func conflictSettled(_ number: Int, _ settlement: ConflictStore.Settlement, _ resolution: String) -> String
  func keptBothOpen(_ number: Int) -> String
  var conflictScanned: String { get }
}

extension SyncStrings {
  /// How long ago the last sync was, in the words of the status line.
  func syncAge(of lastSync: Timestamp?, now: Timestamp, clock: any Clock) -> String {
    guard let lastSync else { return notSyncedYet }
    let seconds = max(0, Int((now.millisecondsSinceEpoch - lastSync.millisecondsSinceEpoch) / 1000))
    if seconds < 60 { return syncedSecondsAgo(seconds) }
    if seconds < 3600 { return syncedMinutesAgo(seconds / 60) }
    return syncedAt(when(lastSync, now: now, clock: clock))
  }

  /// A moment as `HH:MM` today, or with its date on another day.
  func when(_ moment: Timestamp, now: Timestamp, clock: any Clock) -> String {
    let local = clock.local(moment)
    return local.date == clock.local(now).date ? local.clockTime : "\(local.date.iso) \(local.clockTime)"
  }

  /// The status line's words for where the desk stands with its central.
  func syncStatus(_ state: SyncState, now: Timestamp, clock: any Clock) -> String {
    var parts: [String] = []
    // First: in a narrow window the line keeps it, cut from the right.
    if let offset = state.tie?.clockOffset, offset.isBeyondBound { parts.append(clockOff(offset)) }
    // Offline stays offline while the desk tries again: "syncing…" would flicker every interval.
    if let since = state.offlineSince {
      parts.append(offlineSince(when(since, now: now, clock: clock)))
    } else if state.syncing {
      parts.append(syncing)
    } else if !state.failure.isEmpty {
      parts.append(syncRefused)
    } else {
      parts.append(syncAge(of: state.lastSync, now: now, clock: clock))
    }
    if state.waiting > 0 { parts.append(changesWaiting(state.waiting)) }
    return parts.joined(separator: " · ")
  }
}
