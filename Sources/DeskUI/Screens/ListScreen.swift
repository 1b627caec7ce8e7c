import DeskDomain
import DeskStorage

/// What the book and reader lists share: moving through a long list, and search as you type
/// (each key starts a new search in the background; only the newest answer is shown).
class ListScreen<Row> {
  var list: KeysetList<Row>
  var query = LineEditor(maximumLength: 200)
  var isTypingQuery = false
  var generation = 0
  var isSearching = false
  var pageSize = 20
  /// The records opened last, shown above the list while no search is typed.
  var recent: [Row] = []
  /// The selected recent record, when the selection is up in that block.
  var recentSelected: Int?
  /// What the last search's misspelt words were read as, for "Did you mean …".
  var corrections: [(String, String)] = []
  /// The last search as typed on the other keyboard layout, when that is what found the rows.
  var searchedFor: String?
  /// The sort key to select when the list next loads (a record just saved).
  var pendingFocus: String?
  /// The row to keep selected when the next search answer comes (the same search run again to
  /// show changes from other desks).
  var keptSelection: String?

  init(key: @escaping (Row) -> String) {
    list = KeysetList(key: key)
  }

  var acceptsText: Bool { isTypingQuery }
  var expectsCode: Bool { false }

  func fetch(_ context: UIContext) -> KeysetList<Row>.Fetch {
    fatalError("subclasses fetch their rows")
  }

  func searchRequest(generation: Int, query: String) -> SearchRequest {
    fatalError("subclasses build their search")
  }

  func rows(from result: SearchResult) -> [Row] {
    fatalError("subclasses read their search answers")
  }

  func fetchRecent(_ context: UIContext) -> [Row] { [] }

  /// True for lists where an ISBN the library lacks can be added (books).
  var offersISBNLookup: Bool { false }

  /// A row's cells and how it looks.
  func cells(_ row: Row, selected: Bool, context: UIContext) -> (cells: [String], role: Role) {
    fatalError("subclasses lay out their rows")
  }

  /// What Enter on a row opens.
  func open(_ row: Row, context: UIContext) -> [Effect] {
    fatalError("subclasses open their records")
  }

  /// True while a filter narrows the list: the records opened lately, which may not match it,
  /// are not shown above it.
  var isFiltered: Bool { false }

  var showsRecent: Bool {
    !recent.isEmpty && !isFiltered && query.text.trimmingWhitespace().isEmpty && !isTypingQuery
  }

  /// Loads the list again when the screen shows: around a record just saved, or the same
  /// search again, or the same stretch of the list.
  func reload(context: UIContext) -> [Effect] {
    recent = fetchRecent(context)
    recentSelected = nil
    if let focus = pendingFocus {
      pendingFocus = nil
      query = LineEditor(maximumLength: 200)
      isSearching = false
      generation += 1
      list.load(fetch(context), pageSize: pageSize, around: focus)
      return []
    }
    let text = query.text.trimmingWhitespace()
    guard text.isEmpty else {
      generation += 1
      isSearching = true
      return [.search(searchRequest(generation: generation, query: text))]
    }
    list.refresh(fetch(context), pageSize: pageSize)
    return []
  }

  func receive(_ result: SearchResult, context: UIContext) {
    guard result.generation == generation else { return }  // a newer key superseded it
    isSearching = false
    corrections = result.corrections
    searchedFor = result.searchedFor
    if let error = result.error {
      list.show(searchFailure: error)
    } else {
      list.show(searchResult: rows(from: result), keeping: keptSelection, pageSize: pageSize)
    }
    keptSelection = nil
  }

  /// Between keys the list reads the page after the window it holds, so that a page down finds
  /// its rows in memory. A catalogue larger than the memory the system keeps for files has most
  /// of its list index on the disk: at ten million books a page down read two pages of it (4.5 ms
  /// median on the benchmark's machine, against 0.5 ms for rows already read).
  func idle(context: UIContext) {
    list.readAhead(fetch(context), pageSize: pageSize)
  }

  /// Changes from other desks: the same stretch of the list, or the same search, read again with
  /// the selection on the record it was on; the search line and the recent block as they were.
  func showArrivals(context: UIContext) -> [Effect] {
    recent = fetchRecent(context)
    if let index = recentSelected, index >= recent.count { recentSelected = nil }
    let text = query.text.trimmingWhitespace()
    guard text.isEmpty else {
      generation += 1
      keptSelection = list.selectedRow.map(list.key)
      return [.search(searchRequest(generation: generation, query: text))]
    }
    list.refresh(fetch(context), pageSize: pageSize)
    return []
  }

