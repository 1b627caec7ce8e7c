import Testing

@testable import DeskDomain

@Suite struct LocalDateTests {
  @Test func roundTripsEveryDayOfFourCenturies() {
    var day = LocalDate(year: 1900, month: 1, day: 1)!
    let end = LocalDate(year: 2300, month: 12, day: 31)!
    while day <= end {
      let (y, m, d) = day.components
      #expect(LocalDate(year: y, month: m, day: d) == day)
      day = day.adding(days: 1)
    }
  }

  @Test func parsesBothIsoForms() {
    #expect(LocalDate(iso: "2024-02-29")?.compact == "20240229")
    #expect(LocalDate(iso: "20240229")?.iso == "2024-02-29")
    #expect(LocalDate(iso: "2023-02-29") == nil)
    #expect(LocalDate(iso: "2023-2-1") == nil)
    #expect(LocalDate(iso: "2023/02/01") == nil)
    #expect(LocalDate(iso: "") == nil)
  }

  @Test func knowsWeekdays() {
    #expect(LocalDate(iso: "1970-01-01")?.weekday == .thursday)
    #expect(LocalDate(iso: "2026-11-30")?.weekday == .monday)
    #expect(LocalDate(iso: "1969-12-28")?.weekday == .sunday)
  }

  @Test func timestampsRoundTrip() {
    let stamp = Timestamp(iso: "2026-11-30T09:15:02.120Z")
    #expect(stamp?.iso == "2026-11-30T09:15:02.120Z")
    #expect(Timestamp(iso: "2026-11-30T09:15:02Z")?.iso == "2026-11-30T09:15:02.000Z")
    #expect(Timestamp(iso: "1969-12-31T23:59:59.999Z")?.millisecondsSinceEpoch == -1)
    let moment = LocalMoment(instant: stamp!, utcOffsetSeconds: 5 * 3600)
    #expect(moment.date.iso == "2026-11-30")
    #expect(moment.clockTime == "14:15")
    #expect(
      LocalMoment(instant: Timestamp(iso: "2026-11-30T20:00:00Z")!, utcOffsetSeconds: 5 * 3600).date.iso == "2026-12-01"
    )
  }

  /// The written form holds its fields at fixed places for years of four digits, and reads back
  /// as the same moment: every millisecond, second and hour width, either side of 1970.
  @Test func timestampsWrittenAtTheirPlaces() {
    #expect(Timestamp(millisecondsSinceEpoch: 0).iso == "1970-01-01T00:00:00.000Z")
    #expect(Timestamp(millisecondsSinceEpoch: -1).iso == "1969-12-31T23:59:59.999Z")
    #expect(Timestamp(iso: "0001-01-01T00:00:00.007Z")?.iso == "0001-01-01T00:00:00.007Z")
    #expect(Timestamp(iso: "9999-12-31T23:59:59.999Z")?.iso == "9999-12-31T23:59:59.999Z")
    #expect(LocalDate(iso: "0987-06-05")?.iso == "0987-06-05")
    // Past four digits the year is written whole (and read by no one but people).
    let far = Timestamp(date: LocalDate(daysSinceEpoch: 3_000_000), hour: 1, minute: 2, second: 3, millisecond: 4)
    #expect(far.iso.hasPrefix("10183-") && far.iso.hasSuffix("T01:02:03.004Z"))
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<2_000 {
      let stamp = Timestamp(
        millisecondsSinceEpoch: Int64.random(in: -62_000_000_000_000...253_000_000_000_000, using: &generator))
      #expect(stamp.iso.utf8.count == 24)
      #expect(Timestamp(iso: stamp.iso) == stamp, "\(stamp.millisecondsSinceEpoch) written \(stamp.iso)")
    }
  }
}
