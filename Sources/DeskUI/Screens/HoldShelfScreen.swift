import DeskDomain
import DeskStorage

/// The copies on the hold shelf, the soonest due first, those past their pickup date marked:
/// what the librarian fetches for a reader, and what to move on. Enter opens the book; x cancels
/// the chosen hold; e expires the holds that waited too long and says where each copy goes.
final class HoldShelfScreen: DeskScreen {
  private var holds: [HoldRecord] = []
  private var selected = 0

  var helpTopic: HelpTopic { .holdShelf }

  func title(_ context: UIContext) -> String { context.strings.holdShelfTitleCount(holds.count) }

  func keyHints(_ context: UIContext) -> [KeyHint] {
    actions(context).hints
  }

  /// The shelf's keys: the hint bar and the handler both come from here.
  func actions(_ context: UIContext) -> [ScreenAction] {
    let s = context.strings
    let chosen = holds.indices.contains(selected) ? holds[selected] : nil
    return [
      .choosing(Keys.choose, hint: s.keyChoose, count: holds.count, selected: { self.selected = $0 }, from: selected),
      ScreenAction(Keys.open, hint: s.keyOpen) {
        guard let copy = chosen?.waitingCopy else { return [] }
        return [.push(BookDetailScreen(inventory: copy))]
      },
      ScreenAction(Keys.cancel, hint: s.keyCancelHold) {
        guard let chosen else { return [] }
        return HoldActions.cancel(chosen, context: context) { [weak self] in self?.reload(context: context) ?? [] }
      },
      ScreenAction(Keys.expire, hint: s.keyExpire) { self.expire(context: context) },
      ScreenAction(Keys.back, hint: s.keyBack) { [.pop] },
    ]
  }

  /// Expires the holds that waited too long and says where each copy goes.
  private func expire(context: UIContext) -> [Effect] {
    let s = context.strings
    do {
      let (moves, lapsed) = try context.store.holds.expire()
      let lines = moves.map(s.holdMoveLine) + lapsed.map(s.holdLapsedLine)
      return reload(context: context)
        + [.dialog(Dialog(title: s.expiredTitle, lines: lines.isEmpty ? [s.nothingExpired] : lines))]
    } catch {
      return [.dialog(.error(s.errorTitle, context.messages(error)))]
    }
  }

  func reload(context: UIContext) -> [Effect] {
    do {
      holds = try context.store.holds.list(.waiting)
    } catch {
      return [.dialog(.error(context.strings.errorTitle, context.messages(error)))]
    }
    selected = min(selected, max(0, holds.count - 1))
    return []
  }

  func handle(_ key: Key, context: UIContext) -> [Effect] {
    if key == .character("?") { return [.help(helpTopic)] }
    return actions(context).run(key) ?? []
  }

  func render(into buffer: inout ScreenBuffer, area: Rect, context: UIContext) {
    let s = context.strings
    guard !holds.isEmpty else {
      buffer.write(s.holdShelfEmpty, row: area.row + 1, column: area.column + 2, style: context.style(.muted))
      return
    }
    let today = context.today
    // A copy's line whole: in a narrow window the reader and the pickup date go under the title.
    let width = area.width - 4
    let indent = "          "
    let entries = holds.map { hold -> (lines: [String], tooLong: Bool) in
      let tooLong = (hold.pickupBy ?? today) < today
      let text = s.holdShelfLine(hold, tooLong: tooLong)
      guard text.displayWidth > width else { return ([text], tooLong) }
      // The mark stays in front; what the first line cannot hold goes under the title.
      let mark = String(text.prefix(2))
      let first = wrap(String(text.dropFirst(2)), width: width - 2)[0]
      let rest = String(text.dropFirst(2 + first.count)).trimmingWhitespace()
      return ([mark + first] + wrap(rest, width: width - indent.count).map { indent + $0 }, tooLong)
    }
    let height = max(1, area.bottom - area.row - 1)
    var first = 0
    while first < selected, entries[first...selected].map(\.lines.count).reduce(0, +) > height { first += 1 }
    var y = area.row + 1
    for (index, entry) in entries.enumerated().dropFirst(first) where y < area.bottom {
      let role: Role = index == selected ? .selected : entry.tooLong ? .warning : .normal
      for (number, line) in entry.lines.enumerated() where y < area.bottom {
        buffer.fill(row: y, column: area.column + 1, height: 1, width: area.width - 2, style: context.style(role))
        buffer.write(
          line, row: y, column: area.column + 2, width: width,
          style: context.style(role))
        y += 1
      }
    }
  }
}

extension HoldShelfScreen {
  /// The hold shelf's keys, in the help's order.
  enum Keys {
    static let choose = KeyDeclaration(.up, .down, name: "↑ ↓", means: .chooseCopy)
    static let open = KeyDeclaration(.enter, means: .openBook)
    static let cancel = KeyDeclaration(.character("x"), means: .cancelHold)
    static let expire = KeyDeclaration(.character("e"), means: .expireHolds)
    static let back = KeyDeclaration(.escape, .character("q"), means: .back)
    static let all = [choose, open, cancel, expire, back]
  }
}
