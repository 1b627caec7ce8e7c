import DeskDomain
import DeskStorage

/// One conflict between desks: what happened, each side in a box of its own side by side, and
/// the keys that settle it. Opened by a scan, it also lets the librarian go on with the scan.
final class ConflictScreen: DeskScreen {
  let number: Int
  private var conflict: Conflict?
  /// What the scan that opened the screen does once the librarian has seen the conflict.
  private let goOn: ((UIContext) -> [Effect])?

  init(number: Int, goOn: ((UIContext) -> [Effect])? = nil) {
    self.number = number
    self.goOn = goOn
  }

  var helpTopic: HelpTopic { .conflicts }

  func title(_ context: UIContext) -> String {
    let s = context.strings
    return s.conflictTitle(number, conflict.map { s.conflictKind($0.kind) } ?? "")
  }

  /// The keys that settle the conflict, each with what it does.
  private func actions(_ context: UIContext) -> [(key: String, text: String)] {
    let s = context.strings
    guard let conflict, conflict.resolved == nil else { return [] }
    var actions: [(String, String)] = []
    switch conflict.kind {
    case .doubleIssue:
      for (index, ticket) in conflict.choices.prefix(9).enumerated() {
        actions.append(("\(index + 1)", s.actionHolder(index + 1, ticket: ticket)))
      }
      actions.append(("k", s.actionKeepBoth))
    case .inventory, .ticket:
      actions.append(("n", s.actionRenumber))
      actions.append(("d", s.actionDuplicate(isBook: conflict.kind == .inventory)))
    case .editAfterDelete:
      actions.append(("r", s.actionRestore))
      actions.append(("k", s.actionKeepDeleted))
    case .trappedTwice:
      for (index, inventory) in conflict.choices.prefix(9).enumerated() {
        actions.append(("\(index + 1)", s.actionCopy(inventory)))
      }
    case .refusedChange:
      if refusedByCentral { actions.append(("s", s.actionResend)) }
      actions.append(("x", s.actionDrop(byCentral: refusedByCentral)))
    case .renewalLimit:
      actions.append(("k", s.actionKeepRenewals))
      if case .renewedPastLimit(_, _, _, let limit, let before, _) = conflict.facts {
        actions.append(("t", s.actionTakeBackRenewals(limit: limit, due: before)))
      }
    case .renewedAfterReturn:
      actions.append(("a", s.actionAcknowledge))
    }
    if goOn != nil { actions.append(("Enter", s.actionGoOn)) }
    return actions
  }

  /// True for a change made here that the central refused (else one set aside here).
  private var refusedByCentral: Bool {
    if case .refusedChange(_, let byCentral, _, _)? = conflict?.facts { return byCentral }
    return false
  }

  /// The settling keys are listed on the screen with what each does; the bar keeps to leaving, and
  /// to scrolling when the conflict is taller than the window.
  func keyHints(_ context: UIContext) -> [KeyHint] {
    (page.isTaller ? [KeyHint("↑↓", context.strings.keyScroll)] : []) + [back(context)].hints
  }

  private func back(_ context: UIContext) -> ScreenAction {
    ScreenAction(Keys.back, hint: context.strings.keyBack) { [.pop] }
  }

  /// Leaving, and going on with the scan that opened the conflict when one did.
  func leaving(_ context: UIContext) -> [ScreenAction] {
    [back(context)]
      + (goOn.map { goOn in [ScreenAction(Keys.goOnWithScan, hint: nil) { [.pop] + goOn(context) }] } ?? [])
  }

  /// The conflict, taller than a small window: at 60×16 its choices are below the sides.
  private var page = ScrolledPage()

  func reload(context: UIContext) -> [Effect] {
    do {
      conflict = try context.store.conflicts.conflict(number: number)
    } catch {
      return [.dialog(.error(context.strings.errorTitle, context.messages(error)))]
    }
    return []
  }

  func handle(_ key: Key, context: UIContext) -> [Effect] {
    guard conflict != nil else { return key == .escape ? [.pop] : [] }
    if let effects = leaving(context).run(key) { return effects }
    switch key {
    case .character("?"): return [.help(helpTopic)]
    case _ where page.handle(key): return []
    default: return settlements(context).run(key) ?? []
    }
  }

