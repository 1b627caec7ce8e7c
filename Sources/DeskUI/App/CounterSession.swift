import DeskDomain
import DeskStorage

/// What happened at the counter while the desk runs, shared by every screen: the log the Desk
/// shows (kept when the librarian leaves the Desk and comes back), the reader at the counter and
/// their visit, and the changes F8 may take back, whichever screen made them.
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
  }

  private(set) var log: [LogEntry] = []
  /// The reader at the counter, selected on the Desk.
  private(set) var reader: Reader?
  /// The visit now under way: a reader's card, the books they bring back and take, and any
  /// returns scanned just before their card.
  private(set) var visit = 0
  private var visitHasReader = false

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

  /// Reads the selected reader again (edited, or deleted, elsewhere).
  func refreshReader(context: UIContext) {
    guard let current = reader else { return }
    // By identity, not ticket: while two desks' readers share a ticket, the one chosen stays.
    reader = try? context.store.reader(id: current.id)
  }

  /// Records a change made anywhere in the desk; returns the line it wrote, for a notification.
  @discardableResult
  func record(_ action: CounterAction, context: UIContext) -> String {
    let text = describe(action, context: context)
    append(text, action: action, context: context)
    return text
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

  /// Takes back the newest change that stands, wherever in the desk it was made.
  func undo(context: UIContext) -> [Effect] {
    let s = context.strings
    guard let index = log.lastIndex(where: { $0.action != nil && !$0.undone }), let action = log[index].action else {
      return [.notify(s.nothingToUndo)]
    }
    do {
      try context.store.undo(action)
    } catch {
      return [.bell, .dialog(.error(s.undoRefusedTitle, context.messages(error)))]
    }
    log[index].undone = true
    let text = undoneText(action, context: context)
    append(text, context: context)
    refreshReader(context: context)
    return [.notify(text)]
  }

  private func append(_ text: String, isError: Bool = false, action: CounterAction? = nil, context: UIContext) {
    log.append(
      LogEntry(
        time: context.clock.now().clockTime, text: text, isError: isError, action: action, visit: visit))
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
