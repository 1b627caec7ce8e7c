import DeskDomain
import DeskStorage

/// What a librarian does with one hold from a screen: cancel it (a copy waiting for it goes to
/// the next hold, or back to the shelf), suspend a queued one until a date, or resume it. Each
/// ends with `then` (the screen reading its holds again).
enum HoldActions {
  /// The reader's active holds to choose from, then what to do with the one chosen.
  static func choose(_ holds: [HoldRecord], context: UIContext, then: @escaping () -> [Effect]) -> [Effect] {
    let s = context.strings
    let active = holds.filter(\.state.isActive)
    guard !active.isEmpty else { return [.notify(s.noActiveHolds)] }
    return [
      .dialog(
        Dialog(
          title: s.holdsTitle, lines: [s.chooseHold],
          kind: .choice(
            options: active.map { holdLine($0, showing: .book, context: context) }, codes: active.map(\.label),
            selected: 0)
        ) { answer in
          guard case .chosen(let index) = answer, active.indices.contains(index) else { return [] }
          return act(on: active[index], context: context, then: then)
        })
    ]
  }

  /// The actions one hold allows: cancel always; suspend or resume while it queues.
  static func act(on hold: HoldRecord, context: UIContext, then: @escaping () -> [Effect]) -> [Effect] {
    let s = context.strings
    var actions: [(String, () -> [Effect])] = [(s.keyCancelHold, { cancel(hold, context: context, then: then) })]
    if hold.state == .queued {
      actions.append((s.suspendHoldAction, { suspend(hold, typed: "", context: context, then: then) }))
      if hold.suspendedUntil != nil {
        actions.append((s.resumeHoldAction, { resume(hold, context: context, then: then) }))
      }
    }
    return [
      .dialog(
        Dialog(
          title: s.holdsTitle, lines: [holdLine(hold, showing: .book, context: context)],
          kind: .choice(options: actions.map(\.0), codes: actions.map(\.0), selected: 0)
        ) { answer in
          guard case .chosen(let index) = answer, actions.indices.contains(index) else { return [] }
          return actions[index].1()
        })
    ]
  }

  /// Asks first; says where a copy that waited for the hold goes.
  static func cancel(_ hold: HoldRecord, context: UIContext, then: @escaping () -> [Effect]) -> [Effect] {
    let s = context.strings
    return [
      .dialog(
        Dialog(title: s.keyCancelHold, lines: [s.cancelHoldQuestion(hold)], kind: .confirm) { answer in
          guard case .yes = answer else { return [] }
          let effects = attempt(context, title: s.errorTitle) { () throws(StoreError) in
            let (freed, next, shelf) = try context.store.holds.cancel(number: hold.number)
            if let next {
              let title = try context.store.books.book(inventory: next.inventory)?.title ?? next.inventory
              return s.putOnHoldShelf(next, title: title)
            }
            if let freed, let shelf { return s.holdFreedElsewhere(hold, inventory: freed, desk: shelf) }
            return freed.map(s.holdFreed) ?? s.holdCancelled(hold)
          }
          return effects + then()
        })
    ]
  }

  /// Asks for the last day of the suspension; a date that is refused comes back to be corrected.
  static func suspend(_ hold: HoldRecord, typed: String, context: UIContext, then: @escaping () -> [Effect])
    -> [Effect]
  {
    let s = context.strings
    let again = { (text: String) -> () -> [Effect] in { suspend(hold, typed: text, context: context, then: then) } }
    return [
      .dialog(
        Dialog(title: s.suspendHoldAction, lines: [s.suspendUntilPrompt], kind: .prompt(LineEditor(typed))) { answer in
          guard case .text(let text) = answer, !text.isEmpty else { return [] }
          guard case .success(let date) = LocalDate.parse(text) else {
            return [.bell, .dialog(.error(s.errorTitle, [s.notADate(text)], then: again(text)))]
          }
          do throws(StoreError) {
            try context.store.holds.suspend(number: hold.number, until: date)
          } catch {
            return [.bell, .dialog(.error(s.errorTitle, context.messages(error), then: again(text)))]
          }
          return [.notify(s.holdSuspendedNotice(hold.label, until: date.iso))] + then()
        })
    ]
  }

  static func resume(_ hold: HoldRecord, context: UIContext, then: @escaping () -> [Effect]) -> [Effect] {
    let s = context.strings
    return attempt(context, title: s.errorTitle) { () throws(StoreError) in
      try context.store.holds.suspend(number: hold.number, until: nil)
      return s.holdResumedNotice(hold.label)
    } + then()
  }
}
