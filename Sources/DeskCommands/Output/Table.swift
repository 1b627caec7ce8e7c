import DeskDomain

/// A plain-text table aligned by display width (Cyrillic, wide characters), with long cells
/// cut with an ellipsis. Control characters in data are shown as placeholders.
struct Table {
  struct Column {
    let title: String
    let maximumWidth: Int
  }

  let columns: [Column]
  var rows: [[String]] = []

  init(_ columns: [Column]) {
    self.columns = columns
  }

  mutating func append(_ row: [String]) {
    rows.append(row.map(\.visibleForTerminal))
  }

  func rendered() -> String {
    let widths = columns.indices.map { index in
      min(columns[index].maximumWidth, ([columns[index].title] + rows.map { $0[index] }).map(\.displayWidth).max() ?? 0)
    }
    func line(_ cells: [String]) -> String {
      var text = ""
      for (index, cell) in cells.enumerated() {
        let last = index == cells.count - 1
        text += last ? cell.truncated(toWidth: widths[index]) : cell.padded(toWidth: widths[index]) + "  "
      }
      return text.trimmedTrailingSpaces()
    }
    return ([line(columns.map(\.title))] + rows.map(line)).map { $0 + "\n" }.joined()
  }
}

extension String {
  func trimmedTrailingSpaces() -> String {
    var text = self
    while text.last == " " { text.removeLast() }
    return text
  }
}
