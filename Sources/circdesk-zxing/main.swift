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
guard arguments.count == 2 else {
  fputs("usage: circdesk-zxing IMAGE\n", stderr)
  exit(64)
}
var image = cimg_gray()
var message = [CChar](repeating: 0, count: 256)
guard cimg_load(arguments[1], 40_000_000, &image, &message, message.count) == CIMG_OK else { exit(2) }
defer { cimg_free(&image) }
var symbol = czx_symbol()
if czx_read(image.pixels, image.width, image.height, &symbol) == 1 {
  defer { czx_free(&symbol) }
  let format = withUnsafeBytes(of: symbol.format) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
  func hex(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
    bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
  }
  let text = symbol.text.map { UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self) }
  print(
    [
      format, "\(symbol.left)", "\(symbol.top)", "\(symbol.right)", "\(symbol.bottom)",
      hex(UnsafeBufferPointer(start: symbol.data, count: symbol.length)),
      hex(UnsafeBufferPointer(start: text, count: symbol.text_length)), "\(symbol.has_eci)",
    ].joined(separator: "\t"))
}
