import DeskStorage
import Dispatch
import Synchronization

/// Runs searches on a background queue with a connection of its own, so that typing never waits
/// for a search. Only the newest waiting request runs: keys typed while a search runs replace
/// the one queued behind it.
public final class BackgroundSearchService: SearchService, @unchecked Sendable {
  private struct State {
    var pending: SearchRequest?
    var running = false
    var results: [SearchResult] = []
    var interruption: StoreInterruption?
  }

  private let state = Mutex(State())
  private let queue = DispatchQueue(label: "circdesk.search")
  private let openStore: @Sendable () throws(StoreError) -> LibraryStore
  private var store: LibraryStore?

  /// `openStore` opens the search's own connection, on the search queue, at the first search.
  public init(openStore: @escaping @Sendable () throws(StoreError) -> LibraryStore) {
    self.openStore = openStore
  }

  public func submit(_ request: SearchRequest) {
    let start = state.withLock { state -> Bool in
      state.pending = request
      guard !state.running else {
        // The search under way is stale now: stop it rather than wait for it.
        state.interruption?.interrupt()
        return false
      }
      state.running = true
      return true
    }
    if start { queue.async { self.drain() } }
  }

  public func takeResults() -> [SearchResult] {
    state.withLock { state in
      defer { state.results = [] }
      return state.results
    }
  }

  private func drain() {
    while true {
      guard
        let request = state.withLock({ state -> SearchRequest? in
          defer { state.pending = nil }
          return state.pending
        })
      else {
        // Nobody waits for a search: the vocabularies are brought up to date now, and their news
        // gathered when many wait, not at the next typo. A key typed meanwhile interrupts the
        // reading, as it would a search, and the reading starts over after it.
        try? store?.vocabulary.readVocabularies()
        let done = state.withLock { state -> Bool in
          guard state.pending == nil else { return false }
          state.running = false
          return true
        }
        if done { return }
        continue
      }
      let result: SearchResult
      do {
        if store == nil {
          let opened = try openStore()
          store = opened
          state.withLock { $0.interruption = opened.interruption }
        }
        result = store.map { SearchResult.run(request, on: $0) } ?? SearchResult(generation: request.generation)
      } catch {
        result = SearchResult(generation: request.generation, error: error)
      }
      state.withLock { $0.results.append(result) }
    }
  }
}
