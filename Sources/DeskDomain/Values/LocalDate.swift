/// A calendar day with no time of day and no time zone: due dates, holidays, birth and
/// registration dates. Stored as the number of days since 1970-01-01, so that adding days
/// and comparing are integer operations.
public struct LocalDate: Hashable, Comparable, Sendable, CustomStringConvertible {
  public let daysSinceEpoch: Int

  public init(daysSinceEpoch: Int) {
    self.daysSinceEpoch = daysSinceEpoch
  }

  /// Returns nil when the triple is not a real day (2023-02-29, month 13).
  public init?(year: Int, month: Int, day: Int) {
    guard (1...9999).contains(year), (1...12).contains(month), day >= 1,
      day <= LocalDate.daysIn(month: month, year: year)
    else { return nil }
    // Days from civil, after Howard Hinnant's public-domain algorithm.
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let monthIndex = month > 2 ? month - 3 : month + 9
    let dayOfYear = (153 * monthIndex + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    daysSinceEpoch = era * 146097 + dayOfEra - 719468
  }

  /// The days a date typed or read anywhere may fall on: a copy received in 1850 or a loan due in
  /// 2150 is a date a library may mean; 9999-12-31 is a slip.
  public static let accepted =
    LocalDate(daysSinceEpoch: -62_091)...LocalDate(daysSinceEpoch: 84_005)  // 1800-01-01...2199-12-31

  /// Why a text is not a date the library takes.
  public enum Problem: Error, Equatable, Sendable {
    case notADate
    case outOfRange
  }

  /// The one check of a date typed or read as text, for every form field and command option:
  /// `YYYY-MM-DD` (or IRBIS's `YYYYMMDD`) naming a real day within `accepted`.
  public static func parse(_ text: String) -> Result<LocalDate, Problem> {
    guard let date = LocalDate(iso: text) else { return .failure(.notADate) }
    return accepted.contains(date) ? .success(date) : .failure(.outOfRange)
  }

  /// Parses `YYYY-MM-DD` and the compact `YYYYMMDD` that IRBIS uses.
  public init?(iso text: String) {
    let digits = text.utf8.filter { $0 != UInt8(ascii: "-") }
    let dashes = text.utf8.count - digits.count
    guard digits.count == 8, dashes == 0 || (dashes == 2 && text.utf8.count == 10),
      digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
    else { return nil }
    if dashes == 2 {
      let bytes = Array(text.utf8)
      guard bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return nil }
    }
    func number(_ range: Range<Int>) -> Int {
      digits[range].reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
    }
    self.init(year: number(0..<4), month: number(4..<6), day: number(6..<8))
  }

  public var components: (year: Int, month: Int, day: Int) {
    let z = daysSinceEpoch + 719468
    let era = (z >= 0 ? z : z - 146096) / 146097
    let dayOfEra = z - era * 146097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthIndex = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
    let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
    let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    return (year, month, day)
  }

  public var year: Int { components.year }

  public var weekday: Weekday {
    // 1970-01-01 was a Thursday.
    let index = ((daysSinceEpoch % 7) + 7 + 3) % 7
    return Weekday.allCases[index]
  }

  public func adding(days: Int) -> LocalDate {
    LocalDate(daysSinceEpoch: daysSinceEpoch + days)
  }

  public func days(until other: LocalDate) -> Int {
    other.daysSinceEpoch - daysSinceEpoch
  }

  /// `YYYY-MM-DD`.
  public var iso: String {
    let (y, m, d) = components
    guard (0...9999).contains(y) else { return "\(pad(y, 4))-\(pad(m, 2))-\(pad(d, 2))" }
    return String(unsafeUninitializedCapacity: 10) { bytes in
      writeISO(into: bytes)
      return 10
    }
  }

  /// Writes `YYYY-MM-DD` into the first ten bytes, for a year of four digits.
  func writeISO(into bytes: UnsafeMutableBufferPointer<UInt8>) {
    let (y, m, d) = components
    writeDigits(y, width: 4, into: bytes, at: 0)
    bytes[4] = UInt8(ascii: "-")
    writeDigits(m, width: 2, into: bytes, at: 5)
    bytes[7] = UInt8(ascii: "-")
    writeDigits(d, width: 2, into: bytes, at: 8)
  }

  /// `YYYYMMDD`, the form IRBIS fields use.
  public var compact: String {
    let (y, m, d) = components
    return "\(pad(y, 4))\(pad(m, 2))\(pad(d, 2))"
  }

  public var description: String { iso }

  public static func < (lhs: LocalDate, rhs: LocalDate) -> Bool {
    lhs.daysSinceEpoch < rhs.daysSinceEpoch
  }

  static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: return isLeap(year) ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  static func isLeap(_ year: Int) -> Bool {
    (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
  }
}

/// Days of the week, Monday first as in Russian and ISO calendars.
public enum Weekday: String, CaseIterable, Sendable {
  case monday, tuesday, wednesday, thursday, friday, saturday, sunday

  /// Accepts English names and their three-letter forms: `sat`, `Saturday`.
  public init?(name: String) {
    let folded = name.lowercased()
    guard let match = Weekday.allCases.first(where: { $0.rawValue == folded || $0.shortName == folded })
    else { return nil }
    self = match
  }

  public var shortName: String { String(rawValue.prefix(3)) }
}

/// Writes the last `width` decimal digits of `value` (not negative) at `start`, with leading zeros.
func writeDigits(_ value: Int, width: Int, into bytes: UnsafeMutableBufferPointer<UInt8>, at start: Int) {
  var rest = value
  for index in stride(from: start + width - 1, through: start, by: -1) {
    bytes[index] = UInt8(ascii: "0") + UInt8(rest % 10)
    rest /= 10
  }
}

func pad(_ value: Int, _ width: Int) -> String {
  let text = String(value)
  return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
}
