import DeskDomain

#if canImport(Glibc)
  import Glibc
#endif

/// The text of a symbol's bytes. A QR code's byte mode has no fixed character set: UTF-8 when
/// the bytes are valid UTF-8; else Shift-JIS when they read as Japanese (publishers' QR codes
/// in Japan); else Windows-1251, common in Russian QR codes.
enum SymbolText {
  static func decode(_ bytes: [UInt8]) -> String {
    let (text, wasUTF8) = Windows1251.decodeUTF8OrWindows1251(bytes)
    if wasUTF8 { return text }
    if let japanese = shiftJIS(bytes), looksJapanese(japanese) { return japanese }
    return text
  }

  /// The bytes as Shift-JIS (Microsoft's CP932, which Japanese encoders write), or nil when
  /// they are not.
  static func shiftJIS(_ bytes: [UInt8]) -> String? {
    let converter = iconv_open("UTF-8", "CP932")
    guard converter != iconv_t(bitPattern: -1) else { return nil }
    defer { iconv_close(converter) }
    var input = bytes.map { CChar(bitPattern: $0) }
    var output = [CChar](repeating: 0, count: bytes.count * 3 + 4)
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

  /// True for text with kana or kanji and no half-width katakana: Windows-1251 Cyrillic read as
  /// Shift-JIS comes out as half-width katakana, which Japanese text nearly never uses.
  static func looksJapanese(_ text: String) -> Bool {
    var japanese = false
    for scalar in text.unicodeScalars {
      switch scalar.value {
      case 0xFF61...0xFF9F: return false
      case 0x3040...0x30FF, 0x4E00...0x9FFF: japanese = true
      default: break
      }
    }
    return japanese
  }
}
