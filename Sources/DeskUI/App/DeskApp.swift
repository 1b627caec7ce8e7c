import DeskDomain
import DeskStorage

/// The full-screen desk as state and events: keys and answers come in, the app changes its
/// screens and says whether to go on; `render` draws the whole state into a screen buffer.
/// Nothing here touches the terminal, so every screen can be driven and read in tests.
public final class DeskApp {
  public let context: UIContext
  let search: any SearchService
  private(set) var stack: [any DeskScreen]
  private(set) var dialog: Dialog?
  private var dialogQueue: [Dialog] = []
  /// What the last change said, on the status line: for four seconds, or until a later key opens
  /// another screen or types into this one (then it no longer speaks of what is shown).
  private(set) var notification: (text: String, until: Int64)?
  /// Moves with every notification: a key that set none leaves the last one to be cleared.
  private var notifications = 0
  private var nowMilliseconds: Int64 = 0
  public private(set) var isFinished = false
  private var bells = 0
  /// A screen a letter key just opened over a list, the letter and when: a second letter soon
  /// after means the librarian was typing a word, not asking for the screen.
  private var openedByLetter: (screen: ObjectIdentifier, letter: Character, time: Int64)?
  /// A letter this soon after the letter that opened a form was typing a word, not the form's
  /// first entry: the eye has not yet found the form's field (its first fields take numbers).
  static let typingGapMilliseconds: Int64 = 1000
  /// True when the last event changed what `render` would draw.
  public private(set) var needsRedraw = true

  /// The library's counts for the status line, read again after a key when the library changed
  /// or the day did (the overdue count counts loans, thousands in a large library).
  private(set) var counts: (books: Int, out: Int, overdue: Int, readers: Int)?
  private(set) var holdShelf: (waiting: Int, tooLong: Int)?
  private var countsRead: (stamp: LibraryStore.ChangeStamp, day: LocalDate)?

  private func refreshCounts() {
    let store = context.store
    let now = (try? store.changeStamp()).map { (stamp: $0, day: context.today) }
    if let now, let countsRead, counts != nil, now.stamp == countsRead.stamp, now.day == countsRead.day { return }
    if let now, now.stamp.changedHere != countsRead?.stamp.changedHere {
      // A change made here: the sync goes soon, and the lists' marks follow.
      syncService?.nudge()
    }
    refreshUnsynced()
    counts = try? (
      store.books.count(), store.books.count(filter: .issued), store.books.count(filter: .overdue),
      store.readers.count()
    )
    holdShelf = try? store.holds.shelfCounts()
    countsRead = now
  }

  /// The smallest terminal the desk draws in.
  public static let minimumRows = 16
  public static let minimumColumns = 60

  private let wedge: WedgeSettings
  private var decoder = KeyDecoder()
  private lazy var detector = ScanDetector(settings: wedge) { [unowned self] code in self.isScan(code) }

  let lookup: (any LookupService)?
  private var lastRetry: Int64 = 0
  let syncService: (any SyncService)?
  /// The status line as last drawn: idle time redraws it when its words change ("12 s ago").
  var drawnStatus = ""
  /// When idle time last looked whether another program (or the sync) changed the library.
  private var lastLook: (time: Int64, stamp: LibraryStore.ChangeStamp?) = (0, nil)
  /// How often idle time looks.
  static let lookIntervalMilliseconds: Int64 = 1000
  /// How often the queue of look-ups that waited for the network is tried again.
  static let retryIntervalMilliseconds: Int64 = 60_000

  public init(
    context: UIContext, search: any SearchService, lookup: (any LookupService)? = nil,
    wedge: WedgeSettings = WedgeSettings(), sync: (any SyncService)? = nil
  ) {
    self.context = context
    self.search = search
    self.lookup = lookup
    self.wedge = wedge
    self.syncService = sync
    if let sync { context.sync = sync.state }
    stack = [HomeScreen()]
    apply(stack[0].reload(context: context))
    refreshCounts()
  }

  public var top: any DeskScreen { stack[stack.count - 1] }

