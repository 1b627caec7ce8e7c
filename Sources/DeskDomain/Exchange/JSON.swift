// JSON as the program writes it (command output for scripts) and reads it (catalogue answers).

/// A JSON value, written and read: objects keep their members in the order written (output for
/// scripts is stable from one run to the next; a document read is walked in its own order), and
/// reading is strict (malformed text is an error, never a guess). Whole numbers are `int`, others
/// `number`.
public indirect enum JSON: Equatable, Sendable {
  case null
  case bool(Bool)
  case int(Int)
  case number(Double)
  case string(String)
  case array([JSON])
  case object([(String, JSON)])

  public static func == (lhs: JSON, rhs: JSON) -> Bool {
    lhs.rendered() == rhs.rendered()
  }

  public static func optional(_ value: String?) -> JSON {
    value.map(JSON.string) ?? .null
  }

  public static func optional(_ value: Int?) -> JSON {
    value.map(JSON.int) ?? .null
  }

  /// Two-space indented text, ending without a newline.
  public func rendered(indent: Int = 0) -> String {
    let pad = String(repeating: "  ", count: indent)
    let inner = String(repeating: "  ", count: indent + 1)
    switch self {
    case .null: return "null"
    case .bool(let value): return value ? "true" : "false"
    case .int(let value): return String(value)
    case .number(let value): return value.isFinite ? String(value) : "null"
    case .string(let value): return JSON.quote(value)
    case .array(let items):
      guard !items.isEmpty else { return "[]" }
      return "[\n" + items.map { inner + $0.rendered(indent: indent + 1) }.joined(separator: ",\n") + "\n\(pad)]"
    case .object(let members):
      guard !members.isEmpty else { return "{}" }
      return "{\n"
        + members.map { "\(inner)\(JSON.quote($0.0)): \($0.1.rendered(indent: indent + 1))" }.joined(separator: ",\n")
        + "\n\(pad)}"
    }
  }

  /// On one line without spaces, as a value stored in the library for SQLite's JSON functions to
  /// read (a conflict's details).
  public var compact: String {
    switch self {
    case .array(let items): return "[" + items.map(\.compact).joined(separator: ",") + "]"
    case .object(let members):
      return "{" + members.map { JSON.quote($0.0) + ":" + $0.1.compact }.joined(separator: ",") + "}"
    default: return rendered()
    }
  }

  static func quote(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      default:
        if scalar.value < 0x20 || scalar.value == 0x7F || (0x80...0x9F).contains(scalar.value)
          || scalar.value == 0x2028 || scalar.value == 0x2029
        {
          let hex = String(scalar.value, radix: 16)
          result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        } else {
          result.unicodeScalars.append(scalar)
        }
      }
    }
    return result + "\""
  }

  /// A member of an object (the last, when a key is given twice); nil for anything else.
  public subscript(key: String) -> JSON? {
    if case .object(let members) = self { return members.last { $0.0 == key }?.1 }
    return nil
  }

  public var string: String? {
    if case .string(let text) = self { return text }
    return nil
  }

  /// A whole number, written as one or as text.
  public var int: Int? {
    switch self {
    case .int(let value): return value
    case .number(let value) where value.rounded() == value && abs(value) < 1e15: return Int(value)
    case .string(let text): return Int(text)
    default: return nil
    }
  }

  /// The items of an array; none for anything else.
  public var array: [JSON] {
    if case .array(let items) = self { return items }
    return []
  }

  /// Reads a whole document.
  public static func parse(_ bytes: [UInt8]) throws(JSONError) -> JSON {
    var parser = Parser(bytes: bytes)
    parser.skipSpace()
    let value = try parser.value(depth: 0)
    parser.skipSpace()
    guard parser.index == bytes.count else { throw .unexpected(parser.index) }
    return value
  }

  /// A number read: whole ones (within what a Double holds exactly) as `int`.
  static func reading(_ value: Double) -> JSON {
    value.rounded() == value && abs(value) < 1e15 ? .int(Int(value)) : .number(value)
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

  mutating func value(depth: Int) throws(JSONError) -> JSON {
    guard depth < 200 else { throw .tooDeep }
    guard index < bytes.count else { throw .unexpected(index) }
    switch bytes[index] {
    case UInt8(ascii: "{"): return try object(depth: depth)
    case UInt8(ascii: "["): return try array(depth: depth)
    case UInt8(ascii: "\""): return .string(try string())
    case UInt8(ascii: "t"): try literal("true"); return .bool(true)
    case UInt8(ascii: "f"): try literal("false"); return .bool(false)
    case UInt8(ascii: "n"): try literal("null"); return .null
    default: return JSON.reading(try number())
    }
  }

  mutating func literal(_ word: String) throws(JSONError) {
    let expected = Array(word.utf8)
    guard index + expected.count <= bytes.count, Array(bytes[index..<(index + expected.count)]) == expected else {
      throw .unexpected(index)
    }
    index += expected.count
  }

  mutating func object(depth: Int) throws(JSONError) -> JSON {
    index += 1
    var members: [(String, JSON)] = []
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
      members.append((key, try value(depth: depth + 1)))
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

  mutating func array(depth: Int) throws(JSONError) -> JSON {
    index += 1
    var items: [JSON] = []
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
