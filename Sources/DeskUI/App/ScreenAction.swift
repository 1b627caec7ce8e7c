import DeskDomain

/// One thing a screen does on a key, made from the key's declaration (`KeyDeclaration`, which the
/// help lists): the hint bar, the key handler and the same key on the Russian layout all come
/// from it, so a key cannot be handled and unhinted, or hinted and dead, or work on one layout
/// only, or be missing from the help.
struct ScreenAction {
  /// The declaration the help describes it by.
  let declared: KeyDeclaration
  /// The keys that do it (the declaration's, or some of them); the first is the one the bar names.
  let keys: [Key]
  /// The word in the hint bar, or nil for an action the bar leaves to help (a second key, F6).
  let hint: String?
  /// The key as the bar names it when not its own name (`↑↓` for a pair of arrows).
  let name: String?
  /// The work, told which of its keys was pressed.
  let run: (Key) -> [Effect]

  init(_ declared: KeyDeclaration, hint: String?, name: String? = nil, run: @escaping () -> [Effect]) {
    self.init(declared, hint: hint, name: name) { _ in run() }
  }

  /// An action whose keys do it each their own way (the arrows of a choice), or that takes only
  /// some of its declaration's keys (`keys`: the digit of one side of a conflict).
  init(
    _ declared: KeyDeclaration, keys: [Key]? = nil, hint: String?, name: String? = nil,
    byKey run: @escaping (Key) -> [Effect]
  ) {
    self.declared = declared
    self.keys = keys ?? declared.keys
    self.hint = hint
    self.name = name
    self.run = run
  }

  /// A key the app takes on every screen before the screen sees it (F8's undo), named in this
  /// screen's bar because it matters here.
  static func app(_ declared: KeyDeclaration, hint: String) -> ScreenAction {
    ScreenAction(declared, hint: hint) { [] }
  }

  /// Moving a choice among `count` rows, `page` at a time for PgUp and PgDn: the arrows and
  /// whichever of PgUp, PgDn, Home and End the declaration has.
  static func choosing(
    _ declared: KeyDeclaration, hint: String?, count: Int, page: Int = 10, selected: @escaping (Int) -> Void,
    from current: Int
  ) -> ScreenAction {
    ScreenAction(declared, hint: hint, name: "↑↓") { key in
      let last = max(0, count - 1)
      switch key {
      case .up: selected(max(0, current - 1))
      case .down: selected(min(last, current + 1))
      case .pageUp: selected(max(0, current - page))
      case .pageDown: selected(min(last, current + page))
      case .home: selected(0)
      case .end: selected(last)
      default: break
      }
      return []
    }
  }

  /// True for one of its keys, or a letter key's twin on the other layout: `у` is where `e` is on
  /// the Russian ЙЦУКЕН layout, so a librarian who left Russian on edits with it all the same.
  func handles(_ key: Key) -> Bool {
    if keys.contains(key) { return true }
    guard case .character(let typed) = key, typed.isLetter, let twin = KeyboardLayout.twin(of: typed), twin.isLetter
    else { return false }
    return keys.contains(.character(twin))
  }
}

extension Array where Element == ScreenAction {
  /// The bar's hints, in the order declared.
  var hints: [KeyHint] {
    compactMap { action in
      guard let hint = action.hint, let key = action.keys.first else { return nil }
      return KeyHint(action.name ?? key.hintName, hint)
    }
  }

  /// The effects of the action `key` does, or nil when no action takes it.
  func run(_ key: Key) -> [Effect]? {
    first { $0.handles(key) }?.run(key)
  }
}

extension Key {
  /// The key as hint bars and help name it.
  var hintName: String {
    switch self {
    case .character(let character): String(character)
    case .enter: "Enter"
    case .escape: "Esc"
    case .tab: "Tab"
    case .backTab: "Shift-Tab"
    case .backspace: "Backspace"
    case .delete: "Delete"
    case .up: "↑"
    case .down: "↓"
    case .left: "←"
    case .right: "→"
    case .home: "Home"
    case .end: "End"
    case .pageUp: "PgUp"
    case .pageDown: "PgDn"
    case .insert: "Insert"
    case .function(let number): "F\(number)"
    case .control(let letter): "Ctrl-\(String(letter).uppercased())"
    }
  }
}
