/// The character set an ISO 2709 record's text is written in, told from the record itself where
/// it says (leader position 9; UNIMARC's field 100), else from what its bytes look like, else as
/// the librarian said (`--encoding`).
public enum MARCCharacterSet: Equatable, Sendable {
  case utf8
  case marc8
  case windows1251
  case codePage866

  /// The text of `bytes` in this set; nil where MARC-8 switches to a set it does not read.
  public func decode(_ bytes: [UInt8]) -> String? {
    switch self {
    case .utf8: String(decoding: bytes, as: UTF8.self)
    case .marc8: MARC8.decode(bytes)
    case .windows1251: Windows1251.decode(bytes)
    case .codePage866: CodePage866.decode(bytes)
    }
  }

  /// `isMARC21`: MARC 21 rather than UNIMARC/RUSMARC. `said`: the `--encoding` given, if any;
  /// `fileDefault` the encoding of a RUSMARC record that names none (IRBIS writes Windows-1251).
  public static func of(_ record: [UInt8], isMARC21: Bool, said: MARCCharacterSet?, fileDefault: MARCCharacterSet)
    -> MARCCharacterSet
  {
    // Leader position 9: `a` is Unicode in both formats.
    if record.count > 9, record[9] == UInt8(ascii: "a") { return .utf8 }
    if isMARC21 {
      if let said { return said }
      // UTF-8 whose leader forgot to say so: letters of two bytes and more, every one whole.
      // Neither MARC-8 nor Windows-1251 text is valid UTF-8 but by rare chance.
      if isUTF8Text(record) { return .utf8 }
      // A blank is MARC-8 by the standard; Russian libraries' files are Windows-1251 with the
      // same blank. MARC-8 text has Cyrillic only behind an escape (ESC ( N), and ANSEL never
      // puts two letters of 0xC0 and over side by side, as Cyrillic words in Windows-1251 do.
      if !record.contains(0x1B), hasCyrillicRun(record) { return .windows1251 }
      return .marc8
    }
    return unimarcSet(record) ?? said ?? (isUTF8Text(record) ? .utf8 : fileDefault)
  }

  /// True for bytes with characters beyond ASCII that are all valid UTF-8.
  static func isUTF8Text(_ record: [UInt8]) -> Bool {
    record.contains { $0 >= 0xC2 } && firstInvalidUTF8(in: record) == nil
  }

  /// The set field 100 $a positions 26–29 names (the G0 and G1 sets): 50 is Unicode (UTF-8),
  /// and RUSMARC's 89 Windows-1251 and 79 code page 866. Nil when the record names none of them
  /// (01, ISO 646, is the ASCII every other set extends).
  static func unimarcSet(_ record: [UInt8]) -> MARCCharacterSet? {
    guard let data = fieldData(100, in: record) else { return nil }
    // The field: two indicators, then $a (0x1F, `a`) and its 36 positions.
    guard let start = data.firstIndex(of: 0x1F), data.index(after: start) < data.endIndex,
      data[data.index(after: start)] == UInt8(ascii: "a")
    else { return nil }
    let coded = Array(data[(start + 2)...].prefix { $0 != 0x1F && $0 != 0x1E })
    guard coded.count >= 30 else { return nil }
    let sets = [String(decoding: coded[26..<28], as: UTF8.self), String(decoding: coded[28..<30], as: UTF8.self)]
    if sets.contains("50") { return .utf8 }
    if sets.contains("89") { return .windows1251 }
    if sets.contains("79") { return .codePage866 }
    return nil
  }

  /// The bytes of the first field with `tag`, from the record's directory.
  static func fieldData(_ tag: Int, in record: [UInt8]) -> ArraySlice<UInt8>? {
    guard record.count >= 25, let base = digits(record[12..<17]) else { return nil }
    var entry = 24
    while entry + 12 <= min(record.count, base), record[entry] != 0x1E {
      if digits(record[entry..<(entry + 3)]) == tag, let length = digits(record[(entry + 3)..<(entry + 7)]),
        let start = digits(record[(entry + 7)..<(entry + 12)]), base + start <= record.count
      {
        return record[(base + start)..<min(record.count, base + start + length)]
      }
      entry += 12
    }
    return nil
  }

  /// The number an ISO 2709 leader or directory writes in ASCII digits; nil for anything else.
  public static func digits(_ bytes: ArraySlice<UInt8>) -> Int? {
    guard !bytes.isEmpty, bytes.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
    return bytes.reduce(0) { $0 * 10 + Int($1 - 0x30) }
  }

  /// True when two bytes of 0xC0 and over stand side by side: a Cyrillic word in Windows-1251.
  static func hasCyrillicRun(_ record: [UInt8]) -> Bool {
    var previous: UInt8 = 0
    for byte in record {
      if byte >= 0xC0 && previous >= 0xC0 { return true }
      previous = byte
    }
    return false
  }

  /// The position of the first byte that is not part of valid UTF-8, or nil when all are.
  public static func firstInvalidUTF8(in bytes: [UInt8]) -> Int? {
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      let length: Int
      switch byte {
      case 0x00...0x7F: length = 1
      case 0xC2...0xDF: length = 2
      case 0xE0...0xEF: length = 3
      case 0xF0...0xF4: length = 4
      default: return index
      }
      guard index + length <= bytes.count else { return index }
      for next in 1..<length where bytes[index + next] & 0xC0 != 0x80 { return index }
      // Overlong forms, surrogates and values past U+10FFFF.
      if byte == 0xE0 && bytes[index + 1] < 0xA0 || byte == 0xED && bytes[index + 1] > 0x9F
        || byte == 0xF0 && bytes[index + 1] < 0x90 || byte == 0xF4 && bytes[index + 1] > 0x8F
      {
        return index
      }
      index += length
    }
    return nil
  }
}
