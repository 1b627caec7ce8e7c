import DeskDomain

/// A public catalogue that answers ISBN queries.
public enum LookupProvider: Equatable, Sendable {
  case googleBooks(baseURL: String)
  case openLibrary(baseURL: String)
  /// Another library's catalogue, over Z39.50 or SRU (`CopyCatalogue`).
  case target(CatalogueTarget)

  public static let defaultGoogleBooksURL = "https://www.googleapis.com/books/v1/volumes"
  public static let defaultOpenLibraryURL = "https://openlibrary.org/api/books"

  public var name: String {
    switch self {
    case .googleBooks: return "Google Books"
    case .openLibrary: return "Open Library"
    case .target(let target): return target.name
    }
  }

  func url(for isbn: ISBN) -> String {
    switch self {
    case .target(let target): return target.address
    case .googleBooks(let base): return "\(base)?q=\(percentEncoded("isbn:\(isbn.isbn13)"))"
    case .openLibrary(let base):
      return "\(base)?bibkeys=\(percentEncoded("ISBN:\(isbn.isbn13)"))&format=json&jscmd=data"
    }
  }

  /// The facts in an answer, or nil when it holds no book with this ISBN (an empty answer, or
  /// another book: Google Books sometimes answers with one).
  func facts(from bytes: [UInt8], isbn: ISBN) throws(LookupFailure) -> BookFacts? {
    let json: JSON
    do {
      json = try JSON.parse(bytes)
    } catch {
      throw .malformed(name, error.description)
    }
    let wanted = Set([isbn.isbn13, isbn.isbn10].compactMap { $0 })
    func matches(_ identifiers: [String]) -> Bool {
      identifiers.contains { (try? ISBN($0)).map { wanted.contains($0.isbn13) || wanted.contains($0.digits) } ?? false }
    }
    switch self {
    case .target: return nil
    case .googleBooks:
      for item in json["items"]?.array ?? [] {
        guard let info = item["volumeInfo"] else { continue }
        let identifiers = (info["industryIdentifiers"]?.array ?? []).compactMap { $0["identifier"]?.string }
        guard matches(identifiers), let title = info["title"]?.string, !title.isEmpty else { continue }
        return BookFacts(
          provider: name, title: title, subtitle: info["subtitle"]?.string ?? "",
          authors: (info["authors"]?.array ?? []).compactMap(\.string), publisher: info["publisher"]?.string ?? "",
          year: info["publishedDate"]?.string.flatMap(PersonName.year(in:)), pages: info["pageCount"]?.int)
      }
      return nil
    case .openLibrary:
      guard case .object(let records) = json else { throw .malformed(name, "not an object") }
      for (_, record) in records {
        let identifiers =
          (record["identifiers"]?["isbn_13"]?.array ?? []) + (record["identifiers"]?["isbn_10"]?.array ?? [])
        guard matches(identifiers.compactMap(\.string)), let title = record["title"]?.string, !title.isEmpty else {
          continue
        }
        return BookFacts(
          provider: name, title: title, subtitle: record["subtitle"]?.string ?? "",
          authors: (record["authors"]?.array ?? []).compactMap { $0["name"]?.string },
          publisher: (record["publishers"]?.array ?? []).first?["name"]?.string ?? "",
          city: (record["publish_places"]?.array ?? []).first?["name"]?.string ?? "",
          year: record["publish_date"]?.string.flatMap(PersonName.year(in:)), pages: record["number_of_pages"]?.int)
      }
      return nil
    }
  }
}