  /// The keys that settle the conflict, by its kind (the screen's body names them): none once it
  /// is settled.
  func settlements(_ context: UIContext) -> [ScreenAction] {
    let s = context.strings
    guard let conflict, conflict.resolved == nil else { return [] }
    /// One key per side, 1 for the first.
    func sides(_ settle: @escaping (Int, String) -> [Effect]) -> [ScreenAction] {
      conflict.choices.indices.prefix(9).map { index in
        ScreenAction(Keys.side, keys: [Keys.side.keys[index]], hint: nil) { _ in settle(index, conflict.choices[index])
        }
      }
    }
    switch conflict.kind {
    case .doubleIssue:
      return sides { index, ticket in
        self.confirm(s.confirmHolder("\(index + 1) (\(ticket))"), context: context) { .holder(ticket: ticket) }
      } + [ScreenAction(Keys.keep, hint: nil) { [.notify(s.keptBothOpen(self.number)), .pop] }]
    case .trappedTwice:
      return sides { _, inventory in
        self.confirm(s.confirmCopy(inventory), context: context) { .copy(inventory: inventory) }
      }
    case .inventory, .ticket:
      return [
        ScreenAction(Keys.renumber, hint: nil) { self.renumber(typed: "", context: context) },
        ScreenAction(Keys.sameRecord, hint: nil) {
          self.confirm(s.confirmDuplicate(isBook: conflict.kind == .inventory), context: context) { .duplicate }
        },
      ]
    case .editAfterDelete:
      return [
        ScreenAction(Keys.restore, hint: nil) { self.settle(.restore, context: context) },
        ScreenAction(Keys.keep, hint: nil) {
          self.confirm(s.confirmKeepDeleted, context: context) { .keepDeleted }
        },
      ]
    case .refusedChange:
      return
        (refusedByCentral ? [ScreenAction(Keys.resend, hint: nil) { self.settle(.resend, context: context) }] : [])
        + [ScreenAction(Keys.drop, hint: nil) { self.settle(.drop, context: context) }]
    case .renewalLimit:
      return [
        ScreenAction(Keys.keep, hint: nil) { self.settle(.keepRenewals, context: context) },
        ScreenAction(Keys.takeRenewalsBack, hint: nil) {
          guard case .renewedPastLimit(_, _, _, let limit, let before, _) = conflict.facts else { return [] }
          return self.confirm(s.confirmTakeBackRenewals(limit: limit, due: before), context: context) {
            .takeBackRenewal
          }
        },
      ]
    case .renewedAfterReturn:
      return [ScreenAction(Keys.acknowledge, hint: nil) { self.settle(.acknowledge, context: context) }]
    }
  }

  private func confirm(
    _ question: String, context: UIContext, _ settlement: @escaping () -> ConflictStore.Settlement
  ) -> [Effect] {
    [
      .dialog(
        Dialog(title: title(context), lines: [question], kind: .confirm) { [weak self] answer in
          guard let self, case .yes = answer else { return [] }
          return self.settle(settlement(), context: context)
        })
    ]
  }

  /// Asks for the new number; a refused one comes back in the prompt to be corrected.
  private func renumber(typed: String, context: UIContext) -> [Effect] {
    let s = context.strings
    let isBook = conflict?.kind == .inventory
    return [
      .dialog(
        Dialog(title: title(context), lines: [s.renumberPrompt(isBook: isBook)], kind: .prompt(LineEditor(typed))) {
          [weak self] answer in
          guard let self, case .text(let text) = answer else { return [] }
          return self.settle(.renumber(text), context: context) { self.renumber(typed: text, context: context) }
        })
    ]
  }

  private func settle(
    _ settlement: ConflictStore.Settlement, context: UIContext, retry: @escaping () -> [Effect] = { [] }
  ) -> [Effect] {
    let s = context.strings
    do {
      let (settled, moves) = try context.store.conflicts.settleMoving(number, settlement)
      conflict = settled
      // Copies on this desk's hold shelf that the settlement frees: the librarian moves them.
      let shelf: [Effect] =
        moves.isEmpty
        ? [] : [.bell, .dialog(Dialog(title: s.holdShelfTitle, lines: moves.map(s.holdFreedBySettlement)))]
      return [.notify(s.conflictSettled(number, settlement, settled.resolution)), .pop] + shelf
        + (goOn?(context) ?? [])
    } catch {
      return [.bell, .dialog(.error(s.errorTitle, context.messages(error), then: retry))]
    }
  }

  func render(into buffer: inout ScreenBuffer, area: Rect, context: UIContext) {
    page.render(into: &buffer, area: area, spare: 100) { page, tall in
      renderConflict(into: &page, area: tall, context: context)
    }
  }

