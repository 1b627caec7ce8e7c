import DeskDomain
import DeskStorage

/// The circulation desk, scanner first: a whole visit without leaving the screen. A reader's card
/// selects the reader (their loans and any warnings shown); each book then goes by the counter's
/// rule (`LibraryStore.circulate`): issued, or returned when the reader brings it back, or —
/// after asking — moved from another reader. With nobody selected a book is returned. Words
/// typed instead of a code find readers by name. Every change goes into the session's log,
/// which outlives the screen; the visit's receipt can be written or printed.
final class DeskCirculationScreen: DeskScreen {
  private var input = LineEditor(maximumLength: 200)
  private var readerLoans: [LoanRecord] = []
  /// The reader's copies waiting on the hold shelf.
  private var readerWaiting: [HoldRecord] = []
  /// The loan chosen with ↓ for `w` (renew), `r` (return) or Enter (open); nil while typing.
  private var chosenLoan: Int?

  var helpTopic: HelpTopic { .desk }

  func title(_ context: UIContext) -> String { context.strings.deskTitle }

  func keyHints(_ context: UIContext) -> [KeyHint] {
    actions(context).hints
  }

  /// The counter's keys, with a loan of the reader chosen or at the code field: the hint bar and
  /// the handler both come from here.
  func actions(_ context: UIContext) -> [ScreenAction] {
    let s = context.strings
    let receipt = ScreenAction(Keys.receipt, hint: s.keyReceipt) { ReceiptAction.prompt(context: context) }
    let renewAll = { (hint: String?) in
      ScreenAction(Keys.renewAll, hint: hint) { self.renewAll(context: context) }
    }
    if let index = chosenLoan, readerLoans.indices.contains(index) {
      let loan = readerLoans[index]
      return [
        ScreenAction(Keys.renew, hint: s.keyRenew) {
          self.act(on: loan.inventory, intent: .renew, refusalTitle: s.renewRefusedTitle, context: context)
        },
        ScreenAction(Keys.giveBack, hint: s.keyReturn) {
          self.act(on: loan.inventory, intent: .giveBack, refusalTitle: s.returnRefusedTitle, context: context)
        },
        ScreenAction(Keys.openBook, hint: s.keyOpen) { [.push(BookDetailScreen(inventory: loan.inventory))] },
        renewAll(s.keyRenewAll), .app(Keys.undo, hint: s.keyUndo),
        ScreenAction(Keys.escape, hint: s.keyBack) {
          self.chosenLoan = nil
          return []
        },
        // Up from the first loan is back to the code field.
        ScreenAction(Keys.chooseLoan, hint: nil) { key in
          self.chosenLoan = key == .up ? (index == 0 ? nil : index - 1) : min(self.readerLoans.count - 1, index + 1)
          return []
        },
        ScreenAction(Keys.receipt, hint: nil, byKey: receipt.run),
      ]
    }
    let reader = context.session.reader
    // In order of need: a narrow window keeps the first (F1 lists them all).
    var actions = [
      ScreenAction(Keys.apply, hint: s.keyApply) {
        let code = self.input.text.trimmingWhitespace()
        self.input = LineEditor(maximumLength: 200)
        guard !code.isEmpty else { return [] }
        return self.apply(code: code, context: context)
      },
      .app(Keys.undo, hint: s.keyUndo), receipt,
      ScreenAction(Keys.findReader, hint: s.keyFindReader) { self.findReader("", context: context) },
      renewAll(reader != nil && !readerLoans.isEmpty ? s.keyRenewAll : nil),
      ScreenAction(Keys.escape, hint: reader == nil ? s.keyBack : s.keyEndReader) {
        if !self.input.text.isEmpty {
          self.input = LineEditor(maximumLength: 200)
          return []
        }
        guard context.session.reader != nil else { return [.pop] }
        context.session.endVisit()
        self.readerLoans = []
        return []
      },
    ]
    if input.text.isEmpty && !readerLoans.isEmpty {
      actions.append(
        ScreenAction(Keys.chooseLoan, keys: [.down], hint: nil) { _ in
          self.chosenLoan = 0
          return []
        })
    }
    return actions
  }

  func reload(context: UIContext) -> [Effect] {
    refreshReader(context: context)
    return []
  }

