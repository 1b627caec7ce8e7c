import DeskDomain
import DeskStorage

/// Every field of a book, its current loan and its loan history; edit, issue, return, renew
/// and delete from here.
final class BookDetailScreen: DeskScreen {
  let inventory: String
  private var book: Book?
  private var loan: CurrentLoan?
  private var history: [LoanRecord] = []
  /// The queue of the book's title and of the copy, a copy waiting on the hold shelf first.
  private var holds: [HoldRecord] = []
  private var missing = false
  /// Details a completed look-up found for this book, waiting for the librarian's yes or no.
  private var offer: BookFacts?
  /// Its changes not yet at the central and its open conflicts (a desk joined to a central).
  private var mark: SyncMark?

  init(inventory: String) {
    self.inventory = inventory
  }

  var helpTopic: HelpTopic { .bookDetail }

  func title(_ context: UIContext) -> String {
    context.strings.bookTitle(book?.inventoryNumber ?? inventory)
  }

  func keyHints(_ context: UIContext) -> [KeyHint] {
    actions(context).hints
  }

  func reload(context: UIContext) -> [Effect] {
    load(context: context, noting: true)
  }

  func showArrivals(context: UIContext) -> [Effect] {
    load(context: context, noting: false)
  }

  /// Reads the book again; `noting` puts it first among the books opened lately.
  private func load(context: UIContext, noting: Bool) -> [Effect] {
    do {
      guard let found = try context.store.books.book(inventory: inventory) else {
        missing = true
        return [.pop]
      }
      book = found
      if noting { try context.store.books.noteOpened(found) }
      mark = try context.store.sync.mark(entity: .book, recordID: found.id)
      loan = try context.store.books.currentLoan(ofBook: found)
      history = try context.store.circulation.loans(ofBook: found, includingUndone: true)
      holds = try context.store.holds.queue(forBook: found.inventoryNumber)
      offer = try context.store.books.lookupOffer(for: found)
    } catch {
      return [.dialog(.error(context.strings.errorTitle, context.messages(error)))]
    }
    return []
  }

  func handle(_ key: Key, context: UIContext) -> [Effect] {
    guard book != nil else { return key == .escape ? [.pop] : [] }
    // A small window shows the record a part at a time.
    if page.handle(key) { return [] }
    if key == .character("?") { return [.help(helpTopic)] }
    return actions(context).run(key) ?? []
  }

  /// What can be done to the book as it stands: the hint bar and the keys both come from here.
  func actions(_ context: UIContext) -> [ScreenAction] {
    guard let book else { return [] }
    let s = context.strings
    var actions = [
      ScreenAction(Keys.edit, hint: s.keyEdit) { [.push(BookFormScreen(editing: book, onSaved: { _ in }))] }
    ]
    if loan == nil {
      actions.append(ScreenAction(Keys.issue, hint: s.keyIssue) { self.issue(book, context: context) })
    } else {
      actions += [
        ScreenAction(Keys.takeBack, hint: s.keyReturn) {
          takeBackOrRenew(book.inventoryNumber, .giveBack, context: context) + self.reload(context: context)
        },
        ScreenAction(Keys.renew, hint: s.keyRenew) {
          takeBackOrRenew(book.inventoryNumber, .renew, context: context) + self.reload(context: context)
        },
      ]
    }
    actions.append(ScreenAction(Keys.hold, hint: s.keyHold) { self.placeHold(book, context: context) })
    if offer != nil {
      actions += [
        ScreenAction(Keys.applyOffer, hint: s.keyApplyOffer) {
          let effects = attempt(context, title: s.cannotSaveTitle) { () throws(StoreError) in
            let updated = try context.store.books.applyLookupOffer(to: book)
            return s.savedNotice("\(updated.inventoryNumber) \(updated.shortDescription)")
          }
          return effects + self.reload(context: context)
        },
        ScreenAction(Keys.dismissOffer, hint: s.keyDismissOffer) {
          try? context.store.books.dismissLookupOffer(for: book)
          return self.reload(context: context)
        },
      ]
    }
    actions += [
      ScreenAction(Keys.status, hint: s.keyStatus) { [self.chooseStatus(book, context: context)] },
      ScreenAction(Keys.delete, hint: s.keyDelete) { self.delete(book, context: context) },
      ScreenAction(Keys.back, hint: s.keyBack) { [.pop] },
      ScreenAction(Keys.export, hint: nil) { ExportAction.prompt(.book(book.inventoryNumber), context: context) },
    ]
    return actions
  }

  private func issue(_ book: Book, context: UIContext) -> [Effect] {
    let s = context.strings
    return [
      .dialog(
        Dialog(title: s.issueTitle, lines: [s.issuePromptTicket(book.title)], kind: .prompt(LineEditor())) {
          [weak self] answer in
          guard case .text(let ticket) = answer, !ticket.isEmpty, let self else { return [] }
          let effects = counterChange(context, title: s.issueRefusedTitle) { () throws(StoreError) in
            guard let reader = try context.store.readers.reader(ticket: ticket) else { throw .readerNotFound(ticket) }
            return try context.store.circulation.circulate(
              book.inventoryNumber, reader: reader, intent: .issue, conflictSeen: true
            ).actions
          }
          return effects + self.reload(context: context)
        })
    ]
  }

