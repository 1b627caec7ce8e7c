import DeskDomain
import DeskStorage

/// What a check has found so far (`StocktakeStore.report`): the totals, the copies expected and
/// missing by storage place and by shelf-code section, then each missing copy. Made into lines
/// once when it shows (a hall's missing list may run to thousands) and scrolled.
final class StocktakeReportScreen: DeskScreen {
  private var check: StocktakeStore.Check
  /// The report's lines as made, and as shown: wrapped to the window's width (a line longer than
  /// the window goes on under itself, never cut), made again when the width changes.
  private var made: [(text: String, role: Role)] = []
  private var lines: [(text: String, role: Role)] = []
  private var wrappedWidth = 0
  private var offset = 0
  private var shownHeight = 20
  /// The copies missing when the report was made, which a close would leave missing.
  private var missing = 0

  init(check: StocktakeStore.Check) {
    self.check = check
  }

  var helpTopic: HelpTopic { .stocktakeReport }

  func title(_ context: UIContext) -> String { context.strings.reportTitle(check.name) }

  func keyHints(_ context: UIContext) -> [KeyHint] { actions(context).hints }

  func actions(_ context: UIContext) -> [ScreenAction] {
    [
      ScreenAction(Keys.scroll, hint: nil) { key in
        let last = max(0, self.lines.count - self.shownHeight)
        switch key {
        case .down: self.offset = min(last, self.offset + 1)
        case .up: self.offset = max(0, self.offset - 1)
        case .pageDown: self.offset = min(last, self.offset + max(1, self.shownHeight - 1))
        case .pageUp: self.offset = max(0, self.offset - max(1, self.shownHeight - 1))
        case .home: self.offset = 0
        case .end: self.offset = last
        default: break
        }
        return []
      },
      ScreenAction(Keys.back, hint: context.strings.keyBack) { [.pop] },
    ]
      + (check.closed == nil
        ? [ScreenAction(Keys.close, hint: context.strings.keyCloseCheck) { self.askClose(context) }] : [])
  }

  /// Closing asks first, then — when copies are missing — whether the commission has decided they
  /// are lost; either way each copy found keeps the day as its last check.
  private func askClose(_ context: UIContext) -> [Effect] {
    let s = context.strings
    let check = self.check
    let missing = self.missing
    let close = { (markingLost: Bool) -> [Effect] in
      do throws(StoreError) {
        try context.store.stocktakes.close(check, markingMissingLost: markingLost)
        return [.pop, .notify(s.checkClosed(check.number, check.name, missing: missing, markedLost: markingLost))]
      } catch {
        return [.bell, .dialog(.error(s.stocktakeRefusedTitle, context.messages(error)))]
      }
    }
    return [
      .dialog(
        Dialog(title: s.closeCheckTitle, lines: [s.closeCheckQuestion(check.name, missing: missing)], kind: .confirm) {
          answer in
          guard case .yes = answer else { return [] }
          guard missing > 0 else { return close(false) }
          // A desk that does not reach its central may not have the other desks' latest scans:
          // their copies would be recorded lost. It closes, and says how to mark them later.
          if context.isJoined, context.sync.offlineSince != nil || !context.sync.failure.isEmpty {
            return close(false) + [
              .dialog(Dialog(title: s.closeCheckTitle, lines: [s.missingNotMarkedOffline(missing)]))
            ]
          }
          return [
            .dialog(
              Dialog(title: s.closeCheckTitle, lines: [s.markMissingLostQuestion(missing)], kind: .confirm) { answer in
                guard case .yes = answer else { return close(false) }
                return close(true)
              })
          ]
        })
    ]
  }

  func reload(context: UIContext) -> [Effect] {
    let s = context.strings
    do {
      let report = try context.store.stocktakes.report(check)
      check = report.check
      missing = report.missing.count
      made = Self.lines(of: report, strings: s, clock: context.clock)
    } catch {
      made = context.messages(error).map { ($0, .warning) }
    }
    wrappedWidth = 0
    return []
  }

  func handle(_ key: Key, context: UIContext) -> [Effect] {
    if key == .character("?") { return [.help(helpTopic)] }
    return actions(context).run(key) ?? []
  }

