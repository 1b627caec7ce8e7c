import DeskDomain
import DeskStorage
import DeskTestSupport
import Foundation

@testable import DeskUI

/// The desk on a real library file in a temporary folder, driven by keys and read back from the
/// screen buffer: everything the librarian would see, without a terminal.
final class DeskHarness {
  let folder = TemporaryFolder()
  let clock = TestClock("2026-11-30T10:00:00Z")
  let store: LibraryStore
  let app: DeskApp
  let search: any SearchService
  var now: Int64 = 1_000

  init(
    language: InterfaceLanguage = .english, colors: Bool = true,
    search makeSearch: ((LibraryStore) -> any SearchService)? = nil,
    lookup makeLookup: ((LibraryStore) -> any LookupService)? = nil, wedge: WedgeSettings = WedgeSettings(),
    sync makeSync: ((LibraryStore) throws -> any SyncService)? = nil,
    seed: (LibraryStore) throws -> Void = DeskHarness.seedSmallLibrary
  ) throws {
    store = try LibraryStore(path: folder.file("library.sqlite"), clock: clock)
    try seed(store)
    search = makeSearch?(store) ?? ImmediateSearchService(store: store)
    let context = UIContext(
      store: store, strings: language.strings, theme: Theme(colors: colors), clock: clock,
      databaseName: "library.sqlite")
    app = DeskApp(
      context: context, search: search, lookup: makeLookup?(store), wedge: wedge, sync: try makeSync?(store))
  }

  /// Presses keys the way a person types: each key's bytes as xterm sends them, 200 ms apart,
  /// the desk idle in between.
  func press(_ keys: Key...) {
    for key in keys {
      send(TerminalBytes.xterm(key))
    }
  }

  /// Sends bytes as one read of the terminal, then lets the desk idle for 100 ms.
  func send(_ bytes: [UInt8]) {
    now += 100
    app.handle(.input(bytes, atMilliseconds: now))
    now += 100
    app.handle(.tick(atMilliseconds: now))
  }

  func send(_ text: String) {
    send(Array(text.utf8))
  }

  /// A code as a scanner types it: each character's bytes `gap` milliseconds apart, then its
  /// terminator's bytes (Enter: CR; nil for none), then a pause.
  func scan(_ code: String, gap: Int64 = 1, terminator: [UInt8]? = [0x0D], pause: Bool = true) {
    for character in code {
      now += gap
      app.handle(.input(Array(String(character).utf8), atMilliseconds: now))
    }
    if let terminator {
      for byte in terminator {
        now += gap
        app.handle(.input([byte], atMilliseconds: now))
      }
    }
    if pause { idle() }
  }

  /// Bytes a millisecond after the last, as one read: part of a scanner's burst.
  func sendQuickly(_ bytes: [UInt8]) {
    now += 1
    app.handle(.input(bytes, atMilliseconds: now))
  }

  /// The window changes size, as the driver reports it.
  func resize(rows: Int, columns: Int) {
    app.handle(.resize(rows: rows, columns: columns))
  }

  /// Nothing for 200 ms: the desk ticks.
  func idle() {
    now += 200
    app.handle(.tick(atMilliseconds: now))
  }

  /// Types text as a person does: a look at the screen first (half a second), then a key every
  /// 200 ms.
  func type(_ text: String) {
    now += 500
    for character in text { press(.character(character)) }
  }

  func screen(rows: Int = 24, columns: Int = 80) -> ScreenBuffer {
    app.render(rows: rows, columns: columns)
  }

  /// `screen` opened on top, drawn as the librarian sees it.
  func text(rows: Int, columns: Int, opening screen: any DeskScreen) -> String {
    app.apply([.push(screen)])
    return text(rows: rows, columns: columns)
  }

  func text(rows: Int = 24, columns: Int = 80) -> String {
    screen(rows: rows, columns: columns).text
  }

  /// What the librarian can read: the screen at a size where nothing is cut, and the open
  /// dialog's message unwrapped.
  var shown: String {
    text(rows: 50, columns: 220) + "\n" + (app.dialog?.lines.joined(separator: "\n") ?? "")
  }

  /// A few Russian and foreign books, two readers, one book out and one overdue.
  static func seedSmallLibrary(_ store: LibraryStore) throws {
    let books: [(String, String, String, String, String)] = [
      ("100234", "Лермонтов", "М. Ю.", "Герой нашего времени", "978-5-17-079585-7"),
      ("100235", "Булгаков", "М. А.", "Мастер и Маргарита", ""),
      ("100236", "Достоевский", "Ф. М.", "Преступление и наказание", ""),
      ("100237", "Ёлкин", "Ф. И.", "Ёлка и её друзья: очень длинное название, которое не поместится", ""),
      ("100238", "Austen", "J.", "Pride and Prejudice", "978-0-14-143951-8"),
      ("100239", "", "", "Азбука", ""),
    ]
    for (inventory, surname, initials, title, isbn) in books {
      try store.books.add(bookDraft(inventory, title, surname: surname, initials: initials, isbn: isbn))
    }
    try store.readers.add(readerDraft("17", "Иванова", firstName: "Мария", phone: "+7 343 210-11-01"))
    try store.readers.add(readerDraft("18", "Петров", firstName: "Илья"))
    let clock = store.clock as? TestClock
    clock?.advance(days: -20)
    try store.circulation.issue(ticket: "18", inventories: ["100236"])
    clock?.advance(days: 17)
    try store.circulation.issue(ticket: "17", inventories: ["100235"])
    clock?.advance(days: 3)
  }
}

/// Holds search requests until the test answers them, in any order: for testing that a slow,
/// superseded search never paints its stale answer.
final class ManualSearchService: SearchService {
  let store: LibraryStore
  var requests: [SearchRequest] = []
  private var ready: [SearchResult] = []

  init(store: LibraryStore) {
    self.store = store
  }

  func submit(_ request: SearchRequest) { requests.append(request) }

  func answer(_ request: SearchRequest) {
    ready.append(SearchResult.run(request, on: store))
  }

  func takeResults() -> [SearchResult] {
    defer { ready = [] }
    return ready
  }
}

func matchesGolden(_ text: String, _ name: String) throws -> Bool {
  try matchesGolden(text + "\n", name, folder: "DeskUITests")
}
