import Dispatch
import Synchronization
import Testing

@testable import DeskDomain

@Suite struct TextTests {
  /// Text of ASCII and the Russian alphabet is folded from its bytes; the same as a scalar at a
  /// time, character by character and in words, and anything else goes the scalar way.
  @Test func theBytePathFoldsAsTheScalarPathDoes() {
    let russian = ([0x401, 0x451] + Array(0x410...0x44F)).compactMap(Unicode.Scalar.init).map(String.init).joined()
    let ascii = (0x00...0x7F).compactMap(Unicode.Scalar.init).map(String.init).joined()
    for text in [russian, ascii, ascii + russian, "Толстой Л. Н. Война и мир : роман", "ЁЖИК в тумане", ""] {
      let plain = text.utf8.withContiguousStorageIfAvailable(TextFolding.foldedPlain) ?? nil
      #expect(plain == TextFolding.foldedByScalars(text), "\(text)")
    }
    for text in ["Élise", "Straße", "і", "Ѣ", "ў", "и\u{0306}", "日本", "€"] {
      #expect(text.utf8.withContiguousStorageIfAvailable(TextFolding.foldedPlain) == .some(nil), "\(text)")
      #expect(TextFolding.fold("Ab" + text) == TextFolding.foldedByScalars("Ab" + text))
    }
  }

  @Test func foldsCaseYoAndLatinDiacritics() {
    #expect(TextFolding.fold("Ёлкин ЁЖИК") == "елкин ежик")
    #expect(TextFolding.fold("Élise Müller García Łódź Straße") == "elise muller garcia lodz strasse")
    #expect(TextFolding.fold("Йошкар-Ола") == "йошкар-ола", "й is a letter of its own")
    #expect(TextFolding.fold("и\u{0306}од") == "йод", "decomposed й is still й")
    #expect(TextFolding.fold("е\u{0308}ж") == "еж", "decomposed ё folds like ё")
  }

