import DeskDomain

/// One line of editable text with a cursor: the keys people expect from a shell or a form
/// (arrows, Home/End, Backspace/Delete, Ctrl-A/E/U/K/W).
public struct LineEditor: Equatable, Sendable {
  public private(set) var characters: [Character]
  /// Index in `characters` before which typing inserts.
  public private(set) var cursor: Int
  public var maximumLength: Int

  public init(_ text: String = "", maximumLength: Int = 1000) {
    characters = Array(text)
    cursor = characters.count
    self.maximumLength = maximumLength
  }

  public var text: String {
    get { String(characters) }
    set {
      characters = Array(newValue)
      cursor = characters.count
    }
  }

  /// Applies an editing key; false when the key is not an editing key (the caller handles it).
  @discardableResult
  public mutating func handle(_ key: Key) -> Bool {
    switch key {
    case .character(let character):
      insert(character)
    case .left: cursor = max(0, cursor - 1)
    case .right: cursor = min(characters.count, cursor + 1)
    case .home, .control("a"): cursor = 0
    case .end, .control("e"): cursor = characters.count
    case .backspace:
      guard cursor > 0 else { return true }
      characters.remove(at: cursor - 1)
      cursor -= 1
    case .delete, .control("d"):
      guard cursor < characters.count else { return true }
      characters.remove(at: cursor)
    case .control("u"):
      characters.removeSubrange(0..<cursor)
      cursor = 0
    case .control("k"):
      characters.removeSubrange(cursor...)
    case .control("w"):
      var start = cursor
      while start > 0 && characters[start - 1] == " " { start -= 1 }
      while start > 0 && characters[start - 1] != " " { start -= 1 }
      characters.removeSubrange(start..<cursor)
      cursor = start
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
    characters.insert(character, at: cursor)
    cursor += 1
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
