/// A price in roubles and kopecks (or any currency with two decimal places), kept as a whole
/// number of minor units so that sums and comparisons are exact.
public struct Money: Hashable, Comparable, Sendable, CustomStringConvertible {
  public let minorUnits: Int64

  public init(minorUnits: Int64) {
    self.minorUnits = minorUnits
  }

  /// Accepts `254`, `254.5`, `254,50` and `1 254,50` (a space or no-break space between
  /// thousands); refuses negative amounts and a third decimal place.
  public init?(_ text: String) {
    let cleaned = text.trimmingWhitespace().filter { $0 != " " && $0 != "\u{00A0}" && $0 != "\u{202F}" }
    let parts = cleaned.split(separator: cleaned.contains(",") ? "," : ".", omittingEmptySubsequences: false)
    guard (1...2).contains(parts.count), !parts[0].isEmpty, parts[0].count <= 15,
      parts[0].allSatisfy({ $0.isASCII && $0.isNumber }), let whole = Int64(parts[0])
    else { return nil }
    var fraction: Int64 = 0
    if parts.count == 2 {
      let digits = parts[1]
      guard (1...2).contains(digits.count), digits.allSatisfy({ $0.isASCII && $0.isNumber }),
        let value = Int64(digits)
      else { return nil }
      fraction = digits.count == 1 ? value * 10 : value
    }
    minorUnits = whole * 100 + fraction
  }

  /// `254` for a whole amount, `254.50` otherwise: the form IRBIS and the forms use.
  public var description: String {
    let whole = minorUnits / 100
    let fraction = minorUnits % 100
    return fraction == 0 ? "\(whole)" : "\(whole).\(pad(Int(fraction), 2))"
  }

  public static func < (lhs: Money, rhs: Money) -> Bool {
    lhs.minorUnits < rhs.minorUnits
  }
}
