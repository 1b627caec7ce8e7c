import DeskDomain
import DeskStorage

/// A check of the stock at the shelves, scanner first (`StocktakeStore`): the place being checked
/// said once per shelf, then copy after copy scanned, each sorted at once. A surprise rings and
/// stays in the list of last scans, where ↓ chooses it and one key deals with it.
final class StocktakeScreen: DeskScreen {
  /// The check scans go into: the latest open one, kept while it stays open.
  private var check: StocktakeStore.Check?
  private var otherOpenChecks = 0
  /// Where the copies being scanned stand (empty: not said, so no copy is misplaced).
  private var place = ""
  /// The check's scans by kind, every desk's, and its expected copies away from the shelves (out,
  /// on the hold shelf, in processing) and not scanned: counted once when the check shows, then
  /// on by the scans made since, here or arriving from other desks.
  private var counter: StocktakeStore.Counter?
  /// The last scans, the latest first, each with what was done about it here.
  private var scans: [Listed] = []
  /// The scan chosen with ↓ for its key; nil while typing.
  private var chosen: Int?
  private var input = LineEditor(maximumLength: 200)

  /// A scan in the list, and what its key did (the record moved, the copy returned).
  struct Listed {
    var scan: StocktakeStore.Scan
    var done: String?
  }

  /// How many scans the list keeps: more than any window shows.
  static let keptScans = 100

  var helpTopic: HelpTopic { .stocktake }

  func title(_ context: UIContext) -> String {
    check.map { context.strings.stocktakeTitle($0.name) } ?? context.strings.sectionStocktake
  }

  func keyHints(_ context: UIContext) -> [KeyHint] { actions(context).hints }

  func actions(_ context: UIContext) -> [ScreenAction] {
    let s = context.strings
    guard let check else {
      return [
        ScreenAction(Keys.startCheck, hint: s.keyStartCheck) { self.askCheckName(context: context) },
        ScreenAction(Keys.escape, hint: s.keyBack) { [.pop] },
      ]
    }
    if let index = chosen, scans.indices.contains(index) {
      let scan = scans[index].scan
      var actions: [ScreenAction] = []
      // A surprise dealt with (here or since) takes no key of its own any more.
      switch scans[index].done == nil && !scan.settled ? scan.finding : .found {
      case .misplaced(_, let actual):
        actions.append(
          ScreenAction(Keys.moveRecord, hint: s.keyUpdatePlace) { self.moveRecord(index, to: actual, context) })
      case .onLoan:
        actions.append(ScreenAction(Keys.returnNow, hint: s.keyReturnNow) { self.returnNow(index, context) })
      case .notInStock:
        actions.append(
          ScreenAction(Keys.makeAvailable, hint: s.keyMakeAvailable) { self.makeAvailable(index, context) })
      case .unknown:
        actions.append(
          ScreenAction(Keys.addUnknown, hint: s.keyNewRecord) {
            [
              .push(
                // The copy is in hand where it was scanned: its place is the one being checked.
                BookFormScreen(editing: nil, values: [.inventoryNumber: scan.code, .place: scan.place]) {
                  [weak self] book in
                  self?.settle(scan, saying: s.addedAsNewBook(book.inventoryNumber))
                })
            ]
          })
      default:
        break
      }
      if let book = scan.book {
        actions.append(
          ScreenAction(Keys.openBook, hint: s.keyOpen) { [.push(BookDetailScreen(inventory: book.inventoryNumber))] })
      }
      return actions + [
        ScreenAction(Keys.escape, hint: s.keyBack) {
          self.chosen = nil
          return []
        },
        // Up from the latest scan is back to the code field.
        ScreenAction(Keys.chooseScan, hint: nil) { key in
          self.chosen = key == .up ? (index == 0 ? nil : index - 1) : min(self.scans.count - 1, index + 1)
          return []
        },
      ]
    }
    var actions = [
      ScreenAction(Keys.apply, hint: nil) {
        let code = ScannedCode.clean(self.input.text)
        self.input = LineEditor(maximumLength: 200)
        guard !code.isEmpty else { return [] }
        return self.apply(code, in: check, context: context)
      },
      ScreenAction(Keys.place, hint: s.keyPlace) { self.askPlace(context: context) },
      // A photo of a shelf: every code in it goes into the check, in the order read.
      ScreenAction(Keys.image, hint: s.keyImage) {
        [
          .push(
            ScanImageScreen { [weak self] codes in
              guard let self else { return [] }
              let effects = codes.flatMap { self.apply(ScannedCode.clean($0), in: check, context: context) }
              // One ring for the photo, however many surprises it held.
              return effects.contains { if case .bell = $0 { true } else { false } }
                ? [.bell] + effects.filter { if case .bell = $0 { false } else { true } } : effects
            })
        ]
      },
      ScreenAction(Keys.report, hint: s.keyReport) { [.push(StocktakeReportScreen(check: check))] },
      ScreenAction(Keys.escape, hint: s.keyBack) {
        guard self.input.text.isEmpty else {
          self.input = LineEditor(maximumLength: 200)
          return []
        }
        return [.pop]
      },
    ]
    if input.text.isEmpty && !scans.isEmpty {
      actions.append(
        ScreenAction(Keys.chooseScan, keys: [.down], hint: s.keyChooseScan, name: "↓") { _ in
          self.chosen = 0
          return []
        })
    }
    return actions
  }

