import DeskDomain

/// A box over the screen that takes the keys until it is answered: an alert to acknowledge, a
/// question to confirm, or a prompt for one line of text.
public final class Dialog {
  public enum Kind {
    case alert
    case confirm
    case prompt(LineEditor)
    /// A line of text collecting several scans, each added after the others.
    case collect(LineEditor)
    /// One of several options, each known by a code a scan may name.
    case choice(options: [String], codes: [String], selected: Int)
  }

  public enum Answer {
    case ok
    case yes
    case no
    case text(String)
    case chosen(Int)
    case cancelled
  }

  public let title: String
  public let lines: [String]
  public private(set) var kind: Kind
  public let isError: Bool
  /// For a prompt that asks for a code the scanner gives (a shelf's label): a scan answers it at
  /// once, as its Enter would. Elsewhere a scan only fills the line, and Enter confirms.
  public var answeredByScan = false
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
    switch kind {
    case .prompt:
      kind = .prompt(LineEditor(text))
    case .collect(let editor):
      let before = editor.text.trimmingWhitespace()
      kind = .collect(LineEditor(before.isEmpty ? text : before + " " + text))
    case .choice(let options, let codes, let selected):
      kind = .choice(options: options, codes: codes, selected: codes.firstIndex(of: text) ?? selected)
      return codes.contains(text)
    default:
      return false
    }
    return true
  }

  /// True for dialogs that take typed or scanned text.
  var takesText: Bool {
    switch kind {
    case .prompt, .collect: return true
    default: return false
    }
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
    case .prompt(var editor), .collect(var editor):
      switch key {
      case .enter: return .text(editor.text.trimmingWhitespace())
      case .escape: return .cancelled
      default:
        editor.handle(key)
        if case .prompt = kind { kind = .prompt(editor) } else { kind = .collect(editor) }
        return nil
      }
    case .choice(let options, let codes, let selected):
      switch key {
      case .up: kind = .choice(options: options, codes: codes, selected: max(0, selected - 1))
      case .down: kind = .choice(options: options, codes: codes, selected: min(options.count - 1, selected + 1))
      case .enter: return options.isEmpty ? .cancelled : .chosen(selected)
      case .escape: return .cancelled
      default: break
      }
      return nil
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
    case .prompt, .collect: footer = strings.dialogPrompt
    case .choice: footer = strings.dialogChoice
    }
    var options: [String] = []
    var chosen = 0
    if case .choice(let items, _, let selected) = kind {
      options = items
      chosen = selected
    }
    let contentWidth = max(([title, footer] + body + options.map { "  " + $0 }).map(\.displayWidth).max() ?? 0, 30)
    let width = min(maximumWidth, contentWidth + 4)
    // A text's field and the line above it; a choice's options, a blank line between them and
    // the text.
    let promptRows = takesText ? 2 : options.count
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
    if !options.isEmpty {
      let first = box.bottom - 2 - options.count
      for (index, option) in options.enumerated() where first + index > box.row {
        let row = first + index
        let style = context.style(index == chosen ? .selected : .dialog)
        buffer.fill(row: row, column: box.column + 2, height: 1, width: box.width - 4, style: style)
        buffer.write(
          (index == chosen ? "> " : "  ") + option, row: row, column: box.column + 2, width: box.width - 4, style: style
        )
      }
    }
    if case .prompt(let editor) = kind {
      renderField(editor, into: &buffer, box: box, context: context)
    } else if case .collect(let editor) = kind {
      renderField(editor, into: &buffer, box: box, context: context)
    } else {
      buffer.cursor = nil
    }
    buffer.write(footer, row: box.bottom - 2, column: box.column + 2, width: box.width - 4, style: style)
  }

  private func renderField(_ editor: LineEditor, into buffer: inout ScreenBuffer, box: Rect, context: UIContext) {
    let fieldRow = box.bottom - 3
    let fieldWidth = box.width - 4
    let (text, cursor) = editor.visible(width: fieldWidth)
    buffer.writePadded(
      text, row: fieldRow, column: box.column + 2, width: fieldWidth, style: context.style(.activeField))
    buffer.cursor = (fieldRow, box.column + 2 + cursor)
  }
}
