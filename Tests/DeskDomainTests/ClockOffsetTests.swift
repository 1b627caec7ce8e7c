import Testing

@testable import DeskDomain

/// The desk's clock against the central's: measuring it, telling it, and clocking waiting changes
/// again by it.
struct ClockOffsetTests {
  private let year: Int64 = 365 * 86_400_000

  @Test func theCentralIsTakenToHaveAnsweredHalfWayThroughTheExchange() {
    #expect(ClockOffset.measured(deskBefore: 1000, central: 1050, deskAfter: 1200).milliseconds == -50)
    #expect(ClockOffset.measured(deskBefore: 1000, central: 1000 + year, deskAfter: 1010).milliseconds == year - 5)
    #expect(ClockOffset.measured(deskBefore: 1001, central: 0, deskAfter: 1002).milliseconds == -1001)
    // Nonsense from either side saturates instead of trapping.
    #expect(ClockOffset.measured(deskBefore: .min, central: .max, deskAfter: .min).milliseconds == .max)
  }

  @Test func aClockIsOffBeyondTwoMinutesEitherWay() {
    #expect(!ClockOffset(milliseconds: 120_000).isBeyondBound)
    #expect(!ClockOffset(milliseconds: -120_000).isBeyondBound)
    #expect(ClockOffset(milliseconds: 120_001).isBeyondBound)
    #expect(ClockOffset(milliseconds: -120_001).isBeyondBound)
    #expect(ClockOffset(milliseconds: .min).isBeyondBound)
    #expect(ClockOffset(milliseconds: -1).deskIsAhead)
    #expect(!ClockOffset(milliseconds: 1).deskIsAhead)
  }

