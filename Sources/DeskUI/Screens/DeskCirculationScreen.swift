import DeskDomain
import DeskStorage

/// The circulation desk, scanner first: a reader's ticket selects the reader (with their loans
/// and any warnings); each inventory number then issues that book to them; an inventory number
/// with no reader selected takes the book back. Every action goes into the session log, and
/// the last one can be undone.
final class DeskCirculationScreen: DeskScreen {
  struct LogEntry {
    enum Action {
      case issued(LoanRecord)
      case returned(LoanRecord)
      case selected(String)
      case refused
      case undone
    }

    var time: String
    var text: String
    var action: Action
    var isError: Bool
  }

  private var input = LineEditor(maximumLength: 200)
  private var reader: Reader?
  private var readerLoans: [LoanRecord] = []
  private(set) var log: [LogEntry] = []

  var helpTopic: HelpTopic { .desk }

  var hasUnsavedInput: Bool { false }

  func title(_ context: UIContext) -> String { context.strings.deskTitle }

  func keyHints(_ context: UIContext) -> [KeyHint] {
    let s = context.strings
    var hints = [KeyHint("Enter", s.keyApply), KeyHint("F3", s.keyFindReader), KeyHint("F8", s.keyUndo)]
    hints.append(KeyHint("Esc", reader == nil ? s.keyBack : s.keyEndReader))
    return hints
  }

  func reload(context: UIContext) -> [Effect] {
    refreshReader(context: context)
    return []
  }

  private func refreshReader(context: UIContext) {
    guard let current = reader else { return }
    reader = try? context.store.reader(ticket: current.ticket)
    readerLoans = reader.flatMap { try? context.store.loans(ofReader: $0) }?.filter { $0.loan.isOpen } ?? []
  }

  func handle(_ key: Key, context: UIContext) -> [Effect] {
    switch key {
    case .enter, .tab:
      let code = input.text.trimmingWhitespace()
      input = LineEditor(maximumLength: 200)
      guard !code.isEmpty else { return [] }
      return apply(code: code, context: context)
    case .escape:
      if !input.text.isEmpty {
        input = LineEditor(maximumLength: 200)
        return []
      }
      guard reader != nil else { return [.pop] }
      reader = nil
      readerLoans = []
      return []
    case .function(3):
      return [.push(ReaderListScreen(onChoose: { [weak self] chosen in self?.select(chosen, context: context) ?? [] }))]
    case .function(8), .control("z"):
      return undo(context: context)
    default:
      input.handle(key)
      return []
    }
  }

  var acceptsText: Bool { true }
  var expectsCode: Bool { true }

  func handleScan(_ code: String, context: UIContext) -> [Effect]? {
    input = LineEditor(maximumLength: 200)
    return apply(code: code, context: context)
  }

  /// What a scanned or typed code does here: a reader's ticket selects the reader; a book's code
  /// (inventory number, its QR label, or its ISBN) issues it to the selected reader, or with no
  /// reader selected takes it back. When a code is both a ticket and an inventory number, it is
  /// the reader with no reader selected and the book otherwise.
  func apply(code: String, context: UIContext) -> [Effect] {
    let s = context.strings
    let resolution: CodeResolution
    do {
      resolution = try context.store.resolve(code, prefer: reader == nil ? .reader : .book)
    } catch {
      return [.dialog(.error(s.errorTitle, context.messages(error)))]
    }
    let book: Book
    switch resolution {
    case .reader(let found):
      return select(found, context: context)
    case .book(let found), .recordOfExistingBook(_, let found):
      book = found
    case .isbn(_, let copies) where !copies.isEmpty:
      // The copy that fits: one on the shelf to issue, one on loan to take back.
      let wantOnLoan = reader == nil
      guard
        let copy = copies.first(where: { copy in
          let loan = try? context.store.currentLoan(ofBook: copy)
          return (loan.flatMap { $0 } != nil) == wantOnLoan
        })
      else {
        append(s.noCopyFits(code), action: .refused, isError: true, context: context)
        return [.dialog(.error(reader == nil ? s.returnRefusedTitle : s.issueRefusedTitle, [s.noCopyFits(code)]))]
      }
      book = copy
    default:
      append(s.unknownCode(code), action: .refused, isError: true, context: context)
      return [.dialog(.error(s.unknownCodeTitle, [s.unknownCodeMessage(code)]))]
    }
    if let reader {
      do {
        let loans = try context.store.issue(ticket: reader.ticket, inventories: [book.inventoryNumber])
        for loan in loans {
          append(
            s.logIssued(loan.inventory, loan.bookTitle, loan.readerName, loan.loan.due.iso), action: .issued(loan),
            isError: false, context: context)
        }
        refreshReader(context: context)
        return []
      } catch {
        let messages = context.messages(error)
        append(messages.joined(separator: "; "), action: .refused, isError: true, context: context)
        return [.dialog(.error(s.issueRefusedTitle, messages))]
      }
    }
    do {
      let returned = try context.store.returnBooks(inventories: [book.inventoryNumber])
      for loan in returned {
        var text = s.logReturned(loan.inventory, loan.bookTitle, loan.readerName)
        let late = loan.loan.due.days(until: context.today)
        if late > 0 { text += " — " + s.cameBackLate(late) }
        append(text, action: .returned(loan), isError: false, context: context)
      }
      return []
    } catch {
      let messages = context.messages(error)
      append(messages.joined(separator: "; "), action: .refused, isError: true, context: context)
      return [.dialog(.error(s.returnRefusedTitle, messages))]
    }
  }

