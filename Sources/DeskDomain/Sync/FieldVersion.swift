/// Which of two values of one field stands when desks changed it apart: the one whose change has
/// the later clock, a tie going to the greater desk id (per-field last-writer-wins). The one
/// comparison every desk makes; the central keeps the same order in SQL, `(hlc, desk) > (hlc,
/// desk)`, for the numbers it keeps unique.
public struct FieldVersion: Hashable, Comparable, Sendable {
  public var clock: HybridTimestamp
  public var desk: String

  public init(clock: HybridTimestamp, desk: String) {
    self.clock = clock
    self.desk = desk
  }

  /// The version of a change: its clock reading and its desk's id.
  public init(_ change: Change) {
    self.init(clock: change.clock, desk: change.deskID)
  }

  public init(rawClock: Int64, desk: String) {
    self.init(clock: HybridTimestamp(rawValue: rawClock), desk: desk)
  }

  public static func < (lhs: FieldVersion, rhs: FieldVersion) -> Bool {
    (lhs.clock, lhs.desk) < (rhs.clock, rhs.desk)
  }

  /// True when a change of this version replaces a value of version `current` (nil: none known).
  public func replaces(_ current: FieldVersion?) -> Bool {
    current.map { self > $0 } ?? true
  }
}
