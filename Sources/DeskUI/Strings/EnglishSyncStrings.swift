import DeskDomain
import DeskStorage
import DeskSync
import DeskWords

extension EnglishStrings {
  public func syncedSecondsAgo(_ seconds: Int) -> String { seconds < 5 ? "synced just now" : "synced \(seconds) s ago" }
  public func syncedMinutesAgo(_ minutes: Int) -> String { "synced \(minutes) min ago" }
  public func syncedAt(_ when: String) -> String { "synced at \(when)" }
  public var notSyncedYet: String { "not synced yet" }
  public var syncing: String { "syncing…" }
  public func offlineSince(_ when: String) -> String { "offline since \(when)" }
  public var syncRefused: String { "sync refused (see Home)" }
  public func syncFailure(_ error: SyncError) -> String { EnglishWords().message(error) }
  public func changesWaiting(_ count: Int) -> String {
    count == 1 ? "1 change waiting" : "\(count) changes waiting"
  }
  public func clockOff(_ offset: ClockOffset) -> String {
    "clock \(offset.span.english) \(offset.deskIsAhead ? "ahead" : "behind")!"
  }
  public func clockOffAdvice(_ offset: ClockOffset) -> String { offset.englishWarning + "." }
  public func clockOffWarning(_ offset: ClockOffset) -> String {
    "The clock is \(offset.span.english) \(offset.deskIsAhead ? "ahead" : "behind"): set it right"
  }
  public func conflictsBadge(_ count: Int, key: String) -> String {
    (count == 1 ? "1 conflict" : "\(count) conflicts") + ": \(key)"
  }

  public var sectionConflicts: String { "Conflicts between desks" }
  public func homeCentral(_ central: String, desk: String) -> String { "Desk «\(desk)» of the central \(central)" }
  public func homeLastSync(_ state: String) -> String { "Sync: \(state)" }

  public var unsyncedLegend: String { "↑ changed here, not yet at the central" }
  public func unsyncedChanges(_ count: Int) -> String {
    "↑ Not yet at the central: " + (count == 1 ? "1 change" : "\(count) changes") + " made here"
  }
  public func recordConflict(_ number: Int, _ kind: String, _ summary: String) -> String {
    "! Conflict \(number) (\(kind)): \(summary)"
  }

  public var conflictsTitle: String { "Conflicts" }
  public var keyConflicts: String { "Conflicts" }
  public var noConflicts: String { "No open conflicts: the desks agree." }
  public func conflictTitle(_ number: Int, _ kind: String) -> String { "Conflict \(number): \(kind)" }
  public func conflictRaised(_ when: String) -> String { "Found \(when)" }
  public func conflictSettledAlready(_ when: String, _ resolution: String) -> String {
    "Settled \(when): \(resolution)"
  }
  public var conflictWhatSettles: String { "What settles it:" }
  public func sideHeading(_ index: Int) -> String { "Side \(index)" }
  public func actionHolder(_ side: Int, ticket: String) -> String {
    "side \(side)'s reader (ticket \(ticket)) holds the book; the other loan is closed as returned now"
  }
  public var actionKeepBoth: String { "keep both loans open until the book is checked on the shelf" }
  public var actionRenumber: String { "give this desk's record another number" }
  public func actionDuplicate(isBook: Bool) -> String {
    isBook
      ? "they are one book: this desk's record goes, its loans move to the other"
      : "they are one reader: this desk's record goes, its loans move to the other"
  }
  public var actionRestore: String { "restore the record, with the change" }
  public var actionKeepDeleted: String { "keep it deleted" }
  public var actionResend: String { "the record is corrected here: send it to the central again, as it stands" }
  public var actionKeepRenewals: String { "the renewals stand: the reader keeps the book until the later date" }
  public func actionTakeBackRenewals(limit: Int, due: String) -> String {
    "take the renewals back to \(limit): the book is due \(due)"
  }
  public func confirmTakeBackRenewals(limit: Int, due: String) -> String {
    "Take the renewals back to \(limit)? The book is then due \(due); tell the reader."
  }
  public var actionAcknowledge: String { "the book was back already: the renewal changes nothing; close the conflict" }
  public func actionDrop(byCentral: Bool) -> String {
    byCentral ? "let the change go: the other desks never get it" : "leave the change aside: it is not applied here"
  }
  public var actionGoOn: String { "go on with the scan; the conflict stays open" }
  public func renumberPrompt(isBook: Bool) -> String {
    isBook ? "New inventory number for this desk's book:" : "New ticket for this desk's reader:"
  }
  public func confirmHolder(_ side: String) -> String {
    "Settle it so: \(side) holds the book, and the other loan is closed as returned now?"
  }
  public func actionCopy(_ inventory: String) -> String {
    "the reader collects \(inventory); the other goes to the next hold"
  }
  public func confirmCopy(_ inventory: String) -> String {
    "Settle it so: the reader collects \(inventory), and the other copy goes to the next hold or back to the shelf?"
  }
  public func holdFreedBySettlement(_ move: HoldMove) -> String {
    "\(move.inventory) \(move.label), no longer for \(move.fromReader): "
      + (move.next.map { "keep it on the hold shelf for \($0.readerName) (ticket \($0.readerTicket))" }
        ?? "back to the shelf")
  }
  public func confirmDuplicate(isBook: Bool) -> String {
    (isBook ? "Delete this desk's book" : "Delete this desk's reader")
      + " as a duplicate of the other desk's, moving its loans there?"
  }
  public var confirmKeepDeleted: String { "Keep the record deleted? The change made after the deletion is lost." }
  public func conflictSettled(_ number: Int, _ settlement: ConflictStore.Settlement, _ resolution: String) -> String {
    "Conflict \(number) settled: \(resolution)"
  }
  public func keptBothOpen(_ number: Int) -> String {
    "Both loans stay open; check the shelf, then settle conflict \(number)"
  }
  public var conflictScanned: String { "This record has an open conflict between desks: see it first" }
}
