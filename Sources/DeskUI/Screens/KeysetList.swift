import DeskStorage

/// A window onto a long sorted list that lives in the database. It holds a few pages around the
/// selection and fetches more by sort key as the selection moves (keyset paging), so that a
/// million rows cost the same as ten. With a search, it holds the search's answer instead.
struct KeysetList<Row> {
  typealias Fetch = (PagePosition, Int) throws(StoreError) -> [Row]

  private(set) var rows: [Row] = []
  private(set) var selected = 0
  private(set) var top = 0
  /// True when rows come from a search answer rather than from the database window.
  private(set) var isSearchResult = false
  private(set) var error: StoreError?
  let key: (Row) -> String
  private var atStart = true
  private var atEnd = true
  private static var windowLimit: Int { 400 }

  init(key: @escaping (Row) -> String) {
    self.key = key
  }

  var selectedRow: Row? { rows.indices.contains(selected) ? rows[selected] : nil }

  /// True when the selection is on the very first row of the whole list.
  var isAtTop: Bool { selected == 0 && (atStart || isSearchResult) }

  mutating func load(_ fetch: Fetch, pageSize: Int, around sortKey: String? = nil) {
    isSearchResult = false
    do {
      if let sortKey {
        let before = try fetch(.before(sortKey), pageSize)
        let after = try fetch(.from(sortKey), pageSize * 2)
        rows = before + after
        selected = before.count
        atStart = before.count < pageSize
        atEnd = after.count < pageSize * 2
        top = max(0, selected - pageSize / 2)
      } else {
        // The page shown and no more: the next is read ahead while the desk is idle. Two pages
        // here took 0.45 ms of a first paint at ten million books, one takes 0.3.
        rows = try fetch(.first, pageSize)
        selected = 0
        top = 0
        atStart = true
        atEnd = rows.count < pageSize
      }
      error = nil
    } catch {
      rows = []
      self.error = error
    }
    clamp(pageSize: pageSize)
  }

  /// Reloads the same stretch of the list, keeping the selection on the same record if it is
  /// still there.
  mutating func refresh(_ fetch: Fetch, pageSize: Int) {
    guard !isSearchResult else { return }
    load(fetch, pageSize: pageSize, around: selectedRow.map(key))
  }

  /// A search that could not be made: no rows, and why in their place.
  mutating func show(searchFailure: StoreError) {
    show(searchResult: [])
    error = searchFailure
  }

  /// Shows a search's answer, selecting the row with the sort key `keeping` when it is there.
  mutating func show(searchResult: [Row], keeping kept: String? = nil, pageSize: Int = 0) {
    rows = searchResult
    selected = kept.flatMap { kept in rows.firstIndex { key($0) == kept } } ?? 0
    top = 0
    atStart = true
    atEnd = true
    isSearchResult = true
    error = nil
    clamp(pageSize: pageSize)
  }

  mutating func move(by delta: Int, fetch: Fetch, pageSize: Int) {
    var target = selected + delta
    if target >= rows.count, !atEnd, !isSearchResult, let last = rows.last {
      let wanted = max(pageSize, target - rows.count + 1)
      let more = (try? fetch(.after(key(last)), wanted)) ?? []
      rows += more
      if more.count < wanted { atEnd = true }
      let removed = trimFront()
      target -= removed
    }
    if target < 0, !atStart, !isSearchResult, let first = rows.first {
      let wanted = max(pageSize, -target)
      let more = (try? fetch(.before(key(first)), wanted)) ?? []
      rows = more + rows
      selected += more.count
      top += more.count
      target += more.count
      if more.count < wanted { atStart = true }
      trimBack()
    }
    selected = max(0, min(rows.count - 1, target))
    clamp(pageSize: pageSize)
  }

  /// Fetches the page after the window when the selection is within two pages of its end. Only
  /// forward: reading both ways, each end's rows could push out the other's in turn.
  mutating func readAhead(_ fetch: Fetch, pageSize: Int) {
    guard !isSearchResult, !atEnd, error == nil, pageSize > 0, rows.count - selected <= 2 * pageSize,
      let last = rows.last
    else { return }
    let more = (try? fetch(.after(key(last)), pageSize)) ?? []
    rows += more
    if more.count < pageSize { atEnd = true }
    _ = trimFront()
  }

  mutating func moveToStart(fetch: Fetch, pageSize: Int) {
    if isSearchResult || atStart {
      selected = 0
      clamp(pageSize: pageSize)
    } else {
      load(fetch, pageSize: pageSize)
    }
  }

  mutating func moveToEnd(fetch: Fetch, pageSize: Int) {
    if isSearchResult || atEnd {
      selected = max(0, rows.count - 1)
    } else {
      do {
        rows = try fetch(.last, pageSize * 2)
        atEnd = true
        atStart = rows.count < pageSize * 2
        selected = max(0, rows.count - 1)
      } catch {
        self.error = error
      }
    }
    clamp(pageSize: pageSize)
  }

  /// Keeps the selection on screen.
  private mutating func clamp(pageSize: Int) {
    guard pageSize > 0 else { return }
    if selected < top { top = selected }
    if selected >= top + pageSize { top = selected - pageSize + 1 }
    top = max(0, min(top, max(0, rows.count - pageSize)))
  }

  /// Drops rows far above the selection; returns how many went.
  private mutating func trimFront() -> Int {
    let excess = rows.count - KeysetList.windowLimit
    guard excess > 0, selected - excess > 0 else { return 0 }
    rows.removeFirst(excess)
    selected -= excess
    top = max(0, top - excess)
    atStart = false
    return excess
  }

  private mutating func trimBack() {
    let excess = rows.count - KeysetList.windowLimit
    guard excess > 0, selected < rows.count - excess else { return }
    rows.removeLast(excess)
    atEnd = false
  }

  var visibleRange: Range<Int> { top..<rows.count }
}
