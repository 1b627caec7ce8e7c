import DeskDomain
import DeskLookup
import DeskStorage
import Dispatch
import Synchronization

/// The answer to a look-up a screen asked for. Generations tell a screen its own answers from
/// those of screens long gone.
public struct LookupResult: Sendable {
  public var generation: Int
  public var isbn: ISBN
  public var outcome: LookupOutcome
}

/// The answer to a search of other libraries' catalogues a screen asked for.
public struct CopySearchAnswer: Sendable {
  public var generation: Int
  public var query: CopyQuery
  public var result: CopySearchResult

  /// The generation of the answers to the searches that waited for the network, asked again:
  /// a screen still waiting for that query takes them.
  public static let retriedGeneration = -1

  /// The answers of the searches the queue held, asked again.
  static func retried(_ searched: [(CopyQuery, CopySearchResult)]) -> [CopySearchAnswer] {
    searched.map { CopySearchAnswer(generation: retriedGeneration, query: $0.0, result: $0.1) }
  }
}

/// Runs ISBN look-ups and searches of other libraries' catalogues away from the screen; the desk
/// never waits for the network.
public protocol LookupService: AnyObject {
  func submit(_ isbn: ISBN, generation: Int)
  func takeResults() -> [LookupResult]
  /// Searches the library's Z39.50 and SRU targets.
  func search(_ query: CopyQuery, generation: Int)
  func takeSearchAnswers() -> [CopySearchAnswer]
  /// Tries the queue of look-ups that waited for the network.
  func retryPending()
}

/// Looks up at once, in the caller's thread: for tests.
public final class ImmediateLookupService: LookupService {
  let store: LibraryStore
  let lookup: ISBNLookup
  private var results: [LookupResult] = []
  private var answers: [CopySearchAnswer] = []

  public init(store: LibraryStore, lookup: ISBNLookup) {
    self.store = store
    self.lookup = lookup
  }

  public func submit(_ isbn: ISBN, generation: Int) {
    results.append(LookupResult(generation: generation, isbn: isbn, outcome: lookup.lookup(isbn, in: store)))
  }

  public func takeResults() -> [LookupResult] {
    defer { results = [] }
    return results
  }

  public func search(_ query: CopyQuery, generation: Int) {
    answers.append(
      CopySearchAnswer(
        generation: generation, query: query, result: lookup.catalogue.current(in: store).search(query, in: store)))
  }

  public func takeSearchAnswers() -> [CopySearchAnswer] {
    defer { answers = [] }
    return answers
  }

  public func retryPending() {
    _ = lookup.processPending(in: store)
    answers += CopySearchAnswer.retried(lookup.catalogue.current(in: store).processPending(in: store))
  }
}

/// Looks up on a background queue with a connection of its own.
public final class BackgroundLookupService: LookupService, @unchecked Sendable {
  private let queue = DispatchQueue(label: "circdesk.lookup")
  private let results = Mutex<[LookupResult]>([])
  private let answers = Mutex<[CopySearchAnswer]>([])
  private let openStore: @Sendable () throws -> LibraryStore
  private let lookup: ISBNLookup
  private var store: LibraryStore?

  public init(lookup: ISBNLookup, openStore: @escaping @Sendable () throws -> LibraryStore) {
    self.lookup = lookup
    self.openStore = openStore
  }

  private func withStore(_ body: (LibraryStore) -> Void) {
    if store == nil { store = try? openStore() }
    if let store { body(store) }
  }

  public func submit(_ isbn: ISBN, generation: Int) {
    queue.async {
      self.withStore { store in
        let outcome = self.lookup.lookup(isbn, in: store)
        self.results.withLock { $0.append(LookupResult(generation: generation, isbn: isbn, outcome: outcome)) }
      }
    }
  }

  public func takeResults() -> [LookupResult] {
    results.withLock { results in
      defer { results = [] }
      return results
    }
  }

  public func search(_ query: CopyQuery, generation: Int) {
    queue.async {
      self.withStore { store in
        let result = self.lookup.catalogue.current(in: store).search(query, in: store)
        self.answers.withLock { $0.append(CopySearchAnswer(generation: generation, query: query, result: result)) }
      }
    }
  }

  public func takeSearchAnswers() -> [CopySearchAnswer] {
    answers.withLock { answers in
      defer { answers = [] }
      return answers
    }
  }

  public func retryPending() {
    queue.async {
      self.withStore {
        _ = self.lookup.processPending(in: $0)
        let searched = CopySearchAnswer.retried(self.lookup.catalogue.current(in: $0).processPending(in: $0))
        self.answers.withLock { $0 += searched }
      }
    }
  }
}
