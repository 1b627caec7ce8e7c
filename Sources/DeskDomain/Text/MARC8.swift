/// MARC-8, the character set of MARC 21 records whose leader has no `a` at position 9: ASCII
/// with ANSEL's extended Latin (Ł, Ø, ß…) and combining marks written before the letter they
/// go on. The other character sets MARC-8 switches to with escape sequences (Cyrillic, Greek,
/// CJK…) are not read: such a record is refused, with the advice to convert the file.
public enum MARC8 {
  /// The text of `bytes`, or nil when they hold an escape sequence or a byte MARC-8 does not define.
  public static func decode(_ bytes: [UInt8]) -> String? {
    var text = ""
    var marks: [Unicode.Scalar] = []
    for byte in bytes {
      if byte == 0x1B { return nil }
      if let mark = combining[byte] {
        marks.append(mark)
        continue
      }
      let scalar: Unicode.Scalar
      if byte < 0x80 {
        scalar = Unicode.Scalar(byte)
      } else if let special = specials[byte] {
        scalar = special
      } else {
        return nil
      }
      text.unicodeScalars.append(scalar)
      // ANSEL writes a mark before its letter; Unicode after it.
      text.unicodeScalars.append(contentsOf: marks)
      marks.removeAll()
    }
    text.unicodeScalars.append(contentsOf: marks)
    return text
  }

  private static let specials: [UInt8: Unicode.Scalar] = [
    0xA1: "Ł", 0xA2: "Ø", 0xA3: "Đ", 0xA4: "Þ", 0xA5: "Æ", 0xA6: "Œ", 0xA7: "\u{02B9}", 0xA8: "·", 0xA9: "♭",
    0xAA: "®", 0xAB: "±", 0xAC: "Ơ", 0xAD: "Ư", 0xAE: "\u{02BC}", 0xB0: "\u{02BB}", 0xB1: "ł", 0xB2: "ø",
    0xB3: "đ", 0xB4: "þ", 0xB5: "æ", 0xB6: "œ", 0xB7: "\u{02BA}", 0xB8: "ı", 0xB9: "£", 0xBA: "ð", 0xBC: "ơ",
    0xBD: "ư", 0xC0: "°", 0xC1: "ℓ", 0xC2: "℗", 0xC3: "©", 0xC4: "♯", 0xC5: "¿", 0xC6: "¡", 0xC7: "ß", 0xC8: "€",
  ]

  private static let combining: [UInt8: Unicode.Scalar] = [
    0xE0: "\u{0309}", 0xE1: "\u{0300}", 0xE2: "\u{0301}", 0xE3: "\u{0302}", 0xE4: "\u{0303}", 0xE5: "\u{0304}",
    0xE6: "\u{0306}", 0xE7: "\u{0307}", 0xE8: "\u{0308}", 0xE9: "\u{030C}", 0xEA: "\u{030A}", 0xEB: "\u{FE20}",
    0xEC: "\u{FE21}", 0xED: "\u{0315}", 0xEE: "\u{030B}", 0xEF: "\u{0310}", 0xF0: "\u{0327}", 0xF1: "\u{0328}",
    0xF2: "\u{0323}", 0xF3: "\u{0324}", 0xF4: "\u{0325}", 0xF5: "\u{0333}", 0xF6: "\u{0332}", 0xF7: "\u{0326}",
    0xF8: "\u{031C}", 0xF9: "\u{032E}", 0xFA: "\u{FE22}", 0xFB: "\u{FE23}", 0xFE: "\u{0313}",
  ]
}
