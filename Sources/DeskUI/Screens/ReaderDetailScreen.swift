import DeskDomain
import DeskStorage

/// Every field of a reader, the address, and the reader's loans: the books they hold (due dates,
/// overdue ones marked) and then the history. Up and Down choose a loan to return or renew.
final class ReaderDetailScreen: DeskScreen {
  let ticket: String
  private var reader: Reader?
  private var loans: [LoanRecord] = []
  /// Waiting, queued (with their places) and expired holds.
  private var holds: [HoldRecord] = []
  /// The reader's category, for its name.
  private var category: ReaderCategory?
  /// Its changes not yet at the central and its open conflicts (a desk joined to a central).
  private var mark: SyncMark?
  private var selected = 0
  private var scroll = 0

  /// The reader's identity when known (opened from a list): the one meant even while two desks'
  /// readers share the ticket.
  let id: RecordID?

  init(ticket: String, id: RecordID? = nil) {
    self.ticket = ticket
    self.id = id
  }

  var helpTopic: HelpTopic { .readerDetail }

  func title(_ context: UIContext) -> String {
    context.strings.readerTitle(reader?.fullName ?? ticket)
  }

  private var selectedLoan: LoanRecord? { loans.indices.contains(selected) ? loans[selected] : nil }

  func keyHints(_ context: UIContext) -> [KeyHint] {
    actions(context).hints
  }

  func reload(context: UIContext) -> [Effect] {
    load(context: context, noting: true)
  }

  func showArrivals(context: UIContext) -> [Effect] {
    load(context: context, noting: false)
  }

  /// Reads the reader again; `noting` puts them first among the readers opened lately.
  private func load(context: UIContext, noting: Bool) -> [Effect] {
    do {
      var identified: Reader?
      if let id { identified = try context.store.readers.reader(id: id) }
      if identified == nil { identified = try context.store.readers.reader(ticket: ticket) }
      guard let found = identified else { return [.pop] }
      reader = found
      category = try context.store.policy.category(code: found.category)
      if noting { try context.store.readers.noteOpened(found) }
      mark = try context.store.sync.mark(entity: .reader, recordID: found.id)
      // The selection stays on the same loan, wherever a renewal moved it in the list; a book taken
      // back leaves it on the loan still out in its place, so that a pile is taken back r after r.
      let before = selectedLoan
      let place = before.flatMap { chosen in loans.filter(\.loan.isOpen).firstIndex { $0.loan.id == chosen.loan.id } }
      loans = try context.store.circulation.loans(ofReader: found, includingUndone: true)
      holds = try context.store.holds.list(ofReader: found.ticket).filter { $0.state.isActive || $0.state == .expired }
      selected = loans.firstIndex { $0.loan.id == before?.loan.id } ?? min(selected, max(0, loans.count - 1))
      let open = loans.indices.filter { loans[$0].loan.isOpen }
      if let place, loans.indices.contains(selected), !loans[selected].loan.isOpen, !open.isEmpty {
        selected = open[min(place, open.count - 1)]
      }
    } catch {
      return [.dialog(.error(context.strings.errorTitle, context.messages(error)))]
    }
    return []
  }

  func handle(_ key: Key, context: UIContext) -> [Effect] {
    guard reader != nil else { return key == .escape ? [.pop] : [] }
    if key == .character("?") { return [.help(helpTopic)] }
    return actions(context).run(key) ?? []
  }

  /// What can be done for the reader and the chosen loan: the hint bar and the keys both come
  /// from here.
  func actions(_ context: UIContext) -> [ScreenAction] {
    guard let reader else { return [] }
    let s = context.strings
    var actions = [
      ScreenAction.choosing(
        Keys.chooseLoan, hint: nil, count: loans.count, selected: { self.selected = $0 }, from: selected),
      ScreenAction(Keys.openBook, hint: nil) {
        self.selectedLoan.map { [.push(BookDetailScreen(inventory: $0.inventory))] } ?? []
      },
      ScreenAction(Keys.issue, hint: s.keyIssue) { self.issue(to: reader, context: context) },
    ]
    if let loan = selectedLoan, loan.loan.isOpen {
      actions += [
        ScreenAction(Keys.takeBack, hint: s.keyReturn) {
          takeBackOrRenew(loan.inventory, .giveBack, context: context) + self.reload(context: context)
        },
        ScreenAction(Keys.renew, hint: s.keyRenew) {
          takeBackOrRenew(loan.inventory, .renew, context: context) + self.reload(context: context)
        },
      ]
    }
    actions += [
      // Always taken (an expired hold is still listed); named in the bar while one is active.
      ScreenAction(Keys.holds, hint: holds.contains(where: \.state.isActive) ? s.keyHolds : nil) {
        HoldActions.choose(self.holds, context: context) { [weak self] in self?.reload(context: context) ?? [] }
      },
      ScreenAction(Keys.edit, hint: s.keyEdit) { [.push(ReaderFormScreen(editing: reader, onSaved: { _ in }))] },
      ScreenAction(Keys.delete, hint: s.keyDelete) { self.delete(reader, context: context) },
      ScreenAction(Keys.back, hint: s.keyBack) { [.pop] },
      ScreenAction(Keys.export, hint: nil) { ExportAction.prompt(.reader(reader.ticket), context: context) },
    ]
    return actions
  }

