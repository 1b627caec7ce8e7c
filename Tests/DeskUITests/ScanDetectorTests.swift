import Testing

@testable import DeskUI

/// The wedge detector on recorded key timings.
@Suite struct ScanDetectorTests {
  /// Codes the library knows, standing in for the store's look-up.
  let known: Set<String> = ["100234", "9785170795857", "1001"]

  func run(_ keys: [(Key, Int64)], settings: WedgeSettings = WedgeSettings(), endingAt end: Int64? = nil)
    -> [ScanDetector.Output]
  {
    var detector = ScanDetector(settings: settings) { known.contains($0) }
    var outputs: [ScanDetector.Output] = []
    for (key, time) in keys {
      outputs += detector.feed(key, at: time)
      outputs += detector.tick(at: time)
    }
    outputs += detector.tick(at: end ?? ((keys.last?.1 ?? 0) + 500))
    return outputs
  }

  func typed(_ text: String, start: Int64 = 1000, gap: Int64) -> [(Key, Int64)] {
    text.enumerated().map { (Key.character($0.element), start + Int64($0.offset) * gap) }
  }

  @Test func aFastBurstEndedByEnterIsAScan() {
    let keys = typed("9785170795857", gap: 0) + [(.enter, 1001)]
    #expect(run(keys) == [.scan(Scan("9785170795857", endedBy: .enter))])
  }

  @Test func aScannerSetToEightMillisecondsIsAScan() {
    // Measured: 11 to 13 ms between keys.
    var keys: [(Key, Int64)] = []
    var time: Int64 = 1000
    for (index, character) in "100234".enumerated() {
      keys.append((.character(character), time))
      time += [11, 13, 12][index % 3]
    }
    keys.append((.tab, time))
    #expect(run(keys) == [.scan(Scan("100234", endedBy: .tab))])
  }

  @Test func humanTypingIsTyping() {
    let keys = typed("100234", gap: 150) + [(.enter, 1000 + 6 * 150)]
    #expect(run(keys) == "100234".map { .key(.character($0)) } + [.key(.enter)])
  }

  @Test func humanTypingDeliveredLateInABurstIsStillTyping() {
    // Keys typed while the desk was busy arrive together: timing says scan, content says no.
    let keys = typed("привет", gap: 0) + [(.enter, 1001)]
    #expect(run(keys) == "привет".map { .key(.character($0)) } + [.key(.enter)])
  }

  @Test func aScannerWithoutTerminatorEndsWithThePause() {
    let keys = typed("1001", gap: 2)
    #expect(run(keys) == [.scan(Scan("1001"))], "no terminator")
  }

  @Test func configuredPrefixAndSuffixMarkAScanWhateverItSays() {
    var settings = WedgeSettings()
    settings.prefix = "#"
    settings.suffix = "$"
    let keys = typed("#NEW-7$", gap: 3) + [(.enter, 1030)]
    #expect(run(keys, settings: settings) == [.scan(Scan("NEW-7", endedBy: .enter))])
    let noPrefix = typed("100234", gap: 1) + [(.enter, 1010)]
    #expect(run(noPrefix, settings: settings) == "100234".map { .key(.character($0)) } + [.key(.enter)])
  }

  @Test func otherKeysPassAtOnce() {
    #expect(run([(.up, 1000), (.function(2), 1001)]) == [.key(.up), .key(.function(2))])
    // A held character goes out before the key that follows it.
    #expect(run([(.character("q"), 1000), (.escape, 1005)]) == [.key(.character("q")), .key(.escape)])
  }
}