  /// Handles one event. Returns false when the desk should close.
  @discardableResult
  public func handle(_ event: Event) -> Bool {
    needsRedraw = true
    switch event {
    case .input(let bytes, let time):
      nowMilliseconds = time
      var outputs: [ScanDetector.Output] = []
      for key in decoder.feed(bytes, at: time) { outputs += detector.feed(key, at: time) }
      handle(burst: outputs)
      refreshCounts()
    case .key(let key, let time):
      nowMilliseconds = time
      handle(burst: detector.feed(key, at: time))
      refreshCounts()
    case .resize(let rows, let columns):
      let wasTooSmall = isTooSmall
      size = (rows, columns)
      guard !isTooSmall else { break }
      // Lay the screen out at its new size (how many rows a list shows), then fill it.
      _ = render(rows: rows, columns: columns)
      apply(top.reload(context: context))
      if wasTooSmall {
        let scans = heldScans
        heldScans = []
        for scan in scans { handleScan(scan) }
      }
    case .searchFinished(let result):
      top.receive(result, context: context)
    case .tick(let time):
      nowMilliseconds = time
      // Idle time changes the screen only when an answer arrives, a notification ends, or a
      // burst of keys turns out to be typing or a scan.
      var outputs: [ScanDetector.Output] = []
      for key in decoder.tick(at: time) { outputs += detector.feed(key, at: time) }
      outputs += detector.tick(at: time)
      handle(burst: outputs)
      needsRedraw = !outputs.isEmpty
      if !outputs.isEmpty { refreshCounts() }
      // Not while a burst is held back: a read from the disk would delay the keys after it.
      if outputs.isEmpty, !isHoldingKeys { top.idle(context: context) }
      lookForChangesElsewhere(at: time)
    }
    let results = search.takeResults()
    for result in results {
      top.receive(result, context: context)
    }
    if !results.isEmpty { needsRedraw = true }
    let answers = lookup?.takeResults() ?? []
    for answer in answers {
      for screen in stack { screen.receive(answer, context: context) }
    }
    if !answers.isEmpty { needsRedraw = true }
    let searched = lookup?.takeSearchAnswers() ?? []
    for answer in searched {
      for screen in stack { apply(screen.receive(answer, context: context)) }
    }
    if !searched.isEmpty { needsRedraw = true }
    if let lookup, nowMilliseconds - lastRetry > DeskApp.retryIntervalMilliseconds {
      lastRetry = nowMilliseconds
      lookup.retryPending()
    }
    if let notice = notification, notice.until < nowMilliseconds {
      notification = nil
      needsRedraw = true
    }
    followSync()
    return !isFinished
  }

  /// Changes another program made to the library file (the command line, another desk on the same
  /// file, the sync) show in the open screen and the counts within a second, without a key.
  private func lookForChangesElsewhere(at time: Int64) {
    guard time - lastLook.time >= DeskApp.lookIntervalMilliseconds, !isTooSmall else { return }
    let stamp = try? context.store.changeStamp()
    defer { lastLook = (time, stamp) }
    guard let stamp, let before = lastLook.stamp, stamp.committedElsewhere != before.committedElsewhere else { return }
    countsRead = nil
    refreshCounts()
    apply(top.showArrivals(context: context))
    needsRedraw = true
  }

  /// Takes the sync service's news: the status line and Home follow it, and changes from other
  /// desks show in the open screen at once (the one below reloads when it shows again).
  private func followSync() {
    guard let syncService else { return }
    let state = syncService.state
    if state != context.sync {
      let arrived = state.arrivals != context.sync.arrivals
      let joined = state.tie != nil && context.sync.tie == nil
      let waiting = state.waiting != context.sync.waiting
      let moves = state.holdShelfMoves.dropFirst(context.sync.holdShelfMoves.count)
      context.sync = state
      if !moves.isEmpty {
        // Loud, as a return that puts a copy aside: the copy on the shelf here must move.
        let s = context.strings
        let lines = moves.map { $0.cause == .settled ? s.holdFreedBySettlement($0) : s.holdEndedElsewhereLine($0) }
        apply([.bell, .dialog(Dialog(title: s.holdShelfTitle, lines: lines))])
      }
      needsRedraw = true
      if arrived {
        countsRead = nil
        refreshCounts()
        if !isTooSmall { apply(top.showArrivals(context: context)) }
      } else if waiting || joined {
        refreshUnsynced()
      }
    }
    if !needsRedraw, context.isJoined, statusText() != drawnStatus { needsRedraw = true }
  }

  /// Reads again which records wait to go to the central (after a change, a sync, a join).
  private func refreshUnsynced() {
    guard context.isJoined else { return }
    if let records = try? context.store.sync.unsyncedRecords() {
      context.unsynced = records
    } else {
      context.unsynced = ([], [])
    }
  }

  /// Whether a fast burst of keys is a scan, by what it says and where it lands: always where
  /// typing means nothing or a code is expected, else when it reads as a code the library knows.
  private func isScan(_ code: String) -> Bool {
    // A dialog takes no typing but its text line: any other burst is a scan (a copy to choose).
    if let dialog { return !dialog.takesText || !code.contains(" ") }
    if !top.acceptsText { return !top.takesAsTyping(code) }
    // In a code field any code-like burst is a scan; one with spaces only when it reads as a code
    // (a multi-line QR record).
    if top.expectsCode, !code.contains(" ") { return true }
    guard let resolution = try? context.store.resolve(code) else { return false }
    if case .unknown = resolution { return false }
    return true
  }

