import DeskTestSupport
import Foundation
import Testing

@testable import DeskUI

/// The bytes terminals send, decoded into the desk's keys.
@Suite struct KeyDecoderTests {
  func decode(_ bytes: [UInt8], at time: Int64 = 1000) -> [Key] {
    var decoder = KeyDecoder()
    return decoder.feed(bytes, at: time) + decoder.tick(at: time + 100)
  }

  func decode(_ text: String) -> [Key] { decode(Array(text.utf8)) }

  /// What terminfo says the terminal sends for a key (its `tput` capability), as bytes.
  static func terminfo(_ term: String, _ capability: String) -> [UInt8] {
    let result = TmuxTests.shell("tput -T \(term) \(capability)")
    return result.status == 0 ? Array(result.output.utf8) : []
  }

  @Test(arguments: ["xterm-256color", "screen", "tmux-256color", "linux", "putty", "rxvt"])
  func editingKeysOfEveryTerminal(term: String) {
    let keys: [(String, Key)] = [
      ("khome", .home), ("kend", .end), ("kpp", .pageUp), ("knp", .pageDown), ("kdch1", .delete),
      ("kich1", .insert), ("kcuu1", .up), ("kcud1", .down), ("kcub1", .left), ("kcuf1", .right),
      ("kf1", .function(1)), ("kf2", .function(2)), ("kf3", .function(3)), ("kf5", .function(5)),
      ("kf8", .function(8)), ("kf10", .function(10)), ("kcbt", .backTab),
    ]
    for (capability, key) in keys {
      let bytes = KeyDecoderTests.terminfo(term, capability)
      #expect(!bytes.isEmpty, "terminfo has \(capability) for \(term)")
      #expect(decode(bytes) == [key], "\(term) \(capability) \(bytes)")
    }
  }

  @Test func everySequenceForHomeAndEnd() {
    for sequence in ["\u{1B}[1~", "\u{1B}[7~", "\u{1B}[H", "\u{1B}OH", "\u{1B}[1;5H"] {
      #expect(decode(sequence) == [.home], "\(Array(sequence.utf8))")
    }
    for sequence in ["\u{1B}[4~", "\u{1B}[8~", "\u{1B}[F", "\u{1B}OF", "\u{1B}[1;2F"] {
      #expect(decode(sequence) == [.end], "\(Array(sequence.utf8))")
    }
    #expect(decode("\u{1B}[[A\u{1B}[[E") == [.function(1), .function(5)], "the Linux console's F1 and F5")
  }

  @Test func unknownSequencesAndAltAreNotEsc() {
    #expect(decode("\u{1B}[99~x") == [.character("x")], "an unknown sequence is dropped whole")
    #expect(decode("\u{1B}[200~abc\u{1B}[201~") == [.character("a"), .character("b"), .character("c")])
    #expect(decode("\u{1B}b") == [], "Alt+b")
    #expect(decode("\u{1B}ж") == [], "Alt with a Cyrillic letter")
    #expect(decode("\u{1B}") == [.escape], "Esc alone, once nothing follows")
    #expect(decode("\u{1B}\u{1B}[A") == [.escape, .up])
  }

  @Test func anEscWaitsForTheRestOfItsSequence() {
    var decoder = KeyDecoder()
    #expect(decoder.feed([0x1B], at: 1000) == [])
    #expect(decoder.tick(at: 1010) == [], "still within the delay")
    #expect(decoder.feed(Array("[4~".utf8), at: 1015) == [.end], "the rest came in a second read")
    #expect(decoder.feed([0x1B], at: 2000) == [])
    #expect(decoder.tick(at: 2030) == [.escape])
    #expect(decoder.feed([0x1B], at: 3000) == [])
    #expect(decoder.feed(Array("q".utf8), at: 3100) == [.escape, .character("q")], "Esc, then q much later")
  }

  @Test func textControlsAndLineEnds() {
    #expect(decode("Жу\r") == [.character("Ж"), .character("у"), .enter])
    #expect(decode([0xD0]) == [.character("\u{FFFD}")], "half a character, never completed")
    var decoder = KeyDecoder()
    #expect(decoder.feed([0xD0], at: 0) == [], "half a character waits for its other half")
    #expect(decoder.feed([0x96], at: 1) == [.character("Ж")])
    #expect(
      decode([0x03, 0x1A, 0x15, 0x7F, 0x08, 0x09]) == [
        .control("c"), .control("z"), .control("u"), .backspace, .backspace, .tab,
      ])
    #expect(
      decode("1\r\n2\n3\r") == [
        .character("1"), .enter, .character("2"), .enter, .character("3"), .enter,
      ], "CR LF is one Enter; LF alone and CR alone are one each")
    #expect(decode("\u{1B}OM") == [.enter], "the keypad's Enter")
  }
}