  func reload(context: UIContext) -> [Effect] {
    let open = (try? context.store.stocktakes.checks())?.filter { $0.closed == nil } ?? []
    let current = open.first { $0.number == check?.number } ?? open.first
    otherOpenChecks = max(0, open.count - 1)
    if current?.number != check?.number || current == nil {
      // Another check (or the first look): its own last scans, whichever desk made them.
      scans =
        (current.flatMap { try? context.store.stocktakes.recentScans($0, limit: Self.keptScans) } ?? []).map {
          Listed(scan: $0)
        }
      chosen = nil
    }
    if let current {
      counter =
        current.number == check?.number
        ? counter.flatMap { try? context.store.stocktakes.counter($0, since: current) }
          ?? (try? context.store.stocktakes.counter(current))
        : (try? context.store.stocktakes.counter(current))
    } else {
      counter = nil
    }
    check = current
    // The place this desk was checking when it last scanned into the check, after a restart too.
    if place.isEmpty, let desk = try? context.store.policy.deskName(),
      let mine = scans.first(where: { $0.scan.desk == desk && !$0.scan.place.isEmpty })
    {
      place = mine.scan.place
    }
    return []
  }

  /// Marks the listed scan of `scan`'s code (it may have moved down the list) as dealt with.
  private func settle(_ scan: StocktakeStore.Scan, saying said: String) {
    guard let index = scans.firstIndex(where: { $0.scan == scan }) else { return }
    scans[index].done = said
    scans[index].scan.settled = true
  }

  func handle(_ key: Key, context: UIContext) -> [Effect] {
    if let effects = actions(context).run(key) { return effects }
    if chosen != nil {
      // Anything else is typing: back to the code field with it.
      chosen = nil
      return handle(key, context: context)
    }
    guard check != nil else { return [] }
    input.handle(key)
    return []
  }

  var acceptsText: Bool { check != nil && chosen == nil }
  var expectsCode: Bool { check != nil }

  func handleScan(_ scan: Scan, context: UIContext) -> [Effect]? {
    guard let check else { return [.bell, .notify(context.strings.noOpenCheck)] }
    input = LineEditor(maximumLength: 200)
    chosen = nil
    return apply(scan.code, in: check, context: context)
  }

  func undoTyping(_ key: Key, context: UIContext) -> [Effect]? {
    guard key == .control("z"), chosen == nil, !input.text.isEmpty else { return nil }
    input.undo()
    return []
  }

