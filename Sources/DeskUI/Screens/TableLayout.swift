/// A column of a list table.
struct TableColumn {
  var title: String
  var width: Int
}

/// How a column gives way when the window is too narrow for every column at its width: it
/// shrinks to a narrower width, or goes.
enum GiveWay {
  case shrink(Int, to: Int)
  case drop(Int)
}

/// Lays out columns of set widths around one flexible column that takes the rest. While the
/// flexible column (a title, a name) would be narrower than `minimum`, the other columns give way,
/// one step at a time in the order given; a column that went has width 0 and is not drawn.
func layoutColumns(
  _ columns: [TableColumn], flexible: Int, minimum: Int = 8, givingWay steps: [GiveWay] = [], totalWidth: Int
) -> [TableColumn] {
  var result = columns
  func rest() -> Int {
    let fixed = result.enumerated().filter { $0.offset != flexible && $0.element.width > 0 }
      .reduce(0) { $0 + $1.element.width + 1 }
    return totalWidth - fixed - 1
  }
  for step in steps where rest() < minimum {
    switch step {
    case .shrink(let index, let width): result[index].width = min(result[index].width, width)
    case .drop(let index): result[index].width = 0
    }
  }
  // Every step taken and still narrow: the flexible column takes what is left.
  result[flexible].width = max(8, rest())
  return result
}

/// One row of a table: each cell in its column, cut to the column's width; columns that went
/// (width 0) are skipped.
func renderRow(
  _ cells: [String], columns: [TableColumn], into buffer: inout ScreenBuffer, row: Int, column: Int, width: Int,
  style: Style
) {
  buffer.fill(row: row, column: column, height: 1, width: width, style: style)
  var x = column
  for (cell, spec) in zip(cells, columns) where spec.width > 0 {
    buffer.write(cell, row: row, column: x, width: spec.width, style: style)
    x += spec.width + 1
  }
}