  private func placeHold(_ book: Book, context: UIContext) -> [Effect] {
    let s = context.strings
    return [
      .dialog(
        Dialog(title: s.holdTitle, lines: [s.holdPromptTicket(book.holdLabel)], kind: .prompt(LineEditor())) {
          [weak self] answer in
          guard case .text(let ticket) = answer, !ticket.isEmpty, let self else { return [] }
          let effects = attempt(context, title: s.holdRefusedTitle) { () throws(StoreError) in
            let hold = try context.store.holds.place(ticket: ticket, on: .titleOf(book.inventoryNumber))
            return s.holdPlaced(hold.readerName, hold.label, position: hold.position ?? 1)
          }
          return effects + self.reload(context: context)
        })
    ]
  }

  private func delete(_ book: Book, context: UIContext) -> [Effect] {
    let s = context.strings
    if let loan {
      return [
        .dialog(
          .error(
            s.deleteRefusedTitle,
            context.messages(
              .bookOnLoan(
                book: book.title, inventory: book.inventoryNumber, reader: "\(loan.readerName) (\(loan.readerTicket))"
              ))))
      ]
    }
    return [
      .dialog(
        Dialog(title: s.deleteTitle, lines: [s.deleteBookQuestion(book.title)], kind: .confirm) { answer in
          guard case .yes = answer else { return [] }
          do throws(StoreError) {
            try context.store.books.delete(inventory: book.inventoryNumber)
            return [.notify(s.deletedNotice(book.title)), .pop]
          } catch {
            return [.dialog(.error(s.deleteRefusedTitle, context.messages(error)))]
          }
        })
    ]
  }

  /// The record, taller than a small window.
  private var page = ScrolledPage()
  /// The rows the record is shown in: a short window shows only the filled fields.
  private var shownHeight = 40

  /// The statuses to choose from, the copy's own selected; the choice is saved at once.
  private func chooseStatus(_ book: Book, context: UIContext) -> Effect {
    let s = context.strings
    let statuses = CopyStatus.allCases
    return .dialog(
      Dialog(
        title: s.statusTitle, lines: [s.statusQuestion(book.title)],
        kind: .choice(
          options: statuses.map(s.statusName), codes: statuses.map(\.rawValue),
          selected: statuses.firstIndex(of: book.status) ?? 0)
      ) { [weak self] answer in
        guard case .chosen(let index) = answer, statuses.indices.contains(index), let self else { return [] }
        let status = statuses[index]
        guard status != book.status else { return [] }
        let effects = attempt(context, title: s.cannotSaveTitle) { () throws(StoreError) in
          let updated = try context.store.books.update(inventory: book.inventoryNumber) { $0.status = status.rawValue }
          return s.statusChanged(updated.inventoryNumber, updated.status)
        }
        return effects + self.reload(context: context)
      })
  }

  func render(into buffer: inout ScreenBuffer, area: Rect, context: UIContext) {
    shownHeight = area.height
    page.render(into: &buffer, area: area, spare: 62 + 2 * (history.count + holds.count)) { page, tall in
      renderRecord(into: &page, area: tall, context: context)
    }
  }

