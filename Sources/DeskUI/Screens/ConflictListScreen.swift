import DeskDomain
import DeskStorage

/// Every open conflict between this desk and the others, oldest first; Enter opens one with
/// what settles it.
final class ConflictListScreen: DeskScreen {
  private var conflicts: [Conflict] = []
  private var selected = 0

  var helpTopic: HelpTopic { .conflicts }

  func title(_ context: UIContext) -> String { context.strings.conflictsTitle }

  func keyHints(_ context: UIContext) -> [KeyHint] {
    actions(context).hints
  }

  /// The list's keys: the hint bar and the handler both come from here.
  func actions(_ context: UIContext) -> [ScreenAction] {
    let s = context.strings
    return [
      .choosing(
        Keys.choose, hint: s.keyChoose, count: conflicts.count, selected: { self.selected = $0 },
        from: selected),
      ScreenAction(Keys.open, hint: s.keyOpen) {
        guard self.conflicts.indices.contains(self.selected) else { return [] }
        return [.push(ConflictScreen(number: self.conflicts[self.selected].number))]
      },
      ScreenAction(ConflictScreen.Keys.back, hint: s.keyBack) { [.pop] },
    ]
  }

  func reload(context: UIContext) -> [Effect] {
    do {
      conflicts = try context.store.conflicts.list()
    } catch {
      return [.dialog(.error(context.strings.errorTitle, context.messages(error)))]
    }
    selected = min(selected, max(0, conflicts.count - 1))
    return []
  }

  func handle(_ key: Key, context: UIContext) -> [Effect] {
    if key == .character("?") { return [.help(helpTopic)] }
    return actions(context).run(key) ?? []
  }

  func render(into buffer: inout ScreenBuffer, area: Rect, context: UIContext) {
    let s = context.strings
    guard !conflicts.isEmpty else {
      buffer.write(s.noConflicts, row: area.row + 1, column: area.column + 2, style: context.style(.muted))
      return
    }
    let top = area.row + 1
    let height = max(1, area.bottom - top)
    // The kinds as wide as the longest shown, the summaries the rest.
    let kindWidth = min(30, conflicts.map { s.conflictKind($0.kind).displayWidth }.max() ?? 0)
    let first = max(0, min(selected - height + 1, conflicts.count - height))
    for (offset, conflict) in conflicts.dropFirst(max(0, first)).prefix(height).enumerated() {
      let index = max(0, first) + offset
      let role: Role = index == selected ? .selected : .normal
      let row = top + offset
      buffer.fill(row: row, column: area.column + 1, height: 1, width: area.width - 2, style: context.style(role))
      let kind = s.conflictKind(conflict.kind)
      let number = String(conflict.number)
      buffer.write(
        String(repeating: " ", count: max(0, 4 - number.count)) + number + "  " + kind.padded(toWidth: kindWidth) + "  "
          + s.conflictSummary(conflict), row: row, column: area.column + 2, width: area.width - 4,
        style: context.style(role))
    }
  }
}

extension ConflictListScreen {
  /// The conflict list's keys; the help lists them with a conflict's own (`ConflictScreen.Keys`).
  enum Keys {
    static let choose = KeyDeclaration(.up, .down, .home, .end, name: "↑ ↓", means: .chooseConflict)
    static let open = KeyDeclaration(.enter, means: .openConflict)
  }
}
