import DeskDomain

#if canImport(Glibc)
  import Glibc
#endif

/// The text of a symbol's bytes. A QR code's byte mode has no fixed character set, and the same
/// bytes read as text in several: UTF-8 when they are valid UTF-8; else Windows-1251 when they
/// read as Russian (Russian QR codes); else Shift-JIS when they read as Japanese (publishers' QR
/// codes in Japan, half-width katakana and all); else GB2312 when they read as Chinese; else
/// Windows-1251.
enum SymbolText {
  static func decode(_ bytes: [UInt8]) -> String {
    let (text, wasUTF8) = Windows1251.decodeUTF8OrWindows1251(bytes)
    if wasUTF8 || readsAsRussian(text) { return text }
    if let japanese = convert(bytes, from: "CP932"), looksJapanese(japanese) { return japanese }
    if let chinese = convert(bytes, from: "GB18030"), looksChinese(chinese) { return chinese }
    return text
  }

  /// The bytes in the character set iconv calls `charset` (CP932 for Microsoft's Shift-JIS,
  /// which Japanese encoders write; GB18030, which holds GB2312), or nil when they are not.
  static func convert(_ bytes: [UInt8], from charset: String) -> String? {
    let converter = iconv_open("UTF-8", charset)
    guard converter != iconv_t(bitPattern: -1) else { return nil }
    defer { iconv_close(converter) }
    var input = bytes.map { CChar(bitPattern: $0) }
    var output = [CChar](repeating: 0, count: bytes.count * 4 + 4)
    let converted: Int? = input.withUnsafeMutableBufferPointer { source in
      output.withUnsafeMutableBufferPointer { target in
        var inPointer = source.baseAddress
        var inLeft = source.count
        var outPointer = target.baseAddress
        var outLeft = target.count
        guard iconv(converter, &inPointer, &inLeft, &outPointer, &outLeft) != UInt.max, inLeft == 0
        else { return nil }
        return target.count - outLeft
      }
    }
    guard let converted else { return nil }
    return String(decoding: output.prefix(converted).map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// True for Windows-1251 text that reads as Russian (or Ukrainian, Belarusian): every letter
  /// beyond ASCII a Cyrillic one of those languages, every word of them in one case (ГЕРОЙ,
  /// герой, Герой), with a vowel, not mixing Russian's own letters with Ukrainian's, and quotes
  /// outside words. Japanese or Chinese bytes read as Windows-1251 fail it: «ГЮ»ЮІЭ» for
  /// «ﾃﾞｻﾞｲﾝ», «°ў» for «阿».
  static func readsAsRussian(_ text: String) -> Bool {
    let characters = Array(text)
    guard characters.contains(where: { !$0.isASCII }) else { return true }
    var word: [Character] = []
    func wordReads() -> Bool {
      defer { word.removeAll() }
      guard !word.isEmpty else { return true }
      let upper = word.map { $0.isUppercase }
      let oneCase = upper.allSatisfy { $0 } || upper.dropFirst().allSatisfy { !$0 }
      let vowels = word.contains { "аеёиоуыэюяіїєАЕЁИОУЫЭЮЯІЇЄ".contains($0) || "aeiouyAEIOUY".contains($0) }
      let russianOnly = word.contains { "ыэъЫЭЪ".contains($0) }
      let otherOnly = word.contains { "іїєґўІЇЄҐЎ".contains($0) }
      // A word of one letter is one of the few Russian has (в, к, с, и…).
      let oneLetter = word.count == 1 && (word[0].isASCII || "авиксуяоАВИКСУЯО".contains(word[0]))
      return oneCase && (word.count > 1 ? vowels : oneLetter) && !(russianOnly && otherOnly)
    }
    for (index, character) in characters.enumerated() {
      if isCyrillicLetter(character) || character.isLetter && character.isASCII {
        word.append(character)
        continue
      }
      guard wordReads() else { return false }
      if character.isASCII { continue }
      // Marks Russian text uses, quotes only at a word's edge.
      guard "«»„“”‘’—–…№°\u{A0}".contains(character) else { return false }
      let before = index > 0 ? characters[index - 1] : " "
      let after = index + 1 < characters.count ? characters[index + 1] : " "
      if "«„".contains(character) && before.isLetter { return false }
      if "»“".contains(character) && after.isLetter { return false }
    }
    return wordReads()
  }

  private static func isCyrillicLetter(_ character: Character) -> Bool {
    guard let scalar = character.unicodeScalars.first, character.unicodeScalars.count == 1 else { return false }
    return (0x0410...0x044F).contains(scalar.value) || [0x0401, 0x0451].contains(scalar.value)
      || "іїєґўІЇЄҐЎ".contains(character)
  }

  /// True for text that reads as Japanese: kana or kanji, no characters of the private use
  /// area (which Windows-1251's lower-case Cyrillic becomes as Shift-JIS), and each half-width
  /// voicing mark (ﾞ, ﾟ) after a kana that takes it.
  static func looksJapanese(_ text: String) -> Bool {
    var japanese = false
    var previous: UInt32 = 0
    for scalar in text.unicodeScalars {
      let value = scalar.value
      switch value {
      case 0xE000...0xF8FF: return false
      case 0xFF9E:
        // ﾞ after ｳ, the k-, s-, t- and h- rows.
        guard previous == 0xFF73 || (0xFF76...0xFF84).contains(previous) || (0xFF8A...0xFF8E).contains(previous)
        else { return false }
      case 0xFF9F:
        // ﾟ after the h- row.
        guard (0xFF8A...0xFF8E).contains(previous) else { return false }
      case 0xFF70:
        // ｰ, the long vowel, after a kana.
        guard (0xFF66...0xFF9F).contains(previous) || (0x3040...0x30FF).contains(previous) else { return false }
      case 0x3040...0x30FF, 0x4E00...0x9FFF, 0xFF66...0xFF6F, 0xFF71...0xFF9D: japanese = true
      default: break
      }
      previous = value
    }
    return japanese
  }

  /// True for text that reads as Chinese: Han characters, none of the private use area.
  static func looksChinese(_ text: String) -> Bool {
    var han = false
    for scalar in text.unicodeScalars {
      switch scalar.value {
      case 0xE000...0xF8FF: return false
      case 0x4E00...0x9FFF: han = true
      default: break
      }
    }
    return han
  }
}
