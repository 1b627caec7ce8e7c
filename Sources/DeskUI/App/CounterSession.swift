import DeskDomain
import DeskStorage

/// What happened at the counter while the desk runs, shared by every screen: the log the Desk
/// shows (kept when the librarian leaves the Desk and comes back), the reader at the counter and
/// their visit, and the one act F8 may take back.
public final class CounterSession {
  struct LogEntry {
    var time: String
    var text: String
    var isError: Bool
    /// The change this line records, for the receipt and for undo.
    var action: CounterAction?
    var undone = false
    /// The visit the line belongs to.
    var visit: Int
    /// The act the change belongs to (see `Act`).
    var act: Int?
  }

  /// What one key or scan changed (`F7` renews several loans in one act), where and when: undo
  /// takes back a whole act, and only the last one.
  struct Act {
    var number: Int
    var visit: Int
    /// The screen it was made on.
    var screen: ObjectIdentifier?
    var made: Timestamp
    var undone = false
  }

  private(set) var log: [LogEntry] = []
  /// The reader at the counter, selected on the Desk.
  private(set) var reader: Reader?
  /// The visit now under way: a reader's card, the books they bring back and take, and any
  /// returns scanned just before their card.
  private(set) var visit = 0
  private var visitHasReader = false
  /// The last act, the only one undo may take back; undone, it stays here so that a second undo
  /// says so instead of reaching further back through finished work.
  private(set) var lastAct: Act?
  /// The screen the app is handling a key or scan for: the acts made are known by it.
  var actingScreen: ObjectIdentifier?

  /// Undo takes back an act made this long ago or less without asking (on the Desk, within the
  /// visit under way; elsewhere, on the screen where it was made). A mistake is seen at once: an
  /// older act is asked about, with what it was and when.
  public static let undoWithoutAskingSeconds: Int64 = 120

  public init() {}

  /// The reader's card: the next reader starts a new visit; returns scanned before it count in it.
  func select(_ chosen: Reader, context: UIContext) {
    if visitHasReader && chosen.id != reader?.id { visit += 1 }
    visitHasReader = true
    reader = chosen
    append(context.strings.logSelected(chosen.ticket, chosen.fullName), context: context)
  }

  /// The reader leaves: the next scans start another visit.
  func endVisit() {
    reader = nil
    visitHasReader = false
    visit += 1
  }

  /// True while a visit is under way: a reader at the counter. Quitting then loses the log and
  /// the visit's receipt, so the desk asks first.
  var isVisitUnderWay: Bool { reader != nil }

  /// Reads the selected reader again (edited, or deleted, elsewhere).
  func refreshReader(context: UIContext) {
    guard let current = reader else { return }
    // By identity, not ticket: while two desks' readers share a ticket, the one chosen stays.
    reader = try? context.store.readers.reader(id: current.id)
  }

  /// Records the changes one key or scan made, anywhere in the desk, as one act; returns the lines
  /// it wrote, for a notification.
  @discardableResult
  func record(_ actions: [CounterAction], context: UIContext) -> [String] {
    guard !actions.isEmpty else { return [] }
    let number = (lastAct?.number ?? 0) + 1
    lastAct = Act(number: number, visit: visit, screen: actingScreen, made: context.clock.now().instant)
    return actions.map { action in
      let text = describe(action, context: context)
      append(text, action: action, act: number, context: context)
      return text
    }
  }

  func refuse(_ text: String, context: UIContext) {
    append(text, isError: true, context: context)
  }

  func note(_ text: String, context: UIContext) {
    append(text, context: context)
  }

  /// The changes of the visit under way that stand (not undone); when nobody is at the counter and
  /// nothing happened since, those of the visit before (the reader just left, their receipt asked
  /// for).
  var visitActions: (actions: [CounterAction], reader: Reader?) {
    let current = log.filter { $0.visit == visit && !$0.undone }.compactMap(\.action)
    if !current.isEmpty || visit == 0 || reader != nil { return (current, reader) }
    return (log.filter { $0.visit == visit - 1 && !$0.undone }.compactMap(\.action), nil)
  }

  /// Why the last act is asked about before it is undone.
  public enum UndoDoubt: Equatable, Sendable {
    /// Made in a visit before the one under way: another reader's.
    case earlierVisit
    /// Made on another screen than the one undo is pressed on (away from the Desk).
    case otherScreen
    /// Made longer ago than `undoWithoutAskingSeconds`.
    case older
  }