  /// A shelf's label says the place; any other code is a copy, sorted and counted. A surprise rings.
  private func apply(_ code: String, in check: StocktakeStore.Check, context: UIContext) -> [Effect] {
    if let label = ShelfLabel.place(in: code) { return setPlace(label, context: context) }
    let scan: StocktakeStore.Scan
    do {
      scan = try context.store.stocktakes.scan(code, in: check, at: place)
    } catch {
      return [.bell, .dialog(.error(context.strings.stocktakeRefusedTitle, context.messages(error)))]
    }
    if let counter { self.counter = (try? context.store.stocktakes.counter(counter, since: check)) ?? counter }
    scans.insert(Listed(scan: scan), at: 0)
    scans = Array(scans.prefix(Self.keptScans))
    return scan.finding.isSurprise ? [.bell] : []
  }

  /// A place no copy's record names rings and says so: every copy scanned there would be
  /// misplaced (a typo, or a copy's number typed into the place).
  private func setPlace(_ newPlace: String, context: UIContext) -> [Effect] {
    place = newPlace.trimmingWhitespace()
    let s = context.strings
    guard !place.isEmpty else { return [.notify(s.placeCleared)] }
    guard (try? context.store.stocktakes.isRecordedPlace(place)) ?? true else {
      return [.bell, .notify(s.placeNotRecorded(place))]
    }
    return [.notify(s.placeSet(place))]
  }

  /// F2: the place typed, or a shelf's label scanned (which answers at once). A copy's number
  /// that lands there (scanned while the box was open) is a copy, counted as one; the place stays.
  private func askPlace(context: UIContext) -> [Effect] {
    let s = context.strings
    let dialog = Dialog(
      title: s.placeTitle, lines: [s.placeQuestion], kind: .prompt(LineEditor(place, maximumLength: 200))
    ) { [weak self] answer in
      guard let self, case .text(let text) = answer else { return [] }
      if let label = ShelfLabel.place(in: text) { return self.setPlace(label, context: context) }
      if let check = self.check, (try? context.store.books.book(inventory: text)) != nil {
        return self.apply(text, in: check, context: context) + [.notify(s.copyNotPlace(text, place: self.place))]
      }
      return self.setPlace(text, context: context)
    }
    dialog.answeredByScan = true
    return [.dialog(dialog)]
  }

  private func askCheckName(context: UIContext) -> [Effect] {
    let s = context.strings
    return [
      .dialog(
        Dialog(title: s.startCheckTitle, lines: [s.checkNameQuestion], kind: .prompt(LineEditor(maximumLength: 200))) {
          [weak self] answer in
          guard let self, case .text(let name) = answer else { return [] }
          return [
            .dialog(
              Dialog(
                title: s.startCheckTitle, lines: [s.checkPlacesQuestion], kind: .prompt(LineEditor(maximumLength: 1000))
              ) { [weak self] answer in
                guard let self, case .text(let places) = answer else { return [] }
                return self.startCheck(name: name, places: places, context: context)
              })
          ]
        })
    ]
  }

  private func startCheck(name: String, places: String, context: UIContext) -> [Effect] {
    let s = context.strings
    let prefixes = places.split(separator: ";").map { String($0).trimmingWhitespace() }.filter { !$0.isEmpty }
    do {
      let named =
        name.trimmingWhitespace().isEmpty
        ? StocktakeAct.defaultName(on: context.today, in: s.language == .russian ? .russian : .english) : name
      guard
        let opened = try context.store.stocktakes.start(name: named, scope: StocktakeScope(placePrefixes: prefixes))
      else { return [.bell, .dialog(.error(s.startCheckTitle, [s.checkCoversNothing]))] }
      _ = reload(context: context)
      return [.notify(s.checkStarted(opened.number, opened.name, expected: opened.expected))]
    } catch {
      return [.bell, .dialog(.error(s.startCheckTitle, context.messages(error)))]
    }
  }

