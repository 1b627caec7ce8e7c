import DeskDomain
import DeskScanning
import DeskStorage

/// Scan image: asks for a file (Tab completes its name), decodes every code in it, and opens
/// what a code names; several codes give a list to choose from. Opened by a screen that takes
/// codes itself (a check of the stock), it hands that screen every code found and closes.
final class ScanImageScreen: DeskScreen {
  /// The screen below's use of the codes found, all of them at once; nil: each opens what it names.
  private let onCodes: (([String]) -> [Effect])?

  init(onCodes: (([String]) -> [Effect])? = nil) {
    self.onCodes = onCodes
  }

  private var path = LineEditor(maximumLength: 4096)
  private var candidates: [String] = []
  var symbols: [ScannedSymbol] = []
  private var selected = 0
  private var scannedPath = ""

  var helpTopic: HelpTopic { .scanImage }
  var acceptsText: Bool { symbols.isEmpty }

  func title(_ context: UIContext) -> String { context.strings.sectionScan }

  func keyHints(_ context: UIContext) -> [KeyHint] {
    actions(context).hints
  }

  /// The keys while a file name is typed, or while one of several codes found is chosen: the
  /// hint bar and the handler both come from here.
  func actions(_ context: UIContext) -> [ScreenAction] {
    let s = context.strings
    if !symbols.isEmpty {
      return [
        ScreenAction(Keys.scanOrOpen, hint: s.keyOpen) {
          ScanDispatch.effects(for: self.symbols[self.selected].text, context: context)
        },
        ScreenAction(Keys.back, hint: s.keyBack) {
          self.symbols = []
          return []
        },
        .choosing(Keys.chooseCode, hint: nil, count: symbols.count, selected: { self.selected = $0 }, from: selected),
      ]
    }
    return [
      ScreenAction(Keys.scanOrOpen, hint: s.keyScanFile) { self.scan(context: context) },
      ScreenAction(Keys.complete, hint: s.keyComplete) {
        let (completed, options) = FileNameCompletion.complete(self.path.text)
        self.path = LineEditor(completed, maximumLength: 4096)
        self.candidates = options
        return []
      },
      ScreenAction(Keys.back, hint: s.keyBack) { [.pop] },
    ]
  }

  /// Ctrl-Z while the file name is typed takes back the typing.
  func undoTyping(_ key: Key, context: UIContext) -> [Effect]? {
    guard key == .control("z"), symbols.isEmpty, !path.text.isEmpty else { return nil }
    path.undo()
    return []
  }

  func handle(_ key: Key, context: UIContext) -> [Effect] {
    if let effects = actions(context).run(key) { return effects }
    // Other keys choosing among codes do nothing; typing a name goes into it.
    guard symbols.isEmpty else { return [] }
    path.handle(key)
    candidates = []
    return []
  }

  private func scan(context: UIContext) -> [Effect] {
    let s = context.strings
    let file = path.text.trimmingWhitespace()
    guard !file.isEmpty else { return [] }
    do throws(ImageError) {
      // A weak code shorter than the library's shortest scanned code is none.
      let shortest =
        (try? context.store.policy.current().scannerMinimumLength) ?? CirculationPolicy().scannerMinimumLength
      let found = try ImageScanner.scan(path: file, shortestWeakCode: shortest)
      scannedPath = file
      if let onCodes, !found.isEmpty { return [.pop] + onCodes(found.map(\.text)) }
      switch found.count {
      case 0: return [.dialog(.error(s.sectionScan, [s.noCodeFound(file)]))]
      case 1: return ScanDispatch.effects(for: found[0].text, context: context)
      default:
        symbols = found
        selected = 0
        return []
      }
    } catch {
      return [.dialog(.error(s.sectionScan, [s.message(error)]))]
    }
  }

  func render(into buffer: inout ScreenBuffer, area: Rect, context: UIContext) {
    let s = context.strings
    var y = area.row + 1
    if !symbols.isEmpty {
      buffer.write(
        s.codesFound(symbols.count, scannedPath), row: y, column: area.column + 2, width: area.width - 4,
        style: context.style(.header))
      y += 2
      for (index, symbol) in symbols.enumerated() where y < area.bottom {
        let firstLine = symbol.text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        let text = "\(symbol.symbology)  \(firstLine)"
        let style = context.style(index == selected ? .selected : .normal)
        buffer.writePadded(text, row: y, column: area.column + 2, width: area.width - 4, style: style)
        y += 1
      }
      return
    }
    for line in wrap(s.scanPrompt, width: area.width - 4).prefix(2) {
      buffer.write(line, row: y, column: area.column + 2, width: area.width - 4, style: context.style(.label))
      y += 1
    }
    let width = area.width - 4
    let (text, cursor) = path.visible(width: width)
    buffer.writePadded(text, row: y, column: area.column + 2, width: width, style: context.style(.activeField))
    buffer.cursor = (y, area.column + 2 + cursor)
    y += 2
    for candidate in candidates where y < area.bottom {
      buffer.write(candidate, row: y, column: area.column + 4, width: area.width - 6, style: context.style(.muted))
      y += 1
    }
  }
}

extension ScanImageScreen {
  /// The image scan's keys, in the help's order.
  enum Keys {
    static let complete = KeyDeclaration(.tab, means: .completeName)
    static let scanOrOpen = KeyDeclaration(.enter, means: .scanFile)
    static let chooseCode = KeyDeclaration(.up, .down, name: "↑ ↓", means: .chooseCode)
    static let back = KeyDeclaration(.escape, means: .back)
    static let all = [complete, scanOrOpen, chooseCode, back]
  }
}
