import DeskDomain
import DeskStorage

/// The catalogue: one row per book, issued books highlighted and marked, overdue ones marked
/// louder; filters, search as you type, and a new book with `n`.
final class BookListScreen: ListScreen<BookListRow>, DeskScreen {
  var filter: BookFilter

  init(filter: BookFilter = .all) {
    self.filter = filter
    super.init(key: { $0.book.sortKey })
  }

  var helpTopic: HelpTopic { .bookList }

  override var isFiltered: Bool { filter != .all }

  func title(_ context: UIContext) -> String {
    context.strings.booksTitle(context.strings.filterName(filter))
  }

  func keyHints(_ context: UIContext) -> [KeyHint] {
    let s = context.strings
    if isTypingQuery { return [KeyHint("Enter", s.keyDone), KeyHint("Esc", s.keyClear)] }
    return actions(context).hints
  }

  /// The list's keys: the hint bar and the handler both come from here.
  func actions(_ context: UIContext) -> [ScreenAction] {
    let s = context.strings
    let saved: (Book) -> Void = { [weak self] book in self?.pendingFocus = book.sortKey }
    return listActions(
      context, open: s.keyOpen,
      [
        ScreenAction(ListKeys.newRecord, hint: s.keyNew) { [.push(BookFormScreen(editing: nil, onSaved: saved))] },
        ScreenAction(ListKeys.edit, hint: s.keyEdit) {
          // The list holds summaries: the form edits the whole record, read afresh.
          guard let row = self.list.selectedRow,
            let book = (try? context.store.books.book(inventory: row.book.inventoryNumber)) ?? nil
          else { return [] }
          return [.push(BookFormScreen(editing: book, onSaved: saved))]
        },
        ScreenAction(BookListScreen.filterKey, hint: s.keyFilter) {
          let all = BookFilter.allCases
          self.filter = all[(all.firstIndex(of: self.filter).map { $0 + 1 } ?? 0) % all.count]
          return self.reloadAfterFilterChange(context: context)
        },
        ScreenAction(ListKeys.export, hint: nil) {
          ExportAction.prompt(.books(self.filter, search: self.query.text.trimmingWhitespace()), context: context)
        },
      ])
  }

  /// Enter: the selected book; on an empty list searched for an ISBN the library lacks, a new book
  /// with it, looked up.
  override func openSelected(context: UIContext) -> [Effect] {
    if list.rows.isEmpty, let isbn = try? ISBN(query.text.trimmingWhitespace()) {
      return [
        .push(BookFormScreen(editing: nil, values: [.isbn: isbn.hyphenated], lookUpISBN: true, onSaved: { _ in }))
      ]
    }
    return super.openSelected(context: context)
  }

  override func fetch(_ context: UIContext) -> KeysetList<BookListRow>.Fetch {
    let store = context.store
    let filter = self.filter
    return { position, limit in try store.books.listRows(filter: filter, position: position, limit: limit) }
  }

  override func searchRequest(generation: Int, query: String) -> SearchRequest {
    SearchRequest(generation: generation, target: .books(filter), query: query, limit: LibraryStore.searchCap)
  }

  override func rows(from result: SearchResult) -> [BookListRow] { result.books }

  func handle(_ key: Key, context: UIContext) -> [Effect] {
    if let effects = handleNavigation(key, context: context) { return effects }
    if let effects = actions(context).run(key) { return effects }
    switch key {
    case .character("?"):
      return [.help(helpTopic)]
    case .character(let character) where character.isLetter || character.isNumber:
      // Typed without '/': the start of a search, as the librarian meant.
      return typeAhead(String(character), context: context) ?? []
    default:
      return []
    }
  }

  private func reloadAfterFilterChange(context: UIContext) -> [Effect] {
    if query.text.trimmingWhitespace().isEmpty {
      list.load(fetch(context), pageSize: pageSize)
      return []
    }
    return reload(context: context)
  }

  /// The width the due date and reader have in the table as last laid out: narrow, the due date
  /// alone.
  private var statusWidth = 36
  static let statusWithReader = 20

  /// The title never gets fewer columns than this while another column can give way: first the
  /// reader's name beside the due date, then the author, the year, the name, and the author again.
  static let titleMinimum = 22

  func render(into buffer: inout ScreenBuffer, area: Rect, context: UIContext) {
    let s = context.strings
    let columns = layoutColumns(
      [
        TableColumn(title: "", width: context.isJoined ? 2 : 1),
        TableColumn(title: s.columnInventory, width: 9),
        TableColumn(title: s.columnAuthor, width: 24),
        TableColumn(title: s.columnTitle, width: 0),
        TableColumn(title: s.columnYear, width: 4),
        TableColumn(title: s.columnStatus, width: 36),
      ], flexible: 3, minimum: BookListScreen.titleMinimum,
      givingWay: [.shrink(5, to: 24), .shrink(2, to: 16), .drop(4), .shrink(5, to: 11), .shrink(2, to: 12)],
      totalWidth: area.width - 1)
    statusWidth = columns[5].width
    renderTable(into: &buffer, area: area, columns: columns, empty: s.noBooks, context: context)
  }

  override var offersISBNLookup: Bool { true }

  override func fetchRecent(_ context: UIContext) -> [BookListRow] {
    ((try? context.store.books.recent()) ?? []).map(BookListRow.init)
  }

  override func open(_ row: BookListRow, context: UIContext) -> [Effect] {
    [.push(BookDetailScreen(inventory: row.book.inventoryNumber))]
  }

  override func cells(_ listing: BookListRow, selected isSelected: Bool, context: UIContext) -> (
    cells: [String], role: Role
  ) {
    let s = context.strings
    let loan = listing.loan
    let overdue = loan?.loan.isOverdue(on: context.today) ?? false
    let role: Role
    switch (loan != nil, overdue, isSelected) {
    case (_, true, true): role = .selectedOverdue
    case (_, true, false): role = .overdue
    case (true, false, true): role = .selectedIssued
    case (true, false, false): role = .issued
    case (false, _, true): role = .selected
    case (false, _, false) where !listing.book.status.circulates: role = .muted
    default: role = .normal
    }
    let book = listing.book
    // A copy that may not be issued says so where a loan would: lost, written off, in repair…
    var status = book.status.circulates ? "" : s.statusName(book.status)
    if let loan {
      // Too narrow for the reader's name: the due date says when, the row's mark that it is out.
      let reader = statusWidth < BookListScreen.statusWithReader ? "" : loan.readerName
      status = (overdue ? s.overdueStatus(reader, loan.loan.due.iso) : s.issuedStatus(reader, loan.loan.due.iso))
        .trimmingWhitespace()
    }
    let mark =
      overdue ? "!" : (loan != nil ? "*" : (!book.status.circulates ? "x" : (listing.hasLookupOffer ? "+" : " ")))
    return (
      [
        markCell(mark, number: book.inventoryNumber, in: context.unsynced.books, context: context),
        book.inventoryNumber, book.author,
        book.title, book.year.map(String.init) ?? "", status,
      ], role
    )
  }
}

extension BookListScreen {
  static let filterKey = KeyDeclaration(.character("f"), means: .filterBooks)
  /// The list's keys in the help, with the marks of its rows.
  static let keys = ListKeys.all([filterKey, .legend("* !", .listMarks)])
}
