import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// A record's stable identity: a UUID in its usual lower-case text form. Every desk makes its own
/// without asking anyone, which is what syncing desks need. New ones are of version 7 (RFC 9562):
/// the time in milliseconds first, then 74 random bits, so that identities made one after another
/// sort together and a table's index of them grows at its end instead of at random places.
public struct RecordID: Hashable, Sendable, CustomStringConvertible {
  public let text: String

  public init(_ text: String) {
    self.text = text
  }

  /// A new identity, of version 7, at the system clock's time. Importing a million books (release
  /// build, turn about with version 4 the same hour): 25.7 and 26.4 s against 26.7 and 27.3 s, two
  /// seconds of CPU less, the index of identities written at its end.
  public static func random() -> RecordID {
    var spec = timespec()
    clock_gettime(CLOCK_REALTIME, &spec)
    var generator = PooledSystemRandom()
    return timeOrdered(
      millisecondsSinceEpoch: Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000, using: &generator)
  }

  /// A version 7 identity at a moment: 48 bits of milliseconds since 1970 (big-endian, so the
  /// text sorts as the time), the version, 74 bits from `generator`, the RFC 9562 variant. A clock
  /// set wrong changes only where the identity sorts.
  public static func timeOrdered<G: RandomNumberGenerator>(
    millisecondsSinceEpoch milliseconds: Int64, using generator: inout G
  ) -> RecordID {
    let time = UInt64(clamping: milliseconds) & 0xFFFF_FFFF_FFFF
    // Bytes 0–7 of the first half are its bits from the lowest up (`text(high:low:)`).
    var high = generator.next() & (0xFF0F << 48)
    for index in 0..<6 { high |= ((time >> (8 * UInt64(5 - index))) & 0xFF) << (8 * UInt64(index)) }
    high |= 0x70 << 48
    let low = (generator.next() & ~0xC0) | 0x80
    return RecordID(text(high: high, low: low))
  }

  /// A version 4 identity, all random: what the benchmark's generated catalogue and the tests
  /// that want a known identity make.
  public static func random<G: RandomNumberGenerator>(using generator: inout G) -> RecordID {
    // Version 4 (bits 48–51 of the first half read as bytes 0–7) and the RFC 4122 variant.
    let high = (generator.next() & ~(0xF0 << 48)) | (0x40 << 48)
    let low = (generator.next() & ~0xC0) | 0x80
    return RecordID(text(high: high, low: low))
  }

  /// The text of a UUID whose bytes 0–7 are `high`'s and 8–15 `low`'s, each from its lowest bits up.
  private static func text(high: UInt64, low: UInt64) -> String {
    String(unsafeUninitializedCapacity: 36) { buffer in
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
