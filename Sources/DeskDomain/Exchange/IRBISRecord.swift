/// A record in IRBIS's plain-text exchange form: numbered fields, each a line
/// `#tag: value`, where a value is plain text followed by `^`-subfields (`^AЛермонтов^BМ. Ю.`).
public struct IRBISRecord: Equatable, Sendable {
  public struct Field: Equatable, Sendable {
    public var tag: Int
    public var value: String
    /// The two indicators of a field read from ISO 2709 (RUSMARC's 200 `1 `, 700 ` 1`), written
    /// back by its export; nil for a field of IRBIS text, which has none.
    public var indicators: String?
    /// True for a field the import made, not in the file: a copy (910) made from RUSMARC's
    /// holdings in 899 and their shelf mark (903). An ISO 2709 export leaves it out while the
    /// librarian has not changed what it says: the file's own 899 says it.
    public var isMade = false
    /// Where the field's data stood in the ISO 2709 record it was read from (its offset there):
    /// the data of a record are written back in the order they came, whatever the directory's.
    public var marcOrder: Int?

    public init(tag: Int, value: String) {
      self.tag = tag
      self.value = value
    }

    /// A field made of subfields, in order; empty ones are left out.
    public init(tag: Int, text: String = "", subfields: [(Character, String)]) {
      self.tag = tag
      var value = IRBISRecord.clean(text)
      for (code, data) in subfields where !data.isEmpty {
        // Appended piece by piece: an interpolated "^\(code)" made two strings for each.
        value.append("^")
        value.append(code)
        value.append(IRBISRecord.clean(data))
      }
      self.value = value
    }

    /// The text before the first `^`.
    public var text: String {
      String(value.prefix { $0 != "^" })
    }

    /// Every subfield by its upper-case code (the first one where a code repeats): for reading
    /// many subfields of one field.
    public var subfields: [Character: String] {
      var result: [Character: String] = [:]
      forEachSubfield { code, data in
        if result[code] == nil { result[code] = String(data) }
        return true
      }
      return result
    }

    /// Every subfield in order, by its upper-case code; repeated codes (RUSMARC's embedded
    /// fields) each in their place.
    public var orderedSubfields: [(Character, String)] {
      var result: [(Character, String)] = []
      forEachSubfield { code, data in
        result.append((code, String(data)))
        return true
      }
      return result
    }

    /// The data of subfield `code` (case does not matter), or "".
    public func subfield(_ code: Character) -> String {
      if let found = asciiSubfield(code) { return found }
      let wanted = Field.upperCased(code)
      var found = ""
      forEachSubfield { code, data in
        guard code == wanted else { return true }
        found = String(data)
        return false
      }
      return found
    }

    /// The data of subfield `code` ("" when there is none) for an ASCII code, found in the UTF-8
    /// bytes without a character made for each subfield passed: the book of each of a million
    /// records reads a dozen subfields: 5.1 % of an import's time under `perf` (100,000 books) as
    /// characters, 3.5 % so. Nil for another code, which the general way finds.
    private func asciiSubfield(_ code: Character) -> String? {
      guard let ascii = code.asciiValue, code.unicodeScalars.count == 1 else { return nil }
      let upper = (0x61...0x7A).contains(ascii) ? ascii - 0x20 : ascii
      let lower = (0x41...0x5A).contains(upper) ? upper + 0x20 : upper
      let bytes = value.utf8
      var from = bytes.startIndex
      while let caret = bytes[from...].firstIndex(of: UInt8(ascii: "^")) {
        let codeAt = bytes.index(after: caret)
        guard codeAt != bytes.endIndex else { return "" }
        from = codeAt
        guard bytes[codeAt] == upper || bytes[codeAt] == lower else { continue }
        // A combining mark after the code makes it another character, as the general way reads it.
        guard let character = value[codeAt...].first, character.unicodeScalars.count == 1 else { continue }
        let dataAt = bytes.index(after: codeAt)
        let end = bytes[dataAt...].firstIndex(of: UInt8(ascii: "^")) ?? bytes.endIndex
        return String(value[dataAt..<end])
      }
      return ""
    }

    /// A subfield's code in upper case: a Latin letter or digit, as nearly every code is, without
    /// making a string to upper-case it.
    private static func upperCased(_ code: Character) -> Character {
      guard let ascii = code.asciiValue else { return Character(code.uppercased()) }
      return Character(Unicode.Scalar((0x61...0x7A).contains(ascii) ? ascii - 0x20 : ascii))
    }

    /// Calls `body` with each subfield's upper-case code and data, in order, until it returns
    /// false. Splits at `^` in the UTF-8 bytes: an import reads millions of subfields.
    private func forEachSubfield(_ body: (Character, Substring) -> Bool) {
      let bytes = value.utf8
      guard var caret = bytes.firstIndex(of: UInt8(ascii: "^")) else { return }
      while caret != bytes.endIndex {
        let start = bytes.index(after: caret)
        let end = bytes[start...].firstIndex(of: UInt8(ascii: "^")) ?? bytes.endIndex
        let part = value[start..<end]
        if let first = part.first {
          guard body(Field.upperCased(first), part.dropFirst()) else { return }
        }
        caret = end
      }
    }
  }