  /// The first cell of a row on a desk joined to a central: the row's mark, then ↑ for a record
  /// changed here and not yet at the central.
  func markCell(_ mark: String, number: String, in unsynced: Set<String>, context: UIContext) -> String {
    guard context.isJoined else { return mark }
    return mark + (unsynced.contains(number) ? "↑" : " ")
  }

  /// A list's own actions (`own`, after Enter's) between the ones every list has: the bar reads
  /// Enter, search, the list's own, back.
  func listActions(_ context: UIContext, open: String, _ own: [ScreenAction]) -> [ScreenAction] {
    let s = context.strings
    return [
      ScreenAction(ListKeys.open, hint: open) { self.openSelected(context: context) },
      // '.' is where '/' is on the Russian keyboard.
      ScreenAction(ListKeys.search, hint: s.keySearch) {
        self.isTypingQuery = true
        return []
      },
    ] + own + [
      ScreenAction(ListKeys.back, hint: s.keyBack) {
        self.query.text.isEmpty ? [.pop] : self.clearSearch(context: context)
      },
      // A stray q deep inside never ends the desk: it goes back, as Esc does.
      ScreenAction(ListKeys.backAsEscape, hint: nil) { [.pop] },
    ]
  }

  /// What Enter does on the list: open the selected row.
  func openSelected(context: UIContext) -> [Effect] {
    guard let row = list.selectedRow else { return [] }
    return open(row, context: context)
  }

  /// Handles the keys every list shares. Returns nil for keys the list itself must handle.
  func handleNavigation(_ key: Key, context: UIContext) -> [Effect]? {
    if isTypingQuery {
      switch key {
      case .enter, .down, .up:
        isTypingQuery = false
        if key == .enter { return [] }
      case .escape:
        isTypingQuery = false
        return clearSearch(context: context)
      default:
        let before = query.text
        guard query.handle(key) else { return [] }
        return query.text == before ? [] : startSearch(context: context)
      }
    }
    let fetch = self.fetch(context)
    if let index = recentSelected, showsRecent {
      switch key {
      case .up: recentSelected = max(0, index - 1)
      case .down: recentSelected = index + 1 < recent.count ? index + 1 : nil
      case .enter: return open(recent[index], context: context)
      case .escape: return [.pop]
      default:
        recentSelected = nil
        return handleNavigation(key, context: context)
      }
      return []
    }
    switch key {
    case .up where list.isAtTop && showsRecent: recentSelected = recent.count - 1
    case .up: list.move(by: -1, fetch: fetch, pageSize: pageSize)
    case .down: list.move(by: 1, fetch: fetch, pageSize: pageSize)
    case .pageUp: list.move(by: -pageSize, fetch: fetch, pageSize: pageSize)
    case .pageDown: list.move(by: pageSize, fetch: fetch, pageSize: pageSize)
    case .home: list.moveToStart(fetch: fetch, pageSize: pageSize)
    case .end: list.moveToEnd(fetch: fetch, pageSize: pageSize)
    default:
      return nil
    }
    return []
  }

  var searchesTypedWords: Bool { true }

  /// `/` and words after it, come faster than a person types (pasted, or typed while the desk was
  /// busy): a search, as typed slowly.
  func takesAsTyping(_ burst: String) -> Bool {
    !isTypingQuery && (burst.hasPrefix("/") || burst.hasPrefix("."))
  }

  /// Ctrl-Z (or F8) in the search line takes back the typing there.
  func undoTyping(_ key: Key, context: UIContext) -> [Effect]? {
    guard isTypingQuery else { return nil }
    guard query.undo() else { return [.notify(context.strings.nothingTypedToUndo)] }
    return startSearch(context: context)
  }

  /// Words typed straight into the list (their first letter a command key that opened a form):
  /// searched for, as if `/` had been typed first.
  func typeAhead(_ text: String, context: UIContext) -> [Effect]? {
    isTypingQuery = true
    query = LineEditor(text, maximumLength: 200)
    return startSearch(context: context)
  }

  private func startSearch(context: UIContext) -> [Effect] {
    let text = query.text.trimmingWhitespace()
    generation += 1
    guard !text.isEmpty else {
      isSearching = false
      list.load(fetch(context), pageSize: pageSize)
      return []
    }
    isSearching = true
    return [.search(searchRequest(generation: generation, query: text))]
  }

  private func clearSearch(context: UIContext) -> [Effect] {
    query = LineEditor(maximumLength: 200)
    corrections = []
    generation += 1
    isSearching = false
    list.load(fetch(context), pageSize: pageSize)
    return []
  }

