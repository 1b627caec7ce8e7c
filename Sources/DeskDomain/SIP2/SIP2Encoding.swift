/// The character set a kiosk speaks, set for its account: SIP2's own default is code page 850;
/// Russian kiosks speak Windows-1251 or UTF-8.
public enum SIP2Encoding: String, CaseIterable, Sendable {
  case utf8, cp1251, cp850

  /// The text of bytes a kiosk sent; a byte that is not text in this set becomes U+FFFD.
  public func decode(_ bytes: [UInt8]) -> String {
    switch self {
    case .utf8: return String(decoding: bytes, as: UTF8.self)
    case .cp1251: return Windows1251.decode(bytes)
    case .cp850:
      var text = String.UnicodeScalarView()
      for byte in bytes {
        text.append(Unicode.Scalar(byte < 0x80 ? UInt32(byte) : CodePage850.upperHalf[Int(byte - 0x80)]) ?? "\u{FFFD}")
      }
      return String(text)
    }
  }

  /// The bytes of `text` for the kiosk: what the set lacks is written as its plain Latin letter
  /// (Russian in Latin letters, in code page 850) or `?` (a kiosk shows what it gets).
  public func encode(_ text: String) -> [UInt8] {
    switch self {
    case .utf8: return Array(text.utf8)
    case .cp1251: return Windows1251.encodeLossy(text).bytes
    case .cp850:
      var bytes: [UInt8] = []
      var cyrillic = ""
      // A run of Russian letters goes out in Latin letters, as names are usually spelt (Война → Voyna).
      func endRun() {
        guard !cyrillic.isEmpty else { return }
        var latin = Transliteration.latin(cyrillic.lowercased(), limit: 1).first ?? "?"
        if cyrillic.first?.isUppercase == true { latin = latin.prefix(1).uppercased() + latin.dropFirst() }
        if cyrillic.count > 1, cyrillic.allSatisfy(\.isUppercase) { latin = latin.uppercased() }
        bytes += SIP2Encoding.cp850.encode(latin)
        cyrillic = ""
      }
      for scalar in text.unicodeScalars {
        if (0x410...0x44F).contains(scalar.value) || scalar.value == 0x401 || scalar.value == 0x451 {
          cyrillic.unicodeScalars.append(scalar)
          continue
        }
        endRun()
        if scalar.value < 0x80 {
          bytes.append(UInt8(scalar.value))
        } else if let byte = CodePage850.byte[scalar.value] {
          bytes.append(byte)
        } else {
          let plain = TextFolding.fold(String(scalar))
          bytes += plain.unicodeScalars.allSatisfy({ $0.value < 0x80 }) && !plain.isEmpty ? Array(plain.utf8) : [0x3F]
        }
      }
      endRun()
      return bytes
    }
  }
}

/// IBM code page 850 (DOS Latin-1), SIP2's default character set.
enum CodePage850 {
  /// The Unicode scalar of each byte from 0x80 to 0xFF.
  static let upperHalf: [UInt32] = [
    0x00C7, 0x00FC, 0x00E9, 0x00E2, 0x00E4, 0x00E0, 0x00E5, 0x00E7,
    0x00EA, 0x00EB, 0x00E8, 0x00EF, 0x00EE, 0x00EC, 0x00C4, 0x00C5,
    0x00C9, 0x00E6, 0x00C6, 0x00F4, 0x00F6, 0x00F2, 0x00FB, 0x00F9,
    0x00FF, 0x00D6, 0x00DC, 0x00F8, 0x00A3, 0x00D8, 0x00D7, 0x0192,
    0x00E1, 0x00ED, 0x00F3, 0x00FA, 0x00F1, 0x00D1, 0x00AA, 0x00BA,
    0x00BF, 0x00AE, 0x00AC, 0x00BD, 0x00BC, 0x00A1, 0x00AB, 0x00BB,
    0x2591, 0x2592, 0x2593, 0x2502, 0x2524, 0x00C1, 0x00C2, 0x00C0,
    0x00A9, 0x2563, 0x2551, 0x2557, 0x255D, 0x00A2, 0x00A5, 0x2510,
    0x2514, 0x2534, 0x252C, 0x251C, 0x2500, 0x253C, 0x00E3, 0x00C3,
    0x255A, 0x2554, 0x2569, 0x2566, 0x2560, 0x2550, 0x256C, 0x00A4,
    0x00F0, 0x00D0, 0x00CA, 0x00CB, 0x00C8, 0x0131, 0x00CD, 0x00CE,
    0x00CF, 0x2518, 0x250C, 0x2588, 0x2584, 0x00A6, 0x00CC, 0x2580,
    0x00D3, 0x00DF, 0x00D4, 0x00D2, 0x00F5, 0x00D5, 0x00B5, 0x00FE,
    0x00DE, 0x00DA, 0x00DB, 0x00D9, 0x00FD, 0x00DD, 0x00AF, 0x00B4,
    0x00AD, 0x00B1, 0x2017, 0x00BE, 0x00B6, 0x00A7, 0x00F7, 0x00B8,
    0x00B0, 0x00A8, 0x00B7, 0x00B9, 0x00B3, 0x00B2, 0x25A0, 0x00A0,
  ]

  static let byte: [UInt32: UInt8] = Dictionary(
    uniqueKeysWithValues: upperHalf.enumerated().map { ($0.element, UInt8($0.offset + 0x80)) })
}