  /// The report as lines: totals, the two tallies as tables, the missing copies.
  static func lines(of report: StocktakeStore.Report, strings s: any UIStrings, clock: any Clock) -> [(
    text: String, role: Role
  )] {
    var lines: [(text: String, role: Role)] = []
    let check = report.check
    lines.append(
      (
        s.checkLine(check.number, check.name, opened: clock.local(check.started).date.iso, expected: check.expected),
        .title
      ))
    lines.append(
      (s.reportTotals(expected: check.expected, present: report.present, missing: report.missing.count), .normal))
    let found = ["found", "misplaced", "on-loan"].reduce(0) { $0 + (report.counts[$1] ?? 0) }
    lines.append(
      (
        s.stocktakeCounts(
          found: found, expected: check.expected, away: report.present - report.scanned, counts: report.counts), .normal
      ))
    for (title, tallies) in [(s.reportByPlace, report.byPlace), (s.reportBySection, report.bySection)] {
      lines.append(("", .normal))
      let nameWidth = min(40, max(title.displayWidth, tallies.map(\.name.displayWidth).max() ?? 0))
      let numbers = s.reportColumns
      lines.append((Self.cells([title] + numbers, nameWidth: nameWidth, numberWidths: numbers), .header))
      for tally in tallies {
        lines.append(
          (
            Self.cells(
              [tally.name, String(tally.expected), String(tally.missing)], nameWidth: nameWidth,
              numberWidths: numbers),
            tally.missing > 0 ? .warning : .normal
          ))
      }
    }
    if !report.surprises.isEmpty {
      lines.append(("", .normal))
      lines.append((s.reportSurprises(report.surprises.count), .header))
      for scan in report.surprises {
        let copy = scan.book?.authorAndQuotedTitle
        let said = scan.settled ? s.settledText(scan.finding) : s.findingText(scan.finding)
        lines.append(
          (
            "  " + [scan.code, copy ?? ""].filter { !$0.isEmpty }.joined(separator: "  ") + " — " + said,
            scan.settled ? .normal : .warning
          ))
      }
    }
    lines.append(("", .normal))
    guard !report.missing.isEmpty else {
      lines.append((s.reportNoneMissing, .normal))
      return lines
    }
    lines.append((s.reportMissing, .header))
    for book in report.missing {
      let fields = [book.inventoryNumber, book.authorAndQuotedTitle, book.place, book.bbk]
      lines.append(("  " + fields.filter { !$0.isEmpty }.joined(separator: "  "), .normal))
    }
    lines.append(("", .normal))
    lines.append((s.reportCommandAdvice, .muted))
    return lines
  }

  /// A row of a tally: the name cut or padded to its width, each number right-aligned under its
  /// column's title.
  private static func cells(_ cells: [String], nameWidth: Int, numberWidths titles: [String]) -> String {
    var line = cells[0].visibleForTerminal.padded(toWidth: nameWidth)
    for (cell, title) in zip(cells.dropFirst(), titles) {
      let width = max(8, title.displayWidth)
      line += "  " + String(repeating: " ", count: max(0, width - cell.displayWidth)) + cell
    }
    return line
  }

  func render(into buffer: inout ScreenBuffer, area: Rect, context: UIContext) {
    let width = max(10, area.width - 4)
    if width != wrappedWidth {
      lines = made.flatMap { line in
        line.text.displayWidth <= width
          ? [line]
          : wrap(line.text, width: width - 4).enumerated().map {
            ($0.offset == 0 ? $0.element : "    " + $0.element, line.role)
          }
      }
      wrappedWidth = width
    }
    shownHeight = max(1, area.height - 2)
    offset = max(0, min(offset, lines.count - shownHeight))
    var y = area.row + 1
    for line in lines.dropFirst(offset).prefix(shownHeight) {
      buffer.write(line.text, row: y, column: area.column + 2, width: area.width - 4, style: context.style(line.role))
      y += 1
    }
  }
}

extension StocktakeReportScreen {
  enum Keys {
    static let scroll = KeyDeclaration(
      .up, .down, .pageUp, .pageDown, .home, .end, name: "↑ ↓ PgUp PgDn Home End", means: .scrollReport)
    static let back = KeyDeclaration(.escape, means: .back)
    static let close = KeyDeclaration(.character("c"), means: .closeCheck)
    static let all = [scroll, close, back]
  }
}