  /// Draws the whole record from the top of `area`; returns the rows it took.
  private func renderRecord(into buffer: inout ScreenBuffer, area: Rect, context: UIContext) -> Int {
    guard let book else { return 0 }
    let s = context.strings
    let pairs = shownFields(
      [
        (s.label(.inventoryNumber), book.inventoryNumber),
        (s.label(.isbn), book.isbn?.hyphenated ?? ""),
        (s.labelAuthor, book.author),
        (s.label(.title), book.title),
        (s.label(.publisher), book.publisher),
        (s.label(.city), book.city),
        (s.label(.year), book.year.map(String.init) ?? ""),
        (s.label(.pages), book.pages.map(String.init) ?? ""),
        (s.label(.price), book.price?.description ?? ""),
        (s.label(.bbk), book.bbk),
        (s.label(.authorMark), book.authorMark),
        (s.label(.place), book.place),
        (s.label(.received), book.received?.iso ?? ""),
      ] + (book.lastChecked.map { [(s.labelLastChecked, $0.iso)] } ?? []), height: shownHeight)
    let wide = area.width >= 100
    let half = wide ? pairs.count / 2 + 1 : pairs.count
    var y = renderFields(
      Array(pairs.prefix(half)), into: &buffer, row: area.row + 1, column: area.column + 2,
      width: wide ? area.width / 2 - 3 : area.width - 4, maxRow: area.bottom, context: context)
    if wide {
      let right = renderFields(
        Array(pairs.dropFirst(half)), into: &buffer, row: area.row + 1, column: area.column + area.width / 2,
        width: area.width / 2 - 2, maxRow: area.bottom, context: context)
      y = max(y, right)
    }
    y += 1
    if let loan {
      let overdue = loan.loan.isOverdue(on: context.today)
      let text =
        overdue
        ? s.bookOverdueTo(
          loan.readerName, loan.readerTicket, loan.loan.due.iso, loan.loan.daysOverdue(on: context.today))
        : s.bookIssuedTo(loan.readerName, loan.readerTicket, loan.loan.due.iso)
      // Wrapped, never cut: the due date is at its end.
      let lines = wrap(text, width: area.width - 6)
      for (number, line) in lines.enumerated() {
        buffer.write(
          (number > 0 ? "  " : overdue ? "! " : "* ") + line, row: y, column: area.column + 2, width: area.width - 4,
          style: context.style(overdue ? .overdue : .issued))
        y += 1
      }
      y -= 1
    } else if !book.status.circulates {
      buffer.write(
        "x " + s.bookNotForLoan(book.status), row: y, column: area.column + 2, width: area.width - 4,
        style: context.style(.warning))
    } else if let waiting = holds.first(where: { $0.state == .waiting && $0.waitingCopy == book.inventoryNumber }) {
      buffer.write(
        "! " + s.bookOnHoldShelf(waiting.readerName, waiting.readerTicket, until: waiting.pickupBy?.iso ?? ""), row: y,
        column: area.column + 2, width: area.width - 4, style: context.style(.warning))
    } else {
      buffer.write(
        s.bookAvailable, row: y, column: area.column + 2, width: area.width - 4, style: context.style(.label))
    }
    if loan != nil, !book.status.circulates {
      y += 1
      buffer.write(
        "x " + s.bookNotForLoan(book.status), row: y, column: area.column + 2, width: area.width - 4,
        style: context.style(.warning))
    }
    y += 2
    if let mark {
      y = renderSyncMark(mark, into: &buffer, row: y, area: area, context: context)
    }
    if let offer, y < area.bottom {
      buffer.write(s.lookupOffer(offer.provider), row: y, column: area.column + 2, style: context.style(.title))
      y += 1
      let draft = BookDraft(book)
      for field in BookDraft.fields {
        guard let value = offer.fieldValues[field], value != draft[field], y < area.bottom else { continue }
        buffer.write(
          "\(s.label(field)): \(draft[field].isEmpty ? "—" : draft[field]) → \(value)", row: y, column: area.column + 4,
          width: area.width - 6)
        y += 1
      }
      y += 1
    }
    if !holds.isEmpty, y < area.bottom {
      buffer.write(s.holdsHeader(holds.count), row: y, column: area.column + 2, style: context.style(.header))
      y += 1
      for hold in holds {
        for line in wrap(holdLine(hold, showing: .reader, context: context), width: area.width - 6)
        where y < area.bottom {
          buffer.write(
            line, row: y, column: area.column + 4, width: area.width - 6,
            style: context.style(hold.state == .waiting ? .warning : .normal))
          y += 1
        }
      }
      y += 1
    }
    buffer.write(s.loanHistory(history.count), row: y, column: area.column + 2, style: context.style(.header))
    y += 1
    if history.isEmpty, y < area.bottom {
      buffer.write(s.none, row: y, column: area.column + 4, style: context.style(.muted))
    }
    for record in history {
      for line in loanLines(record, showing: .reader, width: area.width - 6, context: context) where y < area.bottom {
        buffer.write(
          line, row: y, column: area.column + 4, width: area.width - 6,
          style: context.style(record.loan.undone == nil ? .normal : .muted))
        y += 1
      }
    }
    return y + (history.isEmpty ? 1 : 0) - area.row
  }
}

extension BookDetailScreen {
  /// The book screen's keys, in the help's order.
  enum Keys {
    static let edit = KeyDeclaration(.character("e"), means: .edit)
    static let issue = KeyDeclaration(.character("i"), means: .issueToReader)
    static let takeBack = KeyDeclaration(.character("r"), means: .takeBack)
    static let renew = KeyDeclaration(.character("w"), means: .renew)
    static let delete = KeyDeclaration(.character("d"), .delete, means: .delete)
    static let status = KeyDeclaration(.character("s"), means: .copyStatus)
    static let hold = KeyDeclaration(.character("h"), means: .placeHold)
    static let applyOffer = KeyDeclaration(.character("u"), means: .applyOffer)
    static let dismissOffer = KeyDeclaration(.character("x"), means: .dismissOffer)
    static let export = KeyDeclaration(.function(6), means: .exportBook)
    static let back = KeyDeclaration(.escape, means: .back)
    static let all = [edit, issue, takeBack, renew, delete, status, hold, applyOffer, dismissOffer, export, back]
  }
}
