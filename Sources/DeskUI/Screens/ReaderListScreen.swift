import DeskDomain
import DeskStorage

/// The readers: ticket, name, phone, books out, and a mark for those with overdue books; `f`
/// shows only the readers with overdue books.
final class ReaderListScreen: ListScreen<ReaderListing>, DeskScreen {
  /// When set, choosing a reader hands it here instead of opening it (the Desk picks readers).
  let onChoose: ((Reader) -> [Effect])?
  var filter: ReaderFilter

  /// `query` starts the list searched (a name typed at the Desk).
  init(query: String = "", filter: ReaderFilter = .all, onChoose: ((Reader) -> [Effect])? = nil) {
    self.onChoose = onChoose
    self.filter = filter
    super.init(key: { $0.reader.sortKey })
    self.query = LineEditor(query, maximumLength: 200)
    // Asked for a reader with nothing typed yet (F3 at the Desk): the name is typed at once.
    isTypingQuery = onChoose != nil && query.isEmpty
  }

  /// Choosing a reader for the Desk, a scanned card chooses its reader.
  func handleScan(_ scan: Scan, context: UIContext) -> [Effect]? {
    guard let onChoose, case .reader(let reader)? = try? context.store.resolve(scan.code, prefer: .reader) else {
      return nil
    }
    return [.pop] + onChoose(reader)
  }

  var helpTopic: HelpTopic { .readerList }

  override var isFiltered: Bool { filter != .all }

  func title(_ context: UIContext) -> String { context.strings.readersTitle(context.strings.readerFilterName(filter)) }

  func keyHints(_ context: UIContext) -> [KeyHint] {
    let s = context.strings
    if isTypingQuery { return [KeyHint("Enter", s.keyDone), KeyHint("Esc", s.keyClear)] }
    return actions(context).hints
  }

  /// The list's keys: the hint bar and the handler both come from here.
  func actions(_ context: UIContext) -> [ScreenAction] {
    let s = context.strings
    let saved: (Reader) -> Void = { [weak self] reader in self?.pendingFocus = reader.sortKey }
    return listActions(
      context, open: onChoose == nil ? s.keyOpen : s.keyChoose,
      [
        ScreenAction(ListKeys.newRecord, hint: s.keyNew) { [.push(ReaderFormScreen(editing: nil, onSaved: saved))] },
        ScreenAction(ListKeys.edit, hint: s.keyEdit) {
          guard let listing = self.list.selectedRow else { return [] }
          return [.push(ReaderFormScreen(editing: listing.reader, onSaved: saved))]
        },
        ScreenAction(ReaderListScreen.filterKey, hint: s.keyFilter) {
          self.filter = self.filter == .all ? .overdue : .all
          if self.query.text.trimmingWhitespace().isEmpty {
            self.list.load(self.fetch(context), pageSize: self.pageSize)
            return []
          }
          return self.reload(context: context)
        },
        ScreenAction(ListKeys.export, hint: nil) { ExportAction.prompt(.readers, context: context) },
      ])
  }

  override func fetch(_ context: UIContext) -> KeysetList<ReaderListing>.Fetch {
    let store = context.store
    let filter = self.filter
    return { position, limit in try store.readers.page(filter: filter, position: position, limit: limit) }
  }

  override func searchRequest(generation: Int, query: String) -> SearchRequest {
    SearchRequest(generation: generation, target: .readers(filter), query: query, limit: LibraryStore.searchCap)
  }

  override func rows(from result: SearchResult) -> [ReaderListing] { result.readers }

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

  func render(into buffer: inout ScreenBuffer, area: Rect, context: UIContext) {
    let s = context.strings
    // The name never gets fewer columns than 22 while another can give way: the overdue count
    // (the row's mark says it too), then the phone.
    let columns = layoutColumns(
      [
        TableColumn(title: "", width: context.isJoined ? 2 : 1),
        TableColumn(title: s.columnTicket, width: 9),
        TableColumn(title: s.columnName, width: 0),
        TableColumn(title: s.columnPhone, width: 20),
        TableColumn(title: s.columnBooksOut, width: 5),
        TableColumn(title: s.columnOverdue, width: 12),
      ], flexible: 2, minimum: 22,
      givingWay: [.shrink(5, to: 8), .shrink(3, to: 17), .drop(5), .drop(3)],
      totalWidth: area.width - 1)
    renderTable(into: &buffer, area: area, columns: columns, empty: s.noReaders, context: context)
  }

  override func fetchRecent(_ context: UIContext) -> [ReaderListing] {
    (try? context.store.readers.recent()) ?? []
  }

  override func open(_ row: ReaderListing, context: UIContext) -> [Effect] {
    if let onChoose { return [.pop] + onChoose(row.reader) }
    return [.push(ReaderDetailScreen(ticket: row.reader.ticket, id: row.reader.id))]
  }

  override func cells(_ listing: ReaderListing, selected: Bool, context: UIContext) -> (cells: [String], role: Role) {
    let role: Role =
      listing.overdue > 0 ? (selected ? .selectedOverdue : .overdue) : (selected ? .selected : .normal)
    return (
      [
        markCell(
          listing.overdue > 0 ? "!" : " ", number: listing.reader.ticket, in: context.unsynced.readers, context: context
        ),
        listing.reader.ticket, listing.reader.fullName, listing.reader.phone,
        listing.booksOut > 0 ? String(listing.booksOut) : "",
        listing.overdue > 0 ? context.strings.overdueCount(listing.overdue) : "",
      ], role
    )
  }
}

extension ReaderListScreen {
  static let filterKey = KeyDeclaration(.character("f"), means: .filterReaders)
  static let keys = ListKeys.all([filterKey])
}