  /// Issues the books scanned or typed into the prompt, each on its own.
  private func issue(to reader: Reader, context: UIContext) -> [Effect] {
    let s = context.strings
    return [
      .dialog(
        Dialog(title: s.issueTitle, lines: [s.issuePromptInventory(reader.shortName)], kind: .collect(LineEditor())) {
          [weak self] answer in
          guard case .text(let text) = answer, !text.isEmpty, let self else { return [] }
          // Each scan is issued on its own, as at the Desk: a bad code does not hold back the others.
          let codes = text.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
          var refusals: [String] = []
          var issued: [CounterAction] = []
          for code in codes {
            do throws(StoreError) {
              switch try context.store.circulation.circulate(code, reader: reader, intent: .issue) {
              case .done(let action):
                issued.append(action)
              case .chooseCopy(let isbn, let copies, _):
                refusals += context.messages(
                  .refused([.severalCopies(isbn: isbn.hyphenated, copies: copies.map(\.book.inventoryNumber))]))
              case .conflict(let conflict, _):
                refusals.append(
                  s.recordConflict(conflict.number, s.conflictKind(conflict.kind), s.conflictSummary(conflict))
                    + " (F9)")
              default:
                refusals.append(s.unknownCodeMessage(code))
              }
            } catch {
              refusals += context.messages(error)
            }
          }
          // The books issued from one prompt are one act: undo takes them back together.
          context.session.record(issued, context: context)
          let notice = s.issuedManyNotice(issued.count, reader.shortName)
          let effects: [Effect] =
            refusals.isEmpty
            ? [.notify(notice)] : [.bell, .dialog(.error(s.issueRefusedTitle, [notice] + refusals))]
          return effects + self.reload(context: context)
        })
    ]
  }

  private func delete(_ reader: Reader, context: UIContext) -> [Effect] {
    let s = context.strings
    let out = loans.filter { $0.loan.isOpen }.count
    if out > 0 {
      return [
        .dialog(.error(s.deleteRefusedTitle, context.messages(.readerHasBooks(reader: reader.fullName, count: out))))
      ]
    }
    return [
      .dialog(
        Dialog(title: s.deleteTitle, lines: [s.deleteReaderQuestion(reader.fullName)], kind: .confirm) { answer in
          guard case .yes = answer else { return [] }
          do throws(StoreError) {
            try context.store.readers.delete(ticket: reader.ticket)
            return [.notify(s.deletedNotice(reader.fullName)), .pop]
          } catch {
            return [.dialog(.error(s.deleteRefusedTitle, context.messages(error)))]
          }
        })
    ]
  }

  /// The whole record is drawn on a tall page and shown from the row that keeps the chosen loan in
  /// view: in a small window the fields move up out of sight rather than the loans staying below
  /// it (`r` and `w` act on the loan the librarian sees chosen).
  func render(into buffer: inout ScreenBuffer, area: Rect, context: UIContext) {
    var page = ScreenBuffer(rows: area.height + 40 + 3 * (loans.count + holds.count), columns: buffer.columns)
    let tall = Rect(row: 0, column: area.column, height: page.rows, width: area.width)
    let (used, chosen) = renderRecord(into: &page, area: tall, height: area.height, context: context)
    if let chosen {
      if chosen.lowerBound < scroll { scroll = chosen.lowerBound }
      if chosen.upperBound > scroll + area.height { scroll = chosen.upperBound - area.height }
    }
    // A window that grew shows the rows above that now fit.
    scroll = max(0, min(scroll, used - area.height))
    buffer.copyRows(area.height, from: page, startingAt: scroll, to: area.row)
  }

