/// A parsed JSON document: enough of JSON to read the catalogues' answers, strictly (malformed
/// text is an error, never a guess).
public indirect enum JSONValue: Equatable, Sendable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object([String: JSONValue])

  public subscript(key: String) -> JSONValue? {
    if case .object(let members) = self { return members[key] }
    return nil
  }

  public var string: String? {
    if case .string(let text) = self { return text }
    return nil
  }

  public var int: Int? {
    switch self {
    case .number(let value) where value.rounded() == value && abs(value) < 1e15: return Int(value)
    case .string(let text): return Int(text)
    default: return nil
    }
  }

  public var array: [JSONValue] {
    if case .array(let items) = self { return items }
    return []
  }

  public static func parse(_ bytes: [UInt8]) throws(JSONError) -> JSONValue {
    var parser = Parser(bytes: bytes)
    parser.skipSpace()
    let value = try parser.value(depth: 0)
    parser.skipSpace()
    guard parser.index == bytes.count else { throw .unexpected(parser.index) }
    return value
  }
}

public enum JSONError: Error, Equatable, CustomStringConvertible {
  case unexpected(Int)
  case tooDeep

  public var description: String {
    switch self {
    case .unexpected(let offset): return "malformed JSON at byte \(offset)"
    case .tooDeep: return "JSON nested too deeply"
    }
  }
}

private struct Parser {
  let bytes: [UInt8]
  var index = 0

  mutating func skipSpace() {
    while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
  }

  mutating func value(depth: Int) throws(JSONError) -> JSONValue {
    guard depth < 200 else { throw .tooDeep }
    guard index < bytes.count else { throw .unexpected(index) }
    switch bytes[index] {
    case UInt8(ascii: "{"): return try object(depth: depth)
    case UInt8(ascii: "["): return try array(depth: depth)
    case UInt8(ascii: "\""): return .string(try string())
    case UInt8(ascii: "t"): try literal("true"); return .bool(true)
    case UInt8(ascii: "f"): try literal("false"); return .bool(false)
    case UInt8(ascii: "n"): try literal("null"); return .null
    default: return .number(try number())
    }
  }

  mutating func literal(_ word: String) throws(JSONError) {
    let expected = Array(word.utf8)
    guard index + expected.count <= bytes.count, Array(bytes[index..<(index + expected.count)]) == expected else {
      throw .unexpected(index)
    }
    index += expected.count
  }

  mutating func object(depth: Int) throws(JSONError) -> JSONValue {
    index += 1
    var members: [String: JSONValue] = [:]
    skipSpace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
      index += 1
      return .object(members)
    }
    while true {
      skipSpace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw .unexpected(index) }
      let key = try string()
      skipSpace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw .unexpected(index) }
      index += 1
      skipSpace()
      members[key] = try value(depth: depth + 1)
      skipSpace()
      guard index < bytes.count else { throw .unexpected(index) }
      if bytes[index] == UInt8(ascii: ",") {
        index += 1
        continue
      }
      guard bytes[index] == UInt8(ascii: "}") else { throw .unexpected(index) }
      index += 1
      return .object(members)
    }
  }

  mutating func array(depth: Int) throws(JSONError) -> JSONValue {
    index += 1
    var items: [JSONValue] = []
    skipSpace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
      index += 1
      return .array(items)
    }
    while true {
      skipSpace()
      items.append(try value(depth: depth + 1))
      skipSpace()
      guard index < bytes.count else { throw .unexpected(index) }
      if bytes[index] == UInt8(ascii: ",") {
        index += 1
        continue
      }
      guard bytes[index] == UInt8(ascii: "]") else { throw .unexpected(index) }
      index += 1
      return .array(items)
    }
  }

  mutating func string() throws(JSONError) -> String {
    index += 1
    var scalars = String.UnicodeScalarView()
    var pendingHigh: UInt32?
    var raw: [UInt8] = []
    func flushRaw() throws(JSONError) {
      guard !raw.isEmpty else { return }
      guard let text = String(validating: raw, as: UTF8.self) else { throw .unexpected(index) }
      scalars.append(contentsOf: text.unicodeScalars)
      raw = []
    }
    while index < bytes.count {
      let byte = bytes[index]
      index += 1
      switch byte {
      case UInt8(ascii: "\""):
        try flushRaw()
        return String(scalars)
      case UInt8(ascii: "\\"):
        try flushRaw()
        guard index < bytes.count else { throw .unexpected(index) }
        let escape = bytes[index]
        index += 1
        switch escape {
        case UInt8(ascii: "\""): scalars.append("\"")
        case UInt8(ascii: "\\"): scalars.append("\\")
        case UInt8(ascii: "/"): scalars.append("/")
        case UInt8(ascii: "b"): scalars.append("\u{8}")
        case UInt8(ascii: "f"): scalars.append("\u{C}")
        case UInt8(ascii: "n"): scalars.append("\n")
        case UInt8(ascii: "r"): scalars.append("\r")
        case UInt8(ascii: "t"): scalars.append("\t")
        case UInt8(ascii: "u"):
          guard index + 4 <= bytes.count,
            let code = UInt32(String(decoding: bytes[index..<(index + 4)], as: UTF8.self), radix: 16)
          else { throw .unexpected(index) }
          index += 4
          if (0xD800...0xDBFF).contains(code) {
            pendingHigh = code
          } else if (0xDC00...0xDFFF).contains(code), let high = pendingHigh {
            pendingHigh = nil
            if let scalar = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (code - 0xDC00)) {
              scalars.append(scalar)
            }
          } else if let scalar = Unicode.Scalar(code) {
            scalars.append(scalar)
          }
        default: throw .unexpected(index - 1)
        }
      case 0x00..<0x20:
        throw .unexpected(index - 1)
      default:
        raw.append(byte)
      }
    }
    throw .unexpected(index)
  }

  mutating func number() throws(JSONError) -> Double {
    let start = index
    while index < bytes.count, "+-0123456789.eE".utf8.contains(bytes[index]) { index += 1 }
    guard index > start, let value = Double(String(decoding: bytes[start..<index], as: UTF8.self)) else {
      throw .unexpected(start)
    }
    return value
  }
}
