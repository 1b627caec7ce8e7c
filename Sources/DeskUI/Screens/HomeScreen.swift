import DeskDomain
import DeskStorage

/// The first screen: the sections, each with its one-key shortcut, and the library at a glance.
final class HomeScreen: DeskScreen {
  private var counts: (books: Int, out: Int, overdue: Int, readers: Int)?
  private var selected = 0

  var helpTopic: HelpTopic { .home }

  enum Section: CaseIterable {
    case books, readers, desk, overdue, scan, export, help

    var key: Character {
      switch self {
      case .books: return "b"
      case .readers: return "r"
      case .desk: return "d"
      case .overdue: return "o"
      case .scan: return "s"
      case .export: return "x"
      case .help: return "h"
      }
    }

    /// The same key under a Russian keyboard layout.
    var russianKey: Character {
      switch self {
      case .books: return "и"
      case .readers: return "к"
      case .desk: return "в"
      case .overdue: return "щ"
      case .scan: return "ы"
      case .export: return "ч"
      case .help: return "р"
      }
    }
  }

  func title(_ context: UIContext) -> String { context.strings.homeTitle }

  func keyHints(_ context: UIContext) -> [KeyHint] {
    let s = context.strings
    return [
      KeyHint("b", s.sectionBooks), KeyHint("r", s.sectionReaders), KeyHint("d", s.sectionDesk),
      KeyHint("q", s.keyQuit),
    ]
  }

  func reload(context: UIContext) -> [Effect] {
    let store = context.store
    counts = try? (
      store.bookCount(), store.bookCount(filter: .issued), store.bookCount(filter: .overdue), store.readerCount()
    )
    return []
  }

  func handle(_ key: Key, context: UIContext) -> [Effect] {
    switch key {
    case .up: selected = max(0, selected - 1)
    case .down, .tab: selected = min(Section.allCases.count - 1, selected + 1)
    case .enter: return open(Section.allCases[selected], context: context)
    case .character("q"), .character("й"):
      // A letter typed at the wrong screen must not end the desk: q asks; F10 quits at once.
      let s = context.strings
      return [
        .dialog(
          Dialog(title: s.quitTitle, lines: [s.quitQuestion], kind: .confirm) { answer in
            if case .yes = answer { return [.quit] }
            return []
          })
      ]
    case .character("?"): return [.help(helpTopic)]
    case .character(let character):
      if let section = Section.allCases.first(where: { $0.key == character || $0.russianKey == character }) {
        return open(section, context: context)
      }
    default: break
    }
    return []
  }

  private func open(_ section: Section, context: UIContext) -> [Effect] {
    switch section {
    case .books: return [.push(BookListScreen())]
    case .readers: return [.push(ReaderListScreen())]
    case .desk: return [.push(DeskCirculationScreen())]
    case .overdue: return [.push(OverdueScreen())]
    case .help: return [.help(.home)]
    case .scan: return [.push(ScanImageScreen())]
    case .export: return ExportAction.prompt(.everything, context: context)
    }
  }

  func render(into buffer: inout ScreenBuffer, area: Rect, context: UIContext) {
    let s = context.strings
    var y = area.row + 1
    buffer.write(s.appName, row: y, column: area.column + 3, style: context.style(.title))
    y += 2
    for (index, section) in Section.allCases.enumerated() where y < area.bottom {
      let style = context.style(index == selected ? .selected : .normal)
      buffer.fill(row: y, column: area.column + 3, height: 1, width: min(44, area.width - 6), style: style)
      buffer.write(" \(section.key) ", row: y, column: area.column + 3, style: context.style(.keyName))
      buffer.write(
        s.sectionName(section), row: y, column: area.column + 7, width: min(40, area.width - 10), style: style)
      y += 1
    }
    y += 1
    guard let counts, y < area.bottom else { return }
    buffer.write(
      s.libraryCounts(counts.books, counts.out, counts.readers), row: y, column: area.column + 3, width: area.width - 6)
    y += 1
    if counts.overdue > 0, y < area.bottom {
      buffer.write(
        "! " + s.overdueBooks(counts.overdue) + " " + s.overdueLeadsThere, row: y, column: area.column + 3,
        width: area.width - 6, style: context.style(.warning))
    }
  }
}
