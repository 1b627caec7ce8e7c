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
    if let plain = Money.plainAmount(text.utf8) {
      self = plain
      return
    }
    let cleaned = text.trimmingWhitespace().filter { $0 != " " && $0 != "\u{00A0}" && $0 != "\u{202F}" }
    let parts = cleaned.split(separator: cleaned.contains(",") ? "," : ".", omittingEmptySubsequences: false)
    guard (1...2).contains(parts.count), !parts[0].isEmpty, parts[0].count <= 15,
      parts[0].allSatisfy(\.isASCIIDigit), let whole = Int64(parts[0])
    else { return nil }
    var fraction: Int64 = 0
    if parts.count == 2 {
      let digits = parts[1]
      guard (1...2).contains(digits.count), digits.allSatisfy(\.isASCIIDigit),
        let value = Int64(digits)
      else { return nil }
      fraction = digits.count == 1 ? value * 10 : value
    }
    minorUnits = whole * 100 + fraction
  }

  /// An amount written plainly, digits with one decimal point or comma before one or two more
  /// (`254`, `254.50`), read from its bytes; nil for anything else, which the text's characters
  /// decide. (An import reads a million prices: by characters, 1.8 % of its time.)
  private static func plainAmount(_ bytes: String.UTF8View) -> Money? {
    var (whole, fraction): (Int64, Int64) = (0, 0)
    var (wholeDigits, fractionDigits) = (0, 0)
    var pastPoint = false
    for byte in bytes {
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"):
        let digit = Int64(byte - UInt8(ascii: "0"))
        if pastPoint {
          fraction = fraction * 10 + digit
          fractionDigits += 1
        } else {
          whole = whole * 10 + digit
          wholeDigits += 1
        }
      case UInt8(ascii: "."), UInt8(ascii: ","):
        guard !pastPoint else { return nil }
        pastPoint = true
      default: return nil
      }
      guard wholeDigits <= 15, fractionDigits <= 2 else { return nil }
    }
    guard wholeDigits > 0, !pastPoint || fractionDigits > 0 else { return nil }
    return Money(minorUnits: whole * 100 + (fractionDigits == 1 ? fraction * 10 : fraction))
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