  private func refreshReader(context: UIContext) {
    context.session.refreshReader(context: context)
    let chosen = chosenLoan.flatMap { readerLoans.indices.contains($0) ? readerLoans[$0].loan.id : nil }
    readerLoans =
      context.session.reader.flatMap { try? context.store.circulation.loans(ofReader: $0) }?.filter { $0.loan.isOpen }
      ?? []
    readerWaiting =
      context.session.reader.flatMap { try? context.store.holds.list(ofReader: $0.ticket) }?.filter {
        $0.state == .waiting
      }
      ?? []
    // The choice stays on the loan it was on, wherever a renewal moved it (a second w renewed the
    // book that took its place); a loan taken back leaves it on the one now in that place.
    if let index = chosenLoan {
      chosenLoan =
        readerLoans.firstIndex { $0.loan.id == chosen }
        ?? (readerLoans.isEmpty ? nil : min(index, readerLoans.count - 1))
    }
  }

  func handle(_ key: Key, context: UIContext) -> [Effect] {
    if let effects = actions(context).run(key) { return effects }
    if chosenLoan != nil {
      // Anything else is typing: back to the code field with it.
      chosenLoan = nil
      return handle(key, context: context)
    }
    input.handle(key)
    return []
  }

  var acceptsText: Bool { chosenLoan == nil }
  var expectsCode: Bool { true }

  func handleScan(_ scan: Scan, context: UIContext) -> [Effect]? {
    input = LineEditor(maximumLength: 200)
    chosenLoan = nil
    return apply(code: scan.code, context: context)
  }

  /// Ctrl-Z with a code half typed takes back the typing; F8, and Ctrl-Z on an empty field, the
  /// last act.
  func undoTyping(_ key: Key, context: UIContext) -> [Effect]? {
    guard key == .control("z"), chosenLoan == nil, !input.text.isEmpty else { return nil }
    input.undo()
    return []
  }

  /// What a scanned or typed code does here: the counter's rule decides; this screen shows it,
  /// asks what the rule leaves to the librarian, and logs it.
  func apply(code: String, context: UIContext, transfer: Bool = false, conflictSeen: Bool = false) -> [Effect] {
    let s = context.strings
    let session = context.session
    let outcome: CounterOutcome
    do {
      outcome = try context.store.circulation.circulate(
        code, reader: session.reader, transfer: transfer, conflictSeen: conflictSeen)
    } catch {
      let messages = context.messages(error)
      session.refuse(messages.joined(separator: "; "), context: context)
      refreshReader(context: context)
      let title = session.reader == nil ? s.returnRefusedTitle : s.issueRefusedTitle
      return [.bell, .dialog(.error(title, messages))]
    }
    switch outcome {
    case .selected(let reader):
      return select(reader, context: context)
    case .done(let action):
      session.record([action], context: context)
      refreshReader(context: context)
      return holdShelfAlert([action], context)
    case .confirmTransfer(let current, let reader):
      let issued = context.clock.local(current.loan.issued).date.iso
      let question = s.transferQuestion(
        current.bookTitle, current.inventory, current.readerName, current.readerTicket, issued, current.loan.due.iso,
        reader.shortName)
      return [
        .dialog(
          Dialog(title: s.transferTitle, lines: [question], kind: .confirm) { [weak self] answer in
            guard let self else { return [] }
            guard case .yes = answer else {
              session.note(s.logLeftAsItWas(current.inventory, current.bookTitle), context: context)
              return []
            }
            return self.apply(code: current.inventory, context: context, transfer: true)
          })
      ]
    case .chooseCopy(let isbn, let copies, let toIssue):
      let options = copies.map { copy in
        guard let loan = copy.loan else { return s.copyOnShelf(copy.book.inventoryNumber, copy.book.place) }
        return s.copyOut(copy.book.inventoryNumber, loan.readerName, loan.readerTicket, loan.loan.due.iso)
      }
      let title = toIssue ? s.chooseCopyToIssue(isbn.hyphenated) : s.chooseCopyToReturn(isbn.hyphenated)
      return [
        .dialog(
          Dialog(
            title: title, lines: [s.chooseCopyHint],
            kind: .choice(options: options, codes: copies.map(\.book.inventoryNumber), selected: 0)
          ) { [weak self] answer in
            guard let self, case .chosen(let index) = answer, copies.indices.contains(index) else { return [] }
            return self.apply(code: copies[index].book.inventoryNumber, context: context)
          })
      ]
    case .findReader(let name):
      return findReader(name, context: context)
    case .newBook:
      // A label of a book the library does not have yet: added as from anywhere else.
      return ScanDispatch.effects(for: code, context: context)
    case .unknown(let unknown):
      session.refuse(s.unknownCode(unknown), context: context)
      return [.bell, .dialog(.error(s.unknownCodeTitle, [s.unknownCodeMessage(unknown)]))]
    case .conflict(let conflict, let code):
      return [
        .push(
          ConflictScreen(number: conflict.number) { [weak self] context in
            self?.apply(code: code, context: context, transfer: transfer, conflictSeen: true) ?? []
          }), .bell, .notify(s.conflictScanned),
      ]
    }
  }

