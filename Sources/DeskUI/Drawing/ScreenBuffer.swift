import DeskDomain

/// What the terminal should show: a grid of cells, each one column wide. A wide character
/// takes its cell and marks the next as its continuation. Screens draw here; a driver paints it.
public struct ScreenBuffer: Equatable, Sendable {
  public struct Cell: Equatable, Sendable {
    /// One grapheme, "" for the right half of a wide character.
    public var text: String
    public var style: Style

    public static let blank = Cell(text: " ", style: .plain)
  }

  public let rows: Int
  public let columns: Int
  public private(set) var cells: [Cell]
  /// Where the terminal cursor should show, or nil to hide it.
  public var cursor: (row: Int, column: Int)?

  public init(rows: Int, columns: Int) {
    self.rows = max(0, rows)
    self.columns = max(0, columns)
    cells = Array(repeating: .blank, count: self.rows * self.columns)
  }

  public static func == (lhs: ScreenBuffer, rhs: ScreenBuffer) -> Bool {
    lhs.rows == rhs.rows && lhs.columns == rhs.columns && lhs.cells == rhs.cells
      && lhs.cursor?.row == rhs.cursor?.row && lhs.cursor?.column == rhs.cursor?.column
  }

  /// Copies `count` rows of `other` from row `start` to row `row` of this buffer, as far as both
  /// have rows and columns: a screen taller than its area drawn apart, then shown scrolled.
  public mutating func copyRows(_ count: Int, from other: ScreenBuffer, startingAt start: Int, to row: Int) {
    let width = min(columns, other.columns)
    for offset in 0..<max(0, count) {
      let source = start + offset
      let target = row + offset
      guard source >= 0, source < other.rows, target >= 0, target < rows else { continue }
      for column in 0..<width { cells[target * columns + column] = other.cells[source * other.columns + column] }
    }
  }

  public subscript(row: Int, column: Int) -> Cell {
    cells[row * columns + column]
  }

  /// Writes `text` from (`row`, `column`), at most `width` columns (to the right edge when nil),
  /// cut with an ellipsis when longer. Control characters show as placeholders. Returns the
  /// number of columns written.
  @discardableResult
  public mutating func write(
    _ text: String, row: Int, column: Int, width: Int? = nil, style: Style = .plain
  ) -> Int {
    guard row >= 0, row < rows, column < columns else { return 0 }
    let available = min(width ?? (columns - column), columns - max(0, column))
    guard available > 0 else { return 0 }
    if column >= 0,
      let written = writeOneColumnCharacters(text, row: row, column: column, width: available, style: style)
    {
      return written
    }
    let visible = text.visibleForTerminal.truncated(toWidth: available)
    var x = column
    for character in visible {
      let w = String(character).displayWidth
      guard w > 0 else {
        // A lone combining mark: attach it to the previous cell.
        if x > 0 { cells[row * columns + x - 1].text.append(character) }
        continue
      }
      guard x + w <= column + available else { break }
      if x >= 0 {
        cells[row * columns + x] = Cell(text: String(character), style: style)
        if w == 2 { cells[row * columns + x + 1] = Cell(text: "", style: style) }
      }
      x += w
    }
    return x - column
  }

  /// `write` for text whose every scalar is a one-column character of its own (no control,
  /// combining or wide character), cell by cell without grapheme breaking; nil, with nothing
  /// written, for any other text. Lists are mostly such text, and painting a page of one took
  /// 70% of a page down through the general path.
  private mutating func writeOneColumnCharacters(
    _ text: String, row: Int, column: Int, width: Int, style: Style
  ) -> Int? {
    var count = 0
    for scalar in text.unicodeScalars {
      guard scalar.isOneColumnCharacter else { return nil }
      count += 1
    }
    let shown = count > width ? width - 1 : count
    let start = row * columns + column
    var x = 0
    for scalar in text.unicodeScalars.prefix(shown) {
      cells[start + x] = Cell(text: String(scalar), style: style)
      x += 1
    }
    if count > width {
      cells[start + x] = Cell(text: "…", style: style)
      x += 1
    }
    return x
  }

  /// Fills a rectangle with blanks in `style`.
  public mutating func fill(row: Int, column: Int, height: Int, width: Int, style: Style = .plain) {
    for y in max(0, row)..<min(rows, row + height) {
      for x in max(0, column)..<min(columns, column + width) {
        cells[y * columns + x] = Cell(text: " ", style: style)
      }
    }
  }

  /// Writes `text` padded with blanks to exactly `width` columns.
  public mutating func writePadded(_ text: String, row: Int, column: Int, width: Int, style: Style = .plain) {
    fill(row: row, column: column, height: 1, width: width, style: style)
    write(text, row: row, column: column, width: width, style: style)
  }

  /// A row as text, trailing blanks removed: for tests and for reading the screen back.
  public func text(row: Int) -> String {
    var line = ""
    for column in 0..<columns { line += self[row, column].text }
    while line.last == " " { line.removeLast() }
    return line
  }

  /// Every row as text, one per line.
  public var text: String {
    (0..<rows).map { text(row: $0) }.joined(separator: "\n")
  }

  /// The style of the cell where `needle` starts on `row`, for asserting highlights.
  public func style(row: Int, of needle: String) -> Style? {
    let line = Array(text(row: row))
    let target = Array(needle)
    guard !target.isEmpty, line.count >= target.count,
      let start = (0...(line.count - target.count)).first(where: { Array(line[$0..<($0 + target.count)]) == target })
    else { return nil }
    return self[row, String(line[..<start]).displayWidth].style
  }
}
