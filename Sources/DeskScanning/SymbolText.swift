import DeskDomain

#if canImport(Glibc)
  import Glibc
#endif

/// The text of a symbol's bytes. A QR code's byte mode has no fixed character set, and the same
/// bytes read as text in several; a desk in a Russian library reads them so: UTF-8 when they are
/// valid UTF-8 of ordinary letters; else Windows-1251 when they read as Russian (Russian QR
/// codes); else Shift-JIS when they read as Japanese (publishers' QR codes in Japan); else
/// GB2312 when they read as Chinese; else Latin-1 (the QR standard's own default) when it reads
/// as Latin letters; else Windows-1251. Shift-JIS whose only kanji are rare ones and that reads
/// as Chinese is GB2312. Short codes of capitals are the same bytes in several
/// sets: Russian wins them («СССР» is «ﾑﾑﾑﾐ» in half-width katakana, «ЦРОД» is «中文» in
/// GB2312). A symbol that names its set (an ECI) is read by the second decoder in it.
enum SymbolText {
  static func decode(_ bytes: [UInt8]) -> String {
    var bytes = bytes[...]
    // A byte-order mark, and line breaks at the end, are no part of a code.
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
    while let last = bytes.last, last == 0x0A || last == 0x0D { bytes = bytes.dropLast() }
    let data = Array(bytes)
    let russian = Windows1251.decode(data)
    if let utf8 = String(validating: data, as: UTF8.self) {
      // Windows-1251 capitals before Ё, «, № are valid UTF-8 by chance («ЕЁ» is «Ũ»).
      if !ordinaryUTF8(utf8) && readsAsRussian(russian) { return russian }
      return utf8
    }
    if readsAsRussian(russian) { return russian }
    let latin = latin1(data)
    if readsAsLatin(latin) { return latin }
    let chinese = convert(data, from: "GB18030").flatMap { looksChinese($0) ? $0 : nil }
    if let japanese = convert(data, from: "CP932"), looksJapanese(japanese),
      chinese == nil || !onlyRareKanji(shiftJIS: data)
    {
      return japanese
    }
    if let chinese { return chinese }
    return russian
  }

  /// True when Shift-JIS bytes hold kanji of JIS level 2 (lead bytes 0xE0–0xEF) but no kana, no
  /// level-1 kanji and no full-width sign (lead bytes 0x81–0x9F): what GB2312 text becomes read as
  /// Shift-JIS, since its bytes are all 0xA1 or above («图书馆» is «ﾍｼﾊ鮖ﾝ»), and what Japanese
  /// text never is.
  static func onlyRareKanji(shiftJIS bytes: [UInt8]) -> Bool {
    var (common, rare) = (false, false)
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      switch byte {
      case 0x81...0x9F:
        common = true
        index += 2
      case 0xE0...0xFC:
        rare = true
        index += 2
      default: index += 1
      }
    }
    return rare && !common
  }

  /// Code 128's characters are Latin-1 by its own definition.
  static func latin1(_ bytes: [UInt8]) -> String {
    String(bytes.map { Character(UnicodeScalar($0)) })
  }

  /// True for UTF-8 text of the letters codes hold: ASCII, Latin-1's, Cyrillic, Greek, CJK and
  /// kana, and punctuation.
  static func ordinaryUTF8(_ text: String) -> Bool {
    text.unicodeScalars.allSatisfy { scalar in
      switch scalar.value {
      case 0...0x7F, 0xA0...0xFF, 0x370...0x3FF, 0x400...0x4FF, 0x2000...0x206F, 0x2100...0x214F, 0x3000...0x30FF,
        0x4E00...0x9FFF, 0xFF00...0xFFEF, 0xFEFF:
        return true
      default: return false
      }
    }
  }

  /// True for Latin-1 text whose letters beyond ASCII sit in words with ASCII letters («Café»,
  /// «Müller», «Straße»), as in the languages that write them.
  static func readsAsLatin(_ text: String) -> Bool {
    var sawAccent = false
    var sawPlain = false
    for scalar in text.unicodeScalars + [" "] {
      let value = scalar.value
      if (0xC0...0xFF).contains(value) && value != 0xD7 && value != 0xF7 {
        sawAccent = true
      } else if (0x41...0x5A).contains(value) || (0x61...0x7A).contains(value) {
        sawPlain = true
      } else if value < 0x80 {
        if sawAccent && !sawPlain { return false }
        (sawAccent, sawPlain) = (false, false)
      } else {
        return false
      }
    }
    return true
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
  /// beyond ASCII a Cyrillic one of those languages, every word in one case (ГЕРОЙ, герой,
  /// Герой, СССР) and of one alphabet, not mixing Russian's own letters with Ukrainian's, and
  /// quotes outside words. Japanese or Chinese bytes read as Windows-1251 mostly fail it:
  /// «ГЮ»ЮІЭ» for «ﾃﾞｻﾞｲﾝ», «°ў» for «阿». So do the marks of Russian text where Russian puts
  /// none: a degree sign after a letter («ГЮКЯ°Д» is «ﾃﾞﾊﾟｰﾄ», its ｰ the byte of °), a dash
  /// against a letter or a bracket («–{» is «本»), a hard sign before anything but е, ё, ю, я
  /// («ГЪЛЮ» is «ﾃﾚﾋﾞ»).
  static func readsAsRussian(_ text: String) -> Bool {
    let characters = Array(text)
    guard characters.contains(where: { !$0.isASCII }) else { return true }
    var word: [Character] = []
    func wordReads() -> Bool {
      defer { word.removeAll() }
      guard !word.isEmpty else { return true }
      let upper = word.map { $0.isUppercase }
      let oneCase = upper.allSatisfy { $0 } || upper.dropFirst().allSatisfy { !$0 }
      let latin = word.contains { $0.isASCII }
      let oneAlphabet = !latin || word.allSatisfy { $0.isASCII }
      // No word starts with a soft or hard sign, ы or ў.
      let starts = word.first.map { !"ьъыўЬЪЫЎ".contains($0) } ?? true
      let russianOnly = word.contains { "ыэъЫЭЪ".contains($0) }
      let otherOnly = word.contains { "іїєґўІЇЄҐЎ".contains($0) }
      let hardSigns = zip(word, word.dropFirst() + [" "]).allSatisfy { letter, next in
        !"ъЪ".contains(letter) || "еёюяЕЁЮЯ".contains(next)
      }
      return oneCase && oneAlphabet && starts && !(russianOnly && otherOnly) && hardSigns
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
      // Degrees follow a number; a dash stands between spaces or numbers.
      if character == "°" && before.isLetter { return false }
      if "–—".contains(character),
        ![before, after].allSatisfy({ $0 == " " || $0 == "\u{A0}" || $0.isNumber || $0 == "\n" })
      {
        return false
      }
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
