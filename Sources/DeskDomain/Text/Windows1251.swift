/// Windows-1251, the Cyrillic code page of IRBIS files and of many Russian QR codes and
/// barcode labels: decoding, encoding, and telling it from UTF-8.
public enum Windows1251 {
  /// The Unicode scalar of each byte from 0x80 to 0xFF (0xFFFD for the one unassigned byte).
  static let upperHalf: [UInt32] = [
    0x0402, 0x0403, 0x201A, 0x0453, 0x201E, 0x2026, 0x2020, 0x2021,
    0x20AC, 0x2030, 0x0409, 0x2039, 0x040A, 0x040C, 0x040B, 0x040F,
    0x0452, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
    0xFFFD, 0x2122, 0x0459, 0x203A, 0x045A, 0x045C, 0x045B, 0x045F,
    0x00A0, 0x040E, 0x045E, 0x0408, 0x00A4, 0x0490, 0x00A6, 0x00A7,
    0x0401, 0x00A9, 0x0404, 0x00AB, 0x00AC, 0x00AD, 0x00AE, 0x0407,
    0x00B0, 0x00B1, 0x0406, 0x0456, 0x0491, 0x00B5, 0x00B6, 0x00B7,
    0x0451, 0x2116, 0x0454, 0x00BB, 0x0458, 0x0405, 0x0455, 0x0457,
    0x0410, 0x0411, 0x0412, 0x0413, 0x0414, 0x0415, 0x0416, 0x0417,
    0x0418, 0x0419, 0x041A, 0x041B, 0x041C, 0x041D, 0x041E, 0x041F,
    0x0420, 0x0421, 0x0422, 0x0423, 0x0424, 0x0425, 0x0426, 0x0427,
    0x0428, 0x0429, 0x042A, 0x042B, 0x042C, 0x042D, 0x042E, 0x042F,
    0x0430, 0x0431, 0x0432, 0x0433, 0x0434, 0x0435, 0x0436, 0x0437,
    0x0438, 0x0439, 0x043A, 0x043B, 0x043C, 0x043D, 0x043E, 0x043F,
    0x0440, 0x0441, 0x0442, 0x0443, 0x0444, 0x0445, 0x0446, 0x0447,
    0x0448, 0x0449, 0x044A, 0x044B, 0x044C, 0x044D, 0x044E, 0x044F,
  ]

  static let encodingTable: [UInt32: UInt8] = {
    var table: [UInt32: UInt8] = [:]
    for (offset, scalar) in upperHalf.enumerated() where scalar != 0xFFFD {
      table[scalar] = UInt8(0x80 + offset)
    }
    return table
  }()

  /// The byte of the scalar `value`, or nil when the code page has none. А…я lie in order at
  /// 0xC0…0xFF: most of a Russian text is told without a hash lookup.
  static func byte(_ value: UInt32) -> UInt8? {
    if value < 0x80 { return UInt8(value) }
    if (0x410...0x44F).contains(value) { return UInt8(value - 0x410 + 0xC0) }
    return encodingTable[value]
  }

  /// The UTF-8 of each byte from 0x80 to 0xFF in one number: its two or three bytes from the
  /// lowest up, and their count in the highest byte. An array of arrays was read a reference and
  /// a count per Cyrillic letter.
  static let upperHalfUTF8: [UInt32] = upperHalf.map { scalar in
    let utf8 = Array(String(Unicode.Scalar(scalar) ?? "\u{FFFD}").utf8)
    return utf8.enumerated().reduce(UInt32(utf8.count) << 24) { $0 | UInt32($1.element) << (8 * $1.offset) }
  }

  public static func decode<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
    if let text = bytes.withContiguousStorageIfAvailable(decode) { return text }
    return Array(bytes).withUnsafeBufferPointer(decode)
  }

  /// Written straight into the string's storage: the thread that reads a million-book import's
  /// 180 MB took 18–19 s of CPU with an array of arrays and a growing array before, 12 s so.
  static func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
    upperHalfUTF8.withUnsafeBufferPointer { table in
      String(unsafeUninitializedCapacity: bytes.count * 3) { utf8 in
        var count = 0
        for byte in bytes {
          if byte < 0x80 {
            utf8[count] = byte
            count += 1
          } else {
            let packed = table[Int(byte &- 0x80)]
            let length = Int(packed >> 24)
            for index in 0..<length { utf8[count + index] = UInt8(truncatingIfNeeded: packed >> (8 * index)) }
            count += length
          }
        }
        return count
      }
    }
  }

  /// The bytes of `text`, or nil when a character has no place in the code page.
  public static func encode(_ text: String) -> [UInt8]? {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      guard let byte = byte(scalar.value) else { return nil }
      bytes.append(byte)
    }
    return bytes
  }

  /// Bytes as text: UTF-8 when they are valid UTF-8, else Windows-1251. Both are common in
  /// Russian data; a Windows-1251 text of more than a couple of letters is almost never valid UTF-8.
  public static func decodeUTF8OrWindows1251(_ bytes: [UInt8]) -> (text: String, wasUTF8: Bool) {
    if let text = String(validating: bytes, as: UTF8.self) { return (text, true) }
    return (decode(bytes), false)
  }
}

extension Windows1251 {
  /// The bytes of `text`, with what the code page lacks replaced: a Latin letter with an accent
  /// by its plain letter (é → e, Ö → O), anything else by `?`. Returns how many were replaced.
  public static func encodeLossy(_ text: String) -> (bytes: [UInt8], replaced: Int) {
    var bytes: [UInt8] = []
    // The UTF-8 length is known at once and is never less; counting the scalars read the text
    // once more.
    bytes.reserveCapacity(text.utf8.count)
    let replaced = appendLossy(text, to: &bytes)
    return (bytes, replaced)
  }

  /// Appends the bytes `encodeLossy` gives for `text` to `bytes`; returns how many characters
  /// were replaced.
  public static func appendLossy(_ text: String, to bytes: inout [UInt8]) -> Int {
    var replaced = 0
    for scalar in text.unicodeScalars {
      if let byte = byte(scalar.value) {
        bytes.append(byte)
      } else {
        replaced += 1
        let folded = TextFolding.fold(String(scalar))
        let plain = folded.unicodeScalars.allSatisfy { $0.value < 0x80 } && !folded.isEmpty ? folded : "?"
        let isUpper = String(scalar).lowercased() != String(scalar)
        bytes += Array((isUpper ? plain.uppercased() : plain).utf8)
      }
    }
    return replaced
  }

}
