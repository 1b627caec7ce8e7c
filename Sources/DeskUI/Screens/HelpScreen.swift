import DeskDomain

/// Which screen's keys the help shows first.
public enum HelpTopic: CaseIterable, Sendable {
  case home, bookList, readerList, bookDetail, readerDetail, form, desk, overdue, holdShelf, scanImage, statistics
  case stocktake, stocktakeReport, conflicts

  /// The screen's keys as it declares them, which its actions are made from.
  var keys: [KeyDeclaration] {
    switch self {
    case .home: HomeScreen.Keys.all
    case .bookList: BookListScreen.keys
    case .readerList: ReaderListScreen.keys
    case .bookDetail: BookDetailScreen.Keys.all
    case .readerDetail: ReaderDetailScreen.Keys.all
    case .form: FormScreen.Keys.all
    case .desk: DeskCirculationScreen.Keys.all
    case .overdue: OverdueScreen.Keys.all
    case .statistics: StatisticsScreen.Keys.all
    case .stocktake: StocktakeScreen.Keys.all
    case .stocktakeReport: StocktakeReportScreen.Keys.all
    case .holdShelf: HoldShelfScreen.Keys.all
    case .scanImage: ScanImageScreen.Keys.all
    case .conflicts: ConflictScreen.Keys.all
    }
  }
}

/// What each screen is for and every key, screen by screen, starting with the screen help was
/// asked from.
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
    // The page is drawn at most to its end: a scroll past it stops there.
    case .end: scroll = Int.max / 2
    default: break
    }
    return []
  }

  func render(into buffer: inout ScreenBuffer, area: Rect, context: UIContext) {
    let s = context.strings
    let order = [topic] + HelpTopic.allCases.filter { $0 != topic }
    enum Kind { case heading, text, key }
    var lines: [(key: String, text: String, kind: Kind)] = []
    let meaningWidth = max(10, area.width - 25)
    func addKeys(_ declarations: [KeyDeclaration]) {
      for declaration in declarations {
        let (key, meaning) = (s.helpName(declaration), s.meaning(declaration.meaning))
        // Long meanings wrap under themselves, never cut.
        for (index, line) in wrap(meaning, width: meaningWidth).enumerated() {
          lines.append((index == 0 ? key : "", line, .key))
        }
      }
    }
    for item in order {
      lines.append((s.helpHeading(item), "", .heading))
      for line in wrap(s.helpAbout(item), width: max(20, area.width - 6)) { lines.append(("", line, .text)) }
      lines.append(("", "", .text))
      addKeys(item.keys)
      lines.append(("", "", .text))
    }
    lines.append((s.helpHeadingEverywhere, "", .heading))
    addKeys(AppKeys.all)
    scroll = min(scroll, max(0, lines.count - area.height + 1))
    var y = area.row + 1
    for line in lines.dropFirst(scroll) where y < area.bottom {
      switch line.kind {
      case .heading:
        buffer.write(line.key, row: y, column: area.column + 2, style: context.style(.header))
      case .text:
        buffer.write(line.text, row: y, column: area.column + 4, width: area.width - 6)
      case .key:
        buffer.write(line.key, row: y, column: area.column + 4, width: 18, style: context.style(.label))
        buffer.write(line.text, row: y, column: area.column + 23, width: area.width - 25)
      }
      y += 1
    }
  }
}
