/// A message of SIP2 (3M Standard Interchange Protocol 2.00) as a kiosk sends it: a two-digit
/// code, a part of fixed length that the code decides, variable fields (a two-letter name, the
/// value, `|`), and, with error detection, a sequence number and a checksum at the end.
public struct SIP2Message: Equatable, Sendable {
  public var code: String
  public var fixed: String
  public var fields: [SIP2Field]
  /// The sequence number of `AY`, 0…9, when the kiosk sent one: the reply carries it back.
  public var sequence: Int?
  /// True when the message ended with a checksum (`AZ`), which was checked.
  public var hasChecksum: Bool

  public init(
    code: String, fixed: String = "", fields: [SIP2Field] = [], sequence: Int? = nil, hasChecksum: Bool = false
  ) {
    self.code = code
    self.fixed = fixed
    self.fields = fields
    self.sequence = sequence
    self.hasChecksum = hasChecksum
  }

  /// The first value of the field `id`, if the message has it.
  public func field(_ id: String) -> String? {
    fields.first { $0.id == id }?.value
  }

  /// The characters of the fixed part from `offset`, `length` of them.
  /// Shorter where the part is (a message made by hand rather than read: `parse` gives each code its
  /// whole fixed part).
  public func fixed(_ offset: Int, _ length: Int) -> Substring {
    let start = fixed.index(fixed.startIndex, offsetBy: offset, limitedBy: fixed.endIndex) ?? fixed.endIndex
    return fixed[start..<(fixed.index(start, offsetBy: length, limitedBy: fixed.endIndex) ?? fixed.endIndex)]
  }

  /// The length of the fixed part of each request a kiosk sends, by the specification; a code
  /// not here is not a request.
  public static let fixedLengths: [String: Int] = [
    "01": 19,  // block patron: card retained, date
    "09": 37,  // checkin: no block, date, return date
    "11": 38,  // checkout: renewal policy, no block, date, no-block due date
    "15": 19,  // hold: mode, date
    "17": 18,  // item information: date
    "19": 18,  // item status update: date
    "23": 21,  // patron status: language, date
    "25": 18,  // patron enable: date
    "29": 38,  // renew: third party, no block, date, no-block due date
    "35": 18,  // end patron session: date
    "37": 25,  // fee paid: date, fee type, payment type, currency
    "63": 31,  // patron information: language, date, summary
    "65": 18,  // renew all: date
    "93": 2,  // login: UID and PWD algorithms
    "97": 0,  // request SC resend
    "99": 8,  // SC status: status, print width, protocol version
  ]

