import DeskDomain
import DeskStorage

/// The readers: ticket, name, phone, books out, and a mark for those with overdue books.
final class ReaderListScreen: ListScreen<ReaderListing>, DeskScreen {
  /// When set, choosing a reader hands it here instead of opening it (the Desk picks readers).
  let onChoose: ((Reader) -> [Effect])?

  init(onChoose: ((Reader) -> [Effect])? = nil) {
    self.onChoose = onChoose
    super.init(key: { $0.reader.sortKey })
  }

  var helpTopic: HelpTopic { .readerList }

  func title(_ context: UIContext) -> String { context.strings.readersTitle }

  func keyHints(_ context: UIContext) -> [KeyHint] {
    let s = context.strings
    if isTypingQuery { return [KeyHint("Enter", s.keyDone), KeyHint("Esc", s.keyClear)] }
    return [
      KeyHint("Enter", onChoose == nil ? s.keyOpen : s.keyChoose), KeyHint("/", s.keySearch),
      KeyHint("n", s.keyNew), KeyHint("e", s.keyEdit), KeyHint("Esc", s.keyBack),
    ]
  }

  override func fetch(_ context: UIContext) -> KeysetList<ReaderListing>.Fetch {
    let store = context.store
    return { position, limit in try store.readers(position: position, limit: limit) }
  }

  override func searchRequest(generation: Int, query: String) -> SearchRequest {
    SearchRequest(generation: generation, target: .readers, query: query, limit: 500)
  }

  override func rows(from result: SearchResult) -> [ReaderListing] { result.readers }

  func handle(_ key: Key, context: UIContext) -> [Effect] {
    if let effects = handleNavigation(key, context: context) { return effects }
    switch key {
    case .enter:
      guard let listing = list.selectedRow else { return [] }
      if let onChoose { return [.pop] + onChoose(listing.reader) }
      return [.push(ReaderDetailScreen(ticket: listing.reader.ticket))]
    case .character("n"), .character("т"):
      return [
        .push(ReaderFormScreen(editing: nil, onSaved: { [weak self] reader in self?.pendingFocus = reader.sortKey }))
      ]
    case .character("e"), .character("у"):
      guard let listing = list.selectedRow else { return [] }
      return [
        .push(
          ReaderFormScreen(
            editing: listing.reader, onSaved: { [weak self] reader in self?.pendingFocus = reader.sortKey }))
      ]
    case .function(6):
      return ExportAction.prompt(.readers, context: context)
    case .character("?"):
      return [.help(helpTopic)]
    default:
      return []
    }
  }

  func render(into buffer: inout ScreenBuffer, area: Rect, context: UIContext) {
    let s = context.strings
    let wide = area.width >= 110
    let columns = layoutColumns(
      [
        TableColumn(title: "", width: 1),
        TableColumn(title: s.columnTicket, width: 9),
        TableColumn(title: s.columnName, width: 0),
        TableColumn(title: s.columnPhone, width: wide ? 20 : 17),
        TableColumn(title: s.columnBooksOut, width: 5),
        TableColumn(title: s.columnOverdue, width: wide ? 12 : 8),
      ], flexible: 2, totalWidth: area.width - 1)
    renderSearchLine(into: &buffer, row: area.row, area: area, context: context)
    renderRow(
      columns.map(\.title), columns: columns, into: &buffer, row: area.row + 1, column: area.column + 1,
      width: area.width - 1, style: context.style(.header))
    let firstRow = area.row + 2
    pageSize = max(1, area.bottom - firstRow)
    if list.rows.isEmpty {
      let message = list.error ?? (isSearching ? s.searching : s.noReaders)
      buffer.write(message, row: firstRow, column: area.column + 2, style: context.style(.muted))
      return
    }
    for (offset, index) in list.visibleRange.prefix(pageSize).enumerated() {
      let listing = list.rows[index]
      let selected = index == list.selected
      let role: Role =
        listing.overdue > 0 ? (selected ? .selectedOverdue : .overdue) : (selected ? .selected : .normal)
      renderRow(
        [
          listing.overdue > 0 ? "!" : " ", listing.reader.ticket, listing.reader.fullName, listing.reader.phone,
          listing.booksOut > 0 ? String(listing.booksOut) : "",
          listing.overdue > 0 ? s.overdueCount(listing.overdue) : "",
        ], columns: columns, into: &buffer, row: firstRow + offset, column: area.column + 1, width: area.width - 1,
        style: context.style(role))
    }
  }
}
