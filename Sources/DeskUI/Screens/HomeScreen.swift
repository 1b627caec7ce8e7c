import DeskDomain
import DeskStorage

/// The first screen: the sections, each with its one-key shortcut, and the library at a glance.
final class HomeScreen: DeskScreen {
  private var counts: (books: Int, out: Int, overdue: Int, readers: Int)?
  private var holdShelf: (waiting: Int, tooLong: Int)?
  private var selected = 0

  var helpTopic: HelpTopic { .home }

  enum Section: CaseIterable {
    case books, readers, desk, overdue, holdShelf, statistics, stocktake, scan, export, conflicts, help

    var key: Character {
      switch self {
      case .books: return "b"
      case .readers: return "r"
      case .desk: return "d"
      case .overdue: return "o"
      case .holdShelf: return "w"
      case .statistics: return "t"
      case .stocktake: return "i"
      case .scan: return "s"
      case .export: return "x"
      case .conflicts: return "c"
      case .help: return "h"
      }
    }
  }

  /// The sections shown: conflicts only on a desk joined to a central.
  private func sections(_ context: UIContext) -> [Section] {
    Section.allCases.filter { $0 != .conflicts || context.isJoined }
  }

  func title(_ context: UIContext) -> String { context.strings.homeTitle }

  func keyHints(_ context: UIContext) -> [KeyHint] {
    actions(context).hints
  }

  /// Home's keys: the hint bar and the handler both come from here. The bar names the four
  /// sections of the counter's day; every section has its key.
  func actions(_ context: UIContext) -> [ScreenAction] {
    let s = context.strings
    let shown = sections(context)
    let hinted: [(Section, String)] = [
      (.desk, s.keyDesk), (.books, s.sectionBooks), (.readers, s.sectionReaders), (.overdue, s.keyOverdue),
    ]
    let keyed =
      hinted.filter { shown.contains($0.0) }.map { ($0.0, Optional($0.1)) }
      + shown.filter { section in !hinted.contains { $0.0 == section } }.map { ($0, String?.none) }
    return [
      ScreenAction(Keys.choose, keys: [.up, .down, .tab], hint: nil) { key in
        self.selected = key == .up ? max(0, self.selected - 1) : min(shown.count - 1, self.selected + 1)
        return []
      },
      ScreenAction(Keys.choose, keys: [.enter], hint: nil) { _ in
        shown.indices.contains(self.selected) ? self.open(shown[self.selected], context: context) : []
      },
    ]
      + keyed.map { section, hint in
        ScreenAction(Keys.section(section), hint: hint) { self.open(section, context: context) }
      } + [
        // A letter typed at the wrong screen must not end the desk: q asks; F10 quits at once.
        ScreenAction(Keys.quit, hint: nil) {
          [
            .dialog(
              Dialog(title: s.quitTitle, lines: [s.quitQuestion], kind: .confirm) { answer in
                if case .yes = answer { return [.quit] }
                return []
              })
          ]
        }
      ]
  }

  func reload(context: UIContext) -> [Effect] {
    let store = context.store
    counts = try? (
      store.books.count(), store.books.count(filter: .issued), store.books.count(filter: .overdue),
      store.readers.count()
    )
    holdShelf = try? store.holds.shelfCounts()
    return []
  }

  func handle(_ key: Key, context: UIContext) -> [Effect] {
    if key == .character("?") { return [.help(helpTopic)] }
    return actions(context).run(key) ?? []
  }

  private func open(_ section: Section, context: UIContext) -> [Effect] {
    switch section {
    case .books: return [.push(BookListScreen())]
    case .readers: return [.push(ReaderListScreen())]
    case .desk: return [.push(DeskCirculationScreen())]
    case .overdue: return [.push(OverdueScreen())]
    case .holdShelf: return [.push(HoldShelfScreen())]
    case .statistics: return [.push(StatisticsScreen())]
    case .stocktake: return [.push(StocktakeScreen())]
    case .help: return [.help(.home)]
    case .scan: return [.push(ScanImageScreen())]
    case .export: return ExportAction.prompt(.everything, context: context)
    case .conflicts: return [.push(ConflictListScreen())]
    }
  }

