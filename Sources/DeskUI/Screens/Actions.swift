import DeskDomain
import DeskStorage

/// Runs a change to the library from a screen: a notification when it worked, an alert with
/// every reason when it was refused.
func attempt(_ context: UIContext, title: String, _ body: () throws(StoreError) -> String) -> [Effect] {
  do {
    return [.notify(try body())]
  } catch {
    return [.dialog(.error(title, context.messages(error)))]
  }
}

/// A change at the counter made from a screen: recorded in the session (the Desk's log, and F8's
/// undo) and announced; a refusal rings the bell and says every reason.
func counterChange(_ context: UIContext, title: String, _ body: () throws(StoreError) -> [CounterAction])
  -> [Effect]
{
  do {
    let actions = try body()
    let texts = context.session.record(actions, context: context)
    return (texts.isEmpty ? [] : [.notify(texts.joined(separator: "; "))]) + holdShelfAlert(actions, context)
  } catch {
    return [.bell, .dialog(.error(title, context.messages(error)))]
  }
}

/// Takes a copy back, or renews its loan, from a record's screen: a change at the counter, its
/// refusal titled for what was asked.
func takeBackOrRenew(_ inventory: String, _ intent: CounterIntent, context: UIContext) -> [Effect] {
  let s = context.strings
  return counterChange(context, title: intent == .renew ? s.renewRefusedTitle : s.returnRefusedTitle) {
    () throws(StoreError) in
    try context.store.circulation.circulate(inventory, reader: nil, intent: intent, conflictSeen: true).actions
  }
}

/// One hold as a line: the reader (on a book's screen) or the title (on a reader's), and where it
/// stands — waiting on the hold shelf until a date, or its place in the queue.
func holdLine(_ hold: HoldRecord, showing naming: LoanNaming, context: UIContext) -> String {
  let s = context.strings
  let who = naming == .reader ? "\(hold.readerName) (\(hold.readerTicket))" : hold.label
  let copy = hold.copy.map { " — " + s.holdCopy($0) } ?? ""
  switch hold.state {
  case .waiting:
    let until = hold.pickupBy?.iso ?? ""
    return who + copy + ": "
      + (hold.shelfElsewhere.map { s.holdWaitingElsewhere(hold.waitingCopy ?? "", desk: $0, until: until) }
        ?? s.holdWaiting(hold.waitingCopy ?? "", until: until))
  case .queued:
    var text =
      "\(hold.position.map { "\($0). " } ?? "")" + who + copy + ": "
      + s.holdQueued(placed: context.clock.local(hold.placed).date.iso)
    if let date = hold.suspendedUntil { text += ", " + s.holdSuspended(until: date.iso) }
    return text
  case .fulfilled, .cancelled, .expired:
    return who + copy + ": " + s.holdEnded(hold.state)
  }
}

/// Loud, as a refusal is: a returned copy that a hold waits for does not go back on the shelf.
func holdShelfAlert(_ actions: [CounterAction], _ context: UIContext) -> [Effect] {
  let lines = actions.compactMap { action -> String? in
    guard case .returned(let loan) = action, let trap = loan.heldFor else { return nil }
    return context.strings.putOnHoldShelf(trap, title: loan.bookTitle)
  }
  return lines.isEmpty ? [] : [.bell, .dialog(Dialog(title: context.strings.holdShelfTitle, lines: lines))]
}

extension CounterOutcome {
  /// The change made, when the outcome is one.
  var actions: [CounterAction] {
    if case .done(let action) = self { return [action] }
    return []
  }
}

/// A record's fields as a window of `height` rows shows them: all of them from 80×24 up; in a
/// shorter window only those that hold something (the first, its number, always), so that its
/// loans are in view.
func shownFields(_ pairs: [(String, String)], height: Int) -> [(String, String)] {
  guard height < compactBelowRows else { return pairs }
  return pairs.enumerated().filter { $0.offset == 0 || !$0.element.1.isEmpty }.map(\.element)
}

/// The body height under which records show only their filled fields (a window under 21 rows).
let compactBelowRows = 18

