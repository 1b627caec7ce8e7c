import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// A record's stable identity: a random (version 4) UUID in its usual lower-case text form.
/// Every desk makes its own without asking anyone, which is what syncing desks need.
public struct RecordID: Hashable, Sendable, CustomStringConvertible {
  public let text: String

  public init(_ text: String) {
    self.text = text
  }

  public static func random() -> RecordID {
    var generator = PooledSystemRandom()
    return random(using: &generator)
  }

  public static func random<G: RandomNumberGenerator>(using generator: inout G) -> RecordID {
    // Version 4 (bits 48–51 of the first half read as bytes 0–7) and the RFC 4122 variant.
    let high = (generator.next() & ~(0xF0 << 48)) | (0x40 << 48)
    let low = (generator.next() & ~0xC0) | 0x80
    let text = String(unsafeUninitializedCapacity: 36) { buffer in
      var position = 0
      for index in 0..<16 {
        if index == 4 || index == 6 || index == 8 || index == 10 {
          buffer[position] = UInt8(ascii: "-")
          position += 1
        }
        let byte = UInt8(truncatingIfNeeded: (index < 8 ? high : low) >> (8 * UInt64(index % 8)))
        buffer[position] = hexDigit(byte >> 4)
        buffer[position + 1] = hexDigit(byte & 0x0F)
        position += 2
      }
      return position
    }
    return RecordID(text)
  }

  private static func hexDigit(_ value: UInt8) -> UInt8 {
    value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
  }

  public var description: String { text }
}

/// The kernel's random bytes, fetched 512 at a time: as unpredictable as
/// `SystemRandomNumberGenerator`, without a system call for every eight bytes. (Debian 12's C
/// library has `arc4random`, but as a `getrandom` call each time: an import of a million books
/// spent 1.6 % of its time there, two calls a book.)
struct PooledSystemRandom: RandomNumberGenerator {
  mutating func next() -> UInt64 {
    PooledSystemRandom.pool.withLock { $0.next() }
  }

  private static let pool = Mutex(Pool())

  private struct Pool: ~Copyable {
    private var words = [UInt64](repeating: 0, count: 64)
    private var used = 64

    mutating func next() -> UInt64 {
      if used == words.count {
        words.withUnsafeMutableBytes { bytes in
          if let start = bytes.baseAddress { arc4random_buf(start, bytes.count) }
        }
        used = 0
      }
      defer { used += 1 }
      return words[used]
    }
  }
}