  func select(_ chosen: Reader, context: UIContext) -> [Effect] {
    reader = chosen
    refreshReader(context: context)
    append(
      context.strings.logSelected(chosen.ticket, chosen.fullName), action: .selected(chosen.ticket), isError: false,
      context: context)
    return []
  }

  /// Takes back the last issue or return of this session.
  private func undo(context: UIContext) -> [Effect] {
    let s = context.strings
    guard
      let index = log.lastIndex(where: {
        if case .issued = $0.action { return true }
        if case .returned = $0.action { return true }
        return false
      })
    else {
      return [.notify(s.nothingToUndo)]
    }
    let entry = log[index]
    do {
      switch entry.action {
      case .issued(let loan):
        try context.store.cancelLoan(loan.loan.id)
        append(s.logUndoIssue(loan.inventory, loan.bookTitle), action: .undone, isError: false, context: context)
      case .returned(let loan):
        try context.store.reopenLoan(loan.loan.id)
        append(
          s.logUndoReturn(loan.inventory, loan.bookTitle, loan.readerName), action: .undone, isError: false,
          context: context)
      default:
        break
      }
      log[index].action = .undone
      refreshReader(context: context)
      return []
    } catch {
      return [.dialog(.error(s.undoRefusedTitle, context.messages(error)))]
    }
  }

  private func append(_ text: String, action: LogEntry.Action, isError: Bool, context: UIContext) {
    log.append(LogEntry(time: context.clock.now().clockTime, text: text, action: action, isError: isError))
  }

  func render(into buffer: inout ScreenBuffer, area: Rect, context: UIContext) {
    let s = context.strings
    var y = area.row + 1
    let prompt = reader == nil ? s.deskPromptNoReader : s.deskPromptReader
    buffer.write(prompt, row: y, column: area.column + 2, width: area.width - 4, style: context.style(.label))
    y += 1
    let fieldWidth = min(50, area.width - 4)
    let (text, cursor) = input.visible(width: fieldWidth)
    buffer.writePadded(text, row: y, column: area.column + 2, width: fieldWidth, style: context.style(.activeField))
    let inputRow = y
    y += 2
    if let reader {
      let today = context.today
      let overdue = readerLoans.filter { $0.loan.isOverdue(on: today) }.count
      let limit = (try? context.store.category(code: reader.category))?.map(\.loanLimit)
      buffer.write(
        s.deskReader(reader.ticket, reader.fullName, reader.category), row: y, column: area.column + 2,
        width: area.width - 4, style: context.style(.title))
      y += 1
      if overdue > 0 {
        buffer.write(
          "! " + s.readerHasOverdue(overdue), row: y, column: area.column + 2, width: area.width - 4,
          style: context.style(.warning))
        y += 1
      }
      if let limit, readerLoans.count >= limit {
        buffer.write(
          "! " + s.readerAtLimit(limit), row: y, column: area.column + 2, width: area.width - 4,
          style: context.style(.warning))
        y += 1
      }
      buffer.write(s.booksOut(readerLoans.count), row: y, column: area.column + 2, style: context.style(.header))
      y += 1
      let loanRows = max(1, (area.bottom - y) / 2)
      for record in readerLoans.prefix(loanRows) where y < area.bottom {
        let late = record.loan.isOverdue(on: today)
        buffer.write(
          (late ? "! " : "* ") + loanLine(record, showing: .book, context: context), row: y, column: area.column + 4,
          width: area.width - 6, style: context.style(late ? .overdue : .issued))
        y += 1
      }
      if readerLoans.count > loanRows, y < area.bottom {
        buffer.write(
          s.andMore(readerLoans.count - loanRows), row: y, column: area.column + 4, style: context.style(.muted))
        y += 1
      }
      y += 1
    }
    if y < area.bottom {
      buffer.write(s.sessionLog, row: y, column: area.column + 2, style: context.style(.header))
      y += 1
    }
    let logRows = max(0, area.bottom - y)
    if log.isEmpty, logRows > 0 {
      buffer.write(s.sessionLogEmpty, row: y, column: area.column + 4, style: context.style(.muted))
    }
    for entry in log.suffix(logRows) {
      buffer.write(
        "\(entry.time)  \(entry.text)", row: y, column: area.column + 4, width: area.width - 6,
        style: context.style(entry.isError ? .warning : .normal))
      y += 1
    }
    buffer.cursor = (inputRow, area.column + 2 + cursor)
  }
}
