import DeskDomain
import DeskStorage
import DeskTestSupport
import Testing

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
    add("book list", BookListScreen()) { $0.actions(context) }
    add("reader list", ReaderListScreen()) { $0.actions(context) }
    add("book out", BookDetailScreen(inventory: "100235")) { $0.actions(context) }
    add("book on the shelf", BookDetailScreen(inventory: "100234")) { $0.actions(context) }
    add("reader", ReaderDetailScreen(ticket: "17")) { $0.actions(context) }
    add("hold shelf", HoldShelfScreen()) { $0.actions(context) }
    add("overdue", OverdueScreen()) { $0.actions(context) }
    add("conflicts", ConflictListScreen()) { $0.actions(context) }
    add("new book", BookFormScreen(editing: nil, onSaved: { _ in })) { $0.actions(context) }
    add("new reader", ReaderFormScreen(editing: nil, onSaved: { _ in })) { $0.actions(context) }
    add("scan image", ScanImageScreen()) { $0.actions(context) }
    guard let reader = try desk.store.readers.reader(ticket: "17") else { throw HarnessError.missing("reader 17") }
    context.session.select(reader, context: context)
    add("Desk with a reader", DeskCirculationScreen()) { $0.actions(context) }
    add("Desk with a loan chosen", DeskCirculationScreen()) { screen in
      _ = screen.handle(.down, context: context)
      return screen.actions(context)
    }
    return found
  }

  enum HarnessError: Error { case missing(String) }

  /// The keys a help line names: «d, Delete» names d and Delete, «↑ ↓ Enter» three keys.
  func keysNamed(_ column: String) -> Set<String> {
    Set(column.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init))
  }

  @Test(arguments: [InterfaceLanguage.english, .russian])
  func everyKeyAScreenTakesIsInItsBarAndItsHelp(language: InterfaceLanguage) throws {
    let desk = try DeskHarness(language: language)
    let strings = language.strings
    let context = UIContext(
      store: desk.store, strings: strings, theme: Theme(colors: false), clock: desk.clock, databaseName: "library")
    for (name, screen, actions) in try screensInEveryState(desk, context) {
      #expect(!actions.isEmpty, "\(name) declares its keys")
      let bar = screen.keyHints(context)
      let help =
        strings.helpKeys(screen.helpTopic).map(\.0).reduce(into: Set<String>()) { $0.formUnion(keysNamed($1)) }
        .union(strings.helpKeysEverywhere.map(\.0).reduce(into: Set<String>()) { $0.formUnion(keysNamed($1)) })
      for action in actions {
        guard let key = action.keys.first else { continue }
        let named = action.name.map { $0.map(String.init) } ?? [key.hintName]
        #expect(named.allSatisfy(help.contains), "\(name): \(named) is not in its help (\(language))")
        if let hint = action.hint {
          #expect(bar.contains(KeyHint(action.name ?? key.hintName, hint)), "\(name): \(hint) is not in its bar")
        }
      }
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
