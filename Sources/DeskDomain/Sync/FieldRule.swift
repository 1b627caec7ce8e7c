/// What a field of a record that travels between desks may hold. The central checks every change
/// it is pushed against these rules before it stores it (the same rules, as rows of its
/// `field_rule` table), and a desk every change it pulls: nothing invalid is stored for others.
public enum FieldKind: Hashable, Sendable {
  /// Text of `minimum` to `maximum` characters.
  case text(minimum: Int, maximum: Int)
  /// A number people type and scanners read (an inventory number, a ticket, a category's code):
  /// 1 to `FieldRule.identifierLength` characters, no control or bidirectional character, no
  /// space at either end.
  case identifier
  case integer(ClosedRange<Int64>)
  /// 0 or 1 (a record deleted or not).
  case flag
  /// A day, `YYYY-MM-DD`.
  case date
  /// A moment, `YYYY-MM-DDTHH:MM:SS.mmmZ` (UTC, as the desk writes it).
  case moment
  /// The id of a record of this kind that the library has (a book's UUID, a category's code).
  case reference(String)
  /// One of these words.
  case choice([String])
  /// A record's UUID, in lower case (the id of a book, a reader, a loan…).
  case uuid
}

/// A value of a field as JSON holds it.
public enum FieldValue: Hashable, Sendable {
  case null
  case integer(Int64)
  case real(Double)
  case text(String)
  /// An object, an array or a boolean: never a field's value.
  case other(String)
}

/// The rule of one field: its kind, and whether it may be empty (null).
public struct FieldRule: Hashable, Sendable {
  public let kind: FieldKind
  public let nullable: Bool

  public init(_ kind: FieldKind, nullable: Bool = false) {
    self.kind = kind
    self.nullable = nullable
  }

  /// The longest identifier: an inventory number, a ticket, a code.
  public static let identifierLength = 64

  /// Why `value` breaks the rule, in a few words ("holds text, not a number"); nil when it keeps
  /// it. References are checked by whoever knows the records (`referenceMissing`).
  public func problem(_ value: FieldValue) -> String? {
    if case .null = value { return nullable ? nil : "is empty" }
    switch (kind, value) {
    case (.text(let minimum, let maximum), .text(let text)):
      let length = text.unicodeScalars.count
      if length < minimum { return "is empty" }
      if length > maximum { return "is longer than \(maximum) characters (\(length))" }
      return nil
    case (.identifier, .text(let text)):
      return FieldRule.identifierProblem(text)
    case (.integer(let range), .integer(let number)):
      return range.contains(number) ? nil : "is \(number), outside \(range.lowerBound)…\(range.upperBound)"
    case (.flag, .integer(let number)):
      return number == 0 || number == 1 ? nil : "is \(number), not 0 or 1"
    case (.date, .text(let text)):
      return FieldRule.isDate(text) ? nil : "«\(text.prefix(40))» is not a day (YYYY-MM-DD)"
    case (.moment, .text(let text)):
      return FieldRule.isMoment(text) ? nil : "«\(text.prefix(40))» is not a moment (YYYY-MM-DDTHH:MM:SS.mmmZ)"
    case (.reference, .text(let text)):
      return FieldRule.identifierProblem(text)
    case (.choice(let words), .text(let text)):
      return words.contains(text) ? nil : "«\(text.prefix(40))» is not one of \(words.joined(separator: ", "))"
    case (.uuid, .text(let text)):
      return FieldRule.isUUID(text) ? nil : "is not a UUID"
    case (.text, _), (.identifier, _), (.date, _), (.moment, _), (.reference, _), (.choice, _), (.uuid, _):
      return "holds \(value.typeName), not text"
    case (.integer, _), (.flag, _):
      return "holds \(value.typeName), not a whole number"
    }
  }

  static func identifierProblem(_ text: String) -> String? {
    if text.isEmpty { return "is empty" }
    let length = text.unicodeScalars.count
    if length > identifierLength { return "is longer than \(identifierLength) characters (\(length))" }
    if text.unicodeScalars.contains(where: { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) || $0.isBidiControl }
    ) {
      return "holds a control character"
    }
    // Code points, as the central's `left` and `right` read them.
    if text.unicodeScalars.first == " " || text.unicodeScalars.last == " " { return "begins or ends with a space" }
    return nil
  }

  // The checks below read the UTF-8 bytes: a desk's first join checks every field of every
  // record it pulls, and reading them as characters (`Character`, `Int(Substring)`) cost 6 % of
  // a join of a million books.

  /// Eight, four, four, four and twelve lower-case hexadecimal digits, apart by dashes.
  static func isUUID(_ text: String) -> Bool {
    var text = text
    return text.withUTF8 { bytes in
      guard bytes.count == 36 else { return false }
      for (index, byte) in bytes.enumerated() {
        let dash = index == 8 || index == 13 || index == 18 || index == 23
        guard dash ? byte == UInt8(ascii: "-") : (byte &- 0x30 < 10 || byte &- 0x61 < 6) else { return false }
      }
      return true
    }
  }

  /// `YYYY-MM-DD` in ASCII digits, a day that exists.
  static func isDate(_ text: String) -> Bool {
    var text = text
    return text.withUTF8 { $0.count == 10 && isDate($0) }
  }

  /// `YYYY-MM-DDTHH:MM:SS` with one to three digits of milliseconds or none, and `Z`.
  static func isMoment(_ text: String) -> Bool {
    var text = text
    return text.withUTF8 { bytes in
      guard bytes.count >= 20, bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"),
        bytes[16] == UInt8(ascii: ":"), bytes[bytes.count - 1] == UInt8(ascii: "Z"), isDate(bytes),
        let hour = number(bytes, at: 11, digits: 2), let minute = number(bytes, at: 14, digits: 2),
        let second = number(bytes, at: 17, digits: 2), hour < 24, minute < 60, second < 60
      else { return false }
      // What lies between the seconds and the `Z`: nothing, or a point and 1 to 3 digits.
      let fraction = bytes.count - 20
      if fraction == 0 { return true }
      return (2...4).contains(fraction) && bytes[19] == UInt8(ascii: ".")
        && number(bytes, at: 20, digits: fraction - 1) != nil
    }
  }

  /// Whether `bytes` begin with `YYYY-MM-DD`, a day that exists.
  private static func isDate(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard bytes.count >= 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
      let year = number(bytes, at: 0, digits: 4), let month = number(bytes, at: 5, digits: 2),
      let day = number(bytes, at: 8, digits: 2), (1...12).contains(month)
    else { return false }
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
    return (1...days).contains(day)
  }

  /// The number written by `digits` ASCII digits at `start`; nil if any is not one.
  private static func number(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int, digits: Int) -> Int? {
    var value = 0
    for index in start..<(start + digits) {
      let digit = bytes[index] &- UInt8(ascii: "0")
      guard digit < 10 else { return nil }
      value = value * 10 + Int(digit)
    }
    return value
  }
}

extension FieldValue {
  var typeName: String {
    switch self {
    case .null: return "nothing"
    case .integer: return "a number"
    case .real: return "a number with a fraction"
    case .text: return "text"
    case .other(let type): return type
    }
  }
}
