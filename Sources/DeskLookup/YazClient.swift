import CYaz
import DeskDomain

#if canImport(Glibc)
  import Glibc
#endif

/// One target's answer to a search through YAZ.
struct YazAnswer {
  var failure: LookupFailure?
  var hits: Int
  var records: [[UInt8]]
  var fromXML: Bool
  /// Records the target sent that YAZ could not read (a broken MARCXML).
  var broken: Int
}

/// Z39.50 and SRU through YAZ's ZOOM, in this process (never by running yaz-client): every target
/// asked at once, each exchange given up after the time-out.
enum YazClient {
  struct Request {
    var target: CatalogueTarget
    var query: CopyQuery
    var password: String?
  }

  static func search(_ requests: [Request], maxRecords: Int, timeoutSeconds: Int) -> [YazAnswer] {
    guard !requests.isEmpty else { return [] }
    // The C strings live while the search runs.
    let strings = requests.map { request in
      (
        address: strdup(request.target.isSRU ? request.target.address : "tcp:" + request.target.address),
        syntax: strdup(request.target.syntax.z3950Name),
        schema: strdup(request.target.recordSchema),
        user: request.target.user.flatMap { strdup($0) },
        password: request.password.flatMap { strdup($0) },
        query: strdup(request.target.isSRU ? request.query.cql : request.query.pqf)
      )
    }
    defer {
      for string in strings {
        free(string.address)
        free(string.syntax)
        free(string.schema)
        free(string.user)
        free(string.password)
        free(string.query)
      }
    }
    let targets = zip(requests, strings).map { request, string in
      cyaz_target(
        address: string.address, sru: request.target.isSRU ? 1 : 0, syntax: string.syntax, schema: string.schema,
        user: string.user,
        password: string.password, query: string.query)
    }
    var outcomes = [cyaz_outcome](repeating: cyaz_outcome(), count: requests.count)
    var records: UnsafeMutablePointer<cyaz_record>?
    var count = 0
    var message = [CChar](repeating: 0, count: 300)
    let status = cyaz_search(
      targets, targets.count, Int32(maxRecords), Int32(max(1, timeoutSeconds)), &outcomes, &records, &count, &message)
    defer { cyaz_free(records, count) }
    guard status == 0 else {
      let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      return requests.map {
        YazAnswer(failure: .failed($0.target.name, text), hits: 0, records: [], fromXML: false, broken: 0)
      }
    }
    var answers = zip(requests, outcomes).map { request, outcome -> YazAnswer in
      let text = withUnsafeBytes(of: outcome.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
      let name = request.target.name
      let failure: LookupFailure? =
        switch Int(outcome.status) {
        case Int(CYAZ_ANSWERED): nil
        case Int(CYAZ_CANNOT_CONNECT): .cannotConnect(name)
        case Int(CYAZ_TIMED_OUT): .timedOut(name)
        case Int(CYAZ_UNREADABLE):
          .failed(
            name,
            "what it answered is no \(request.target.isSRU ? "SRU" : "Z39.50") answer (\(text)): check the target's address"
          )
        default: .failed(name, text.isEmpty ? "the search failed" : text)
        }
      return YazAnswer(failure: failure, hits: outcome.hits, records: [], fromXML: request.target.isSRU, broken: 0)
    }
    for record in UnsafeBufferPointer(start: records, count: count) {
      let index = Int(record.target)
      guard answers.indices.contains(index) else { continue }
      if record.broken != 0 {
        answers[index].broken += 1
      } else if let bytes = record.bytes {
        answers[index].records.append(Array(UnsafeBufferPointer(start: bytes, count: record.length)))
      }
    }
    return answers
  }
}
