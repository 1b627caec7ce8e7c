/// Folding of text for sorting and searching.
///
/// SQLite's `lower()`, `LIKE` and `NOCASE` fold ASCII only, so every sort and search key is
/// folded here, in Swift, and stored: lower-cased (Swift knows Cyrillic case), `ё` → `е`,
/// Latin diacritics removed (`é` → `e`, `ß` → `ss`). `й` stays `й`: it is a letter of its own.
public enum TextFolding {
  public static func fold(_ text: String) -> String {
    if let plain = text.utf8.withContiguousStorageIfAvailable(foldedPlain), let plain { return plain }
    return foldedByScalars(text)
  }

  /// The fold of a text of ASCII and the Russian alphabet, most of any catalogue, made from its
  /// UTF-8 bytes straight into the string's storage; nil for a text with any other character,
  /// which `foldedByScalars` folds. Appended scalar by scalar, making a book's sort key and search
  /// words was 10.5 % of an import's time under `perf` (100,000 books), 7.0 % so.
  static func foldedPlain(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
    var plain = true
    let folded = String(unsafeUninitializedCapacity: bytes.count) { utf8 in
      var (read, written) = (0, 0)
      while read < bytes.count {
        let byte = bytes[read]
        if byte < 0x80 {
          utf8[written] = (0x41...0x5A).contains(byte) ? byte + 0x20 : byte
          (read, written) = (read + 1, written + 1)
          continue
        }
        // А…я and Ё, ё (U+0401…U+0451) are two bytes that start with 0xD0 or 0xD1.
        guard byte == 0xD0 || byte == 0xD1, read + 1 < bytes.count else {
          plain = false
          return 0
        }
        var scalar = UInt32(byte & 0x1F) << 6 | UInt32(bytes[read + 1] & 0x3F)
        switch scalar {
        case 0x410...0x42F: scalar += 0x20
        case 0x430...0x44F: break
        case 0x401, 0x451: scalar = 0x435
        default:
          plain = false
          return 0
        }
        utf8[written] = UInt8(0xC0 | scalar >> 6)
        utf8[written + 1] = UInt8(0x80 | scalar & 0x3F)
        (read, written) = (read + 2, written + 2)
      }
      return written
    }
    return plain ? folded : nil
  }

  /// The fold of any text, a scalar at a time.
  static func foldedByScalars(_ text: String) -> String {
    var result = ""
    result.unicodeScalars.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      // Plain Latin and Russian letters, most of any catalogue, are folded without asking Unicode.
      switch scalar.value {
      case 0x41...0x5A, 0x410...0x42F:
        result.unicodeScalars.append(Unicode.Scalar(scalar.value + 0x20).unsafelyUnwrapped)
      case 0x00...0x7F, 0x430...0x44F: result.unicodeScalars.append(scalar)
      case 0x401, 0x451: result.unicodeScalars.append("е")
      default:
        for lower in scalar.properties.lowercaseMapping.unicodeScalars { appendFolded(lower, to: &result) }
      }
    }
    return result
  }

  /// Appends a lower-case scalar folded: `ё` as `е`, accents off Latin letters.
  private static func appendFolded(_ scalar: Unicode.Scalar, to result: inout String) {
    switch scalar {
    case "ё": result.unicodeScalars.append("е")
    case "\u{0300}"..."\u{036F}":
      // A combining accent typed separately (decomposed input): drop it, unless it makes
      // й (и + breve) or ё (е + diaeresis), which the precomposed forms cover.
      if scalar == "\u{0306}", result.unicodeScalars.last == "и" {
        result.unicodeScalars.removeLast()
        result.unicodeScalars.append("й")
      }
    default:
      // Only Latin-1 Supplement and Latin Extended-A letters carry the accents folded here.
      if scalar.value >= 0xC0, scalar.value < 0x180, let base = latinBase[scalar] {
        result.unicodeScalars.append(contentsOf: base.unicodeScalars)
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
  }

  /// The words of a text, folded, split at anything that is not a letter or digit.
  public static func words(_ text: String) -> [String] {
    var words: [String] = []
    forEachWord(in: text) { words.append(String($0)) }
    return words
  }

  /// The folded words of a text joined by single spaces: what the full-text index holds.
  public static func joinedWords(_ text: String) -> String {
    var result = ""
    forEachWord(in: text) { word in
      if !result.isEmpty { result.append(" ") }
      result.append(contentsOf: word)
    }
    return result
  }

  /// Calls `body` with each folded word of `text`, a Latin look-alike in a Cyrillic word read as
  /// Cyrillic. A combining mark belongs to the letter before it.
  private static func forEachWord(in text: String, _ body: (Substring) -> Void) {
    let folded = fold(text)
    let scalars = folded.unicodeScalars
    var start: String.Index?
    var hasCyrillic = false
    var hasLatin = false
    func endWord(at end: String.Index) {
      guard let wordStart = start else { return }
      let word = folded[wordStart..<end]
      if hasCyrillic && hasLatin {
        let unmixed = unmixingScripts(String(word))
        body(unmixed[...])
      } else {
        body(word)
      }
      start = nil
      hasCyrillic = false
      hasLatin = false
    }
    var index = scalars.startIndex
    while index != scalars.endIndex {
      let scalar = scalars[index]
      let value = scalar.value
      let inWord: Bool
      switch value {
      case 0x30...0x39: inWord = true
      case 0x61...0x7A:
        inWord = true
        hasLatin = true
      case 0x00...0x7F: inWord = false
      case 0x430...0x44F:
        // The folded Russian alphabet, most of a catalogue's words: letters without asking Unicode.
        inWord = true
        hasCyrillic = true
      case 0x400...0x4FF:
        inWord = scalar.properties.isAlphabetic
        hasCyrillic = hasCyrillic || inWord
      default:
        // Chinese and Japanese write no spaces between words: each character is a word of its
        // own, so that any part of a title is found (FTS5 would take a whole run as one word).
        if isCJK(value) {
          endWord(at: index)
          let next = scalars.index(after: index)
          start = index
          endWord(at: next)
          index = next
          continue
        }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
          .decimalNumber, .letterNumber, .otherNumber:
          inWord = true
        case .nonspacingMark, .spacingMark, .enclosingMark:
          inWord = start != nil
        default:
          inWord = false
        }
      }
      if inWord {
        if start == nil { start = index }
      } else {
        endWord(at: index)
      }
      index = scalars.index(after: index)
    }
    endWord(at: scalars.endIndex)
  }

  /// True for the Chinese characters and the Japanese kana.
  public static func isCJK(_ value: UInt32) -> Bool {
    switch value {
    case 0x3040...0x30FF, 0x31F0...0x31FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0xFF66...0xFF9F,
      0x20000...0x2FA1F:
      return true
    default:
      return false
    }
  }

  /// True when the text holds a Chinese character or Japanese kana.
  public static func hasCJK(_ text: String) -> Bool {
    text.unicodeScalars.contains { isCJK($0.value) }
  }

  /// A word of Cyrillic letters with a Latin look-alike in it (`пушkин`, typed on the wrong
  /// layout or pasted) is read as all Cyrillic; a word of one script is left alone.
  static func unmixingScripts(_ word: String) -> String {
    var hasCyrillic = false
    var hasLatin = false
    for scalar in word.unicodeScalars {
      if (0x0400...0x04FF).contains(scalar.value) { hasCyrillic = true }
      if (0x61...0x7A).contains(scalar.value) { hasLatin = true }
    }
    guard hasCyrillic && hasLatin else { return word }
    return String(word.map { cyrillicTwins[$0] ?? $0 })
  }

  private static let cyrillicTwins: [Character: Character] = [
    "a": "а", "b": "в", "c": "с", "e": "е", "h": "н", "k": "к", "m": "м", "o": "о", "p": "р", "t": "т", "x": "х",
    "y": "у",
  ]

  private static let latinBase: [Unicode.Scalar: String] = {
    let groups: [(String, String)] = [
      ("àáâãäåāăą", "a"), ("çćĉċč", "c"), ("ďđ", "d"), ("èéêëēĕėęě", "e"), ("ĝğġģ", "g"),
      ("ĥħ", "h"), ("ìíîïĩīĭįı", "i"), ("ĵ", "j"), ("ķ", "k"), ("ĺļľŀł", "l"), ("ñńņňŉ", "n"),
      ("òóôõöøōŏő", "o"), ("ŕŗř", "r"), ("śŝşš", "s"), ("ţťŧ", "t"), ("ùúûüũūŭůűų", "u"),
      ("ŵ", "w"), ("ýÿŷ", "y"), ("źżž", "z"), ("æ", "ae"), ("œ", "oe"), ("ß", "ss"), ("þ", "th"),
      ("ð", "d"),
    ]
    var table: [Unicode.Scalar: String] = [:]
    for (letters, base) in groups {
      for scalar in letters.unicodeScalars { table[scalar] = base }
    }
    return table
  }()
}

