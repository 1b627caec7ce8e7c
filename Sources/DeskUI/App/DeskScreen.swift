import DeskDomain
import DeskStorage

/// One screen of the desk. It keeps its own state, turns keys into effects, and draws itself
/// into its area of the screen buffer.
public protocol DeskScreen: AnyObject {
  func title(_ context: UIContext) -> String
  /// The keys shown in the bottom bar.
  func keyHints(_ context: UIContext) -> [KeyHint]
  var helpTopic: HelpTopic { get }
  /// True when leaving would lose something typed.
  var hasUnsavedInput: Bool { get }
  func render(into buffer: inout ScreenBuffer, area: Rect, context: UIContext)
  func handle(_ key: Key, context: UIContext) -> [Effect]
  /// Called when the screen shows, and again after another on top of it closed.
  func reload(context: UIContext) -> [Effect]
  /// Changes from other desks arrived: show them, keeping the selection and anything typed.
  func showArrivals(context: UIContext) -> [Effect]
  /// The answer to a search the screen asked for; stale answers are the screen's to ignore.
  func receive(_ result: SearchResult, context: UIContext)
  /// The answer to an ISBN look-up; answers to other screens' look-ups are to be ignored.
  func receive(_ result: LookupResult, context: UIContext)
  /// The answer of a search of other libraries' catalogues this screen asked for: what to do with
  /// it (a list to choose from).
  func receive(_ answer: CopySearchAnswer, context: UIContext) -> [Effect]
  /// A code from the scanner. Nil leaves it to the app, which opens what the code names.
  func handleScan(_ scan: Scan, context: UIContext) -> [Effect]?
  /// Ctrl-Z or F8 where typing may be taken back (a form's field, a search line): the effects of
  /// undoing the typing, or nil when the key is the desk's undo of the last act here.
  func undoTyping(_ key: Key, context: UIContext) -> [Effect]?
  /// True for a screen that words typed quickly after `/` (or its key on the Russian layout)
  /// search: such a burst is typing, never a scan.
  func takesAsTyping(_ burst: String) -> Bool
  /// True while the screen takes typed text (a form, a search line, the desk's input). Elsewhere
  /// any fast burst of keys is taken for a scan: typed letters mean nothing there, and a
  /// mis-scan's Enter must not open whatever row is selected.
  var acceptsText: Bool { get }
  /// True when the cursor is in a field that takes codes (inventory number, ISBN, ticket): any
  /// burst there is a scan, even of a code the library does not know yet.
  var expectsCode: Bool { get }
  /// True for screens that search words typed into them without their search key (the lists).
  var searchesTypedWords: Bool { get }
  /// Words typed into the screen without its search key: the effects of searching for them, or
  /// nil when the screen does not search (see `DeskApp`'s type-ahead).
  func typeAhead(_ text: String, context: UIContext) -> [Effect]?
  /// Time with no key to handle: the screen may read ahead what the next key is likely to want.
  /// Quick, and nothing on screen changes.
  func idle(context: UIContext)
}

extension DeskScreen {
  public var hasUnsavedInput: Bool { false }
  public func reload(context: UIContext) -> [Effect] { [] }
  public func showArrivals(context: UIContext) -> [Effect] { reload(context: context) }
  public func receive(_ result: SearchResult, context: UIContext) {}
  public func handleScan(_ scan: Scan, context: UIContext) -> [Effect]? { nil }
  public func undoTyping(_ key: Key, context: UIContext) -> [Effect]? { nil }
  public func takesAsTyping(_ burst: String) -> Bool { false }
  public func receive(_ result: LookupResult, context: UIContext) {}
  public func receive(_ answer: CopySearchAnswer, context: UIContext) -> [Effect] { [] }
  public var acceptsText: Bool { false }
  public var expectsCode: Bool { false }
  public var searchesTypedWords: Bool { false }
  public func typeAhead(_ text: String, context: UIContext) -> [Effect]? { nil }
  public func idle(context: UIContext) {}
}

public struct KeyHint: Equatable, Sendable {
  public var key: String
  public var label: String

  public init(_ key: String, _ label: String) {
    self.key = key
    self.label = label
  }
}

/// What a screen asks the app to do.
public enum Effect {
  case push(any DeskScreen)
  /// Close this screen; the one below reloads.
  case pop
  case dialog(Dialog)
  case notify(String)
  case search(SearchRequest)
  /// Look an ISBN up in the background; the answer comes back with this generation.
  case lookUp(ISBN, generation: Int)
  /// Search other libraries' catalogues in the background; the answer comes back with this
  /// generation.
  case searchCopies(CopyQuery, generation: Int)
  case help(HelpTopic)
  /// Ring the terminal's bell (a refusal, an unknown code), unless the library's settings say not to.
  case bell
  case quit
}

/// What the app shares with its screens: the library, the words of the interface, the look.
public final class UIContext {
  public let store: LibraryStore
  public let strings: any UIStrings
  public let theme: Theme
  public let clock: any Clock
  public let databaseName: String
  /// The counter's log, the reader at the counter and what may be undone, shared by every screen.
  public let session = CounterSession()
  /// Where the desk stands with its central, as the sync service last said.
  public internal(set) var sync = SyncState()
  /// The books (inventory numbers) and readers (tickets) changed here and not yet at the central,
  /// for the lists' marks.
  public internal(set) var unsynced: (books: Set<String>, readers: Set<String>) = ([], [])

  /// True on a desk joined to a central: the screens say what is synced and what is not.
  public var isJoined: Bool { sync.tie != nil }

  public init(store: LibraryStore, strings: any UIStrings, theme: Theme, clock: any Clock, databaseName: String) {
    self.store = store
    self.strings = strings
    self.theme = theme
    self.clock = clock
    self.databaseName = databaseName
  }

  public var today: LocalDate { clock.now().date }

  public func style(_ role: Role) -> Style { theme.style(role) }

  /// A store error as lines in the interface's language.
  public func messages(_ error: StoreError) -> [String] {
    strings.messages(error)
  }
}