  /// Draws the whole record from the top of `area`; returns the rows it took and those of the
  /// chosen loan. `height` is the window's, for the fields it shows.
  private func renderRecord(into buffer: inout ScreenBuffer, area: Rect, height: Int, context: UIContext)
    -> (used: Int, chosen: Range<Int>?)
  {
    guard let reader else { return (0, nil) }
    let s = context.strings
    let today = context.today
    let open = loans.filter { $0.loan.isOpen }
    let overdue = open.filter { $0.loan.isOverdue(on: today) }.count
    let pairs = shownFields(
      [
        (s.label(.ticket), reader.ticket),
        (s.labelName, reader.fullName),
        (s.label(.birthYear), reader.birthYear.map(String.init) ?? ""),
        (s.label(.phone), reader.phone),
        (s.label(.email), reader.email),
        (s.label(.category), category?.name(in: s.language) ?? reader.category),
        (s.label(.registered), reader.registered.iso),
        (s.labelAddress, reader.address?.singleLine ?? ""),
      ], height: height)
    let wide = area.width >= 100
    let half = wide ? (pairs.count + 1) / 2 : pairs.count
    var y = renderFields(
      Array(pairs.prefix(half)), into: &buffer, row: area.row + 1, column: area.column + 2,
      width: wide ? area.width / 2 - 3 : area.width - 4, maxRow: area.bottom, context: context)
    if wide {
      y = max(
        y,
        renderFields(
          Array(pairs.dropFirst(half)), into: &buffer, row: area.row + 1, column: area.column + area.width / 2,
          width: area.width / 2 - 2, maxRow: area.bottom, context: context))
    }
    y += 1
    if overdue > 0, y < area.bottom {
      buffer.write("! " + s.readerHasOverdue(overdue), row: y, column: area.column + 2, style: context.style(.warning))
      y += 1
    }
    if let mark { y = renderSyncMark(mark, into: &buffer, row: y, area: area, context: context) }
    if !holds.isEmpty, y < area.bottom {
      buffer.write(s.holdsHeader(holds.count), row: y, column: area.column + 2, style: context.style(.header))
      y += 1
      // A hold whole, wrapped under itself: where it stands is at the end of its line.
      for hold in holds {
        let style = context.style(hold.state == .waiting ? .warning : hold.state == .expired ? .muted : .normal)
        let lines = wrap(holdLine(hold, showing: .book, context: context), width: area.width - 9)
        for (number, line) in lines.enumerated() where y < area.bottom {
          buffer.write(
            (number > 0 ? "     " : hold.state == .waiting ? "! " : "  ") + line, row: y, column: area.column + 2,
            width: area.width - 4, style: style)
          y += 1
        }
      }
      y += 1
    }
    buffer.write(s.booksOut(open.count), row: y, column: area.column + 2, style: context.style(.header))
    y += 1
    // One list of loans, open ones first; the history follows under its own heading.
    var lines: [(text: String, index: Int?, role: Role)] = []
    if open.isEmpty { lines.append((s.none, nil, .muted)) }
    for (index, record) in loans.enumerated() where record.loan.isOpen {
      let late = record.loan.isOverdue(on: today)
      for (number, text) in loanLines(record, showing: .book, width: area.width - 6, context: context).enumerated() {
        lines.append(((number > 0 ? "  " : late ? "! " : "* ") + text, index, late ? .overdue : .issued))
      }
    }
    lines.append(("", nil, .normal))
    lines.append((s.history(loans.count - open.count), nil, .header))
    if loans.count == open.count { lines.append((s.none, nil, .muted)) }
    for (index, record) in loans.enumerated() where !record.loan.isOpen {
      for text in loanLines(record, showing: .book, width: area.width - 6, context: context) {
        lines.append(("  " + text, index, record.loan.undone == nil ? .normal : .muted))
      }
    }
    var chosen: Range<Int>?
    for line in lines {
      var role = line.role
      if line.index == selected && !loans.isEmpty {
        role = role == .overdue ? .selectedOverdue : (role == .issued ? .selectedIssued : .selected)
        buffer.fill(row: y, column: area.column + 2, height: 1, width: area.width - 4, style: context.style(role))
        chosen = (chosen?.lowerBound ?? y - area.row)..<(y - area.row + 1)
      }
      buffer.write(line.text, row: y, column: area.column + 2, width: area.width - 4, style: context.style(role))
      y += 1
    }
    return (y - area.row, chosen)
  }
}

extension ReaderDetailScreen {
  /// The reader screen's keys, in the help's order.
  enum Keys {
    static let chooseLoan = KeyDeclaration(.up, .down, .home, .end, name: "↑ ↓", means: .chooseLoan)
    static let openBook = KeyDeclaration(.enter, means: .openBook)
    static let issue = KeyDeclaration(.character("i"), means: .issueBooks)
    static let takeBack = KeyDeclaration(.character("r"), means: .takeBackChosen)
    static let renew = KeyDeclaration(.character("w"), means: .renewChosen)
    static let holds = KeyDeclaration(.character("h"), means: .readerHolds)
    static let edit = KeyDeclaration(.character("e"), means: .edit)
    static let delete = KeyDeclaration(.character("d"), .delete, means: .delete)
    static let export = KeyDeclaration(.function(6), means: .exportReader)
    static let back = KeyDeclaration(.escape, means: .back)
    static let all = [chooseLoan, openBook, issue, takeBack, renew, holds, edit, delete, export, back]
  }
}