extension Character {
  /// One of 0…9. Told from the byte: `isNumber` asks Unicode's tables, which an import reading a
  /// million prices and numbers felt (1 % of its time).
  public var isASCIIDigit: Bool {
    guard let value = asciiValue else { return false }
    return value >= UInt8(ascii: "0") && value <= UInt8(ascii: "9")
  }
}

extension String {
  /// The text without leading and trailing white space and control characters: what a
  /// scanner, a paste or a keyboard leaves around a value.
  public func trimmingWhitespace() -> String {
    guard hasPaddingAtEnds else { return self }
    let scalars = unicodeScalars
    guard let first = scalars.firstIndex(where: { !String.isPadding($0) }),
      let last = scalars.lastIndex(where: { !String.isPadding($0) })
    else { return "" }
    return String(scalars[first...last])
  }

  /// True when the text begins or ends with white space or a control character
  /// (`trimmingWhitespace` would change it). Most values do not: told from the first and last
  /// bytes, or the first and last letters, without a copy (an import or an export looks at
  /// millions of values).
  public var hasPaddingAtEnds: Bool {
    guard let first = utf8.first, let last = utf8.last else { return false }
    if first > 0x20, first < 0x7F, last > 0x20, last < 0x7F { return false }
    guard let head = unicodeScalars.first, let tail = unicodeScalars.last else { return false }
    return String.isPadding(head) || String.isPadding(tail)
  }

  /// White space or a control character. Printable ASCII and Cyrillic are told without looking
  /// up the character's properties.
  static func isPadding(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x21..<0x7F, 0x0400..<0x0530: return false
    default: return scalar.properties.isWhitespace || scalar.properties.generalCategory == .control
    }
  }

  /// The text with control characters replaced by visible placeholders (`␛` for ESC, `␊`
  /// for a line feed, `�` for the C1 controls and the bidirectional controls), so that data never
  /// drives a terminal: an RLO (U+202E) in a title would show the rest of the line reversed.
  public var visibleForTerminal: String {
    var result = ""
    for scalar in unicodeScalars {
      switch scalar.value {
      case 0x00...0x1F: result.unicodeScalars.append(Unicode.Scalar(0x2400 + scalar.value) ?? "\u{FFFD}")
      case 0x7F: result.unicodeScalars.append("\u{2421}")
      case 0x80...0x9F: result.unicodeScalars.append("\u{FFFD}")
      case _ where scalar.isBidiControl: result.unicodeScalars.append("\u{FFFD}")
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result
  }
}
