/// The part of the stock a check covers: storage places (by the beginning of their names), a
/// range of shelf codes (BBK indexes), and copy statuses. Its expected list is made from it once,
/// when the check opens.
public struct StocktakeScope: Equatable, Sendable {
  /// Storage places whose names begin with one of these; none: every place.
  public var placePrefixes: [String]
  /// The first and last shelf code (BBK index) covered, both included by their beginning: `84..84`
  /// is every index that begins with 84. Nil: every code.
  public var shelfCodes: ClosedRange<String>?
  /// The statuses of the copies expected on the shelves. Lost and written-off copies are not
  /// (a check that expects them reports them missing every time).
  public var statuses: Set<CopyStatus>

  public static let defaultStatuses: Set<CopyStatus> = [.available, .damaged, .referenceOnly, .inProcessing]

  public init(
    placePrefixes: [String] = [], shelfCodes: ClosedRange<String>? = nil,
    statuses: Set<CopyStatus> = StocktakeScope.defaultStatuses
  ) {
    self.placePrefixes = placePrefixes
    self.shelfCodes = shelfCodes
    self.statuses = statuses
  }

  /// Reads `FROM..TO` (`84..84(2)`, `..63`, `75..`); nil for anything else.
  public static func shelfCodes(parsing text: String) -> ClosedRange<String>? {
    guard let dots = text.firstRange(of: "..") else { return nil }
    let low = String(text[..<dots.lowerBound]).trimmingWhitespace()
    let high = String(text[dots.upperBound...]).trimmingWhitespace()
    guard !high.contains("..") else { return nil }
    // An open end: from the first code there is, or to past the last.
    let upper = high.isEmpty ? "\u{10FFFF}" : high
    guard !(low.isEmpty && high.isEmpty), low <= upper else { return nil }
    return low...upper
  }

  /// True when a copy with this place, shelf code and status is one the check expects.
  public func covers(place: String, shelfCode: String, status: CopyStatus) -> Bool {
    guard statuses.contains(status) else { return false }
    if !placePrefixes.isEmpty {
      let folded = StocktakeScope.fold(place)
      guard placePrefixes.contains(where: { folded.hasPrefix(StocktakeScope.fold($0)) }) else { return false }
    }
    if let shelfCodes {
      let code = shelfCode.trimmingWhitespace()
      // A code is inside while it is not before the first, and not after the last or beginning with it.
      guard code >= shelfCodes.lowerBound, code <= shelfCodes.upperBound || code.hasPrefix(shelfCodes.upperBound)
      else { return false }
    }
    return true
  }

  /// A place's name as places are compared: case and surrounding spaces aside.
  public static func fold(_ place: String) -> String { place.trimmingWhitespace().lowercased() }

  /// The scope as a check keeps it (JSON), to say later what the check covered.
  public var json: String {
    JSON.object([
      ("places", .array(placePrefixes.map { .string($0) })),
      ("shelf_codes", shelfCodes.map { .array([.string($0.lowerBound), .string($0.upperBound)]) } ?? .null),
      ("statuses", .array(CopyStatus.allCases.filter(statuses.contains).map { .string($0.rawValue) })),
    ]).compact
  }

  /// A scope as a check kept it; nil for text that is not one.
  public init?(json text: String) {
    guard let json = try? JSON.parse(Array(text.utf8)), case .object = json else { return nil }
    let codes = json["shelf_codes"]?.array.compactMap(\.string) ?? []
    self.init(
      placePrefixes: json["places"]?.array.compactMap(\.string) ?? [],
      shelfCodes: codes.count == 2 && codes[0] <= codes[1] ? codes[0]...codes[1] : nil,
      statuses: Set((json["statuses"]?.array ?? []).compactMap { $0.string.flatMap(CopyStatus.init(rawValue:)) }))
  }
}
