import DeskDomain
import DeskStorage

#if canImport(Glibc)
  import Glibc
#endif

/// How a look-up ended.
public enum LookupOutcome: Equatable, Sendable {
  case found(BookFacts, cached: Bool)
  /// Every catalogue answered; none has the ISBN.
  case notFound(cached: Bool)
  /// No catalogue could answer (no network, time-outs, errors): the ISBN waits in the queue.
  case unavailable([LookupFailure])
}

/// Looks ISBNs up in public catalogues, in a configured order, offline first: answers are kept
/// in the library, so that the same ISBN never asks the network twice, and an ISBN that could
/// not be looked up waits in a queue for the network to come back.
public struct ISBNLookup: Sendable {
  public var providers: [LookupProvider]
  public var timeoutMilliseconds: Int
  /// The library's Z39.50 and SRU targets, for their passwords and the search by words.
  public var catalogue: CopyCatalogue

  public init(providers: [LookupProvider], timeoutMilliseconds: Int = 4000, catalogue: CopyCatalogue? = nil) {
    self.providers = providers
    self.timeoutMilliseconds = timeoutMilliseconds
    self.catalogue =
      catalogue
      ?? CopyCatalogue(
        targets: providers.compactMap { if case .target(let target) = $0 { target } else { nil } },
        timeoutSeconds: max(1, timeoutMilliseconds / 1000))
  }

  /// The names of the look-up's order (`lookup_providers`), as the library set them.
  public static func order(in store: LibraryStore) -> [String] {
    let order = ((try? store.policy.setting(orderKey)) ?? nil) ?? "google,openlibrary"
    return order.split(separator: ",").map { String($0).trimmingWhitespace() }.filter { !$0.isEmpty }
  }

  /// Settings keys for the catalogues and their order.
  public static let orderKey = "lookup_providers"
  public static let googleBooksKey = "google_books_url"
  public static let openLibraryKey = "open_library_url"

  /// The configuration of a library: its settings, overridden by `CIRCDESK_GOOGLE_BOOKS_URL`
  /// and `CIRCDESK_OPEN_LIBRARY_URL` in the environment.
  public static func configured(store: LibraryStore, environment: [String: String]) -> ISBNLookup {
    let google =
      environment["CIRCDESK_GOOGLE_BOOKS_URL"] ?? (try? store.policy.setting(googleBooksKey)) ?? nil
      ?? LookupProvider.defaultGoogleBooksURL
    let openLibrary =
      environment["CIRCDESK_OPEN_LIBRARY_URL"] ?? (try? store.policy.setting(openLibraryKey)) ?? nil
      ?? LookupProvider.defaultOpenLibraryURL
    let targets = (try? store.copyCataloguing.targets()) ?? []
    let providers = order(in: store).compactMap { name -> LookupProvider? in
      switch name.lowercased() {
      case "google": return .googleBooks(baseURL: google)
      case "openlibrary": return .openLibrary(baseURL: openLibrary)
      default: return targets.first { $0.name.lowercased() == name.lowercased() }.map(LookupProvider.target)
      }
    }
    let seconds = CopyCatalogue.timeoutSeconds(in: store)
    return ISBNLookup(
      providers: providers.isEmpty ? [.googleBooks(baseURL: google), .openLibrary(baseURL: openLibrary)] : providers,
      timeoutMilliseconds: seconds * 1000,
      catalogue: CopyCatalogue(targets: targets, timeoutSeconds: seconds, environment: environment))
  }

  /// Looks an ISBN up: from the library's own memory when it has asked before, else from the
  /// catalogues in order, taking the first answer whose ISBN matches.
  public func lookup(_ isbn: ISBN, in store: LibraryStore) -> LookupOutcome {
    switch try? store.books.cachedLookup(isbn) {
    case .found(var facts):
      // A target's answer keeps its whole record with the target's answers.
      if let target = catalogue.targets.first(where: { $0.name == facts.provider }) {
        facts.record = catalogue.with(targets: [target]).search(.isbn(isbn), in: store).records.first
      }
      return .found(facts, cached: true)
    case .notFound: return .notFound(cached: true)
    case nil: break
    }
    var failures: [LookupFailure] = []
    for provider in providers {
      if case .target(let target) = provider {
        let result = catalogue.with(targets: [target]).search(.isbn(isbn), in: store)
        if let record = result.records.first {
          try? store.books.saveLookup(isbn, facts: record.facts)
          return .found(record.facts, cached: false)
        }
        failures += result.failures
        continue
      }
      do throws(LookupFailure) {
        let body = try HTTPClient.get(
          provider.url(for: isbn), timeoutMilliseconds: timeoutMilliseconds, provider: provider.name)
        if let facts = try provider.facts(from: body, isbn: isbn) {
          try? store.books.saveLookup(isbn, facts: facts)
          return .found(facts, cached: false)
        }
      } catch {
        failures.append(error)
      }
    }
    if failures.isEmpty {
      try? store.books.saveLookup(isbn, facts: nil)
      return .notFound(cached: false)
    }
    try? store.books.enqueueLookup(isbn, error: failures.map(\.description).joined(separator: "; "))
    return .unavailable(failures)
  }

  /// Works through the queue; returns each ISBN with how it ended.
  public func processPending(in store: LibraryStore) -> [(ISBN, LookupOutcome)] {
    let pending = (try? store.books.pendingLookups()) ?? []
    return pending.map { ($0.isbn, lookup($0.isbn, in: store)) }
  }
}