  /// Renews or returns one of the reader's loans, by the counter's rule for that intent.
  private func act(
    on inventory: String, intent: CounterIntent, refusalTitle: String, context: UIContext, conflictSeen: Bool = false
  ) -> [Effect] {
    var effects: [Effect] = []
    do {
      switch try context.store.circulation.circulate(inventory, reader: nil, intent: intent, conflictSeen: conflictSeen)
      {
      case .done(let action):
        context.session.record([action], context: context)
        effects += holdShelfAlert([action], context)
      case .conflict(let conflict, _):
        return [
          .push(
            ConflictScreen(number: conflict.number) { [weak self] context in
              self?.act(on: inventory, intent: intent, refusalTitle: refusalTitle, context: context, conflictSeen: true)
                ?? []
            })
        ]
      default:
        break
      }
      refreshReader(context: context)
      return effects
    } catch {
      let messages = context.messages(error)
      context.session.refuse(messages.joined(separator: "; "), context: context)
      return [.bell, .dialog(.error(refusalTitle, messages))]
    }
  }

  private func renewAll(context: UIContext) -> [Effect] {
    let s = context.strings
    guard let reader = context.session.reader else { return [.notify(s.scanReaderFirst)] }
    do {
      let (renewed, refused) = try context.store.circulation.renewAll(ticket: reader.ticket)
      context.session.record(renewed.map(CounterAction.renewed), context: context)
      refreshReader(context: context)
      guard !refused.isEmpty else { return [.notify(s.renewedAll(renewed.count))] }
      let lines = refused.map { context.messages(.refused([$0])).joined() }
      for line in lines { context.session.refuse(line, context: context) }
      return [
        .bell, .notify(s.renewedAll(renewed.count)),
        .dialog(.error(s.renewRefusedTitle, [s.renewedAll(renewed.count)] + lines)),
      ]
    } catch {
      let messages = context.messages(error)
      context.session.refuse(messages.joined(separator: "; "), context: context)
      // The bottom line says this F7's outcome, never the last one's.
      return [.bell, .notify(s.renewedAll(0)), .dialog(.error(s.renewRefusedTitle, messages))]
    }
  }

  private func findReader(_ name: String, context: UIContext) -> [Effect] {
    [
      .push(
        ReaderListScreen(
          query: name, onChoose: { [weak self] chosen in self?.select(chosen, context: context) ?? [] }))
    ]
  }

  func select(_ chosen: Reader, context: UIContext) -> [Effect] {
    context.session.select(chosen, context: context)
    chosenLoan = nil
    refreshReader(context: context)
    return []
  }