/// Draws label–value pairs in one column; returns the next free row.
@discardableResult
func renderFields(
  _ pairs: [(String, String)], into buffer: inout ScreenBuffer, row: Int, column: Int, width: Int, maxRow: Int,
  context: UIContext
) -> Int {
  let labelWidth = min(22, (pairs.map { $0.0.displayWidth }.max() ?? 0) + 1)
  var y = row
  for (label, value) in pairs where y < maxRow {
    buffer.write(label, row: y, column: column, width: labelWidth, style: context.style(.label))
    // A long title or name wraps under itself rather than losing its end.
    for line in wrap(value, width: max(1, width - labelWidth - 1)) where y < maxRow {
      buffer.write(line, row: y, column: column + labelWidth + 1, width: width - labelWidth - 1)
      y += 1
    }
  }
  return y
}

/// A loan described in `width` columns: the book (on a reader's screens) or the reader (on a
/// book's), its dates and its state. What must stay whole (the inventory number, the dates) does.
/// The title or name keeps at least `loanNameMinimum` columns: the issue date gives way first, then
/// the renewal count; narrower still, the loan takes two lines, the dates under the title.
func loanLines(_ record: LoanRecord, showing naming: LoanNaming, width: Int, context: UIContext) -> [String] {
  let s = context.strings
  let issued = context.clock.local(record.loan.issued).date.iso
  let lead: String
  let name: String
  switch naming {
  case .book:
    lead = record.inventory + "  "
    name = [record.bookAuthor, record.bookTitle].filter { !$0.isEmpty }.joined(separator: " ")
  case .reader:
    lead = ""
    name = "\(record.readerName) (\(record.readerTicket))"
  }
  let dates = s.loanDates(issued, record.loan.due.iso)
  // The dates without the issue date: the loan dates' words after their first comma.
  let due = dates.firstIndex(of: ",").map { String(dates[dates.index(after: $0)...]).trimmingWhitespace() } ?? dates
  let renewed = record.loan.renewals > 0 ? [s.renewedTimes(record.loan.renewals)] : []
  var end: [String] = []
  if let returned = record.loan.returned {
    end.append(s.returnedOn(context.clock.local(returned).date.iso))
  } else if let undone = record.loan.undone {
    let moment = context.clock.local(undone)
    end.append(s.undoneOn("\(moment.date.iso) \(moment.clockTime)"))
  } else if record.loan.isOverdue(on: context.today) {
    end.append(s.overdueBy(record.loan.daysOverdue(on: context.today)))
  }
  let states = [[dates] + renewed + end, [due] + renewed + end, [due] + end].map { $0.joined(separator: ", ") }
  for state in states {
    let room = width - lead.displayWidth - state.displayWidth - 2
    let minimum = naming == .book ? loanBookMinimum : loanNameMinimum
    if room >= min(minimum, name.displayWidth) {
      return [lead + name.truncated(toWidth: room) + "  " + state]
    }
  }
  let indent = String(repeating: " ", count: min(4, lead.displayWidth))
  let state = states.first { indent.displayWidth + $0.displayWidth <= width } ?? states[states.count - 1]
  return [(lead + name).truncated(toWidth: width), indent + state]
}

/// The fewest columns a reader's name keeps on a loan's line before the loan takes two lines.
let loanNameMinimum = 20
/// The same for a book: its author and title together, so that the title keeps about twenty.
let loanBookMinimum = 28

enum LoanNaming { case book, reader }

/// A record's lines about the central: its changes made here and not yet sent, and each open
/// conflict about it, which F9 leads to. Returns the next free row.
func renderSyncMark(_ mark: SyncMark, into buffer: inout ScreenBuffer, row: Int, area: Rect, context: UIContext)
  -> Int
{
  let s = context.strings
  var lines: [(String, Role)] = []
  if mark.unsynced > 0 { lines.append((s.unsyncedChanges(mark.unsynced), .muted)) }
  for conflict in mark.conflicts {
    lines.append(
      (
        s.recordConflict(conflict.number, s.conflictKind(conflict.kind), s.conflictSummary(conflict)) + " (F9)",
        .warning
      ))
  }
  var y = row
  for (text, role) in lines {
    for line in wrap(text, width: area.width - 4) where y < area.bottom {
      buffer.write(line, row: y, column: area.column + 2, width: area.width - 4, style: context.style(role))
      y += 1
    }
  }
  return lines.isEmpty ? y : y + 1
}
