/// A message the library sends a kiosk: its code, fixed part and fields, in the order the
/// specification lists them.
public struct SIP2Reply: Equatable, Sendable {
  public var code: String
  public var fixed: String
  public var fields: [SIP2Field]

  public init(code: String, fixed: String = "", fields: [SIP2Field] = []) {
    self.code = code
    self.fixed = fixed
    self.fields = fields
  }

  /// A count of four digits (the most it writes is 9999).
  public static func count(_ value: Int) -> String {
    let text = String(min(max(value, 0), 9999))
    return String(repeating: "0", count: 4 - text.count) + text
  }

  /// Adds a field; an optional one with no value is left out.
  public mutating func add(_ id: String, _ value: String, always: Bool = true) {
    guard always || !value.isEmpty else { return }
    fields.append(SIP2Field(id, value))
  }

  /// The message as sent, without its terminator: a value's `|` and control characters would end
  /// its field or the message, and become a space. With `sequence`, it ends `AY<n>AZ<checksum>`,
  /// the checksum over the bytes in `encoding`.
  public func bytes(encoding: SIP2Encoding, sequence: Int?, checksums: Bool) -> [UInt8] {
    var text = code + fixed
    for field in fields {
      text += field.id
      text += String(
        String.UnicodeScalarView(
          field.value.unicodeScalars.map { $0 == "|" || $0.properties.generalCategory == .control ? " " : $0 }))
      text += "|"
    }
    guard checksums else { return encoding.encode(text) }
    if let sequence { text += "AY\(sequence)" }
    var bytes = encoding.encode(text + "AZ")
    bytes += Array(SIP2Checksum.of(bytes).utf8)
    return bytes
  }
}

/// SIP2's 18-character dates: `YYYYMMDD`, four characters of zone (spaces: local time), `HHMMSS`.
public enum SIP2Date {
  public static func text(_ moment: LocalMoment) -> String {
    moment.date.compact + "    " + moment.compactTime
  }

  /// A due date: the end of its day, as Koha writes it.
  public static func text(due date: LocalDate) -> String {
    date.compact + "    235900"
  }

  /// An empty date (eighteen spaces), where the specification allows one.
  public static let blank = String(repeating: " ", count: 18)
}

extension Bool {
  /// Y or N, as SIP2's fixed fields write a yes or a no.
  public var sip2: String { self ? "Y" : "N" }
}