  func render(into buffer: inout ScreenBuffer, area: Rect, context: UIContext) {
    let s = context.strings
    let reader = context.session.reader
    var y = area.row + 1
    let prompt = reader == nil ? s.deskPromptNoReader : s.deskPromptReader
    // A short window gives the prompt one line (help says it whole) and the log the other.
    let promptLines = area.height < compactBelowRows ? [prompt] : Array(wrap(prompt, width: area.width - 4).prefix(2))
    for line in promptLines {
      buffer.write(line, row: y, column: area.column + 2, width: area.width - 4, style: context.style(.label))
      y += 1
    }
    let fieldWidth = min(50, area.width - 4)
    let (text, cursor) = input.visible(width: fieldWidth)
    buffer.writePadded(
      text, row: y, column: area.column + 2, width: fieldWidth,
      style: context.style(chosenLoan == nil ? .activeField : .field))
    let inputRow = y
    y += 2
    if let reader {
      let today = context.today
      let overdue = readerLoans.filter { $0.loan.isOverdue(on: today) }.count
      let category = (try? context.store.policy.category(code: reader.category)) ?? nil
      let limit = category?.loanLimit
      buffer.write(
        s.deskReader(reader.ticket, reader.fullName, category?.name(in: s.language) ?? reader.category), row: y,
        column: area.column + 2,
        width: area.width - 4, style: context.style(.title))
      y += 1
      if overdue > 0 {
        buffer.write(
          "! " + s.readerHasOverdueAtDesk(overdue), row: y, column: area.column + 2, width: area.width - 4,
          style: context.style(.warning))
        y += 1
      }
      if !readerWaiting.isEmpty {
        // Said as the reader comes up: their books on the hold shelf, to fetch and scan.
        let copies = readerWaiting.map { "\($0.waitingCopy ?? "") \($0.label)" }.joined(separator: "; ")
        buffer.write(
          "! " + s.booksWaitingForReader(readerWaiting.count) + ": " + copies, row: y, column: area.column + 2,
          width: area.width - 4, style: context.style(.warning))
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
      // Half the rows left for the loans, the rest for the log, which shows at least its last entry
      // (what the last scan did); a narrow window gives a loan two rows.
      let left = area.bottom - y
      let lastEntry =
        context.session.log.last.map {
          wrap($0.text, width: max(10, area.width - 8 - $0.time.displayWidth)).count
        } ?? 0
      let loanRows = max(1, min(left / 2, left - lastEntry - 3))
      let described = readerLoans.map { loanLines($0, showing: .book, width: area.width - 8, context: context) }
      let perLoan = described.map(\.count).max() ?? 1
      let shown = max(1, loanRows / perLoan)
      // Keep the chosen loan in view.
      let first = max(0, (chosenLoan ?? 0) - shown + 1)
      for (index, record) in readerLoans.enumerated().dropFirst(first).prefix(shown) where y < area.bottom {
        let late = record.loan.isOverdue(on: today)
        var role: Role = late ? .overdue : .issued
        if index == chosenLoan { role = late ? .selectedOverdue : .selectedIssued }
        for (number, text) in described[index].enumerated() where y < area.bottom {
          if index == chosenLoan {
            buffer.fill(row: y, column: area.column + 4, height: 1, width: area.width - 6, style: context.style(role))
          }
          buffer.write(
            (number > 0 ? "  " : late ? "! " : "* ") + text, row: y, column: area.column + 4, width: area.width - 6,
            style: context.style(role))
          y += 1
        }
      }
      let hidden = readerLoans.count - min(shown, readerLoans.count - first) - first
      if hidden > 0, y < area.bottom {
        buffer.write(s.andMore(hidden), row: y, column: area.column + 4, style: context.style(.muted))
        y += 1
      }
      y += 1
    }
    if y < area.bottom {
      buffer.write(s.sessionLog, row: y, column: area.column + 2, style: context.style(.header))
      y += 1
    }
    let log = context.session.log
    let logRows = max(0, area.bottom - y)
    if log.isEmpty, logRows > 0 {
      buffer.write(s.sessionLogEmpty, row: y, column: area.column + 4, style: context.style(.muted))
    }
    // Each line of the log whole, wrapped under its text: a due date at the end is never cut, and
    // an entry shows whole or not at all (its end alone would name no book).
    var lines: [(text: String, role: Role)] = []
    for entry in log.suffix(logRows).reversed() {
      let role: Role = entry.isError ? .warning : entry.undone ? .muted : .normal
      let indent = String(repeating: " ", count: entry.time.displayWidth + 2)
      let wrapped = wrap(entry.text, width: max(10, area.width - 6 - indent.count)).enumerated().map { index, line in
        ((index == 0 ? entry.time + "  " : indent) + line, role)
      }
      guard lines.count + wrapped.count <= logRows else { break }
      lines = wrapped + lines
    }
    for line in lines {
      buffer.write(line.text, row: y, column: area.column + 4, width: area.width - 6, style: context.style(line.role))
      y += 1
    }
    buffer.cursor = chosenLoan == nil ? (inputRow, area.column + 2 + cursor) : nil
  }
}

extension DeskCirculationScreen {
  /// The counter's keys, in the help's order.
  enum Keys {
    static let apply = KeyDeclaration(.enter, .tab, means: .applyCode)
    static let findReader = KeyDeclaration(.function(3), means: .findReader)
    static let chooseLoan = KeyDeclaration(.down, .up, name: "↓ ↑", means: .chooseVisitLoan)
    static let renew = KeyDeclaration(.character("w"), means: .renewChosen)
    static let giveBack = KeyDeclaration(.character("r"), means: .returnChosen)
    static let openBook = KeyDeclaration(.enter, means: .openBook)
    static let renewAll = KeyDeclaration(.function(7), means: .renewAll)
    static let receipt = KeyDeclaration(.function(4), means: .receipt)
    static let undo = KeyDeclaration(.function(8), .control("z"), means: .undoVisit)
    static let escape = KeyDeclaration(.escape, means: .nextReader)
    static let all = [
      apply, .legend("a scan", .aScan), findReader, chooseLoan, renew, giveBack, openBook, renewAll, receipt, undo,
      escape,
    ]
  }
}
