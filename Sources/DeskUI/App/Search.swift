import DeskStorage

/// A search a list asks for. Each carries a generation number; the list keeps only the answer
/// to its newest request, so that a slow search never paints over a newer one.
public struct SearchRequest: Sendable {
  public enum Target: Sendable {
    case books(BookFilter)
    case readers(ReaderFilter)
  }

  public var generation: Int
  public var target: Target
  public var query: String
  public var limit: Int

  public init(generation: Int, target: Target, query: String, limit: Int) {
    self.generation = generation
    self.target = target
    self.query = query
    self.limit = limit
  }
}

public struct SearchResult: Sendable {
  public var generation: Int
  public var books: [BookListRow]
  public var readers: [ReaderListing]
  /// Why the search could not be made, when it could not.
  public var error: StoreError?
  /// Misspelt query words and the catalogue words they were read as.
  public var corrections: [(String, String)]
  /// The query as typed on the other keyboard layout, when that is what found the records.
  public var searchedFor: String?

  public init(
    generation: Int, books: [BookListRow] = [], readers: [ReaderListing] = [], error: StoreError? = nil,
    corrections: [(String, String)] = []
  ) {
    self.generation = generation
    self.books = books
    self.readers = readers
    self.error = error
    self.corrections = corrections
  }

  /// Runs the request against `store`.
  public static func run(_ request: SearchRequest, on store: LibraryStore) -> SearchResult {
    do {
      switch request.target {
      case .books(let filter):
        let answer = try store.books.searchRows(request.query, filter: filter, limit: request.limit)
        var result = SearchResult(generation: request.generation, books: answer.all, corrections: answer.corrections)
        result.searchedFor = answer.searchedFor
        return result
      case .readers(let filter):
        let answer = try store.readers.search(request.query, filter: filter, limit: request.limit)
        var result = SearchResult(
          generation: request.generation, readers: answer.all, corrections: answer.corrections)
        result.searchedFor = answer.searchedFor
        return result
      }
    } catch {
      return SearchResult(generation: request.generation, error: error)
    }
  }
}

/// Runs searches away from the screen: in production on a background thread with its own
/// connection to the file; in tests at once.
public protocol SearchService: AnyObject {
  func submit(_ request: SearchRequest)
  /// Answers that have arrived since the last call.
  func takeResults() -> [SearchResult]
}

/// Answers every request at once, in the caller's thread: for tests and scripted runs.
public final class ImmediateSearchService: SearchService {
  private let store: LibraryStore
  private var results: [SearchResult] = []

  public init(store: LibraryStore) {
    self.store = store
  }

  public func submit(_ request: SearchRequest) {
    results.append(SearchResult.run(request, on: store))
  }

  public func takeResults() -> [SearchResult] {
    defer { results = [] }
    return results
  }
}
