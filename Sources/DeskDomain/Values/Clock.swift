import Synchronization

/// Where the desk learns the current moment and the local offset. The system clock in use;
/// a fixed one in tests and in replays.
public protocol Clock: Sendable {
  func now() -> LocalMoment
  /// The wall-clock view of an instant (its local date and time).
  func local(_ instant: Timestamp) -> LocalMoment
  /// How far this clock is set from the machine's, in milliseconds: 0 for the machine's own. A
  /// library opened with a clock set off (`ShiftedClock`) has SQLite's time run off as far.
  var millisecondsOffMachine: Int64 { get }
}

extension Clock {
  public var millisecondsOffMachine: Int64 { 0 }
}

/// A clock set off another by a fixed amount: a desk whose clock is wrong, in the sync
/// simulation (a library opened with it has SQLite's 'now' off by as much).
public struct ShiftedClock: Clock {
  public let base: any Clock
  public let milliseconds: Int64

  public init(_ base: any Clock, by milliseconds: Int64) {
    self.base = base
    self.milliseconds = milliseconds
  }

  public func now() -> LocalMoment {
    base.local(base.now().instant.adding(milliseconds: milliseconds))
  }

  public func local(_ instant: Timestamp) -> LocalMoment { base.local(instant) }

  public var millisecondsOffMachine: Int64 { base.millisecondsOffMachine + milliseconds }
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

/// A reading of the machine's clock that only goes forward from the machine's start, and which
/// start (`boot`): two readings of one boot tell the time between them, whatever the wall clock
/// did meanwhile.
public struct UptimeReading: Hashable, Sendable {
  public var boot: String
  public var milliseconds: Int64

  public init(boot: String, milliseconds: Int64) {
    self.boot = boot
    self.milliseconds = milliseconds
  }
}

/// The central's time as a sync read it, tied to the machine's uptime then: the central's present
/// at any later moment of the same boot, whatever the desk's wall clock did meanwhile (set right
/// by hand, or wrong again). After a restart it tells nothing.
public struct ClockAnchor: Hashable, Sendable {
  /// The central's clock, in milliseconds since 1970.
  public var central: Int64
  public var uptime: UptimeReading

  public init(central: Int64, uptime: UptimeReading) {
    self.central = central
    self.uptime = uptime
  }

  /// The central's time at `now`; nil in another boot.
  public func central(at now: UptimeReading) -> Int64? {
    guard now.boot == uptime.boot, now.milliseconds >= uptime.milliseconds else { return nil }
    return central + (now.milliseconds - uptime.milliseconds)
  }

  /// How far the wall clock reading `wall` (taken at `now`) is from the central's time.
  public func offset(at now: UptimeReading, wall: Int64) -> ClockOffset? {
    central(at: now).map { ClockOffset(milliseconds: $0 - wall) }
  }
}

/// The desk's clock: the machine's, moved to the central's time while it is off by more than
/// `ClockOffset.boundMilliseconds`, so that a desk whose clock is a year ahead does not date its
/// loans a year ahead (and a return elsewhere before the issue). The central's time is carried
/// from the last sync by the machine's uptime (`ClockAnchor`): a clock set right after the sync is
/// right at once, not a year off until the next. Within the bound, or with no anchor of this boot,
/// the machine's clock stands. Shared by everything of one process that reads the time (the
/// screens, the store, the background sync).
public final class CorrectedClock: Clock {
  private let base: any Clock
  private let uptime: @Sendable () -> UptimeReading?
  private let anchor = Mutex<ClockAnchor?>(nil)

  /// `uptime` reads the machine's uptime (nil where there is none).
  public init(_ base: any Clock, uptime: @escaping @Sendable () -> UptimeReading?) {
    self.base = base
    self.uptime = uptime
  }

  /// Takes the central's time a sync read (nil: none known).
  public func correct(by anchor: ClockAnchor?) {
    self.anchor.withLock { $0 = anchor }
  }

  /// The machine's uptime now, for a sync to tie the central's time to.
  public func uptimeReading() -> UptimeReading? { uptime() }

  /// How far the machine's clock is from the central's now; nil without an anchor of this boot.
  public var offset: ClockOffset? {
    offset(wall: base.now().instant.millisecondsSinceEpoch)
  }

  private func offset(wall: Int64) -> ClockOffset? {
    guard let anchor = anchor.withLock({ $0 }), let now = uptime() else { return nil }
    return anchor.offset(at: now, wall: wall)
  }

  public func now() -> LocalMoment {
    let moment = base.now()
    guard let offset = offset(wall: moment.instant.millisecondsSinceEpoch), offset.isBeyondBound else {
      return moment
    }
    return base.local(moment.instant.adding(milliseconds: offset.milliseconds))
  }

  public func local(_ instant: Timestamp) -> LocalMoment { base.local(instant) }

  /// The base's setting: the correction is the desk's, not the machine's.
  public var millisecondsOffMachine: Int64 { base.millisecondsOffMachine }
}
