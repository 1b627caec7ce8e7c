/// A JSON value whose objects keep their keys in the order written, so that output for scripts
/// is stable from one run to the next.
public indirect enum JSON: Equatable, Sendable {
  case null
  case bool(Bool)
  case int(Int)
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
}
