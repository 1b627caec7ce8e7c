import DeskDomain
import DeskScanning
import DeskTestSupport
import Testing

@testable import DeskStorage
@testable import DeskUI

/// A screen's keys are declared once: what it handles is what its bar shows and its help lists,
/// in each language, and a letter key works on the Russian layout too.
@Suite struct ScreenActionTests {
  /// The screens in the states that give them every action they have: a book out and one on the
  /// shelf, a reader with loans, the Desk at its code field and with a loan chosen.
  func screensInEveryState(_ desk: DeskHarness, _ context: UIContext) throws -> [(
    String, any DeskScreen, [ScreenAction]
  )] {
    var found: [(String, any DeskScreen, [ScreenAction])] = []
    func add<S: DeskScreen>(_ name: String, _ screen: S, _ actions: (S) -> [ScreenAction]) {
      _ = screen.reload(context: context)
      found.append((name, screen, actions(screen)))
    }
    add("Home", HomeScreen()) { $0.actions(context) }
    add("Home on a desk joined to a central", HomeScreen()) { screen in
      context.sync.tie = DeskTie(
        deskID: "d", deskName: "Desk", central: "host=central", libraryID: "l", cursor: 0, lastError: "")
      defer { context.sync.tie = nil }
      return screen.actions(context)
    }
    add("book list", BookListScreen()) { $0.actions(context) }
    add("reader list", ReaderListScreen()) { $0.actions(context) }
    add("book out", BookDetailScreen(inventory: "100235")) { $0.actions(context) }
    add("book on the shelf", BookDetailScreen(inventory: "100234")) { $0.actions(context) }
    // A look-up that waited for the network and found other details than the book's: the librarian
    // applies or dismisses them.
    let isbn = try ISBN("978-5-17-090630-7")
    try desk.store.books.add(bookDraft("900", "Без подробностей", isbn: isbn.hyphenated))
    try desk.store.books.enqueueLookup(isbn, error: "offline")
    try desk.store.books.saveLookup(isbn, facts: BookFacts(provider: "test", title: "С подробностями"))
    add("book with a look-up's offer", BookDetailScreen(inventory: "900")) { $0.actions(context) }
    add("reader", ReaderDetailScreen(ticket: "17")) { $0.actions(context) }
    add("hold shelf", HoldShelfScreen()) { $0.actions(context) }
    add("overdue", OverdueScreen()) { $0.actions(context) }
    add("statistics", StatisticsScreen()) { screen in
      _ = screen.reload(context: context)
      return screen.actions(context)
    }
    add("conflicts", ConflictListScreen()) { $0.actions(context) }
    add("new book", BookFormScreen(editing: nil, onSaved: { _ in })) { $0.actions(context) }
    add("new reader", ReaderFormScreen(editing: nil, onSaved: { _ in })) { $0.actions(context) }
    add("scan image", ScanImageScreen()) { $0.actions(context) }
    // Stocktaking: with no check open; then a check with a scan of each surprise, chosen in turn.
    add("stocktaking, no check", StocktakeScreen()) { $0.actions(context) }
    try desk.store.books.update(inventory: "100238") { $0[.place] = "Зал 1" }
    try desk.store.books.update(inventory: "100239") { $0.status = "lost" }
    let check = try #require(try desk.store.stocktakes.start(name: "", scope: StocktakeScope()))
    for (code, place) in [("100234", ""), ("100235", ""), ("100238", "Зал 2"), ("100239", ""), ("555", "")] {
      _ = try desk.store.stocktakes.scan(code, in: check, at: place)
    }
    add("stocktaking", StocktakeScreen()) { $0.actions(context) }
    // The latest scan first: ↓ once chooses it, and each ↓ more the one before.
    for (downs, chosen) in ["an unknown number", "a lost copy", "a misplaced copy", "a copy out on loan"].enumerated() {
      let screen = StocktakeScreen()
      add("stocktaking, \(chosen) chosen", screen) { screen in
        for _ in 0...downs { _ = screen.handle(.down, context: context) }
        return screen.actions(context)
      }
    }
    add("a check's report", StocktakeReportScreen(check: check)) { $0.actions(context) }
    guard let reader = try desk.store.readers.reader(ticket: "17") else { throw HarnessError.missing("reader 17") }
    context.session.select(reader, context: context)
    add("Desk with a reader", DeskCirculationScreen()) { $0.actions(context) }
    add("Desk with a loan chosen", DeskCirculationScreen()) { screen in
      _ = screen.handle(.down, context: context)
      return screen.actions(context)
    }
    add("codes found in an image", ScanImageScreen()) { screen in
      let box = ScannedSymbol.Box(left: 0, top: 0, right: 1, bottom: 1)
      screen.symbols = [
        ScannedSymbol(symbology: "QR-Code", bytes: Array("1".utf8), box: box),
        ScannedSymbol(symbology: "QR-Code", bytes: Array("2".utf8), box: box),
      ]
      return screen.actions(context)
    }
    return found
  }

