import CImaging
import DeskDomain

// What zbar's read of a symbol leaves out, filled in: the character set a QR code names, and
// the Latin-1 letters of a Code 128.

extension ImageScanner {
  /// zbar gives a QR code's bytes, not the character set an ECI names: where they are not
  /// UTF-8 (and so would be guessed at), the second decoder, which reads the ECI, is asked, and
  /// its text taken where the symbol named one.
  static func withNamedCharacterSets(_ found: [ScannedSymbol], second: SecondRead) -> [ScannedSymbol] {
    func guessed(_ symbol: ScannedSymbol) -> Bool {
      symbol.symbology == "QR-Code" && symbol.lines != Int.max && symbol.bytes.contains { $0 >= 0x80 }
        && String(validating: symbol.bytes, as: UTF8.self) == nil
    }
    guard found.contains(where: guessed) else { return found }
    let named = second.symbols.filter(\.namedCharacterSet)
    return found.map { symbol in
      guard guessed(symbol), let read = named.first(where: { $0.bytes == symbol.bytes }) else { return symbol }
      var taken = symbol
      taken.text = read.text
      return taken
    }
  }

  /// zbar drops the high bit of Code 128's FNC4-shifted characters (Latin-1: «óóóó1234» comes
  /// back «ssss1234»), and cannot say when it did. Each Code 128 zbar read is read again along
  /// its lines by the desk's own reading (`ownReading`: `Code128.decode`, then `Code128.confirm`
  /// with zbar's text), which keeps them; where that reads nothing, ZXing is asked. A read is
  /// taken where it is zbar's with those characters whole, and dropped where nothing confirms it.
  static func withLatin1Code128(
    _ found: [ScannedSymbol], second read: SecondRead, small: Bool, ownReading: (ScannedSymbol) -> [UInt8]?
  ) -> [ScannedSymbol] {
    func isWhole(_ bytes: [UInt8], of symbol: ScannedSymbol) -> Bool { ImageScanner.isWhole(bytes, of: symbol.bytes) }
    var whole: [Int: [UInt8]] = [:]
    for (index, symbol) in found.enumerated() where symbol.symbology == "CODE-128" && symbol.lines != Int.max {
      if let own = ownReading(symbol), isWhole(own, of: symbol) { whole[index] = own }
    }
    let unsure = found.indices.filter {
      found[$0].symbology == "CODE-128" && found[$0].lines != Int.max && whole[$0] == nil
    }
    if !unsure.isEmpty {
      var second = read.symbols.filter { $0.symbology == "CODE-128" }
      func zxingRead(_ index: Int) -> [UInt8]? {
        second.first { isWhole($0.bytes, of: found[index]) }?.bytes
      }
      // A label under glare ZXing reads with its rows' contrast stretched; a blurred one at twice the size.
      for options in small ? [["--level"], ["--scale", "2"]] : [] where unsure.contains(where: { zxingRead($0) == nil })
      {
        second += SecondDecoder.decode(path: read.path, options: options)
      }
      for index in unsure { whole[index] = zxingRead(index) }
    }
    // A read neither confirms is no code: zbar may have dropped letters from it, and a wrong
    // code at the counter is worse than none. Of 231 labels with Latin-1 letters blurred by 2.6 to
    // 6 pixels or by motion, 9 came back wrong so (and 46 before the confirming reading); of 144
    // such labels in ASCII, 3 reads were lost, and none of ZXing's 49 Code 128 photos.
    return found.enumerated().compactMap { index, symbol in
      guard symbol.symbology == "CODE-128", symbol.lines != Int.max else { return symbol }
      guard let bytes = whole[index] else { return nil }
      var read = symbol
      (read.bytes, read.text) = (bytes, SymbolText.latin1(bytes))
      return read
    }
  }

  /// True when `bytes` are zbar's `read` with some letters' high bits set: the same text, whole.
  static func isWhole(_ bytes: [UInt8], of read: [UInt8]) -> Bool {
    bytes.count == read.count && zip(bytes, read).allSatisfy { $0 & 0x7F == $1 }
  }

  /// The desk's own reading of a Code 128 that zbar read as `read` at `box`: each line across it,
  /// the middle one first, each way (zbar reads lines both ways, and its edges are not the same
  /// each way), rows then columns, until one reads a whole symbol. The box does not tell which way
  /// the code lies: zbar's points are where its lines ended, on one end of the code or on both.
  static func ownCode128(in image: inout cimg_gray, at box: ScannedSymbol.Box, read: [UInt8]) -> [UInt8]? {
    for vertical in [false, true] {
      let (first, last) = vertical ? (box.left, box.right) : (box.top, box.bottom)
      let length = Int(vertical ? image.height : image.width)
      var widths = [UInt32](repeating: 0, count: length + 2)
      var bars = [UInt8](repeating: 0, count: length + 2)
      // At most 64 lines, spread across the code.
      let step = max(1, (last - first) / 64)
      let middle = (first + last) / 2
      let lines = [middle] + stride(from: first, through: last, by: step).filter { $0 != middle }
      for line in lines {
        for backwards: Int32 in [0, 1] {
          let count = cimg_line_elements(
            &image, Int32(line), vertical ? 1 : 0, backwards, &widths, &bars, Int32(widths.count))
          guard count > 0 else { continue }
          let elements = (0..<Int(count)).map { Code128.Element(width: Double(widths[$0]), isBar: bars[$0] != 0) }
          if let bytes = Code128.decode(elements), isWhole(bytes, of: read) { return bytes }
          if let bytes = Code128.confirm(read, along: elements) { return bytes }
        }
      }
    }
    return nil
  }
}

/// The second decoder's read of a picture, asked at most once however many of zbar's reads want
/// it checked (a Code 128's letters, a QR code's character set): it is a process each time.
final class SecondRead {
  let path: String
  private(set) lazy var symbols: [ScannedSymbol] = SecondDecoder.decode(path: path)

  init(path: String) { self.path = path }
}
