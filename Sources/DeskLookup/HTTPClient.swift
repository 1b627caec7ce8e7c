import CHTTP

/// Why a catalogue gave no usable answer.
public enum LookupFailure: Error, Equatable, Sendable, CustomStringConvertible {
  case timedOut(String)
  case cannotConnect(String)
  case httpStatus(String, Int)
  case malformed(String, String)
  case failed(String, String)
  /// A target sent records that cannot be read (a broken MARCXML): how many.
  case brokenRecords(String, Int)

  /// The catalogue that failed.
  public var provider: String {
    switch self {
    case .timedOut(let provider), .cannotConnect(let provider), .httpStatus(let provider, _),
      .malformed(let provider, _), .failed(let provider, _), .brokenRecords(let provider, _):
      provider
    }
  }

  public var description: String {
    switch self {
    case .timedOut(let provider): return "\(provider) did not answer in time"
    case .cannotConnect(let provider): return "\(provider) cannot be reached (no network?)"
    case .httpStatus(let provider, let code): return "\(provider) answered with HTTP status \(code)"
    case .malformed(let provider, let detail): return "\(provider) sent an answer that is not valid JSON (\(detail))"
    case .failed(let provider, let detail): return "\(provider): \(detail)"
    case .brokenRecords(let provider, let count):
      return "\(provider) sent \(count == 1 ? "a record" : "\(count) records") that cannot be read"
    }
  }
}

/// HTTP GET through libcurl, in this process: no Foundation networking, so the program links
/// statically and starts fast.
enum HTTPClient {
  static func get(_ url: String, timeoutMilliseconds: Int, provider: String) throws(LookupFailure) -> [UInt8] {
    var response = chttp_response()
    let status = chttp_get(url, timeoutMilliseconds, 4 << 20, &response)
    defer { chttp_free(&response) }
    let message = withUnsafeBytes(of: response.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    switch status {
    case CHTTP_OK: break
    case CHTTP_TIMEOUT: throw .timedOut(provider)
    case CHTTP_CANNOT_CONNECT: throw .cannotConnect(provider)
    default: throw .failed(provider, message)
    }
    guard (200..<300).contains(response.code) else { throw .httpStatus(provider, Int(response.code)) }
    return response.body.map { Array(UnsafeBufferPointer(start: $0, count: response.length)) } ?? []
  }
}

/// Makes text safe inside a URL's query.
func percentEncoded(_ text: String) -> String {
  var result = ""
  for byte in text.utf8 {
    switch byte {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"),
      UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
      result.unicodeScalars.append(Unicode.Scalar(byte))
    default:
      let hex = Array("0123456789ABCDEF")
      result += "%\(hex[Int(byte >> 4)])\(hex[Int(byte & 0xF)])"
    }
  }
  return result
}
