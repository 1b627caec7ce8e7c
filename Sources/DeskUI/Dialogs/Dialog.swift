import DeskDomain

/// A box over the screen that takes the keys until it is answered: an alert to acknowledge, a
/// question to confirm, or a prompt for one line of text.
public final class Dialog {
  public enum Kind {
    case alert
    case confirm
    case prompt(LineEditor)
  }

  public enum Answer {
    case ok
    case yes
    case no
    case text(String)
    case cancelled
  }

  public let title: String
  public let lines: [String]
  public private(set) var kind: Kind
  public let isError: Bool
  let onAnswer: (Answer) -> [Effect]

  public init(
    title: String, lines: [String], kind: Kind = .alert, isError: Bool = false,
    onAnswer: @escaping (Answer) -> [Effect] = { _ in [] }
  ) {
    self.title = title
    self.lines = lines
    self.kind = kind
    self.isError = isError
    self.onAnswer = onAnswer
  }

  /// An error the librarian must read and acknowledge.
  public static func error(_ title: String, _ lines: [String], then: @escaping () -> [Effect] = { [] }) -> Dialog {
    Dialog(title: title, lines: lines, isError: true) { _ in then() }
  }

  /// Puts a scanned code into a prompt's line, replacing what was there; false for dialogs that
  /// take no text. The scan never answers the dialog: the librarian confirms with Enter.
  func fill(_ text: String) -> Bool {
    guard case .prompt = kind else { return false }
    kind = .prompt(LineEditor(text))
    return true
  }

  /// Handles a key: the answer when the dialog closes, nil while it stays open.
  func handle(_ key: Key) -> Answer? {
    switch kind {
    case .alert:
      switch key {
      case .enter, .escape, .character(" "): return .ok
      default: return nil
      }
    case .confirm:
      switch key {
      case .character("y"), .character("Y"), .character("д"), .character("Д"): return .yes
      case .character("n"), .character("N"), .character("н"), .character("Н"), .escape: return .no
      default: return nil
      }
    case .prompt(var editor):
      switch key {
      case .enter: return .text(editor.text.trimmingWhitespace())
      case .escape: return .cancelled
      default:
        editor.handle(key)
        kind = .prompt(editor)
        return nil
      }
    }
  }

  func render(into buffer: inout ScreenBuffer, area: Rect, context: UIContext) {
    let strings = context.strings
    let maximumWidth = min(area.width - 4, 72)
    var body: [String] = []
    for line in lines {
      body += wrap(line, width: maximumWidth - 4)
    }
    var footer: String
    switch kind {
    case .alert: footer = strings.dialogOK
    case .confirm: footer = strings.dialogYesNo
    case .prompt: footer = strings.dialogPrompt
    }
    let contentWidth = max(([title, footer] + body).map(\.displayWidth).max() ?? 0, 30)
    let width = min(maximumWidth, contentWidth + 4)
    let promptRows = { if case .prompt = kind { return 2 } else { return 0 } }()
    let height = min(area.height, body.count + 4 + promptRows)
    let box = area.centered(height: height, width: width)
    let style = context.style(isError ? .error : .dialog)
    buffer.fill(row: box.row, column: box.column, height: box.height, width: box.width, style: style)
    let border = String(repeating: "─", count: max(0, box.width - 2))
    buffer.write("┌" + border + "┐", row: box.row, column: box.column, style: style)
    for y in (box.row + 1)..<(box.bottom - 1) {
      buffer.write("│", row: y, column: box.column, style: style)
      buffer.write("│", row: y, column: box.right - 1, style: style)
    }
    buffer.write("└" + border + "┘", row: box.bottom - 1, column: box.column, style: style)
    buffer.write(" \(title) ", row: box.row, column: box.column + 2, width: box.width - 4, style: style)
    for (index, line) in body.enumerated() where box.row + 1 + index < box.bottom - 2 - promptRows {
      buffer.write(line, row: box.row + 1 + index, column: box.column + 2, width: box.width - 4, style: style)
    }
    if case .prompt(let editor) = kind {
      let fieldRow = box.bottom - 3
      let fieldWidth = box.width - 4
      let (text, cursor) = editor.visible(width: fieldWidth)
      buffer.writePadded(
        text, row: fieldRow, column: box.column + 2, width: fieldWidth, style: context.style(.activeField))
      buffer.cursor = (fieldRow, box.column + 2 + cursor)
    } else {
      buffer.cursor = nil
    }
    buffer.write(footer, row: box.bottom - 2, column: box.column + 2, width: box.width - 4, style: style)
  }
}

/// Breaks text into lines of at most `width` columns, at spaces where it can.
func wrap(_ text: String, width: Int) -> [String] {
  guard width > 0 else { return [text] }
  var lines: [String] = []
  for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
    var line = ""
    for word in paragraph.split(separator: " ", omittingEmptySubsequences: false) {
      let candidate = line.isEmpty ? String(word) : line + " " + word
      if candidate.displayWidth <= width {
        line = candidate
      } else {
        if !line.isEmpty { lines.append(line) }
        var rest = String(word)
        while rest.displayWidth > width {
          let head = rest.truncated(toWidth: width + 1).dropLast()
          lines.append(String(head))
          rest = String(rest.dropFirst(head.count))
        }
        line = rest
      }
    }
    lines.append(line)
  }
  return lines
}
