import Synchronization

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

/// The desk's clock: the machine's, moved to the central's time once a sync has found it off by
/// more than `ClockOffset.boundMilliseconds`, so that a desk whose clock is a year ahead does not
/// date its loans a year ahead (and a return elsewhere before the issue). Within the bound it is
/// left as it is: a few seconds matter to no date the desk shows. Shared by everything of one
/// process that reads the time (the screens, the store, the background sync).
public final class CorrectedClock: Clock {
  private let base: any Clock
  private let offset = Atomic<Int64>(0)

  public init(_ base: any Clock) {
    self.base = base
  }

  /// Takes the offset a sync measured (zero when the desk's clock is within the bound).
  public func correct(by measured: ClockOffset) {
    offset.store(measured.isBeyondBound ? measured.milliseconds : 0, ordering: .relaxed)
  }

  /// What is added to the machine's clock now.
  public var correction: ClockOffset { ClockOffset(milliseconds: offset.load(ordering: .relaxed)) }

  public func now() -> LocalMoment {
    let shift = offset.load(ordering: .relaxed)
    let moment = base.now()
    return shift == 0 ? moment : base.local(moment.instant.adding(milliseconds: shift))
  }

  public func local(_ instant: Timestamp) -> LocalMoment { base.local(instant) }
}