  /// The record of a misplaced copy takes the place it was found in, as IRBIS's 910 ^! does.
  private func moveRecord(_ index: Int, to actual: String, _ context: UIContext) -> [Effect] {
    guard let book = scans[index].scan.book else { return [] }
    do {
      let moved = try context.store.books.update(inventory: book.inventoryNumber) { $0[.place] = actual }
      let said = context.strings.recordPlaceUpdated(moved.inventoryNumber, actual)
      settle(scans[index].scan, saying: said)
      context.session.note(said, context: context)
      return [.notify(said)]
    } catch {
      return [.bell, .dialog(.error(context.strings.stocktakeRefusedTitle, context.messages(error)))]
    }
  }

  /// A copy in hand that the catalogue says is out: returned by the counter's rule, which F8 undoes.
  private func returnNow(_ index: Int, _ context: UIContext) -> [Effect] {
    guard let book = scans[index].scan.book else { return [] }
    do {
      if case .done(let action) = try context.store.circulation.circulate(
        book.inventoryNumber, reader: nil, intent: .giveBack)
      {
        let said = context.session.record([action], context: context)
        settle(scans[index].scan, saying: said.last ?? "")
        return said.last.map { [.notify($0)] } ?? []
      }
      return []
    } catch {
      return [.bell, .dialog(.error(context.strings.returnRefusedTitle, context.messages(error)))]
    }
  }

  private func makeAvailable(_ index: Int, _ context: UIContext) -> [Effect] {
    guard let book = scans[index].scan.book else { return [] }
    do {
      let updated = try context.store.books.update(inventory: book.inventoryNumber) {
        $0.status = CopyStatus.available.rawValue
      }
      let said = context.strings.madeAvailable(updated.inventoryNumber)
      settle(scans[index].scan, saying: said)
      context.session.note(said, context: context)
      return [.notify(said)]
    } catch {
      return [.bell, .dialog(.error(context.strings.stocktakeRefusedTitle, context.messages(error)))]
    }
  }

  func render(into buffer: inout ScreenBuffer, area: Rect, context: UIContext) {
    let s = context.strings
    let left = area.column + 2
    let width = area.width - 4
    var y = area.row + 1
    guard let check else {
      buffer.write(s.noOpenCheck, row: y, column: left, width: width, style: context.style(.title))
      y += 2
      for line in wrap(s.startCheckAdvice, width: width) where y < area.bottom {
        buffer.write(line, row: y, column: left, width: width)
        y += 1
      }
      return
    }
    var heading = s.checkLine(
      check.number, check.name, opened: context.clock.local(check.started).date.iso, expected: check.expected)
    if otherOpenChecks > 0 { heading += "; " + s.otherChecksOpen(otherOpenChecks) }
    // A short window gives each line one row: the last scans need the rest.
    let compact = area.height < compactBelowRows
    // Cut with a mark where a row is all there is, never wrapped and dropped.
    for line in compact ? [heading] : Array(wrap(heading, width: width).prefix(2)) {
      buffer.write(line, row: y, column: left, width: width, style: context.style(.title))
      y += 1
    }
    buffer.write(
      place.isEmpty ? s.placeNotSaid : s.placeLine(place), row: y, column: left, width: width,
      style: context.style(place.isEmpty ? .warning : .label))
    y += 1
    let counts = counter?.counts ?? [:]
    let found = ["found", "misplaced", "on-loan"].reduce(0) { $0 + (counts[$1] ?? 0) }
    for line in wrap(
      s.stocktakeCounts(found: found, expected: check.expected, away: counter?.away ?? 0, counts: counts),
      width: width
    ).prefix(2) {
      buffer.write(line, row: y, column: left, width: width)
      y += 1
    }
    if !compact {
      y += 1
      buffer.write(s.stocktakePrompt, row: y, column: left, width: width, style: context.style(.label))
      y += 1
    }
    let fieldWidth = min(50, width)
    let (text, cursor) = input.visible(width: fieldWidth)
    buffer.writePadded(
      text, row: y, column: left, width: fieldWidth, style: context.style(chosen == nil ? .activeField : .field))
    let inputRow = y
    y += compact ? 1 : 2
    if y < area.bottom {
      buffer.write(s.lastScans, row: y, column: left, style: context.style(.header))
      y += 1
    }
    if scans.isEmpty, y < area.bottom {
      buffer.write(s.noScansYet, row: y, column: left + 2, width: width - 2, style: context.style(.muted))
    }
    // The chosen scan stays in view; each scan takes its copy's line, and a surprise a second
    // line saying what it is and the key that deals with it.
    let rows = scans.map { lines(of: $0, width: width - 4, detailRows: compact ? 1 : 2, context: context) }
    var first = 0
    if let chosen {
      while first < chosen, rows[first...chosen].map(\.count).reduce(0, +) > area.bottom - y { first += 1 }
    }
    for index in scans.indices.dropFirst(first) {
      let scan = scans[index].scan
      let open = scan.finding.isSurprise && !scan.settled
      guard y + rows[index].count <= area.bottom else { break }
      var role: Role = open ? .warning : .normal
      if index == chosen {
        role = .selected
        buffer.fill(row: y, column: left, height: rows[index].count, width: width, style: context.style(role))
      }
      for (number, line) in rows[index].enumerated() {
        let mark = number > 0 || !open ? "  " : "! "
        buffer.write(mark + line, row: y, column: left, width: width, style: context.style(role))
        y += 1
      }
    }
    buffer.cursor = chosen == nil ? (inputRow, left + cursor) : nil
  }

