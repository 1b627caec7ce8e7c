/// Where the desk learns the current moment and the local offset. The system clock in use;
/// a fixed one in tests and in replays.
public protocol Clock: Sendable {
  func now() -> LocalMoment
  /// The wall-clock view of an instant (its local date and time).
  func local(_ instant: Timestamp) -> LocalMoment
}

/// A clock that always says the same moment, in a fixed offset from UTC.
public struct FixedClock: Clock {
  public let moment: LocalMoment

  public init(_ instant: Timestamp, utcOffsetSeconds: Int = 0) {
    moment = LocalMoment(instant: instant, utcOffsetSeconds: utcOffsetSeconds)
  }

  public func now() -> LocalMoment { moment }

  public func local(_ instant: Timestamp) -> LocalMoment {
    LocalMoment(instant: instant, utcOffsetSeconds: moment.utcOffsetSeconds)
  }
}
