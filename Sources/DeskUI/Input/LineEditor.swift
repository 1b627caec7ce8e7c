import DeskDomain

/// One line of editable text with a cursor: the keys people expect from a shell or a form
/// (arrows, Home/End, Backspace/Delete, Ctrl-A/E/U/K/W), and Ctrl-Z, which takes back the typing
/// step by step.
public struct LineEditor: Equatable, Sendable {
  public private(set) var characters: [Character]
  /// Index in `characters` before which typing inserts.
  public private(set) var cursor: Int
  public var maximumLength: Int

  /// The text before each step of editing, the newest last: what Ctrl-Z puts back.
  private var history: [(characters: [Character], cursor: Int)] = []
  /// The kind of the last edit: a run of typed letters (or of deletions) is one step to undo, as
  /// in every editor; a move of the cursor ends the run.
  private var lastEdit: EditKind?
  private enum EditKind { case typing, deleting }
  /// Steps kept: a field holds one line, and nobody takes back more.
  static let historyLimit = 100

  public init(_ text: String = "", maximumLength: Int = 1000) {
    characters = Array(text)
    cursor = characters.count
    self.maximumLength = maximumLength
  }

  /// Two editors are equal when they show the same: their histories do not count.
  public static func == (lhs: LineEditor, rhs: LineEditor) -> Bool {
    lhs.characters == rhs.characters && lhs.cursor == rhs.cursor && lhs.maximumLength == rhs.maximumLength
  }

  public var text: String {
    get { String(characters) }
    set {
      characters = Array(newValue)
      cursor = characters.count
    }
  }

  /// True when Ctrl-Z has something to take back.
  public var canUndo: Bool { !history.isEmpty }

  /// Puts in `text` whole (a scan, a value found by a look-up), as one step Ctrl-Z takes back.
  public mutating func replace(with text: String) {
    guard text != self.text else { return }
    remember(nil)
    self.text = text
  }

  /// Takes back the last step of editing; false when there is none.
  @discardableResult
  public mutating func undo() -> Bool {
    guard let last = history.popLast() else { return false }
    characters = last.characters
    cursor = last.cursor
    lastEdit = nil
    return true
  }

  /// Applies an editing key; false when the key is not an editing key (the caller handles it).
  @discardableResult
  public mutating func handle(_ key: Key) -> Bool {
    switch key {
    case .character(let character):
      insert(character)
    case .left: move(to: max(0, cursor - 1))
    case .right: move(to: min(characters.count, cursor + 1))
    case .home, .control("a"): move(to: 0)
    case .end, .control("e"): move(to: characters.count)
    case .backspace:
      guard cursor > 0 else { return true }
      remember(.deleting)
      characters.remove(at: cursor - 1)
      cursor -= 1
    case .delete, .control("d"):
      guard cursor < characters.count else { return true }
      remember(.deleting)
      characters.remove(at: cursor)
    case .control("u"):
      guard cursor > 0 else { return true }
      remember(nil)
      characters.removeSubrange(0..<cursor)
      cursor = 0
    case .control("k"):
      guard cursor < characters.count else { return true }
      remember(nil)
      characters.removeSubrange(cursor...)
    case .control("w"):
      var start = cursor
      while start > 0 && characters[start - 1] == " " { start -= 1 }
      while start > 0 && characters[start - 1] != " " { start -= 1 }
      guard start < cursor else { return true }
      remember(nil)
      characters.removeSubrange(start..<cursor)
      cursor = start
    case .control("z"):
      undo()
    default:
      return false
    }
    return true
  }

  public mutating func insert(_ character: Character) {
    // Control characters from a paste or a scan never enter a field.
    guard !character.isNewline, character.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F }),
      characters.count < maximumLength
    else { return }
    remember(.typing)
    characters.insert(character, at: cursor)
    cursor += 1
  }

  private mutating func move(to position: Int) {
    cursor = position
    lastEdit = nil
  }

  /// Keeps the text as it is before an edit of `kind`, unless the edit continues a run of the
  /// same kind; nil for an edit that is a step of its own.
  private mutating func remember(_ kind: EditKind?) {
    defer { lastEdit = kind }
    if let kind, kind == lastEdit { return }
    history.append((characters, cursor))
    if history.count > LineEditor.historyLimit { history.removeFirst() }
  }

  /// The visible part of the text in a box `width` columns wide, and the cursor's column in it.
  public func visible(width: Int) -> (text: String, cursorColumn: Int) {
    guard width > 1 else { return ("", 0) }
    var start = 0
    func widthBetween(_ from: Int, _ to: Int) -> Int {
      String(characters[from..<to]).displayWidth
    }
    while widthBetween(start, cursor) > width - 1 { start += 1 }
    var end = cursor
    while end < characters.count && widthBetween(start, end + 1) <= width { end += 1 }
    return (String(characters[start..<end]), widthBetween(start, cursor))
  }
}
