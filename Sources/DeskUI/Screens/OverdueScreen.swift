import DeskDomain
import DeskStorage

/// Every reader with overdue books, the longest overdue first: ticket, phone and e-mail to reach
/// them, then each book with its due date and days overdue. Enter opens the reader.
final class OverdueScreen: DeskScreen {
  private var readers: [OverdueReader] = []
  private var selected = 0
  private var scroll = 0
  private var pageSize = 10

  var helpTopic: HelpTopic { .overdue }

  func title(_ context: UIContext) -> String { context.strings.overdueTitle(readers.count) }

  func keyHints(_ context: UIContext) -> [KeyHint] {
    actions(context).hints
  }

  /// The list's keys: the hint bar and the handler both come from here.
  func actions(_ context: UIContext) -> [ScreenAction] {
    let s = context.strings
    return [
      .choosing(
        Keys.choose, hint: s.keyChoose, count: readers.count, page: pageSize,
        selected: { self.selected = $0 }, from: selected),
      ScreenAction(Keys.open, hint: s.keyOpen) {
        guard self.readers.indices.contains(self.selected) else { return [] }
        return [.push(ReaderDetailScreen(ticket: self.readers[self.selected].reader.ticket))]
      },
      ScreenAction(Keys.back, hint: s.keyBack) { [.pop] },
    ]
  }

  func reload(context: UIContext) -> [Effect] {
    do {
      readers = try context.store.circulation.overdueReaders()
    } catch {
      return [.dialog(.error(context.strings.errorTitle, context.messages(error)))]
    }
    selected = min(selected, max(0, readers.count - 1))
    return []
  }

  func handle(_ key: Key, context: UIContext) -> [Effect] {
    if key == .character("?") { return [.help(helpTopic)] }
    return actions(context).run(key) ?? []
  }

  func render(into buffer: inout ScreenBuffer, area: Rect, context: UIContext) {
    let s = context.strings
    let today = context.today
    guard !readers.isEmpty else {
      buffer.write(s.noOverdue, row: area.row + 1, column: area.column + 2, style: context.style(.muted))
      return
    }
    // One block per reader: who and how to reach them, then their overdue books.
    // A line too narrow for the whole gives way: the contacts, then the book's dates, go to a
    // line of their own, so that names and titles keep their columns.
    let width = area.width - 4
    var lines: [(text: String, reader: Int, isHeader: Bool)] = []
    for (index, entry) in readers.enumerated() {
      let reader = entry.reader
      let contacts = [reader.phone, reader.email].filter { !$0.isEmpty }.joined(separator: "  ")
      let whole = s.overdueReaderLine(entry.daysOverdue(on: today), reader.ticket, reader.fullName, contacts)
      if whole.displayWidth <= width || contacts.isEmpty {
        lines.append((whole, index, true))
      } else {
        lines.append(
          (s.overdueReaderLine(entry.daysOverdue(on: today), reader.ticket, reader.fullName, ""), index, true))
        lines.append(("    " + contacts, index, false))
      }
      for loan in entry.loans {
        let book = [loan.bookAuthor, "«\(loan.bookTitle)»"].filter { !$0.isEmpty }.joined(separator: " ")
        let dates = s.overdueBookDates(loan.loan.due.iso, loan.loan.daysOverdue(on: today))
        let lead = "    \(loan.inventory)  "
        let room = width - lead.displayWidth - dates.displayWidth - 2
        if room >= min(loanBookMinimum, book.displayWidth) {
          lines.append((lead + book.truncated(toWidth: room) + "  " + dates, index, false))
        } else {
          lines.append((lead + book, index, false))
          lines.append(("      " + dates, index, false))
        }
      }
    }
    let top = area.row + 1
    let height = max(1, area.bottom - top)
    pageSize = max(1, height / 3)
    if let first = lines.firstIndex(where: { $0.reader == selected }) {
      let end = lines.lastIndex { $0.reader == selected } ?? first
      if first < scroll { scroll = first }
      if end >= scroll + height { scroll = min(first, end - height + 1) }
    }
    for (offset, line) in lines.dropFirst(scroll).prefix(height).enumerated() {
      let row = top + offset
      let isSelected = line.reader == selected
      let role: Role = isSelected ? .selectedOverdue : (line.isHeader ? .overdue : .normal)
      if isSelected {
        buffer.fill(row: row, column: area.column + 1, height: 1, width: area.width - 2, style: context.style(role))
      }
      buffer.write(line.text, row: row, column: area.column + 2, width: area.width - 4, style: context.style(role))
    }
  }
}

extension OverdueScreen {
  /// The overdue list's keys, in the help's order.
  enum Keys {
    static let choose = KeyDeclaration(
      .up, .down, .pageUp, .pageDown, .home, .end, name: "↑ ↓ PgUp PgDn", means: .chooseReader)
    static let open = KeyDeclaration(.enter, means: .openReader)
    static let back = KeyDeclaration(.escape, .character("q"), means: .back)
    static let all = [choose, open, back]
  }
}