  func render(into buffer: inout ScreenBuffer, area: Rect, context: UIContext) {
    let s = context.strings
    var y = area.row + 1
    // A short window drops the name (the title bar has it) and the blank lines: the counts and the
    // overdue books stay in view.
    // A desk joined to a central has a section and the central's lines more: a terminal's usual 24
    // rows take them only so.
    let short = area.height < (context.isJoined ? 26 : 16)
    if !short {
      buffer.write(s.appName, row: y, column: area.column + 3, style: context.style(.title))
      y += 2
    }
    // A short window lays the sections in two columns: the warnings below them stay in view.
    let shown = sections(context)
    let columns = short && area.width >= 50 ? 2 : 1
    let perColumn = (shown.count + columns - 1) / columns
    let columnWidth = columns == 1 ? min(44, area.width - 6) : (area.width - 6) / 2 - 1
    for (index, section) in shown.enumerated() {
      let row = y + index % perColumn
      let column = area.column + 3 + (index / perColumn) * (columnWidth + 1)
      guard row < area.bottom else { continue }
      let style = context.style(index == selected ? .selected : .normal)
      buffer.fill(row: row, column: column, height: 1, width: columnWidth, style: style)
      buffer.write(" \(section.key) ", row: row, column: column, style: context.style(.keyName))
      buffer.write(s.sectionName(section), row: row, column: column + 4, width: columnWidth - 4, style: style)
    }
    y += perColumn
    if !short { y += 1 }
    guard let counts, y < area.bottom else { return }
    buffer.write(
      s.libraryCounts(counts.books, counts.out, counts.readers), row: y, column: area.column + 3, width: area.width - 6)
    y += 1
    if counts.overdue > 0, y < area.bottom {
      buffer.write(
        "! " + s.overdueBooks(counts.overdue) + " " + s.overdueLeadsThere, row: y, column: area.column + 3,
        width: area.width - 6, style: context.style(.warning))
      y += 1
    }
    // A clock that is off dates every loan: said among the warnings, which a short window keeps.
    if let offset = context.sync.tie?.clockOffset, offset.isBeyondBound, y < area.bottom {
      buffer.write(
        "! " + s.clockOffWarning(offset), row: y, column: area.column + 3, width: area.width - 6,
        style: context.style(.warning))
      y += 1
    }
    if let holdShelf, holdShelf.waiting > 0, y < area.bottom {
      buffer.write(
        s.holdShelfCounts(holdShelf.waiting, holdShelf.tooLong), row: y, column: area.column + 3, width: area.width - 6,
        style: context.style(holdShelf.tooLong > 0 ? .warning : .normal))
      y += 1
    }
    renderSync(into: &buffer, row: y + 1, area: area, context: context)
  }

  /// The central, this desk's name, and the last sync (with why it failed, when it did).
  private func renderSync(into buffer: inout ScreenBuffer, row: Int, area: Rect, context: UIContext) {
    let s = context.strings
    let sync = context.sync
    guard let tie = sync.tie else { return }
    var y = row
    let width = area.width - 6
    let now = context.clock.now().instant
    var lines: [(String, Role)] = [
      (s.homeCentral(tie.central, desk: tie.deskName), .normal),
      (s.homeLastSync(s.syncStatus(sync, now: now, clock: context.clock)), .normal),
    ]
    if sync.offlineSince != nil || !sync.failure.isEmpty {
      // Offline, the status says since when; how old the library's news is matters too.
      lines.append(("  " + s.syncAge(of: sync.lastSync, now: now, clock: context.clock), .normal))
    }
    if !sync.failure.isEmpty { lines.append(("! " + sync.failure, .warning)) }
    if tie.clockOffset.isBeyondBound { lines.append(("! " + s.clockOffAdvice(tie.clockOffset), .warning)) }
    if sync.conflicts > 0 { lines.append(("! " + s.conflictsBadge(sync.conflicts, key: "c, F9"), .warning)) }
    for (text, role) in lines {
      for line in wrap(text, width: width) where y < area.bottom {
        buffer.write(line, row: y, column: area.column + 3, width: width, style: context.style(role))
        y += 1
      }
    }
  }
}

extension HomeScreen {
  /// Home's keys, in the help's order.
  enum Keys {
    static func section(_ section: Section) -> KeyDeclaration {
      let meaning: KeyMeaning =
        switch section {
        case .books: .homeBooks
        case .readers: .homeReaders
        case .desk: .homeDesk
        case .overdue: .homeOverdue
        case .holdShelf: .homeHoldShelf
        case .statistics: .homeStatistics
        case .stocktake: .homeStocktake
        case .scan: .homeScan
        case .export: .homeExport
        case .conflicts: .homeConflicts
        case .help: .help
        }
      // Help is asked with ? too, everywhere.
      return KeyDeclaration(
        keys: [.character(section.key)] + (section == .help ? [.character("?")] : []), means: meaning)
    }
    static let choose = KeyDeclaration(.up, .down, .tab, .enter, name: "↑ ↓ Enter", means: .chooseSection)
    static let quit = KeyDeclaration(.character("q"), means: .quitAsking)
    static let all = Section.allCases.map(section) + [choose, quit]
  }
}
