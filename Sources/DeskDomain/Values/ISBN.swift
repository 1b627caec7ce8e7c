/// An International Standard Book Number with a verified check digit.
///
/// Kept as the digits it was given (10 or 13, an ISBN-10 may end in `X`) so that the number
/// printed on an older book reads back the same; `isbn13` gives the form used to compare.
public struct ISBN: Hashable, Sendable, CustomStringConvertible {
  /// Digits only, `X` allowed as the last character of an ISBN-10.
  public let digits: String

  /// Accepts hyphens and spaces between digits, an `ISBN` prefix, and a lower-case `x`.
  public init(_ text: String) throws(ISBNError) {
    var body = Substring(text.trimmingWhitespace())
    for prefix in ["ISBN-13:", "ISBN-10:", "ISBN:", "ISBN"] where body.uppercased().hasPrefix(prefix) {
      body = body.dropFirst(prefix.count)
      break
    }
    var digits: [Character] = []
    for character in body {
      switch character {
      case "0"..."9": digits.append(character)
      case "X", "x": digits.append("X")
      case "-", " ", "\u{2010}", "\u{2011}", "\u{2013}": continue
      default: throw .invalidCharacter(text: text, character: character)
      }
    }
    let xPositions = digits.indices.filter { digits[$0] == "X" }
    switch digits.count {
    case 10:
      guard xPositions.isEmpty || xPositions == [9] else { throw .invalidCharacter(text: text, character: "X") }
      let expected = ISBN.checkDigit10(digits.prefix(9))
      guard digits[9] == expected else { throw .wrongCheckDigit(text: text, expected: expected) }
    case 13:
      guard xPositions.isEmpty else { throw .invalidCharacter(text: text, character: "X") }
      let prefix = String(digits.prefix(3))
      guard prefix == "978" || prefix == "979" else { throw .notBookland(text: text) }
      let expected = ISBN.checkDigit13(digits.prefix(12))
      guard digits[12] == expected else { throw .wrongCheckDigit(text: text, expected: expected) }
    default:
      throw .wrongLength(text: text, count: digits.count)
    }
    self.digits = String(digits)
  }

  /// The 13-digit form; an ISBN-10 gains the 978 prefix and a new check digit.
  public var isbn13: String {
    guard digits.count == 10 else { return digits }
    let body = Array("978" + digits.prefix(9))
    return String(body) + String(ISBN.checkDigit13(body[...]))
  }

  /// The 10-digit form, which only 978 numbers have.
  public var isbn10: String? {
    if digits.count == 10 { return digits }
    guard digits.hasPrefix("978") else { return nil }
    let body = Array(digits.dropFirst(3).prefix(9))
    return String(body) + String(ISBN.checkDigit10(body[...]))
  }

  /// Hyphenated by the registration group and registrant ranges the package knows;
  /// the plain digits for a group it does not know.
  public var hyphenated: String {
    ISBNRanges.hyphenate(self) ?? digits
  }

  public var description: String { hyphenated }

  static func checkDigit13(_ body: ArraySlice<Character>) -> Character {
    var sum = 0
    for (index, character) in body.enumerated() {
      sum += (character.wholeNumberValue ?? 0) * (index.isMultiple(of: 2) ? 1 : 3)
    }
    return Character(String((10 - sum % 10) % 10))
  }

  static func checkDigit10(_ body: ArraySlice<Character>) -> Character {
    var sum = 0
    for (index, character) in body.enumerated() {
      sum += (character.wholeNumberValue ?? 0) * (10 - index)
    }
    let check = (11 - sum % 11) % 11
    return check == 10 ? "X" : Character(String(check))
  }
}

public enum ISBNError: Error, Hashable, Sendable, CustomStringConvertible {
  case invalidCharacter(text: String, character: Character)
  case wrongLength(text: String, count: Int)
  case notBookland(text: String)
  case wrongCheckDigit(text: String, expected: Character)

  public var description: String {
    switch self {
    case .invalidCharacter(let text, let character):
      return "ISBN \(text) has a character that is not a digit: «\(character)»"
    case .wrongLength(let text, let count):
      return "ISBN \(text) has \(count) digits; an ISBN has 10 or 13"
    case .notBookland(let text):
      return "ISBN \(text) does not start with 978 or 979"
    case .wrongCheckDigit(let text, let expected):
      return "ISBN \(text) has a wrong check digit (expected \(expected))"
    }
  }
}
