/// Splits an author's name as catalogues write it into the surname and initials a library
/// card uses: "Лермонтов, Михаил Юрьевич", "Mikhail Lermontov", "M. Yu. Lermontov" and
/// "Лермонтов М. Ю." all give a surname and initials like «М. Ю.».
public enum PersonName {
  public static func split(_ name: String) -> (surname: String, initials: String) {
    let text = name.trimmingWhitespace()
    if let comma = text.firstIndex(of: ",") {
      let surname = String(text[..<comma]).trimmingWhitespace()
      return (surname, initials(of: words(String(text[text.index(after: comma)...]))))
    }
    let parts = words(text)
    guard parts.count > 1 else { return (text, "") }
    // "夏目 漱石", "김 영하": Chinese, Japanese and Korean names put the family name first, and
    // their given names have no initials; it is kept whole.
    if parts[0].unicodeScalars.contains(where: isHanOrKanaOrHangul) {
      return (parts[0], parts.dropFirst().joined(separator: " "))
    }
    // "Лермонтов М. Ю.": the surname first, followed by initials only.
    if !isInitial(parts[0]) && parts.dropFirst().allSatisfy(isInitial) {
      return (parts[0], initials(of: Array(parts.dropFirst())))
    }
    // "Mikhail Lermontov", "M. Yu. Lermontov", "Gabriel García Márquez" (the last word).
    return (parts[parts.count - 1], initials(of: Array(parts.dropLast())))
  }

  static func isHanOrKanaOrHangul(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x3040...0x30FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xAC00...0xD7AF, 0x1100...0x11FF, 0x20000...0x2FA1F:
      return true
    default:
      return false
    }
  }

  static func words(_ text: String) -> [String] {
    text.split(whereSeparator: { $0 == " " || $0 == "\u{00A0}" }).map(String.init).filter { !$0.isEmpty }
  }

  static func isInitial(_ word: String) -> Bool {
    word.hasSuffix(".") && word.count <= 4
  }

  /// The particles of names that stay as they are written beside the initials: «Fermat, Pierre
  /// de» is «P. de», «Ludwig van Beethoven» «L. van», as library catalogues write them.
  static let particles: Set<String> = [
    "d'", "da", "das", "de", "del", "della", "der", "des", "di", "do", "dos", "du", "la", "le", "ten", "ter", "van",
    "von", "y", "zu",
  ]

  /// «М. Ю.» from given names; an initial already abbreviated keeps its form («Yu.»), and a
  /// particle its word («de»).
  static func initials(of names: [String]) -> String {
    names.compactMap { name -> String? in
      if isInitial(name) { return name }
      if particles.contains(name) { return name }
      guard let first = name.first(where: \.isLetter) else { return nil }
      // A hyphenated name keeps both parts: Жан-Поль → Ж.-П.
      let parts = name.split(separator: "-").compactMap { $0.first(where: \.isLetter) }
      return parts.count > 1 ? parts.map { "\($0.uppercased())." }.joined(separator: "-") : "\(first.uppercased())."
    }.joined(separator: " ")
  }

  /// The year in a date written any way: "2013-08-20", "2004", "July 28, 2008", "c1994".
  public static func year(in text: String) -> Int? {
    var digits = ""
    for character in text + " " {
      if character.isASCIIDigit {
        digits.append(character)
        continue
      }
      if digits.count == 4, let year = Int(digits), (1450...2100).contains(year) { return year }
      digits = ""
    }
    return nil
  }
}

/// What a public catalogue says of a book.
public struct BookFacts: Equatable, Sendable {
  public var provider: String
  public var title: String
  /// Other title information (a subtitle).
  public var subtitle: String
  /// Every author, as the catalogue wrote them; the first becomes the card's author.
  public var authors: [String]
  public var publisher: String
  public var city: String
  public var year: Int?
  public var pages: Int?
  /// The classification index (BBK, else UDC) of a record copied from a library's catalogue.
  public var bbk: String
  /// The whole record, when the facts came from a library's catalogue (Z39.50, SRU): the form
  /// fills from it, and the book keeps it.
  public var record: CopiedRecord?

  public init(
    provider: String, title: String, subtitle: String = "", authors: [String] = [], publisher: String = "",
    city: String = "", year: Int? = nil, pages: Int? = nil, bbk: String = ""
  ) {
    self.bbk = bbk
    self.provider = provider
    self.title = title
    self.subtitle = subtitle
    self.authors = authors
    self.publisher = publisher
    self.city = city
    self.year = year
    self.pages = pages
  }

  /// The form fields these facts fill. The subtitle joins the title after " : ", as ISBD and
  /// IRBIS's 200^E write other title information.
  public var fieldValues: [Field: String] {
    var values: [Field: String] = [:]
    values[.title] = subtitle.isEmpty ? title : "\(title) : \(subtitle)"
    if let first = authors.first {
      let (surname, initials) = PersonName.split(first)
      values[.authorSurname] = surname
      values[.authorInitials] = initials
    }
    if !publisher.isEmpty { values[.publisher] = publisher }
    if !city.isEmpty { values[.city] = city }
    if let year { values[.year] = String(year) }
    if let pages { values[.pages] = String(pages) }
    if !bbk.isEmpty { values[.bbk] = bbk }
    return values
  }
}