  /// A scan as the list shows it: the time, the number and the copy, and what was found.
  private func lines(of listed: Listed, width: Int, detailRows: Int, context: UIContext) -> [String] {
    let s = context.strings
    let scan = listed.scan
    let time = context.clock.local(scan.scanned).clockTime
    let copy = scan.book?.authorAndQuotedTitle
    let head = "\(time)  \(scan.code)" + (copy.map { "  " + $0 } ?? "")
    // Dealt with since it was listed (at another desk, or before the desk was restarted): what was done.
    let said = scan.settled && listed.done == nil ? s.settledText(scan.finding) : s.findingText(scan.finding)
    guard scan.finding.isSurprise, !(scan.settled && listed.done == nil) else {
      // One line where it fits; else what was found goes under the copy, never dropped.
      let line = head + " — " + said
      return line.displayWidth <= width ? [line] : [head] + wrap(said, width: width).prefix(detailRows)
    }
    // Dealt with: what was done instead of the key that does it.
    let advice = (listed.done ?? (scan.settled ? nil : s.findingAdvice(scan.finding))).map { " (\($0))" } ?? ""
    let detail = said + advice
    return [head] + (detailRows == 1 ? [detail] : Array(wrap(detail, width: width).prefix(detailRows)))
  }
}

extension StocktakeScreen {
  /// The screen's keys, in the help's order.
  enum Keys {
    static let apply = KeyDeclaration(.enter, .tab, means: .applyShelfCode)
    static let place = KeyDeclaration(.function(2), means: .setPlace)
    static let report = KeyDeclaration(.function(5), means: .stocktakeReport)
    static let image = KeyDeclaration(.function(3), means: .scanImageIntoCheck)
    static let chooseScan = KeyDeclaration(.down, .up, name: "↓ ↑", means: .chooseScan)
    static let moveRecord = KeyDeclaration(.character("m"), means: .moveRecordHere)
    static let returnNow = KeyDeclaration(.character("r"), means: .returnNow)
    static let makeAvailable = KeyDeclaration(.character("a"), means: .makeAvailable)
    static let addUnknown = KeyDeclaration(.character("n"), means: .addUnknown)
    static let openBook = KeyDeclaration(.enter, means: .openBook)
    static let startCheck = KeyDeclaration(.character("n"), .enter, means: .startCheck)
    static let escape = KeyDeclaration(.escape, means: .back)
    static let all = [
      .legend("a scan", .scanIntoCheck), apply, place, image, report, chooseScan, moveRecord, returnNow, makeAvailable,
      addUnknown, openBook, startCheck, escape,
    ]
  }
}
