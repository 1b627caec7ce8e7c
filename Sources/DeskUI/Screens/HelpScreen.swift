/// Which screen's keys the help shows first.
public enum HelpTopic: CaseIterable, Sendable {
  case home, bookList, readerList, bookDetail, readerDetail, form, desk, scanImage
}

/// Every key, screen by screen, starting with the screen help was asked from.
final class HelpScreen: DeskScreen {
  let topic: HelpTopic
  private var scroll = 0

  init(topic: HelpTopic) {
    self.topic = topic
  }

  var helpTopic: HelpTopic { topic }

  func title(_ context: UIContext) -> String { context.strings.helpTitle }

  func keyHints(_ context: UIContext) -> [KeyHint] {
    [KeyHint("↑↓", context.strings.keyScroll), KeyHint("Esc", context.strings.keyBack)]
  }

  func handle(_ key: Key, context: UIContext) -> [Effect] {
    switch key {
    case .escape, .enter, .character("q"), .character("?"): return [.pop]
    case .up: scroll = max(0, scroll - 1)
    case .down: scroll += 1
    case .pageUp: scroll = max(0, scroll - 10)
    case .pageDown: scroll += 10
    case .home: scroll = 0
    default: break
    }
    return []
  }

  func render(into buffer: inout ScreenBuffer, area: Rect, context: UIContext) {
    let s = context.strings
    let order = [topic] + HelpTopic.allCases.filter { $0 != topic }
    var lines: [(String, String, Bool)] = []
    for item in order {
      lines.append((s.helpHeading(item), "", true))
      for (key, meaning) in s.helpKeys(item) { lines.append((key, meaning, false)) }
      lines.append(("", "", false))
    }
    lines.append((s.helpHeadingEverywhere, "", true))
    for (key, meaning) in s.helpKeysEverywhere { lines.append((key, meaning, false)) }
    scroll = min(scroll, max(0, lines.count - area.height + 1))
    var y = area.row + 1
    for (key, meaning, heading) in lines.dropFirst(scroll) where y < area.bottom {
      if heading {
        buffer.write(key, row: y, column: area.column + 2, style: context.style(.header))
      } else {
        buffer.write(key, row: y, column: area.column + 4, width: 18, style: context.style(.label))
        buffer.write(meaning, row: y, column: area.column + 23, width: area.width - 25)
      }
      y += 1
    }
  }
}
