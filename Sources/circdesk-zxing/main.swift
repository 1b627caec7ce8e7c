// circdesk-zxing IMAGE: the second decoder, ZXing, run by the desk in a process of its own when
// zbar finds nothing, so that a decoder's crash never takes the desk down. Prints the symbol it
// reads as one line: format, left, top, right, bottom, the bytes in hex, ZXing's text of them
// in hex (UTF-8), and 1 when the symbol named its character set (an ECI), else 0,
// tab-separated; nothing when it reads none. Exit status 0 read or not, 2 when the image cannot be loaded.
import CImaging
import CZXing

#if canImport(Glibc)
  import Glibc
#endif

// A decoder that aborts leaves no core file in the librarian's folder (ZXing 1.4 aborts on an
// assertion for some images).
var noCore = rlimit(rlim_cur: 0, rlim_max: 0)
setrlimit(Int32(RLIMIT_CORE.rawValue), &noCore)

let arguments = CommandLine.arguments
// IMAGE, then `--scale 2` (read it twice as large: bars a few pixels wide), `--global`
// (ZXing's other binarizer), `--level` (each row's contrast stretched), `--sharpen` (an unsharp
// mask) and `--shrink N`.
guard arguments.count >= 2 else {
  fputs("usage: circdesk-zxing IMAGE [--scale 2] [--global] [--level] [--sharpen] [--shrink 2|4|8]\n", stderr)
  exit(64)
}
let doubled = arguments.firstIndex(of: "--scale").map { $0 + 1 < arguments.count && arguments[$0 + 1] == "2" } ?? false
let global: Int32 = arguments.contains("--global") ? 1 : 0
var image = cimg_gray()
var message = [CChar](repeating: 0, count: 256)
// `--shrink 2`: a large photo read at half its size (its codes are large too), as the desk reads it.
let shrink =
  arguments.firstIndex(of: "--shrink").flatMap { $0 + 1 < arguments.count ? Int32(arguments[$0 + 1]) : nil } ?? 1
guard [1, 2, 4, 8].contains(shrink),
  cimg_load_shrunk(arguments[1], 40_000_000, shrink, &image, &message, message.count) == CIMG_OK
else { exit(2) }
defer { cimg_free(&image) }
var pixels = Array(UnsafeBufferPointer(start: image.pixels, count: Int(image.width) * Int(image.height)))
var (width, height) = (Int(image.width), Int(image.height))
if doubled {
  // Each new pixel the mean of the old ones it falls between (bilinear, by halves).
  let (newWidth, newHeight) = (width * 2, height * 2)
  var larger = [UInt8](repeating: 255, count: newWidth * newHeight)
  for y in 0..<newHeight {
    let (y0, y1) = (y / 2, min(height - 1, (y + 1) / 2))
    for x in 0..<newWidth {
      let (x0, x1) = (x / 2, min(width - 1, (x + 1) / 2))
      let sum =
        Int(pixels[y0 * width + x0]) + Int(pixels[y0 * width + x1]) + Int(pixels[y1 * width + x0])
        + Int(pixels[y1 * width + x1])
      larger[y * newWidth + x] = UInt8(sum / 4)
    }
  }
  (pixels, width, height) = (larger, newWidth, newHeight)
}
if arguments.contains("--level") {
  // Each row's contrast stretched over a window of a few bars: under glare, bars that differ
  // from their spaces by 8 to 16 levels fall below ZXing's own least contrast (24) and read as
  // blank.
  let radius = max(8, width / 64)
  var levelled = pixels
  for y in 0..<height {
    let row = y * width
    for x in 0..<width {
      var (low, high) = (UInt8.max, UInt8.min)
      for i in max(0, x - radius)...min(width - 1, x + radius) {
        low = min(low, pixels[row + i])
        high = max(high, pixels[row + i])
      }
      let range = Int(high) - Int(low)
      levelled[row + x] = range < 4 ? 255 : UInt8((Int(pixels[row + x]) - Int(low)) * 255 / range)
    }
  }
  pixels = levelled
}
if arguments.contains("--sharpen") {
  // An unsharp mask for a camera out of focus, wider on a picture read at twice its size.
  var soft = cimg_gray(width: Int32(width), height: Int32(height), pixels: nil)
  var sharp = pixels.withUnsafeMutableBufferPointer { buffer in
    soft.pixels = buffer.baseAddress
    return cimg_sharpen(&soft, doubled ? 3 : 2, doubled ? 200 : 150)
  }
  if let sharpened = sharp.pixels { pixels = Array(UnsafeBufferPointer(start: sharpened, count: width * height)) }
  cimg_free(&sharp)
}
var symbol = czx_symbol()
let read = pixels.withUnsafeBufferPointer { czx_read($0.baseAddress, Int32(width), Int32(height), global, &symbol) }
if read == 1 {
  defer { czx_free(&symbol) }
  let format = withUnsafeBytes(of: symbol.format) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
  func hex(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
    bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
  }
  let text = symbol.text.map { UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self) }
  // The box in the picture's own pixels.
  let shrunk = Double(image.width) / Double(width)
  func own(_ coordinate: Int32) -> String { "\(Int((Double(coordinate) * shrunk * Double(shrink)).rounded()))" }
  print(
    [
      format, own(symbol.left), own(symbol.top), own(symbol.right), own(symbol.bottom),
      hex(UnsafeBufferPointer(start: symbol.data, count: symbol.length)),
      hex(UnsafeBufferPointer(start: text, count: symbol.text_length)), "\(symbol.has_eci)",
    ].joined(separator: "\t"))
}