  /// Reads a message, its terminator already taken off. The checksum is checked when the message
  /// has one: over its bytes as sent (`bytes`), or over its characters (kiosks differ on text that
  /// is not ASCII).
  public static func parse(_ text: String, bytes: [UInt8]) -> Result<SIP2Message, SIP2MessageError> {
    let characters = Array(text.unicodeScalars)
    func string(_ range: Range<Int>) -> String { String(String.UnicodeScalarView(characters[range])) }
    func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }
    guard characters.count >= 2, isDigit(characters[0]), isDigit(characters[1]) else { return .failure(.noCode) }
    let code = string(0..<2)
    guard let fixedLength = fixedLengths[code] else { return .failure(.unknownCode(code)) }
    var end = characters.count
    var sequence: Int?
    var hasChecksum = false
    // The tail `AY<n>AZ<xxxx>` (some kiosks put a `|` before AY or AZ, or send AZ alone).
    if end >= 2 + fixedLength + 6, string((end - 6)..<(end - 4)) == "AZ" {
      let digits = characters[(end - 4)..<end]
      guard digits.allSatisfy({ $0.properties.isASCIIHexDigit }), let sent = UInt16(string((end - 4)..<end), radix: 16)
      else { return .failure(.badChecksum) }
      let byteSum = SIP2Checksum.sum(bytes.dropLast(4))
      let characterSum = characters[..<(end - 4)].reduce(UInt32(0)) { $0 &+ $1.value }
      guard SIP2Checksum.checks(sum: byteSum, against: sent) || SIP2Checksum.checks(sum: characterSum, against: sent)
      else { return .failure(.badChecksum) }
      hasChecksum = true
      end -= 6
      if end > 2 + fixedLength, characters[end - 1] == "|" { end -= 1 }
    }
    if end >= 2 + fixedLength + 3, characters[end - 3] == "A", characters[end - 2] == "Y", isDigit(characters[end - 1])
    {
      sequence = Int(characters[end - 1].value - 0x30)
      end -= 3
      if end > 2 + fixedLength, characters[end - 1] == "|" { end -= 1 }
    }
    guard end >= 2 + fixedLength else { return .failure(.shortFixedPart(code: code, expected: fixedLength)) }
    let fixed = string(2..<(2 + fixedLength))
    var fields: [SIP2Field] = []
    var position = 2 + fixedLength
    while position < end {
      guard end - position >= 2 else { return .failure(.brokenField(string(position..<end))) }
      let id = string(position..<(position + 2))
      guard id.unicodeScalars.allSatisfy({ ("A"..."Z").contains($0) || isDigit($0) }) else {
        return .failure(.brokenField(string(position..<min(end, position + 20))))
      }
      var stop = position + 2
      while stop < end, characters[stop] != "|" { stop += 1 }
      fields.append(SIP2Field(id, string((position + 2)..<stop)))
      position = stop + 1
    }
    return .success(SIP2Message(code: code, fixed: fixed, fields: fields, sequence: sequence, hasChecksum: hasChecksum))
  }
}

/// A variable field of a SIP2 message: `AA12345|` is the patron identifier 12345.
public struct SIP2Field: Equatable, Sendable {
  public var id: String
  public var value: String

  public init(_ id: String, _ value: String) {
    self.id = id
    self.value = value
  }
}

/// Why a message could not be read. A kiosk is answered 96 (send it again) for each.
public enum SIP2MessageError: Error, Equatable, Sendable {
  case noCode
  case unknownCode(String)
  case badChecksum
  case shortFixedPart(code: String, expected: Int)
  case brokenField(String)
  case tooLong(limit: Int)

  public var message: String {
    switch self {
    case .noCode: return "the message does not begin with a two-digit code"
    case .unknownCode(let code): return "\(code) is not a message a kiosk sends"
    case .badChecksum: return "the checksum (AZ) does not match the message"
    case .shortFixedPart(let code, let expected):
      return "message \(code) is shorter than its fixed part (\(expected) characters after the code)"
    case .brokenField(let text): return "a field is not a two-letter name and a value: «\(text)»"
    case .tooLong(let limit): return "a message is longer than \(limit) bytes without its terminator"
    }
  }
}

/// SIP2's error detection: the sum of the message's bytes through "AZ", kept to 16 bits and
/// negated, as four upper-case hexadecimal digits.
public enum SIP2Checksum {
  public static func sum<Bytes: Sequence>(_ bytes: Bytes) -> UInt32 where Bytes.Element == UInt8 {
    bytes.reduce(UInt32(0)) { $0 &+ UInt32($1) }
  }

  /// The checksum of `text` (its bytes as sent), which ends with "AZ".
  public static func of(_ bytes: [UInt8]) -> String {
    let value = UInt16(truncatingIfNeeded: 0x10000 &- (sum(bytes) & 0xFFFF))
    return hex(value)
  }

  /// True when the sum and the checksum sent add up to zero in 16 bits.
  static func checks(sum: UInt32, against sent: UInt16) -> Bool {
    (sum &+ UInt32(sent)) & 0xFFFF == 0
  }

  private static func hex(_ value: UInt16) -> String {
    let digits = Array("0123456789ABCDEF")
    return String((0..<4).reversed().map { digits[Int(value >> (4 * UInt16($0)) & 0xF)] })
  }
}
