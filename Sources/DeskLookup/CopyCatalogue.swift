import DeskDomain
import DeskStorage

/// What the targets answered to one search.
public struct CopySearchResult: Equatable, Sendable {
  /// The records, a book once, in the targets' order.
  public var records: [CopiedRecord]
  /// The targets that could not answer (no network, time-outs, errors).
  public var failures: [LookupFailure]
  /// Records a target sent that could not be read, by target: what was wrong.
  public var unreadable: [String]
  /// Every answer came from what the library kept of an earlier search.
  public var cached: Bool
  /// The targets hold more records than they sent: the search is too wide to list whole.
  public var holdsMore = false

  /// No target could answer, and none had answered before: the search waits in the queue.
  public var isUnavailable: Bool { records.isEmpty && !failures.isEmpty && failures.count == asked }
  var asked = 0
}

/// Copy cataloguing: searches other libraries' catalogues (Z39.50, SRU) for a book, offline
/// first. A target's answer to a query is kept in the library, so that a query asks a target once;
/// a search no target could answer waits in the queue for the network.
public struct CopyCatalogue: Sendable {
  public var targets: [CatalogueTarget]
  public var timeoutSeconds: Int
  /// Records asked of each target: a search by words lists at most these.
  public var maxRecords: Int
  public var environment: [String: String]

  public init(
    targets: [CatalogueTarget], timeoutSeconds: Int = CopyCatalogue.defaultTimeoutSeconds, maxRecords: Int = 10,
    environment: [String: String] = [:]
  ) {
    self.targets = targets
    self.timeoutSeconds = timeoutSeconds
    self.maxRecords = maxRecords
    self.environment = environment
  }

  /// The catalogue with the targets the library has now: one added or removed by `circdesk
  /// target` while the desk is open counts at its next search.
  public func current(in store: LibraryStore) -> CopyCatalogue {
    with(targets: (try? store.copyCataloguing.targets()) ?? targets)
  }

  /// The same search settings for other targets.
  public func with(targets: [CatalogueTarget]) -> CopyCatalogue {
    var copy = self
    copy.targets = targets
    return copy
  }

  /// Settings key of the seconds a target is given to answer.
  public static let timeoutKey = "lookup_timeout"
  public static let defaultTimeoutSeconds = 5

  /// The seconds a library gives a target, from its settings.
  public static func timeoutSeconds(in store: LibraryStore) -> Int {
    ((try? store.policy.setting(timeoutKey)) ?? nil).flatMap { Int($0.trimmingWhitespace()) }.map {
      min(max($0, 1), 120)
    }
      ?? defaultTimeoutSeconds
  }

  /// Searches every target: those asked this query before from what the library kept, the others
  /// together over the network.
  public func search(_ query: CopyQuery, in store: LibraryStore) -> CopySearchResult {
    var result = CopySearchResult(records: [], failures: [], unreadable: [], cached: true)
    result.asked = targets.count
    var answers: [String: CopyAnswer] = [:]
    var requests: [YazClient.Request] = []
    for target in targets {
      if let kept = try? store.copyCataloguing.answer(of: target.name, to: query) {
        answers[target.name] = kept
        continue
      }
      var password: String?
      if let variable = target.passwordVariable {
        guard let value = environment[variable] else {
          result.failures.append(
            .failed(target.name, TargetError.noPassword(target: target.name, variable: variable).description))
          continue
        }
        password = value
      }
      requests.append(YazClient.Request(target: target, query: query, password: password))
    }
    if !requests.isEmpty {
      result.cached = false
      let fresh = YazClient.search(requests, maxRecords: maxRecords, timeoutSeconds: timeoutSeconds)
      for (request, answer) in zip(requests, fresh) {
        if let failure = answer.failure {
          result.failures.append(failure)
          continue
        }
        if answer.broken > 0 {
          result.unreadable.append(LookupFailure.brokenRecords(request.target.name, answer.broken).description)
        }
        let kept = CopyAnswer(records: answer.records, fromXML: answer.fromXML, hits: answer.hits)
        // An answer with a broken record is not kept: the next search asks again.
        if answer.broken == 0 { try? store.copyCataloguing.keep(kept, of: request.target.name, to: query) }
        answers[request.target.name] = kept
      }
    }
    var records: [CopiedRecord] = []
    for target in targets {
      guard let answer = answers[target.name] else { continue }
      if answer.hits > answer.records.count { result.holdsMore = true }
      for bytes in answer.records {
        switch CopiedRecord.read(bytes, from: target, fromXML: answer.fromXML) {
        case .success(let record):
          if case .isbn(let isbn) = query, !record.describes(isbn) { continue }
          records.append(record)
        case .failure(let flaw):
          result.unreadable.append("\(target.name): \(CopyCatalogue.words(flaw))")
        }
      }
    }
    result.records = CopiedRecord.distinct(records)
    if result.isUnavailable {
      try? store.copyCataloguing.enqueue(query, error: result.failures.map(\.description).joined(separator: "; "))
    } else if result.failures.isEmpty {
      try? store.copyCataloguing.dequeue(query)
    }
    return result
  }

  /// A record's flaw, briefly, for the list of what could not be read.
  static func words(_ flaw: ISO2709Flaw) -> String {
    switch flaw {
    case .noRecordLength: "a record without its length"
    case .lengthMismatch(let said, let found): "a record whose leader says \(said) bytes, of \(found)"
    case .endsInside: "a record cut short"
    case .invalidUTF8(let byte, _): "a record that says UTF-8 and is not (byte \(byte))"
    case .damagedDirectory: "a record whose directory is damaged"
    case .nul(let tag): "a record with a NUL byte in field \(tag)"
    case .notMARC8(let tag): "a record whose field \(tag) is in a MARC-8 set the desk does not read"
    }
  }

  /// Works through the searches that waited for the network.
  public func processPending(in store: LibraryStore) -> [(CopyQuery, CopySearchResult)] {
    ((try? store.copyCataloguing.pending()) ?? []).map { ($0.query, search($0.query, in: store)) }
  }
}
