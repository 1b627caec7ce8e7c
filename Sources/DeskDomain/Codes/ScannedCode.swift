/// What a code is, as far as the code alone can tell: every code — from an image, the wedge
/// scanner, standard input or typed by hand — passes through `ScannedCode(_:)`.
public enum ScannedCode: Equatable, Sendable {
  /// A QR book record (see `BookRecordLabel`).
  case bookRecord(BookDraft)
  /// An ISBN: an EAN-13 with 978 or 979 and a valid check digit, or a valid ISBN-10.
  case isbn(ISBN)
  /// Anything else that could be an inventory number or a reader ticket: the library decides.
  case number(String)
  /// Nothing left after trimming.
  case empty

  public init(_ raw: String) {
    let code = ScannedCode.clean(raw)
    if code.isEmpty {
      self = .empty
    } else if code.contains(where: \.isNewline), let draft = BookRecordLabel.parse(code) {
      self = .bookRecord(draft)
    } else if let isbn = ScannedCode.isbn(code) {
      self = .isbn(isbn)
    } else {
      self = .number(code)
    }
  }

  /// The code without surrounding white space and control characters; inside a one-line code,
  /// control characters are dropped (a scanner's stray prefix byte). Line breaks stay, for QR records.
  public static func clean(_ raw: String) -> String {
    let trimmed = raw.trimmingWhitespace()
    guard trimmed.contains(where: { $0.isNewline }) else {
      return String(trimmed.unicodeScalars.filter { $0.properties.generalCategory != .control }.map(Character.init))
    }
    return trimmed
  }

  /// An ISBN when the code is one: 13 digits starting 978 or 979 with a valid check digit (an
  /// EAN-13 barcode), or 10 characters with a valid ISBN-10 check digit, hyphens allowed.
  static func isbn(_ code: String) -> ISBN? {
    let compact = code.filter { $0 != "-" && $0 != " " }
    guard compact.count == 10 || compact.count == 13 else { return nil }
    return try? ISBN(compact)
  }

  /// The code as it would have arrived with a Latin keyboard layout: a scanner "typing" under a
  /// Russian layout sends the Cyrillic letters on the same keys (К for R, С for C). Nil when the
  /// code has no such letters.
  public static func latinLayout(_ code: String) -> String? {
    var changed = false
    var result = ""
    for character in code {
      if let latin = cyrillicKeys[character] {
        result.append(latin)
        changed = true
      } else {
        result.append(character)
      }
    }
    return changed ? result : nil
  }

  private static let cyrillicKeys: [Character: Character] = {
    let cyrillic = Array("йцукенгшщзхъфывапролджэячсмитьбюЙЦУКЕНГШЩЗХЪФЫВАПРОЛДЖЭЯЧСМИТЬБЮ")
    let latin = Array("qwertyuiop[]asdfghjkl;'zxcvbnm,.QWERTYUIOP{}ASDFGHJKL:\"ZXCVBNM<>")
    return Dictionary(uniqueKeysWithValues: zip(cyrillic, latin))
  }()
}
