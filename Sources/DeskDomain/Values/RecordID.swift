/// A record's stable identity: a random (version 4) UUID in its usual lower-case text form.
/// Every desk makes its own without asking anyone, which is what syncing desks need.
public struct RecordID: Hashable, Sendable, CustomStringConvertible {
  public let text: String

  public init(_ text: String) {
    self.text = text
  }

  public static func random() -> RecordID {
    var generator = SystemRandomNumberGenerator()
    return random(using: &generator)
  }

  public static func random<G: RandomNumberGenerator>(using generator: inout G) -> RecordID {
    // Two 64-bit draws, not sixteen byte draws: the system generator asks the kernel each time.
    let high = generator.next()
    let low = generator.next()
    var bytes =
      (0..<8).map { UInt8(truncatingIfNeeded: high >> (8 * $0)) }
      + (0..<8).map { UInt8(truncatingIfNeeded: low >> (8 * $0)) }
    bytes[6] = (bytes[6] & 0x0F) | 0x40
    bytes[8] = (bytes[8] & 0x3F) | 0x80
    let hex = bytes.map { byte -> String in
      let digits = Array("0123456789abcdef")
      return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }
    let groups = [hex[0..<4], hex[4..<6], hex[6..<8], hex[8..<10], hex[10..<16]]
    return RecordID(groups.map { $0.joined() }.joined(separator: "-"))
  }

  public var description: String { text }
}