  /// True while the scanner detector holds keys back: the driver should tick again soon.
  public var isHoldingKeys: Bool { detector.isHolding || decoder.isHolding }

  /// The terminal's size, as the driver last said; nil until it says.
  private var size: (rows: Int, columns: Int)?
  /// Scans that came while the window was too small to show what they do.
  private(set) var heldScans: [Scan] = []
  /// Scans that came while a message that takes no code was open: they act when it closes, in
  /// the order they came. A scan is never lost.
  private var scansAfterDialog: [Scan] = []

  /// True while the window is smaller than the desk: nothing it shows can be seen.
  var isTooSmall: Bool {
    guard let size else { return false }
    return size.rows < DeskApp.minimumRows || size.columns < DeskApp.minimumColumns
  }

  /// Handles what arrived together. Keys that came faster than anyone types (a paste, keys
  /// typed ahead while the desk was busy) were not typed for a screen the librarian had not seen
  /// yet: once an Enter among them opens another screen or a message, the keys after it are not
  /// applied (a file name's «r» would return the book the first name opened). The desk says so.
  private func handle(burst outputs: [ScanDetector.Output]) {
    for (index, output) in outputs.enumerated() {
      let before = (screen: ObjectIdentifier(top), depth: stack.count, dialog: dialog.map(ObjectIdentifier.init))
      handle(output)
      guard case .key(.enter) = output, index < outputs.count - 1 else { continue }
      let after = (screen: ObjectIdentifier(top), depth: stack.count, dialog: dialog.map(ObjectIdentifier.init))
      guard after != before else { continue }
      let rest = outputs[(index + 1)...]
      let dropped = rest.filter { if case .key = $0 { true } else { false } }.count
      if dropped > 0 { apply([.notify(context.strings.keysNotApplied(dropped))]) }
      // A scan in the rest is whole, and a scan is never lost.
      for scan in rest { if case .scan = scan { handle(scan) } }
      return
    }
  }

  private func handle(_ output: ScanDetector.Output) {
    guard !isTooSmall else {
      // Nothing may happen that the librarian cannot see: keys are not applied to hidden screens,
      // and a scan waits until the window is big enough to show what it does. Quitting, when no
      // form holds changes, is the one thing that needs no screen.
      switch output {
      case .scan(let scan): heldScans.append(scan)
      case .key(let key) where AppKeys.quit.keys.contains(key):
        if quitQuestion == nil { isFinished = true }
      case .key: break
      }
      return
    }
    // What the librarian does now is done on the screen on top: an act is known by it (undo).
    context.session.actingScreen = ObjectIdentifier(top)
    let before = (screen: ObjectIdentifier(top), notifications: notifications)
    let typing = if case .key(.character) = output { dialog == nil && top.acceptsText } else { false }
    switch output {
    case .key(let key): handle(key)
    case .scan(let scan): handleScan(scan)
    }
    if notifications == before.notifications, typing || ObjectIdentifier(top) != before.screen {
      notification = nil
    }
  }

  /// A scan never lands in an unrelated field and never answers a dialog: a prompt takes the
  /// code as its text (and one that asks for a scanned code is answered by it); for another
  /// dialog the scan waits, and acts when the dialog closes.
  private func handleScan(_ scan: Scan) {
    if let dialog {
      if !dialog.fill(scan.code) {
        scansAfterDialog.append(scan)
        apply([.notify(context.strings.scanKept(scan.code))])
      } else if dialog.answeredByScan, dialog.takesText {
        answer(dialog, with: .text(scan.code))
      }
      return
    }
    apply(top.handleScan(scan, context: context) ?? ScanDispatch.effects(for: scan.code, context: context))
  }

  /// The scans kept while dialogs were open, once none is: each as if it came now. One that opens
  /// a dialog keeps the rest waiting again.
  private func releaseKeptScans() {
    while dialog == nil, !scansAfterDialog.isEmpty {
      context.session.actingScreen = ObjectIdentifier(top)
      // "It acts when the message closes" has come true: what the scan does says itself.
      notification = nil
      handleScan(scansAfterDialog.removeFirst())
    }
  }

  /// Closes `dialog` with `answer`: the next queued dialog shows, the answer's effects apply, and
  /// the scans kept while it was open act.
  private func answer(_ dialog: Dialog, with answer: Dialog.Answer) {
    self.dialog = dialogQueue.isEmpty ? nil : dialogQueue.removeFirst()
    apply(dialog.onAnswer(answer))
    releaseKeptScans()
  }

