import CImaging
import DeskDomain

public enum LabelError: Error, CustomStringConvertible {
  case tooMuchText(String)
  case cannotWrite(String, String)
  /// qrencode, loaded at the first label, is not installed.
  case encoderMissing(String)

  public var description: String {
    switch self {
    case .tooMuchText(let inventory): return "The record of \(inventory) is too long for a QR code"
    case .cannotWrite(let path, let reason): return "Cannot write \(path): \(reason)"
    case .encoderMissing(let reason):
      return "qrencode, the QR code writer, cannot be loaded (\(reason)): install it (apt-get install libqrencode4)"
    }
  }
}

/// Writes a book's QR label: a PNG whose QR code carries the book record (`BookRecordLabel`),
/// printable at a sticker's size (300 dpi, modules of 6 pixels, about half a millimetre).
public enum LabelWriter {
  public static let dotsPerInch: Int32 = 300
  public static let pixelsPerModule: Int32 = 6

  public static func write(_ book: Book, to path: String) throws(LabelError) {
    let bytes = Array(BookRecordLabel.text(of: book).utf8)
    if let reason = cimg_qrencode_missing() { throw .encoderMissing(String(cString: reason)) }
    var image = cimg_gray()
    guard cimg_qr(bytes, bytes.count, pixelsPerModule, &image) == 0 else {
      throw .tooMuchText(book.inventoryNumber)
    }
    defer { cimg_free(&image) }
    var message = [CChar](repeating: 0, count: 256)
    guard cimg_write_png(path, &image, dotsPerInch, &message, message.count) == 0 else {
      throw .cannotWrite(
        path, String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }
  }
}