  /// Takes back the last act, pressed on `screen` (`onDesk` for the Desk): at once when it is the
  /// visit's (or this screen's) and recent, else after asking. `then` is what the screen does
  /// after an undo (read its records again).
  func undo(screen: ObjectIdentifier, onDesk: Bool, context: UIContext, then: @escaping () -> [Effect]) -> [Effect] {
    let s = context.strings
    guard let act = lastAct else { return [.notify(s.nothingToUndo)] }
    guard !act.undone else { return [.notify(s.undoneAlready)] }
    var doubts: [UndoDoubt] = []
    if onDesk, act.visit != visit { doubts.append(.earlierVisit) }
    if !onDesk, act.screen != screen { doubts.append(.otherScreen) }
    let age = context.clock.now().instant.millisecondsSinceEpoch - act.made.millisecondsSinceEpoch
    if age > CounterSession.undoWithoutAskingSeconds * 1000 { doubts.append(.older) }
    guard !doubts.isEmpty else { return takeBack(act, context: context) + then() }
    let lines = log.filter { $0.act == act.number && $0.action != nil }.map(\.text)
    let made = context.clock.local(act.made)
    let when = made.date == context.today ? made.clockTime : "\(made.date.iso) \(made.clockTime)"
    return [
      .dialog(
        Dialog(title: s.undoTitle, lines: [s.undoQuestion(when, doubts)] + lines.map { "  " + $0 }, kind: .confirm) {
          [weak self] answer in
          guard case .yes = answer, let self else { return [] }
          return self.takeBack(act, context: context) + then()
        })
    ]
  }

  /// Undoes the act's changes, the newest first.
  private func takeBack(_ act: Act, context: UIContext) -> [Effect] {
    let s = context.strings
    // Asked about while something else changed: only the last act is ever taken back.
    guard lastAct?.number == act.number, lastAct?.undone == false else { return [.notify(s.undoneAlready)] }
    let indices = log.indices.filter { log[$0].act == act.number && log[$0].action != nil }.reversed()
    var texts: [String] = []
    for index in indices {
      guard let action = log[index].action else { continue }
      do {
        try context.store.circulation.undo(action)
      } catch {
        refreshReader(context: context)
        return [.bell, .dialog(.error(s.undoRefusedTitle, texts + context.messages(error)))]
      }
      log[index].undone = true
      let text = undoneText(action, context: context)
      append(text, context: context)
      texts.append(text)
    }
    lastAct?.undone = true
    refreshReader(context: context)
    return [.notify(texts.joined(separator: "; "))]
  }

  private func append(
    _ text: String, isError: Bool = false, action: CounterAction? = nil, act: Int? = nil, context: UIContext
  ) {
    log.append(
      LogEntry(
        time: context.clock.now().clockTime, text: text, isError: isError, action: action, visit: visit, act: act))
  }

  func describe(_ action: CounterAction, context: UIContext) -> String {
    let s = context.strings
    switch action {
    case .issued(let loan):
      return s.logIssued(loan.inventory, loan.bookTitle, loan.readerName, loan.loan.due.iso)
    case .returned(let loan):
      var text = s.logReturned(loan.inventory, loan.bookTitle, loan.readerName)
      let late = loan.loan.due.days(until: context.today)
      if late > 0 { text += " — " + s.cameBackLate(late) }
      if let trap = loan.heldFor { text += " — " + s.logHeldFor(trap) }
      return text
    case .renewed(let renewal):
      return s.logRenewed(renewal.after.inventory, renewal.after.bookTitle, renewal.after.loan.due.iso)
    case .transferred(let returned, let issued):
      return s.logTransferred(
        issued.inventory, issued.bookTitle, returned.readerName, issued.readerName, issued.loan.due.iso)
    }
  }

  private func undoneText(_ action: CounterAction, context: UIContext) -> String {
    let s = context.strings
    switch action {
    case .issued(let loan): return s.logUndoIssue(loan.inventory, loan.bookTitle)
    case .returned(let loan): return s.logUndoReturn(loan.inventory, loan.bookTitle, loan.readerName)
    case .renewed(let renewal):
      return s.logUndoRenewal(renewal.before.inventory, renewal.before.bookTitle, renewal.before.loan.due.iso)
    case .transferred(let returned, let issued):
      return s.logUndoTransfer(issued.inventory, issued.bookTitle, returned.readerName)
    }
  }
}