  @Test func splitsWords() {
    #expect(
      TextFolding.words("Лермонтов, М. Ю. «Герой нашего времени»") == [
        "лермонтов", "м", "ю", "герой", "нашего", "времени",
      ])
  }

  @Test func trimsScannerPadding() {
    #expect(" 26002315".trimmingWhitespace() == "26002315")
    #expect("\n\t26002315\n".trimmingWhitespace() == "26002315")
    #expect("\u{1B}26002315\r".trimmingWhitespace() == "26002315")
    #expect("   ".trimmingWhitespace() == "")
  }

  /// The quick look at the ends agrees with the properties of every character there: white
  /// space and controls beyond ASCII (no-break, ideographic and thin spaces, NEL, C1) count.
  @Test func tellsPaddingAtTheEndsAsTheCharacterPropertiesDo() {
    for value in [0x00...0x2FF, 0x400...0x52F, 0x1680...0x1680, 0x2000...0x206F, 0x3000...0x3000, 0xFEFF...0xFEFF]
      .joined()
    {
      guard let scalar = Unicode.Scalar(value) else { continue }
      let padding = scalar.properties.isWhitespace || scalar.properties.generalCategory == .control
      let text = String(scalar)
      #expect(("a" + text).hasPaddingAtEnds == padding, "\(value)")
      #expect((text + "Ж").hasPaddingAtEnds == padding, "\(value)")
      #expect(("Ж" + text + "Ж").trimmingWhitespace() == "Ж" + text + "Ж")
      #expect((text + "Ж" + text).trimmingWhitespace() == (padding ? "Ж" : text + "Ж" + text), "\(value)")
    }
    #expect(!"".hasPaddingAtEnds && !"Герой".hasPaddingAtEnds)
  }

  /// Every character of Windows-1251 encodes to its byte, the quick way for А…я as the table's
  /// way for the rest, and decodes back.
  @Test func encodesEveryCharacterOfWindows1251ToItsByte() {
    let bytes = (0...255).map(UInt8.init).filter { $0 != 0x98 }
    let text = Windows1251.decode(bytes)
    #expect(Windows1251.encode(text) == bytes)
    #expect(Windows1251.encodeLossy(text).bytes == bytes && Windows1251.encodeLossy(text).replaced == 0)
    #expect(Windows1251.encode("Ёжик ёлка") == [0xA8, 0xE6, 0xE8, 0xEA, 0x20, 0xB8, 0xEB, 0xEA, 0xE0])
  }

  @Test func makesControlCharactersVisible() {
    #expect("a\u{1B}[31mb\nc\u{7F}\u{9B}".visibleForTerminal == "a\u{241B}[31mb\u{240A}c\u{2421}\u{FFFD}")
  }

  @Test func measuresDisplayWidth() {
    #expect("Лермонтов".displayWidth == 9)
    #expect("漢字".displayWidth == 4)
    #expect("e\u{0301}".displayWidth == 1)
    #expect("Герой нашего времени".truncated(toWidth: 10) == "Герой наш…")
    #expect("漢字漢字".truncated(toWidth: 5) == "漢字…")
    #expect("Ёж".padded(toWidth: 4) == "Ёж  ")
  }

  @Test func parsesMoneyExactly() {
    #expect(Money("254")?.minorUnits == 25400)
    #expect(Money("254,5")?.minorUnits == 25450)
    #expect(Money("1 254.05")?.minorUnits == 125405)
    #expect(Money("254.50")?.description == "254.50")
    #expect(Money("254")?.description == "254")
    #expect(Money("12.345") == nil)
    #expect(Money("-5") == nil)
    #expect(Money("abc") == nil)
    #expect(Money("") == nil)
    // Read from the bytes when written plainly, by characters otherwise: the same amounts.
    #expect(Money("0,05")?.minorUnits == 5 && Money("7.") == nil && Money(".5") == nil)
    #expect(Money("1.2.3") == nil && Money("1,2.3") == nil && Money("１２") == nil)
    #expect(Money("999999999999999")?.minorUnits == 99_999_999_999_999_900 && Money("1000000000000000") == nil)
    #expect(Money(" 254 ")?.minorUnits == 25400 && Money("254\u{00A0}000")?.minorUnits == 25_400_000)
  }

  @Test func makesVersionSevenUUIDs() {
    let id = RecordID.random().text
    let groups = id.split(separator: "-").map(\.count)
    #expect(groups == [8, 4, 4, 4, 12])
    #expect(Array(id)[14] == "7")
    #expect(RecordID.random() != RecordID.random())
    // Past the pool of random bytes fetched at once, and from threads at once: never the same twice.
    let made = Mutex(Set<String>())
    DispatchQueue.concurrentPerform(iterations: 4) { _ in
      let mine = (0..<1000).map { _ in RecordID.random().text }
      made.withLock { $0.formUnion(mine) }
    }
    #expect(made.withLock(\.count) == 4000)
  }

  @Test func laysOutTheRandomBitsAsRFC4122Says() {
    struct Fixed: RandomNumberGenerator {
      var values: [UInt64] = [0x0123_4567_89ab_cdef, 0xfedc_ba98_7654_3210]
      mutating func next() -> UInt64 { values.removeFirst() }
    }
    var generator = Fixed()
    // Bytes in order, low byte of each draw first; version 4 in byte 6, variant 10 in byte 8.
    #expect(RecordID.random(using: &generator).text == "efcdab89-6745-4301-9032-547698badcfe")
  }

  @Test func aNewIdentityBeginsWithItsTimeAsRFC9562Says() {
    struct Fixed: RandomNumberGenerator {
      var values: [UInt64] = [0x0123_4567_89ab_cdef, 0xfedc_ba98_7654_3210]
      mutating func next() -> UInt64 { values.removeFirst() }
    }
    var generator = Fixed()
    // The milliseconds big-endian in bytes 0–5, version 7 and 12 random bits, variant 10.
    #expect(
      RecordID.timeOrdered(millisecondsSinceEpoch: 0x0190_1234_5678, using: &generator).text
        == "01901234-5678-7301-9032-547698badcfe")
    // Made one after another, they sort as they were made, whatever their random bits.
    var random = SplitMix64(seed: 5)
    let made = (0..<2_000).map { step in
      RecordID.timeOrdered(millisecondsSinceEpoch: 1_764_979_200_000 + Int64(step) * 7, using: &random).text
    }
    #expect(made == made.sorted())
    #expect("89ab".contains(Array(RecordID.random().text)[19]))
  }
}
