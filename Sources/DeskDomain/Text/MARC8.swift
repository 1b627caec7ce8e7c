/// MARC-8, the character set of MARC 21 records whose leader has no `a` at position 9: ASCII
/// with ANSEL's extended Latin (Ł, Ø, ß…) and combining marks written before the letter they
/// go on, and the sets escape sequences switch to. Basic Cyrillic (ESC ( N or ESC ) N, the set
/// Russian records use) is read; a record in another set (Greek, Hebrew, Arabic, CJK…) is refused,
/// with the advice to convert the file.
public enum MARC8 {
  /// The sets read: the ASCII and ANSEL a record starts in, and basic Cyrillic.
  private enum Set {
    case ascii, ansel, cyrillic
  }

  /// The text of `bytes`, or nil when they switch to a set this decoder does not read or hold a
  /// byte MARC-8 does not define.
  public static func decode(_ bytes: [UInt8]) -> String? {
    var text = ""
    var marks: [Unicode.Scalar] = []
    // G0 takes bytes 0x21–0x7E, G1 bytes 0xA1–0xFE; each field starts in ASCII and ANSEL.
    var g0 = Set.ascii
    var g1 = Set.ansel
    var index = 0
    func append(_ scalar: Unicode.Scalar) {
      text.unicodeScalars.append(scalar)
      // ANSEL writes a mark before its letter; Unicode after it.
      text.unicodeScalars.append(contentsOf: marks)
      marks.removeAll()
    }
    while index < bytes.count {
      let byte = bytes[index]
      index += 1
      if byte == 0x1B {
        guard index < bytes.count else { return nil }
        let intermediate = bytes[index]
        index += 1
        // ESC s: ASCII back in G0, at once.
        if intermediate == UInt8(ascii: "s") {
          g0 = .ascii
          continue
        }
        guard "(,)-".utf8.contains(intermediate), index < bytes.count else { return nil }
        let final = bytes[index]
        index += 1
        let set: Set
        switch final {
        case UInt8(ascii: "B"): set = .ascii
        case UInt8(ascii: "E"): set = .ansel
        case UInt8(ascii: "N"): set = .cyrillic
        default: return nil
        }
        if intermediate == UInt8(ascii: "(") || intermediate == UInt8(ascii: ",") { g0 = set } else { g1 = set }
        continue
      }
      let graphic = byte & 0x7F
      let set = byte < 0x80 ? g0 : g1
      if byte < 0x21 || byte == 0x7F || (0x80..<0xA1).contains(byte) || byte == 0xFF {
        guard byte < 0x80 else { return nil }
        append(Unicode.Scalar(byte))
        continue
      }
      switch set {
      case .ascii:
        append(Unicode.Scalar(graphic))
      case .ansel:
        let high = graphic | 0x80
        if let mark = combining[high] {
          marks.append(mark)
        } else if let special = specials[high] {
          append(special)
        } else {
          return nil
        }
      case .cyrillic:
        guard let scalar = cyrillic(graphic) else { return nil }
        append(scalar)
      }
    }
    text.unicodeScalars.append(contentsOf: marks)
    return text
  }

  /// Basic Cyrillic (ISO 5427): 0x21–0x3F as ASCII, then the letters in the order of KOI-7, as
  /// the Library of Congress's table has them (checked against yaz-iconv in the tests).
  private static func cyrillic(_ graphic: UInt8) -> Unicode.Scalar? {
    if graphic < 0x40 { return Unicode.Scalar(graphic) }
    let lower: [UInt32] = [
      0x44E, 0x430, 0x431, 0x446, 0x434, 0x435, 0x444, 0x433, 0x445, 0x438, 0x439, 0x43A, 0x43B, 0x43C, 0x43D,
      0x43E, 0x43F, 0x44F, 0x440, 0x441, 0x442, 0x443, 0x436, 0x432, 0x44C, 0x44B, 0x437, 0x448, 0x44D, 0x449,
      0x447, 0x44A,
    ]
    let offset = Int(graphic) - 0x40
    if offset < 32 { return Unicode.Scalar(lower[offset]) }
    // The capitals follow in the same order, 0x20 above; 0x7F has none.
    guard offset - 32 < 31 else { return nil }
    return Unicode.Scalar(lower[offset - 32] - 0x20)
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
