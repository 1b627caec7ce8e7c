/// A moment in time, in milliseconds since 1970-01-01 UTC. Stored as ISO-8601 text in UTC
/// (`2026-11-30T09:15:02.120Z`) so that the database reads well in any SQLite tool and sorts
/// correctly as text.
public struct Timestamp: Hashable, Comparable, Sendable, CustomStringConvertible {
  public let millisecondsSinceEpoch: Int64

  public init(millisecondsSinceEpoch: Int64) {
    self.millisecondsSinceEpoch = millisecondsSinceEpoch
  }

  public init(date: LocalDate, hour: Int = 0, minute: Int = 0, second: Int = 0, millisecond: Int = 0) {
    // `second` may run past 59: Timestamp(date:second:) takes a second of the day.
    let seconds = Int64(date.daysSinceEpoch) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    millisecondsSinceEpoch = seconds * 1000 + Int64(millisecond)
  }

  /// Parses the form `iso` writes; the fraction and the `Z` are optional.
  public init?(iso text: String) {
    if let canonical = Timestamp.canonical(text) {
      self = canonical
      return
    }
    let parts = text.split(separator: "T", maxSplits: 1)
    guard parts.count == 2, let date = LocalDate(iso: String(parts[0])) else { return nil }
    var time = Substring(parts[1])
    if time.hasSuffix("Z") { time = time.dropLast() }
    let fields = time.split(separator: ":")
    guard fields.count == 3, let hour = Int(fields[0]), let minute = Int(fields[1]) else { return nil }
    let secondParts = fields[2].split(separator: ".", maxSplits: 1)
    guard let second = Int(secondParts[0]), (0..<24).contains(hour), (0..<60).contains(minute),
      (0..<61).contains(second)
    else { return nil }
    var millisecond = 0
    if secondParts.count == 2 {
      let fraction = String(secondParts[1].prefix(3))
      guard let value = Int(fraction) else { return nil }
      millisecond = value * [100, 10, 1][fraction.count - 1]
    }
    self.init(date: date, hour: hour, minute: minute, second: second, millisecond: millisecond)
  }

  /// Reads exactly the form `iso` writes (`2026-11-30T09:15:02.120Z`) from its bytes: every
  /// record read from the database carries two, and lists read forty records a page.
  private static func canonical(_ text: String) -> Timestamp? {
    var text = text
    return text.withUTF8 { bytes -> Timestamp? in
      guard bytes.count == 24, bytes[4] == 0x2D, bytes[7] == 0x2D, bytes[10] == 0x54, bytes[13] == 0x3A,
        bytes[16] == 0x3A, bytes[19] == 0x2E, bytes[23] == 0x5A
      else { return nil }
      func number(_ start: Int, _ count: Int) -> Int? {
        var value = 0
        for index in start..<(start + count) {
          let digit = Int(bytes[index]) - 0x30
          guard (0...9).contains(digit) else { return nil }
          value = value * 10 + digit
        }
        return value
      }
      guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
        let date = LocalDate(year: year, month: month, day: day), let hour = number(11, 2), hour < 24,
        let minute = number(14, 2), minute < 60, let second = number(17, 2), second < 61,
        let millisecond = number(20, 3)
      else { return nil }
      return Timestamp(date: date, hour: hour, minute: minute, second: second, millisecond: millisecond)
    }
  }

  /// The UTC calendar day.
  public var utcDate: LocalDate {
    LocalDate(daysSinceEpoch: Int(floorDivide(millisecondsSinceEpoch, 86_400_000)))
  }

  /// Milliseconds into the UTC day.
  var utcMillisecondOfDay: Int64 {
    millisecondsSinceEpoch - Int64(utcDate.daysSinceEpoch) * 86_400_000
  }

  /// Written into the string's own bytes: an import of a million books writes two a book, and
  /// made by interpolation of padded parts they took 0.7 s of its writing thread.
  public var iso: String {
    let date = utcDate
    let ms = Int(utcMillisecondOfDay)
    guard (0...9999).contains(date.components.year) else {
      let seconds = ms / 1000
      return "\(date.iso)T\(pad(seconds / 3600, 2)):\(pad(seconds / 60 % 60, 2)):"
        + "\(pad(seconds % 60, 2)).\(pad(ms % 1000, 3))Z"
    }
    return String(unsafeUninitializedCapacity: 24) { bytes in
      date.writeISO(into: bytes)
      bytes[10] = UInt8(ascii: "T")
      writeDigits(ms / 3_600_000, width: 2, into: bytes, at: 11)
      bytes[13] = UInt8(ascii: ":")
      writeDigits(ms / 60_000 % 60, width: 2, into: bytes, at: 14)
      bytes[16] = UInt8(ascii: ":")
      writeDigits(ms / 1000 % 60, width: 2, into: bytes, at: 17)
      bytes[19] = UInt8(ascii: ".")
      writeDigits(ms % 1000, width: 3, into: bytes, at: 20)
      bytes[23] = UInt8(ascii: "Z")
      return 24
    }
  }

  public var description: String { iso }

  public func adding(milliseconds: Int64) -> Timestamp {
    Timestamp(millisecondsSinceEpoch: millisecondsSinceEpoch + milliseconds)
  }

  public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
    lhs.millisecondsSinceEpoch < rhs.millisecondsSinceEpoch
  }
}

/// A moment seen on the library's wall clock: the UTC instant plus the local offset at that
/// instant. Loans record the local day and time because that is what receipts, IRBIS field 40
/// and the librarian speak of.
public struct LocalMoment: Hashable, Sendable {
  public let instant: Timestamp
  public let utcOffsetSeconds: Int

  public init(instant: Timestamp, utcOffsetSeconds: Int) {
    self.instant = instant
    self.utcOffsetSeconds = utcOffsetSeconds
  }

  private var shifted: Timestamp {
    instant.adding(milliseconds: Int64(utcOffsetSeconds) * 1000)
  }

  public var date: LocalDate { shifted.utcDate }

  /// `HH:MM`.
  public var clockTime: String {
    let seconds = Int(shifted.utcMillisecondOfDay / 1000)
    return "\(pad(seconds / 3600, 2)):\(pad(seconds / 60 % 60, 2))"
  }

  /// `HHMMSS`, the form IRBIS fields use.
  public var compactTime: String {
    let seconds = Int(shifted.utcMillisecondOfDay / 1000)
    return "\(pad(seconds / 3600, 2))\(pad(seconds / 60 % 60, 2))\(pad(seconds % 60, 2))"
  }
}

func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
  let q = a / b
  return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
}