  @Test func howFarOffReadsInItsLargestUnitRounded() {
    func words(_ milliseconds: Int64) -> String { ClockOffset(milliseconds: milliseconds).span.english }
    #expect(words(-year + 7) == "1 year")
    #expect(words(year - 5 * 86_400_000) == "360 days")
    #expect(words(3 * year) == "3 years")
    #expect(words(150_000) == "3 minutes")
    #expect(words(59_600) == "1 minute")
    #expect(words(45_000) == "45 seconds")
    #expect(words(26 * 3_600_000) == "1 day")
    #expect(words(5 * 3_600_000 + 10) == "5 hours")
    #expect(ClockOffset(milliseconds: .min).span.unit == .year)
    #expect(
      ClockOffset(milliseconds: -year).englishWarning
        == "This desk's clock is 1 year ahead of the central's: its changes are clocked by the central's time; "
        + "set the computer's clock right")
    #expect(ClockOffset(milliseconds: year).englishWarning.hasPrefix("This desk's clock is 1 year behind"))
  }

  @Test func waitingChangesMoveByTheOffsetAndKeepTheirOrder() {
    let now: Int64 = 1_796_000_000_000
    func at(_ milliseconds: Int64, _ counter: Int64 = 0) -> HybridTimestamp {
      HybridTimestamp(rawValue: milliseconds << 16 + counter)
    }
    // Made a year ahead, an hour and a minute before the sync: they land an hour and a minute ago.
    let ahead = [at(now + year - 3_600_000), at(now + year - 3_600_000, 1), at(now + year - 60_000)]
    #expect(
      HybridTimestamp.reclocked(ahead, shiftedBy: -year, after: at(now - 86_400_000), notAfter: at(now))
        == [at(now - 3_600_000), at(now - 3_600_000, 1), at(now - 60_000)])
    // A year behind: they move forward, after what the central already knows of this desk.
    let behind = [at(now - year - 60_000), at(now - year - 30_000)]
    #expect(
      HybridTimestamp.reclocked(behind, shiftedBy: year, after: at(now - 120_000), notAfter: at(now))
        == [at(now - 60_000), at(now - 30_000)])
    // A clock set ahead and then right: the readings left in the future come back to the present,
    // one after the other, and still after the desk's last known one.
    let stranded = [at(now + year), at(now + year + 5), at(now - 10)]
    #expect(
      HybridTimestamp.reclocked(stranded, shiftedBy: 0, after: at(now - 1), notAfter: at(now))
        == [at(now), at(now, 1), at(now, 2)])
    // Nothing before the floor.
    #expect(
      HybridTimestamp.reclocked([at(now - 500)], shiftedBy: 0, after: at(now - 100), notAfter: at(now))
        == [at(now - 100, 1)])
  }

  @Test func aClockAtTheEndOfTimeComesBackWithoutOverflow() {
    let now: Int64 = 1_796_000_000_000
    let clocks = [HybridTimestamp(rawValue: .max), HybridTimestamp(rawValue: .max - 1)]
    let ceiling = HybridTimestamp(milliseconds: now)
    let reclocked = HybridTimestamp.reclocked(
      clocks, shiftedBy: .min, after: HybridTimestamp(rawValue: 0), notAfter: ceiling)
    #expect(reclocked == [ceiling, HybridTimestamp(rawValue: ceiling.rawValue + 1)])
    #expect(HybridTimestamp(milliseconds: .max).rawValue == (Int64.max >> 16) << 16)
    #expect(HybridTimestamp(milliseconds: -5).rawValue == 0)
  }

  /// A machine: its wall clock (set by hand in the tests) and its uptime, in one boot or another.
  private final class Machine: @unchecked Sendable {
    var wall: Int64 = 1_796_000_000_000
    var uptime: Int64 = 5_000
    var boot = "first"
    var clock: FixedClock { FixedClock(Timestamp(millisecondsSinceEpoch: wall)) }
  }

  private final class MachineClock: Clock, @unchecked Sendable {
    let machine: Machine
    init(_ machine: Machine) { self.machine = machine }
    func now() -> LocalMoment { machine.clock.now() }
    func local(_ instant: Timestamp) -> LocalMoment { machine.clock.local(instant) }
  }

  @Test func theCorrectedClockCarriesTheCentralsTimeByTheUptimeAndMovesOnlyBeyondTheBound() {
    let machine = Machine()
    let clock = CorrectedClock(MachineClock(machine)) {
      UptimeReading(boot: machine.boot, milliseconds: machine.uptime)
    }
    #expect(clock.offset == nil && clock.now().instant.millisecondsSinceEpoch == machine.wall, "no sync yet")
    // A sync finds the machine 90 s ahead: within the bound, its clock stands.
    clock.correct(by: ClockAnchor(central: machine.wall - 90_000, uptime: clock.uptimeReading()!))
    #expect(clock.now().instant.millisecondsSinceEpoch == machine.wall)
    #expect(clock.offset?.milliseconds == -90_000)
    // A year ahead: the central's time, and it moves on with the uptime.
    machine.wall += year
    #expect(clock.now().instant.millisecondsSinceEpoch == machine.wall - year - 90_000)
    machine.wall += 60_000
    machine.uptime += 60_000
    #expect(clock.now().instant.millisecondsSinceEpoch == machine.wall - year - 90_000)
    // The clock set right by hand before the next sync: right at once, not a year back.
    machine.wall = 1_796_000_060_000 - 90_000
    #expect(clock.now().instant.millisecondsSinceEpoch == machine.wall)
    #expect(clock.offset?.isBeyondBound == false)
    // After a restart the anchor tells nothing: the machine's clock stands.
    machine.wall += year
    machine.boot = "second"
    machine.uptime = 1_000
    #expect(clock.offset == nil && clock.now().instant.millisecondsSinceEpoch == machine.wall)
    clock.correct(by: nil)
    #expect(clock.now().instant.millisecondsSinceEpoch == machine.wall)
  }

  @Test func anAnchorTellsNothingInAnotherBootOrBeforeItsOwnMoment() {
    let anchor = ClockAnchor(central: 1_000_000, uptime: UptimeReading(boot: "a", milliseconds: 500))
    #expect(anchor.central(at: UptimeReading(boot: "a", milliseconds: 1_500)) == 1_001_000)
    #expect(anchor.central(at: UptimeReading(boot: "b", milliseconds: 1_500)) == nil)
    #expect(anchor.central(at: UptimeReading(boot: "a", milliseconds: 499)) == nil)
    #expect(anchor.offset(at: UptimeReading(boot: "a", milliseconds: 600), wall: 2_000_100)?.milliseconds == -1_000_000)
  }

}