  /// Draws the whole conflict from the top of `area`; returns the rows it took.
  private func renderConflict(into buffer: inout ScreenBuffer, area: Rect, context: UIContext) -> Int {
    let s = context.strings
    guard let conflict else { return 0 }
    let left = area.column + 2
    let width = area.width - 4
    var y = area.row + 1
    for line in wrap(s.conflictSummary(conflict), width: width) where y < area.bottom {
      buffer.write(line, row: y, column: left, width: width, style: context.style(.title))
      y += 1
    }
    let now = context.clock.now().instant
    let raised = s.when(conflict.raised, now: now, clock: context.clock)
    buffer.write(s.conflictRaised(raised), row: y, column: left, width: width, style: context.style(.muted))
    y += 2
    y = renderSides(s.conflictSides(conflict), into: &buffer, row: y, area: area, context: context)
    y += 1
    if let resolved = conflict.resolved, y < area.bottom {
      let when = s.when(resolved, now: now, clock: context.clock)
      for line in wrap(s.conflictSettledAlready(when, conflict.resolution), width: width) where y < area.bottom {
        buffer.write(line, row: y, column: left, width: width)
        y += 1
      }
      return y - area.row
    }
    guard y < area.bottom else { return y - area.row }
    buffer.write(s.conflictWhatSettles, row: y, column: left, width: width, style: context.style(.header))
    y += 1
    // Each choice whole, wrapped under itself: cut, a choice could read as another.
    for action in actions(context) where y < area.bottom {
      let key = " \(action.key) "
      let textColumn = left + 3 + max(7, key.displayWidth)
      let textWidth = max(10, area.column + area.width - 2 - textColumn)
      buffer.write(key, row: y, column: left + 2, style: context.style(.keyName))
      for line in wrap(action.text, width: textWidth) where y < area.bottom {
        buffer.write(line, row: y, column: textColumn, width: textWidth)
        y += 1
      }
    }
    return y - area.row
  }

  /// The sides in boxes, two to a row; returns the row below them.
  private func renderSides(
    _ sides: [String], into buffer: inout ScreenBuffer, row: Int, area: Rect, context: UIContext
  ) -> Int {
    let s = context.strings
    let gap = 2
    // Side by side while each box has room for a sentence; in a narrow window one under another.
    let perRow = (area.width - 4 - gap) / 2 >= 34 ? 2 : 1
    let boxWidth = perRow == 2 ? (area.width - 4 - gap) / 2 : area.width - 4
    var y = row
    var index = 0
    while index < sides.count, y < area.bottom {
      let pair = Array(sides[index..<min(sides.count, index + perRow)])
      let texts = pair.map { wrap($0, width: boxWidth - 4) }
      let height = (texts.map(\.count).max() ?? 0) + 2
      for (offset, lines) in texts.enumerated() {
        let x = area.column + 2 + offset * (boxWidth + gap)
        let heading = " \(s.sideHeading(index + offset + 1)) "
        let top = "┌─" + heading + String(repeating: "─", count: max(0, boxWidth - 3 - heading.displayWidth)) + "┐"
        buffer.write(top, row: y, column: x, width: boxWidth)
        for line in 0..<(height - 2) where y + 1 + line < area.bottom {
          buffer.write("│", row: y + 1 + line, column: x)
          if line < lines.count { buffer.write(lines[line], row: y + 1 + line, column: x + 2, width: boxWidth - 4) }
          buffer.write("│", row: y + 1 + line, column: x + boxWidth - 1)
        }
        if y + height - 1 < area.bottom {
          buffer.write(
            "└" + String(repeating: "─", count: boxWidth - 2) + "┘", row: y + height - 1, column: x, width: boxWidth)
        }
      }
      y += height
      index += perRow
    }
    return y
  }
}

extension ConflictScreen {
  /// The keys of a conflict, whatever its kind, in the help's order, after the list's.
  enum Keys {
    /// One digit per side, 1 for the first.
    static let side = KeyDeclaration(
      keys: (1...9).map { .character(Character(String($0))) }, name: "1 2 …", means: .settleSide)
    static let keep = KeyDeclaration(.character("k"), means: .keepAsItIs)
    static let renumber = KeyDeclaration(.character("n"), means: .renumber)
    static let sameRecord = KeyDeclaration(.character("d"), means: .sameRecord)
    static let restore = KeyDeclaration(.character("r"), means: .restore)
    static let takeRenewalsBack = KeyDeclaration(.character("t"), means: .takeRenewalsBack)
    static let acknowledge = KeyDeclaration(.character("a"), means: .acknowledgeReturn)
    static let resend = KeyDeclaration(.character("s"), means: .resend)
    static let drop = KeyDeclaration(.character("x"), means: .dropChange)
    static let goOnWithScan = KeyDeclaration(.enter, means: .goOnWithScan)
    static let back = KeyDeclaration(.escape, .character("q"), means: .back)
    static let all = [
      ConflictListScreen.Keys.choose, ConflictListScreen.Keys.open, side, keep, renumber, sameRecord, restore,
      takeRenewalsBack, acknowledge, resend, drop, goOnWithScan, back,
    ]
  }
}
