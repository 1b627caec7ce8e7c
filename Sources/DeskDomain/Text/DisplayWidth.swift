/// How many terminal columns text takes: 0 for combining marks and zero-width characters, 2 for
/// East Asian wide and full-width characters and most emoji, 1 otherwise. Tables and screens
/// align columns by this, never by `count`.
extension Unicode.Scalar {
  public var displayWidth: Int {
    let v = value
    if v == 0 { return 0 }
    // Controls are shown as one-column placeholders (`visibleForTerminal`).
    if isOneColumnCharacter || v < 0x20 || (0x7F..<0xA0).contains(v) || isBidiControl { return 1 }
    switch properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .format: return 0
    default: break
    }
    if v == 0x200B || (0x1160...0x11FF).contains(v) { return 0 }
    return Unicode.Scalar.wideRanges.contains(where: { $0.contains(v) }) ? 2 : 1
  }

  /// A printable scalar that is a whole character by itself, one column wide: Latin and
  /// Cyrillic letters, digits and punctuation, most of what a screen shows, known without asking
  /// Unicode. The soft hyphen and Cyrillic's combining marks (U+0483–0489) are the exceptions
  /// among them; no two such scalars join into one character.
  public var isOneColumnCharacter: Bool {
    let v = value
    return (0x20..<0x7F).contains(v) || ((0xA0..<0x300).contains(v) && v != 0xAD) || (0x400..<0x483).contains(v)
      || (0x48A..<0x530).contains(v)
  }

  /// The marks and embeddings that reorder text (ALM, LRM, RLM, LRE…RLO, LRI…PDI): harmless in a
  /// record, but sent to a terminal they turn the rest of the line around.
  public var isBidiControl: Bool {
    let v = value
    return v == 0x061C || v == 0x200E || v == 0x200F || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v)
  }

  private static let wideRanges: [ClosedRange<UInt32>] = [
    0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
    0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
    0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
  ]
}

extension String {
  public var displayWidth: Int {
    unicodeScalars.reduce(0) { $0 + $1.displayWidth }
  }

  /// The text cut to at most `width` columns, with `…` marking a cut.
  public func truncated(toWidth width: Int) -> String {
    guard displayWidth > width else { return self }
    guard width > 0 else { return "" }
    var result = ""
    var used = 0
    for character in self {
      let w = String(character).displayWidth
      if used + w > width - 1 { break }
      result.append(character)
      used += w
    }
    return result + "…"
  }

  /// The text right-aligned in `width` columns with spaces before it; never cut.
  public func rightAligned(toWidth width: Int) -> String {
    String(repeating: " ", count: max(0, width - displayWidth)) + self
  }

  /// The text cut or padded with spaces to exactly `width` columns.
  public func padded(toWidth width: Int) -> String {
    let cut = truncated(toWidth: width)
    return cut + String(repeating: " ", count: max(0, width - cut.displayWidth))
  }
}