  /// The search line under the list header: the query with its cursor, or a hint.
  func renderSearchLine(into buffer: inout ScreenBuffer, row: Int, area: Rect, context: UIContext) {
    let strings = context.strings
    let label = strings.searchLabel
    buffer.write(label, row: row, column: area.column + 1, style: context.style(.label))
    var note = ""
    if isSearching {
      note = strings.searching
    } else if offersISBNLookup && list.isSearchResult && list.rows.isEmpty
      && (try? ISBN(query.text.trimmingWhitespace())) != nil
    {
      note = strings.isbnNotHere
    } else if list.isSearchResult, let searchedFor {
      note = strings.searchedFor(searchedFor)
    } else if list.isSearchResult && !corrections.isEmpty {
      note = strings.didYouMean(corrections.map(\.1).joined(separator: " "))
    } else if list.isSearchResult {
      note = strings.matches(list.rows.count)
    } else if !isTypingQuery {
      note = strings.searchHint
    }
    let fieldColumn = area.column + 2 + label.displayWidth
    let fieldWidth = max(10, min(40, area.width - fieldColumn - note.displayWidth - 2))
    let (text, cursor) = query.visible(width: fieldWidth)
    buffer.writePadded(
      text, row: row, column: fieldColumn, width: fieldWidth,
      style: context.style(isTypingQuery ? .activeField : .field))
    buffer.write(note, row: row, column: fieldColumn + fieldWidth + 1, style: context.style(.muted))
    if isTypingQuery { buffer.cursor = (row, fieldColumn + cursor) }
  }

}

extension ListScreen {
  /// The search line, the header, the recent records (while no search is typed) and a page of
  /// the list.
  func renderTable(
    into buffer: inout ScreenBuffer, area: Rect, columns: [TableColumn], empty: String, context: UIContext
  ) {
    renderSearchLine(into: &buffer, row: area.row, area: area, context: context)
    renderRow(
      columns.map(\.title), columns: columns, into: &buffer, row: area.row + 1, column: area.column + 1,
      width: area.width - 1, style: context.style(.header))
    var row = area.row + 2
    if showsRecent, area.bottom - row > recent.count + 4 {
      buffer.write(context.strings.recentHeading, row: row, column: area.column + 1, style: context.style(.muted))
      row += 1
      for (index, record) in recent.enumerated() {
        let (cells, role) = cells(record, selected: recentSelected == index, context: context)
        renderRow(
          cells, columns: columns, into: &buffer, row: row, column: area.column + 1, width: area.width - 1,
          style: context.style(role))
        row += 1
      }
      buffer.write(context.strings.allHeading, row: row, column: area.column + 1, style: context.style(.muted))
      row += 1
    }
    pageSize = max(1, area.bottom - row)
    if list.rows.isEmpty {
      let message =
        list.error.map { context.messages($0).joined(separator: "; ") }
        ?? (isSearching ? context.strings.searching : empty)
      buffer.write(message, row: row, column: area.column + 2, style: context.style(.muted))
      return
    }
    for (offset, index) in list.visibleRange.prefix(pageSize).enumerated() {
      let (cells, role) = cells(
        list.rows[index], selected: recentSelected == nil && index == list.selected, context: context)
      renderRow(
        cells, columns: columns, into: &buffer, row: row + offset, column: area.column + 1, width: area.width - 1,
        style: context.style(role))
    }
  }
}

/// The keys the book and reader lists share, and where each list's own go among them in the help.
enum ListKeys {
  static let open = KeyDeclaration(.enter, means: .open)
  /// '.' is where '/' is on the Russian keyboard.
  static let search = KeyDeclaration(.character("/"), .character("."), means: .searchAsYouType)
  static let newRecord = KeyDeclaration(.character("n"), means: .newRecord)
  static let edit = KeyDeclaration(.character("e"), means: .edit)
  static let export = KeyDeclaration(.function(6), means: .exportList)
  static let back = KeyDeclaration(.escape, means: .backOrClear)
  static let backAsEscape = KeyDeclaration(.character("q"), means: .backAsEscape)

  /// A list's keys in the help: moving, opening, searching, its own (`own`), going back.
  static func all(_ own: [KeyDeclaration]) -> [KeyDeclaration] {
    [
      .legend("↑ ↓", .move, keys: [.up, .down]), .legend("PgUp PgDn", .page, keys: [.pageUp, .pageDown]),
      .legend("Home End", .firstLast, keys: [.home, .end]), open, search, newRecord, edit,
    ] + own + [export, back, backAsEscape]
  }
}