  public var fields: [Field]
  /// The leader of a record read from ISO 2709 (its 24 positions as they came), written back by
  /// its export; nil for a record of IRBIS text.
  public var marcLeader: String?
  /// The MARC 21 record an import converted this one from, kept with its books so that a MARC 21
  /// export writes it back as it came.
  public var marc21: MARCOriginal?

  public init(fields: [Field] = [], marcLeader: String? = nil) {
    self.fields = fields
    self.marcLeader = marcLeader
  }

  /// True when the two records would be written the same, byte for byte. (`==` compares text by
  /// Unicode's canonical equivalence, which looks up the tables for every Cyrillic letter: 1.5 %
  /// of an import of a million books, asking whether each record is written as the desk writes it.)
  public func isWrittenAlike(_ other: IRBISRecord) -> Bool {
    guard fields.count == other.fields.count, marcLeader == other.marcLeader, marc21 == other.marc21 else {
      return false
    }
    return zip(fields, other.fields).allSatisfy { mine, theirs in
      mine.tag == theirs.tag && mine.value.utf8.elementsEqual(theirs.value.utf8) && mine.indicators == theirs.indicators
        && mine.isMade == theirs.isMade && mine.marcOrder == theirs.marcOrder
    }
  }

  public func first(_ tag: Int) -> Field? {
    fields.first { $0.tag == tag }
  }

  public func all(_ tag: Int) -> [Field] {
    fields.filter { $0.tag == tag }
  }

  /// The plain text of the first field with this tag, or "".
  public func text(_ tag: Int) -> String {
    first(tag)?.text ?? ""
  }

  public mutating func append(_ tag: Int, _ text: String) {
    let value = IRBISRecord.clean(text)
    if !value.isEmpty { fields.append(Field(tag: tag, value: value)) }
  }

  public mutating func append(_ tag: Int, subfields: [(Character, String)]) {
    let field = Field(tag: tag, subfields: subfields)
    if !field.value.isEmpty { fields.append(field) }
  }

  /// The record as text, each line ended by `newline`, closed by `*****`. A control character
  /// in a value (C0 with CR and LF, DEL, C1), which a kept field from another system's file may
  /// hold, is written as a space.
  public func text(newline: String) -> String {
    var bytes: [UInt8] = []
    append(to: &bytes, newline: newline) { bytes, text in bytes += text.utf8 }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The record's text (`text(newline:)`) appended to `bytes`, each piece through `encode`:
  /// written so, an export of a million records makes no string of a whole record, nor one of
  /// each line.
  public func append(to bytes: inout [UInt8], newline: String, encode: (inout [UInt8], String) -> Void) {
    for field in fields {
      bytes.append(UInt8(ascii: "#"))
      bytes += String(field.tag).utf8
      bytes += [UInt8(ascii: ":"), UInt8(ascii: " ")]
      encode(&bytes, field.value.withoutControlCharacters.replacingDataCarets(with: " "))
      bytes += newline.utf8
    }
    bytes += "*****".utf8
    bytes += newline.utf8
  }

  /// A value as a field holds it: a `^` of the data (which would start a subfield) as
  /// `dataCaret`, line breaks and other control characters as spaces; the ends are trimmed.
  /// Spaces inside stay as written (a title with two spaces comes back with two).
  public static func clean(_ value: String) -> String {
    // The common case: printable text, nothing to change.
    if !value.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "^") || $0 == 0x7F || $0 == 0xC2 }),
      !value.hasPaddingAtEnds
    {
      return value
    }
    var result = ""
    for character in value {
      let isControl = character.unicodeScalars.allSatisfy { $0.properties.generalCategory == .control }
      result.append(character == "^" ? dataCaret : character.isNewline || isControl ? " " : character)
    }
    return result.trimmingWhitespace()
  }

  /// A `^` of the data inside a field's value (MARC's «x^2», a publisher «Эксмо^Пресс»), where a
  /// bare `^` starts a subfield: a character of Unicode's private use area, which no file
  /// writes. IRBIS text has no way to hold it and writes a space, as IRBIS does; ISO 2709 writes
  /// the `^` back; a book's field reads it as `^` (`withDataCarets`).
  public static let dataCaret: Character = "\u{E05E}"
}

extension String {
  /// The text with each `IRBISRecord.dataCaret` made `replacement` (`^` for a book's field, a
  /// space for IRBIS text). Told from the bytes first: nearly no value has one.
  public func replacingDataCarets(with replacement: String) -> String {
    // U+E05E in UTF-8: EE 81 9E.
    guard utf8.contains(0xEE), contains(IRBISRecord.dataCaret) else { return self }
    return String(map { $0 == IRBISRecord.dataCaret ? Character(replacement) : $0 })
  }

  /// The text with every control character (C0, CR and LF among them, DEL, C1) made a space.
  /// Told from the bytes first: nearly no value has one.
  public var withoutControlCharacters: String {
    var previous: UInt8 = 0
    let clean = utf8.allSatisfy { byte in
      defer { previous = byte }
      return byte >= 0x20 && byte != 0x7F && !(previous == 0xC2 && (0x80...0x9F).contains(byte))
    }
    guard !clean else { return self }
    return String(
      String.UnicodeScalarView(unicodeScalars.map { $0.properties.generalCategory == .control ? " " : $0 }))
  }
}
