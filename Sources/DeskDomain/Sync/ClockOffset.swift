/// How far a desk's clock is from its central's, measured at each sync: what to add to the desk's
/// reading to get the central's. The central's clock (a server kept right by NTP) is the
/// library's time: a desk's changes are clocked by it, so that a desk whose clock runs a year
/// ahead does not win every field against later edits elsewhere, nor one a year behind lose its
/// own.
public struct ClockOffset: Hashable, Sendable {
  /// Milliseconds to add to the desk's clock to read the central's: negative for a desk ahead.
  public var milliseconds: Int64

  /// Beyond this the desk says its clock is off, and the central refuses a change clocked so far
  /// in its future. A desk's clock kept by NTP is within a second; one set by hand drifts a few
  /// seconds a week.
  public static let boundMilliseconds: Int64 = 120_000

  /// The central refuses a change clocked further ahead of its own time than this: twice the
  /// bound, so that a desk just within the bound (whose changes keep its own clock) is never
  /// refused for the few milliseconds a measure errs or a change takes on its way.
  public static let refusedAheadMilliseconds: Int64 = 2 * boundMilliseconds

  public static let zero = ClockOffset(milliseconds: 0)

  public init(milliseconds: Int64) {
    self.milliseconds = milliseconds
  }

  /// The offset read from one exchange: the desk's clock before asking, the central's answer, the
  /// desk's clock after. The central read its clock somewhere in between: taken as the middle, the
  /// error is at most half the round trip.
  public static func measured(deskBefore: Int64, central: Int64, deskAfter: Int64) -> ClockOffset {
    let middle = deskBefore / 2 + deskAfter / 2 + (deskBefore % 2 + deskAfter % 2) / 2
    return ClockOffset(milliseconds: central.subtractingClamped(middle))
  }

  /// True when the desk's clock is further from the central's than the bound.
  public var isBeyondBound: Bool { milliseconds.magnitude > UInt64(Self.boundMilliseconds) }

  /// True when the desk's clock is ahead of the central's.
  public var deskIsAhead: Bool { milliseconds < 0 }

  /// How far the desk's clock is off, in the largest whole unit that fits.
  public var span: ClockSpan { ClockSpan(milliseconds: milliseconds.magnitude) }

  /// What the desk tells a librarian, in English (the screens have their own words).
  public var englishWarning: String {
    "This desk's clock is \(span.english) \(deskIsAhead ? "ahead of" : "behind") the central's: "
      + "its changes are clocked by the central's time; set the computer's clock right"
  }
}

/// A length of time as a librarian reads it: a rounded count of its largest unit. A year less a
/// few milliseconds (a clock set a year ahead, measured over the network) is a year, not 364 days.
public struct ClockSpan: Hashable, Sendable {
  public enum Unit: Hashable, Sendable { case second, minute, hour, day, year }

  public var count: Int
  public var unit: Unit

  public init(milliseconds: UInt64) {
    let seconds = milliseconds / 1000 + (milliseconds % 1000 >= 500 ? 1 : 0)
    let units: [(Unit, UInt64)] = [(.year, 365 * 86_400), (.day, 86_400), (.hour, 3_600), (.minute, 60)]
    // A unit is used from 99 % of it.
    for (unit, length) in units where seconds * 100 >= length * 99 {
      count = Int(clamping: (seconds + length / 2) / length)
      self.unit = unit
      return
    }
    count = Int(clamping: seconds)
    unit = .second
  }

  public var english: String {
    switch unit {
    case .second: return englishPlural(count, "second")
    case .minute: return englishPlural(count, "minute")
    case .hour: return englishPlural(count, "hour")
    case .day: return englishPlural(count, "day")
    case .year: return englishPlural(count, "year")
    }
  }
}

extension HybridTimestamp {
  /// The reading of `milliseconds` of wall-clock time, counter 0.
  public init(milliseconds: Int64) {
    self.init(rawValue: milliseconds.clamped(to: 0...(Int64.max >> 16)) << 16)
  }

  /// Clocks again changes that wait to be sent, in their order, once a sync has measured the
  /// desk's clock: each moves by the change of the offset since it was clocked (`shift`), none is
  /// later than the central's present (`ceiling`: a clock set wrong and then right leaves readings
  /// in the future, which the central would refuse and every later change would follow), each
  /// comes after the desk's last reading the central knows (`floor`) and after the one before it.
  public static func reclocked(
    _ clocks: [HybridTimestamp], shiftedBy shift: Int64, after floor: HybridTimestamp, notAfter ceiling: HybridTimestamp
  ) -> [HybridTimestamp] {
    let step = shift.clamped(to: -(Int64.max >> 17)...(Int64.max >> 17)) << 16
    var previous = floor.rawValue
    return clocks.map { clock in
      let moved = min(clock.rawValue.addingClamped(step), ceiling.rawValue)
      previous = max(moved, previous.addingClamped(1))
      return HybridTimestamp(rawValue: previous)
    }
  }
}

extension Int64 {
  fileprivate func addingClamped(_ other: Int64) -> Int64 {
    let (sum, overflow) = addingReportingOverflow(other)
    return overflow ? (other > 0 ? .max : .min) : sum
  }

  fileprivate func subtractingClamped(_ other: Int64) -> Int64 {
    let (difference, overflow) = subtractingReportingOverflow(other)
    return overflow ? (other < 0 ? .max : .min) : difference
  }

  fileprivate func clamped(to range: ClosedRange<Int64>) -> Int64 {
    Swift.min(Swift.max(self, range.lowerBound), range.upperBound)
  }
}
