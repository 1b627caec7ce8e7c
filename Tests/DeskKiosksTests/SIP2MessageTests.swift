import DeskDomain
import Testing

/// SIP2's framing and error detection, against the specification's own examples.
@Suite struct SIP2MessageTests {
  private func parse(_ text: String) -> Result<SIP2Message, SIP2MessageError> {
    SIP2Message.parse(text, bytes: Array(text.utf8))
  }

  @Test func checksumsAreTheSpecificationsExamples() {
    #expect(SIP2Checksum.of(Array("990 402.00AY1AZ".utf8)) == "FCB4")
    #expect(SIP2Checksum.of(Array("9900401.00AY1AZ".utf8)) == "FCA5")
    #expect(SIP2Checksum.of(Array("97AZ".utf8)) == "FEF5")
    #expect(SIP2Checksum.of(Array("96AZ".utf8)) == "FEF6")
  }

  @Test func readsTheFixedPartFieldsSequenceAndChecksum() throws {
    let message = try parse("990 402.00AY1AZFCB4").get()
    #expect(message.code == "99" && message.fixed == "0 402.00" && message.sequence == 1 && message.hasChecksum)
    let login = try parse("9300CNkiosk|COsecret|CPMAIN|").get()
    #expect(login.field("CN") == "kiosk" && login.field("CO") == "secret" && login.field("CP") == "MAIN")
    #expect(!login.hasChecksum && login.sequence == nil)
    // A lower-case checksum is the same number; a wrong one is refused.
    #expect(try parse("990 402.00AY1AZfcb4").get().hasChecksum)
    #expect(parse("990 402.00AY1AZFCB5") == .failure(.badChecksum))
    #expect(parse("990 402.00AY1AZ+CB4") == .failure(.badChecksum))
    #expect(parse("97AZFEF5").map(\.code) == .success("97"))
  }

  @Test func refusesWhatIsNotAMessage() {
    #expect(parse("") == .failure(.noCode))
    #expect(parse("x9") == .failure(.noCode))
    #expect(parse("42") == .failure(.unknownCode("42")))
    #expect(parse("1100") == .failure(.shortFixedPart(code: "11", expected: 38)))
    #expect(parse("9300CNkiosk|x") == .failure(.brokenField("x")))
  }

  /// One kiosk sums the bytes of its UTF-8, another the characters: both are taken.
  @Test func aChecksumOverCharactersIsTaken() throws {
    let body = "23001" + "20261205    101010" + "AOMAIN|AAЖ1|AY2AZ"
    let overBytes = SIP2Checksum.of(Array(body.utf8))
    let sum = body.unicodeScalars.reduce(UInt32(0)) { $0 &+ $1.value }
    let overCharacters = String(UInt16(truncatingIfNeeded: 0x10000 &- (sum & 0xFFFF)), radix: 16, uppercase: true)
    let padded = String(repeating: "0", count: 4 - overCharacters.count) + overCharacters
    #expect(overBytes != padded)
    #expect(try parse(body + overBytes).get().field("AA") == "Ж1")
    #expect(try parse(body + padded).get().field("AA") == "Ж1")
  }

  @Test func aReplyCarriesTheSequenceAndAChecksumThatChecks() throws {
    var reply = SIP2Reply(code: "94", fixed: "1")
    #expect(reply.bytes(encoding: .utf8, sequence: 3, checksums: false) == Array("941".utf8))
    let sent = String(decoding: reply.bytes(encoding: .utf8, sequence: 3, checksums: true), as: UTF8.self)
    #expect(sent.hasPrefix("941AY3AZ"))
    reply = SIP2Reply(code: "36", fixed: "Y" + SIP2Date.blank)
    // A value's | and control characters would end its field or the message.
    reply.add("AF", "a|b\rc")
    #expect(
      String(decoding: reply.bytes(encoding: .utf8, sequence: nil, checksums: false), as: UTF8.self).hasSuffix(
        "AFa b c|"))
    // In Windows-1251 the checksum is over the bytes sent.
    reply = SIP2Reply(code: "24", fixed: String(repeating: " ", count: 14) + "000" + SIP2Date.blank)
    reply.add("AE", "Попова Анна")
    let bytes = reply.bytes(encoding: .cp1251, sequence: 0, checksums: true)
    let checksum = try #require(UInt16(String(decoding: bytes.suffix(4), as: UTF8.self), radix: 16))
    #expect((SIP2Checksum.sum(bytes.dropLast(4)) &+ UInt32(checksum)) & 0xFFFF == 0)
    #expect(SIP2Encoding.cp1251.decode(bytes).contains("AEПопова Анна|"))
    #expect(SIP2Encoding.cp850.decode(SIP2Encoding.cp850.encode("Élise Müller")) == "Élise Müller")
    #expect(
      SIP2Encoding.cp850.decode(SIP2Encoding.cp850.encode("Попова Анна, «Война и мир»")) == "Popova Anna, «Voyna i mir»"
    )
  }

  /// Random bytes, and messages cut or changed anywhere: every one is read or refused, never a
  /// crash, and reading takes time in proportion to the message.
  @Test func anyInputIsReadOrRefused() {
    var generator = SystemRandomNumberGenerator()
    let seeds = [
      "990 402.00AY1AZFCB4", "9300CNkiosk|COsecret|CPMAIN|AY0AZF000",
      "11YN20261205    101010                  AOMAIN|AA1|AB2|AC|",
      "6300120261205    101010          AOMAIN|AA1|BP1|BQ5|",
    ]
    for _ in 0..<20_000 {
      var bytes: [UInt8]
      if Bool.random(using: &generator) {
        bytes = (0..<Int.random(in: 0..<80, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator)
        }
      } else {
        bytes = Array(seeds.randomElement(using: &generator)!.utf8)
        for _ in 0..<Int.random(in: 1...4, using: &generator) where !bytes.isEmpty {
          let index = Int.random(in: 0..<bytes.count, using: &generator)
          switch Int.random(in: 0..<3, using: &generator) {
          case 0: bytes.remove(at: index)
          case 1: bytes[index] = UInt8.random(in: 0...255, using: &generator)
          default: bytes = Array(bytes[..<index])
          }
        }
      }
      for encoding in SIP2Encoding.allCases {
        switch SIP2Message.parse(encoding.decode(bytes), bytes: bytes) {
        case .success(let message): #expect(message.code.count == 2)
        case .failure(let error): #expect(!error.message.isEmpty)
        }
      }
    }
  }
}