  private func handle(_ key: Key) {
    if let dialog {
      guard let answer = dialog.handle(key) else { return }
      self.answer(dialog, with: answer)
      return
    }
    // A Russian-layout letter that opened a form, then another Russian letter within a second:
    // a word typed into the list on that layout («тол»: т is n), not the form's first entry.
    // Latin letters after `n` are the librarian typing into the form they asked for («KX-12»).
    if case .character(let letter) = key, letter.isCyrillicLetter, let opened = openedByLetter,
      opened.letter.isCyrillicLetter, ObjectIdentifier(top) == opened.screen,
      nowMilliseconds - opened.time <= DeskApp.typingGapMilliseconds, stack.count > 1, !top.hasUnsavedInput,
      let effects = stack[stack.count - 2].typeAhead(String([opened.letter, letter]), context: context)
    {
      openedByLetter = nil
      stack.removeLast()
      apply(effects)
      return
    }
    openedByLetter = nil
    let depth = stack.count
    switch key {
    case _ where AppKeys.quit.keys.contains(key):
      requestQuit()
    case _ where AppKeys.undo.keys.contains(key):
      // In a field, the typing there; elsewhere the last act, at once when it is this visit's (on
      // the Desk) or this screen's, and recent; else asked about. Never a second step back.
      if let effects = top.undoTyping(key, context: context) {
        apply(effects)
        break
      }
      let screen = top
      apply(
        context.session.undo(
          screen: ObjectIdentifier(screen), onDesk: screen is DeskCirculationScreen, context: context,
          then: { [weak self, weak screen] in
            guard let self, let screen, screen === self.top else { return [] }
            return screen.reload(context: self.context)
          }))
    case _ where AppKeys.help.keys.contains(key):
      apply([.help(top.helpTopic)])
    case _ where AppKeys.conflicts.keys.contains(key):
      if context.isJoined || context.sync.conflicts > 0, !(top is ConflictListScreen) {
        apply([.push(ConflictListScreen())])
      }
    default:
      apply(top.handle(key, context: context))
      if case .character(let letter) = key, stack.count == depth + 1, top.acceptsText,
        stack[depth - 1].searchesTypedWords
      {
        openedByLetter = (ObjectIdentifier(top), letter, nowMilliseconds)
      }
    }
  }

  func apply(_ effects: [Effect]) {
    for effect in effects {
      switch effect {
      case .push(let screen):
        stack.append(screen)
        // Laid out once before it loads: a list reads as many rows as the window shows.
        if let size, !isTooSmall { _ = render(rows: size.rows, columns: size.columns) }
        apply(screen.reload(context: context))
      case .pop:
        if stack.count > 1 {
          stack.removeLast()
          // The window may have changed size while another screen was on top.
          if let size, !isTooSmall { _ = render(rows: size.rows, columns: size.columns) }
          apply(top.reload(context: context))
        }
      case .dialog(let next):
        if dialog == nil { dialog = next } else { dialogQueue.append(next) }
      case .notify(let text):
        notification = (text, nowMilliseconds + 4000)
        notifications += 1
      case .search(let request):
        search.submit(request)
      case .lookUp(let isbn, let generation):
        lookup?.submit(isbn, generation: generation)
      case .searchCopies(let query, let generation):
        if let lookup {
          lookup.search(query, generation: generation)
        } else {
          apply([.notify(context.strings.copySearchUnavailable)])
        }
      case .help(let topic):
        if !(top is HelpScreen) { apply([.push(HelpScreen(topic: topic))]) }
      case .bell:
        if (try? context.store.policy.current().bell) ?? true { bells += 1 }
      case .quit:
        requestQuit()
      }
    }
    for result in search.takeResults() {
      top.receive(result, context: context)
    }
    for answer in lookup?.takeResults() ?? [] {
      for screen in stack { screen.receive(answer, context: context) }
    }
    for answer in lookup?.takeSearchAnswers() ?? [] {
      for screen in stack { apply(screen.receive(answer, context: context)) }
    }
  }

  /// True once for each bell asked for since the last call: the driver rings the terminal.
  public func takeBell() -> Bool {
    defer { bells = 0 }
    return bells > 0
  }

  /// What quitting now would lose, asked before it: a form's unsaved input, or the visit under
  /// way at the counter (its log and receipt). Nil when nothing would be lost.
  private var quitQuestion: String? {
    let s = context.strings
    if stack.contains(where: \.hasUnsavedInput) { return s.quitUnsaved }
    if context.session.isVisitUnderWay { return s.quitDuringVisit(context.session.reader?.shortName) }
    return nil
  }

  /// Quits at once, or asks first when something would be lost (F10 and Ctrl-C alike).
  private func requestQuit() {
    guard let question = quitQuestion else {
      isFinished = true
      return
    }
    apply([
      .dialog(
        Dialog(title: context.strings.quitTitle, lines: [question], kind: .confirm) { [weak self] answer in
          if case .yes = answer { self?.isFinished = true }
          return []
        })
    ])
  }
}
