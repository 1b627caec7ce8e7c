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

  @Test func theCorrectedClockMovesOnlyBeyondTheBound() {
    let base = FixedClock(Timestamp(millisecondsSinceEpoch: 1_796_000_000_000))
    let clock = CorrectedClock(base)
    clock.correct(by: ClockOffset(milliseconds: 90_000))
    #expect(clock.now() == base.now(), "within the bound the machine's clock stands")
    clock.correct(by: ClockOffset(milliseconds: -year))
    #expect(clock.now().instant.millisecondsSinceEpoch == 1_796_000_000_000 - year)
    #expect(clock.correction.milliseconds == -year)
    clock.correct(by: .zero)
    #expect(clock.now() == base.now())
  }
}
