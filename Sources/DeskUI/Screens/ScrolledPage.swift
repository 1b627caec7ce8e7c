/// A screen taller than its window: drawn whole on a tall page, then shown from the scrolled
/// row, so that nothing is cut off below. ↑↓ PgUp PgDn Home End move it.
struct ScrolledPage {
  /// The first row of the page shown.
  private(set) var offset = 0
  /// True when the page was taller than the window at its last drawing.
  private(set) var isTaller = false

  /// Moves the page for a scrolling key; false for any other key.
  mutating func handle(_ key: Key) -> Bool {
    switch key {
    case .down: offset += 1
    case .up: offset = max(0, offset - 1)
    case .pageDown: offset += 10
    case .pageUp: offset = max(0, offset - 10)
    case .home: offset = 0
    case .end: offset = Int.max / 2
    default: return false
    }
    return true
  }

  /// Draws the page with `draw` (which returns the rows it took) on a page `spare` rows taller than
  /// `area`, and shows the part the scroll has reached.
  mutating func render(
    into buffer: inout ScreenBuffer, area: Rect, spare: Int, draw: (inout ScreenBuffer, Rect) -> Int
  ) {
    var page = ScreenBuffer(rows: area.height + spare, columns: buffer.columns)
    let used = draw(&page, Rect(row: 0, column: area.column, height: page.rows, width: area.width))
    isTaller = used > area.height
    offset = max(0, min(offset, used - area.height))
    buffer.copyRows(area.height, from: page, startingAt: offset, to: area.row)
  }
}