  enum HarnessError: Error { case missing(String) }

  /// Every key a screen takes is made from a declaration its help lists (or the app's, which
  /// help lists for everywhere), takes only the declaration's keys, and is in the bar when hinted;
  /// every declaration of a screen is taken by the screen in some state (a help line never names
  /// a dead key). A conflict's settlements, one kind at a time, are the conflict tests' part.
  @Test(arguments: [InterfaceLanguage.english, .russian])
  func everyKeyAScreenTakesIsInItsHelpAndEveryKeyInHelpIsTaken(language: InterfaceLanguage) throws {
    let desk = try DeskHarness(language: language)
    let context = UIContext(
      store: desk.store, strings: language.strings, theme: Theme(colors: false), clock: desk.clock,
      databaseName: "library")
    var taken: [HelpTopic: Set<KeyDeclaration>] = [:]
    for (name, screen, actions) in try screensInEveryState(desk, context) {
      #expect(!actions.isEmpty, "\(name) declares its keys")
      let bar = screen.keyHints(context)
      let declared = Set(screen.helpTopic.keys + AppKeys.all)
      for action in actions {
        #expect(declared.contains(action.declared), "\(name): \(action.declared.helpName) is not in its help")
        #expect(Set(action.keys).isSubset(of: action.declared.keys), "\(name): \(action.keys) not declared")
        taken[screen.helpTopic, default: []].insert(action.declared)
        if let hint = action.hint, let key = action.keys.first {
          #expect(bar.contains(KeyHint(action.name ?? key.hintName, hint)), "\(name): \(hint) is not in its bar")
        }
      }
    }
    let settlements = Set(ConflictScreen.Keys.all).subtracting([
      ConflictListScreen.Keys.choose, ConflictListScreen.Keys.open, ConflictScreen.Keys.back,
    ])
    for topic in HelpTopic.allCases {
      for declaration in topic.keys where !declaration.isLegend && !settlements.contains(declaration) {
        // The F5 of a form is a book's form's: the help of forms lists it.
        if declaration == BookFormScreen.takeFound, topic == .form { continue }
        #expect(
          taken[topic, default: []].contains(declaration),
          "\(topic): \(declaration.helpName) (\(declaration.meaning)) is taken by no screen")
      }
    }
  }

  /// The help lists each screen's declarations in its order, a line each, in the language's words.
  @Test func theHelpIsMadeFromTheDeclarations() throws {
    let desk = try DeskHarness()
    let context = UIContext(
      store: desk.store, strings: InterfaceLanguage.english.strings, theme: Theme(colors: false), clock: desk.clock,
      databaseName: "library")
    var buffer = ScreenBuffer(rows: 400, columns: 120)
    HelpScreen(topic: .bookDetail).render(
      into: &buffer, area: Rect(row: 0, column: 0, height: 400, width: 120), context: context)
    let text = (0..<400).map { buffer.text(row: $0) }.joined(separator: "\n")
    for declaration in HelpTopic.bookDetail.keys + AppKeys.all {
      #expect(text.contains(declaration.helpName), "\(declaration.helpName)")
      #expect(text.contains(context.strings.meaning(declaration.meaning)))
    }
  }

  /// Every letter key also works where it is on the Russian ЙЦУКЕН layout, from the one
  /// declaration: `у` edits as `e` does, `в` deletes as `d` does.
  @Test func aLetterKeyWorksOnTheRussianLayoutToo() throws {
    let desk = try DeskHarness()
    let context = UIContext(
      store: desk.store, strings: InterfaceLanguage.english.strings, theme: Theme(colors: false), clock: desk.clock,
      databaseName: "library")
    let screen = BookDetailScreen(inventory: "100234")
    _ = screen.reload(context: context)
    let actions = screen.actions(context)
    for (latin, russian) in [("e", "у"), ("i", "ш"), ("h", "р"), ("s", "ы"), ("d", "в")] {
      let byLatin = actions.firstIndex { $0.handles(.character(Character(latin))) }
      let byRussian = actions.firstIndex { $0.handles(.character(Character(russian))) }
      #expect(byLatin != nil && byLatin == byRussian, "\(russian) does what \(latin) does")
    }
    // Only letters have twins: `ю` (where `.` is) does not search, and upper case is its own key.
    #expect(!actions.contains { $0.handles(.character("У")) })
    let list = BookListScreen()
    _ = list.reload(context: context)
    #expect(!list.actions(context).contains { $0.handles(.character("ю")) })
  }
}
