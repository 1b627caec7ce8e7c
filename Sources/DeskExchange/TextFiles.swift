import DeskDomain

#if canImport(Glibc)
  import Glibc
#endif

/// The encodings of exchange files.
public enum FileEncoding: String, Sendable {
  case utf8
  case cp1251
}

/// Why a file could not be read or written; `LibraryWords.message` says it.
public enum FileError: Error, Equatable {
  case cannotOpen(String, String)
  case cannotWrite(String, String)
  /// UTF-8 throughout but for a byte: neither UTF-8 nor Windows-1251 as a whole.
  case mixedEncoding(path: String, line: Int, byte: UInt8)
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

  /// Writes an IRBIS record, its lines ended by `newline`, encoded as it goes.
  public func write(_ record: IRBISRecord, newline: String) {
    recordBytes.removeAll(keepingCapacity: true)
    switch encoding {
    case .utf8:
      record.append(to: &recordBytes, newline: newline) { bytes, text in bytes += text.utf8 }
    case .cp1251:
      var replaced = 0
      record.append(to: &recordBytes, newline: newline) { bytes, text in
        replaced += Windows1251.appendLossy(text, to: &bytes)
      }
      replacedCharacters += replaced
    }
    write(bytes: recordBytes)
  }

  /// One record's bytes, kept from one record to the next.
  private var recordBytes: [UInt8] = []

  /// Writes bytes as they are (an ISO 2709 record, encoded already).
  public func write(bytes: [UInt8]) {
    _ = bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, file) }
  }

  public func close() throws(FileError) {
    let failed = fflush(file) != 0 || ferror(file) != 0
    if ownsFile { fclose(file) }
    if failed { throw .cannotWrite(path, String(cString: strerror(errno))) }
  }
}

/// The length in bytes of an open regular file; nil for a pipe or a terminal.
func regularFileBytes(_ file: UnsafeMutablePointer<FILE>) -> Int? {
  var status = stat()
  guard fstat(fileno(file), &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
  return Int(status.st_size)
}

/// A file read in pieces of a given length (records of ISO 2709). One thread reads it at a time.
final class ByteReader: @unchecked Sendable {
  private let file: UnsafeMutablePointer<FILE>
  /// The file's length, when it is a regular file.
  let fileBytes: Int?

  init(path: String) throws(FileError) {
    guard let file = fopen(path, "rb") else { throw .cannotOpen(path, String(cString: strerror(errno))) }
    self.file = file
    fileBytes = regularFileBytes(file)
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
