import DeskDomain

#if canImport(Glibc)
  import Glibc
#endif

/// The encodings of exchange files.
public enum FileEncoding: String, Sendable {
  case utf8
  case cp1251
}

public enum FileError: Error, Equatable, CustomStringConvertible {
  case cannotOpen(String, String)
  case cannotWrite(String, String)

  public var description: String {
    switch self {
    case .cannotOpen(let path, let reason): return "Cannot read \(path): \(reason)"
    case .cannotWrite(let path, let reason): return "Cannot write \(path): \(reason)"
    }
  }
}

/// Reads a text file line by line without loading it whole: CRLF or LF, UTF-8 with or without
/// a byte-order mark, or Windows-1251 (told from UTF-8 by the first lines, or named).
/// One thread reads it at a time (an import hands it whole to its reading thread).
public final class LineReader: @unchecked Sendable {
  private let file: UnsafeMutablePointer<FILE>
  private var buffer: UnsafeMutablePointer<CChar>?
  private var capacity = 0
  public private(set) var encoding: FileEncoding
  private var first = true
  private let closeWhenDone: Bool

  public init(path: String, encoding: FileEncoding? = nil) throws(FileError) {
    guard let file = fopen(path, "rb") else { throw .cannotOpen(path, String(cString: strerror(errno))) }
    self.file = file
    closeWhenDone = true
    self.encoding = encoding ?? LineReader.detect(file)
  }

  deinit {
    free(buffer)
    if closeWhenDone { fclose(file) }
  }

  /// UTF-8 when the start of the file (up to 64 KiB) is valid UTF-8, Windows-1251 otherwise.
  static func detect(_ file: UnsafeMutablePointer<FILE>) -> FileEncoding {
    var sample = [UInt8](repeating: 0, count: 65_536)
    let count = fread(&sample, 1, sample.count, file)
    rewind(file)
    var bytes = Array(sample[0..<count])
    // A cut in the middle of a character at the end of the sample is not a reason to doubt.
    while let last = bytes.last, last >= 0x80, String(validating: bytes, as: UTF8.self) == nil, count == sample.count,
      bytes.count > count - 4
    {
      bytes.removeLast()
    }
    return String(validating: bytes, as: UTF8.self) == nil ? .cp1251 : .utf8
  }

  /// The next line without its line break, and whether its bytes were valid; nil at the end.
  public func next() -> (text: String, valid: Bool)? {
    let count = getline(&buffer, &capacity, file)
    guard count >= 0, let buffer else { return nil }
    var bytes = UnsafeRawBufferPointer(start: buffer, count: count).map { $0 }
    if bytes.last == 0x0A { bytes.removeLast() }
    if bytes.last == 0x0D { bytes.removeLast() }
    if first {
      first = false
      if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
        bytes.removeFirst(3)
        encoding = .utf8
      }
    }
    switch encoding {
    case .utf8:
      if let text = String(validating: bytes, as: UTF8.self) { return (text, true) }
      return (String(decoding: bytes, as: UTF8.self), false)
    case .cp1251:
      return (Windows1251.decode(bytes), true)
    }
  }
}

/// Writes text to a file or standard output in an encoding, through a buffer.
public final class TextWriter {
  private let file: UnsafeMutablePointer<FILE>
  private let path: String
  private let ownsFile: Bool
  public let encoding: FileEncoding
  /// Characters Windows-1251 has no place for, written as their nearest letter or `?`.
  public private(set) var replacedCharacters = 0

  public init(path: String, encoding: FileEncoding) throws(FileError) {
    guard let file = fopen(path, "wb") else { throw .cannotWrite(path, String(cString: strerror(errno))) }
    self.file = file
    self.path = path
    ownsFile = true
    self.encoding = encoding
  }

  public init(standardOutputWith encoding: FileEncoding) {
    file = stdout
    path = "standard output"
    ownsFile = false
    self.encoding = encoding
  }

  public func write(_ text: String) {
    switch encoding {
    case .utf8:
      fputs(text, file)
    case .cp1251:
      let (bytes, replaced) = Windows1251.encodeLossy(text)
      replacedCharacters += replaced
      _ = bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, file) }
    }
  }

  public func close() throws(FileError) {
    let failed = fflush(file) != 0 || ferror(file) != 0
    if ownsFile { fclose(file) }
    if failed { throw .cannotWrite(path, String(cString: strerror(errno))) }
  }
}

/// A file read in pieces of a given length (records of ISO 2709). One thread reads it at a time.
final class ByteReader: @unchecked Sendable {
  private let file: UnsafeMutablePointer<FILE>

  init(path: String) throws(FileError) {
    guard let file = fopen(path, "rb") else { throw .cannotOpen(path, String(cString: strerror(errno))) }
    self.file = file
  }

  deinit {
    fclose(file)
  }

  /// Up to `count` bytes; fewer at the end of the file.
  func read(_ count: Int) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: count)
    let got = fread(&bytes, 1, count, file)
    bytes.removeLast(count - got)
    return bytes
  }
}
