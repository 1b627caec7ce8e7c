/// What the librarian looks for in other libraries' catalogues: a book by its ISBN, or by the
/// words of its title and author and its year.
public enum CopyQuery: Hashable, Sendable {
  case isbn(ISBN)
  case words(title: String, author: String, year: Int?)

  /// The query from what a form holds; nil when it says nothing to look for.
  public static func words(title: String, author: String, year: String) -> CopyQuery? {
    let (title, author) = (title.trimmingWhitespace(), author.trimmingWhitespace())
    guard !title.isEmpty || !author.isEmpty else { return nil }
    return .words(title: title, author: author, year: PersonName.year(in: year))
  }

  /// Z39.50's query (PQF), with Bib-1 use attributes: ISBN 7, title 4, author 1003, date of
  /// publication 31. Both forms of an ISBN are asked: catalogues index one or the other.
  public var pqf: String {
    switch self {
    case .isbn(let isbn):
      guard let ten = isbn.isbn10 else { return "@attr 1=7 \(Self.pqfTerm(isbn.isbn13))" }
      return "@or @attr 1=7 \(Self.pqfTerm(isbn.isbn13)) @attr 1=7 \(Self.pqfTerm(ten))"
    case .words(let title, let author, let year):
      var terms: [String] = []
      if !title.isEmpty { terms.append("@attr 1=4 \(Self.pqfTerm(title))") }
      if !author.isEmpty { terms.append("@attr 1=1003 \(Self.pqfTerm(author))") }
      if let year { terms.append("@attr 1=31 \(Self.pqfTerm(String(year)))") }
      return terms.dropFirst().reduce(terms.first ?? "") { "@and \($0) \($1)" }
    }
  }

  /// SRU's query (CQL) with the indexes the servers listed expect: `bath.isbn`, `dc.title`,
  /// `dc.creator`, `dc.date`.
  public var cql: String {
    switch self {
    case .isbn(let isbn):
      guard let ten = isbn.isbn10 else { return "bath.isbn=\(Self.cqlTerm(isbn.isbn13))" }
      return "bath.isbn=\(Self.cqlTerm(isbn.isbn13)) or bath.isbn=\(Self.cqlTerm(ten))"
    case .words(let title, let author, let year):
      var terms: [String] = []
      if !title.isEmpty { terms.append("dc.title=\(Self.cqlTerm(title))") }
      if !author.isEmpty { terms.append("dc.creator=\(Self.cqlTerm(author))") }
      if let year { terms.append("dc.date=\(Self.cqlTerm(String(year)))") }
      return terms.joined(separator: " and ")
    }
  }

  /// The query as a librarian reads it: «война и мир», Толстой, 2013; ISBN 978-5-….
  public var shown: String {
    switch self {
    case .isbn(let isbn): "ISBN \(isbn.hyphenated)"
    case .words(let title, let author, let year):
      [title.isEmpty ? "" : "«\(title)»", author, year.map(String.init) ?? ""].filter { !$0.isEmpty }
        .joined(separator: ", ")
    }
  }

  /// The query as the library remembers its answers: the same words in another case or spacing
  /// are the same query.
  public var key: String {
    switch self {
    case .isbn(let isbn): "isbn:\(isbn.isbn13)"
    case .words(let title, let author, let year):
      "words:"
        + [title, author, year.map(String.init) ?? ""].map { TextFolding.joinedWords($0) }.joined(separator: "|")
    }
  }

  /// A term in double quotes; PQF escapes `"` and `\` with a backslash. Control characters (a
  /// scanner's stray byte) become spaces.
  static func pqfTerm(_ text: String) -> String {
    "\"" + escaped(text) + "\""
  }

  static func cqlTerm(_ text: String) -> String {
    "\"" + escaped(text) + "\""
  }

  private static func escaped(_ text: String) -> String {
    var result = ""
    for character in text {
      switch character {
      case "\"", "\\": result += "\\" + String(character)
      case _ where character.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }):
        result += " "
      default: result.append(character)
      }
    }
    return result
  }
}
