import DeskDomain

#if canImport(Glibc)
  import Glibc
#endif

/// Reads a text file line by line without loading it whole: CRLF or LF, UTF-8 with or without a
/// byte-order mark, or Windows-1251. Lines are bounded: a longer one is reported, not held, and
/// input with no line break at all ends with a problem in bounded memory. One thread reads it at
/// a time (an import hands it whole to its reading thread).
public final class LineReader: @unchecked Sendable {
  /// A line, and what is wrong with it when something is (its record is refused).
  public struct Line {
    public var text: String
    public var problem: LineFlaw?
  }

  /// A line this many times over the limit without a break is not text: reading it out could
  /// never end (`/dev/zero`).
  static let unendingFactor = 16

  /// The longest line taken (a setting of the import); a megabyte unless said otherwise.
  public static let defaultMaximumLineBytes = 1 << 20

  private let file: UnsafeMutablePointer<FILE>
  private let closeWhenDone: Bool
  public let maximumLineBytes: Int
  public private(set) var encoding: FileEncoding
  /// The file's length, when it is a regular file (not standard input from a pipe).
  public let fileBytes: Int?
  /// The number of the line `next` returned last.
  public private(set) var lineNumber = 0
  private var chunk = [UInt8](repeating: 0, count: 65_536)
  private var start = 0
  private var end = 0
  private var finished = false

  /// Opens `path`. With no `encoding`, a regular file is read through once first and is UTF-8
  /// when valid throughout, Windows-1251 when its high bytes read as that, and refused when it
  /// is UTF-8 but for some bytes (a file that is not seekable is told by its first 64 KiB).
  public init(
    path: String, encoding: FileEncoding? = nil, maximumLineBytes: Int = LineReader.defaultMaximumLineBytes
  ) throws(FileError) {
    guard let file = fopen(path, "rb") else { throw .cannotOpen(path, String(cString: strerror(errno))) }
    self.file = file
    closeWhenDone = true
    self.maximumLineBytes = maximumLineBytes
    self.encoding = encoding ?? .utf8
    fileBytes = regularFileBytes(file)
    guard encoding == nil else { return }
    if fileBytes != nil {
      var scan = EncodingScan()
      var bytes = [UInt8](repeating: 0, count: 1 << 16)
      var declared = false
      while true {
        let count = fread(&bytes, 1, bytes.count, file)
        if count <= 0 { break }
        if !scan.started { declared = bytes[0..<count].starts(with: [0xEF, 0xBB, 0xBF]) }
        scan.feed(bytes[0..<count])
      }
      scan.finish()
      rewind(file)
      // A byte-order mark says UTF-8: bad bytes then refuse their records, as with --encoding.
      switch declared ? .utf8 : scan.verdict {
      case .utf8: self.encoding = .utf8
      case .cp1251: self.encoding = .cp1251
      case .mixed(let line, let byte):
        // The file is closed by deinit, which runs for an initializer that throws here.
        throw .mixedEncoding(path: path, line: line, byte: byte)
      }
    } else {
      refill()
      var scan = EncodingScan()
      scan.feed(chunk[start..<end])
      self.encoding = scan.verdict == .cp1251 ? .cp1251 : .utf8
    }
  }

  deinit {
    if closeWhenDone { fclose(file) }
  }

  private func refill() {
    guard !finished else { return }
    start = 0
    end = fread(&chunk, 1, chunk.count, file)
    if end <= 0 {
      end = 0
      finished = true
    }
  }

  /// The next line without its line break; nil at the end.
  public func next() -> Line? {
    var bytes: [UInt8] = []
    var length = 0
    var sawAny = false
    let giveUp = maximumLineBytes * LineReader.unendingFactor
    while true {
      if start == end {
        refill()
        if start == end {
          if !sawAny { return nil }
          break
        }
      }
      sawAny = true
      let newline = chunk[start..<end].firstIndex(of: 0x0A)
      let stop = newline ?? end
      let room = max(0, maximumLineBytes + 1 - bytes.count)
      if room > 0 { bytes += chunk[start..<min(stop, start + room)] }
      length += stop - start
      start = newline.map { $0 + 1 } ?? end
      if newline != nil { break }
      if length > giveUp {
        start = end
        finished = true
        lineNumber += 1
        return Line(text: "", problem: .unending(bytes: giveUp))
      }
    }
    lineNumber += 1
    if bytes.last == 0x0D, length <= maximumLineBytes {
      bytes.removeLast()
      length -= 1
    }
    if lineNumber == 1, bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
      bytes.removeFirst(3)
      encoding = .utf8
    }
    guard length <= maximumLineBytes else {
      return Line(text: "", problem: .tooLong(length, limit: maximumLineBytes))
    }
    if bytes.contains(0) {
      return Line(text: String(decoding: bytes.map { $0 == 0 ? 0x20 : $0 }, as: UTF8.self), problem: .nul)
    }
    switch encoding {
    case .utf8:
      if let text = String(validating: bytes, as: UTF8.self) { return Line(text: text, problem: nil) }
      return Line(text: String(decoding: bytes, as: UTF8.self), problem: .invalidBytes)
    case .cp1251:
      return Line(text: Windows1251.decode(bytes), problem: nil)
    }
  }
}

/// Reads bytes once and tells their encoding: UTF-8 when valid throughout; Windows-1251 when
/// they are not and few of their high bytes make UTF-8 sequences (Russian in Windows-1251 almost
/// never does); mixed when they are UTF-8 but for a few bytes (a UTF-8 file with a bad byte
/// would otherwise be read whole as Windows-1251, every Cyrillic letter garbled).
struct EncodingScan {
  enum Verdict: Equatable {
    case utf8, cp1251
    case mixed(line: Int, byte: UInt8)
  }

  private var line = 1
  private var needed = 0
  private var lower: UInt8 = 0x80
  private var upper: UInt8 = 0xBF
  private var sequences = 0
  private var invalid = 0
  private var firstInvalid: (line: Int, byte: UInt8)?
  private(set) var started = false

  /// Reads bytes on from where the last call stopped (a character may be split between calls).
  mutating func feed(_ bytes: ArraySlice<UInt8>) {
    started = true
    for byte in bytes {
      if needed > 0 {
        if byte >= lower && byte <= upper {
          needed -= 1
          (lower, upper) = (0x80, 0xBF)
          if needed == 0 { sequences += 1 }
          continue
        }
        needed = 0
        (lower, upper) = (0x80, 0xBF)
        bad(byte)
      }
      if byte == 0x0A { line += 1 }
      switch byte {
      case 0x00...0x7F: break
      case 0xC2...0xDF: needed = 1
      case 0xE0: (needed, lower) = (2, 0xA0)
      case 0xED: (needed, upper) = (2, 0x9F)
      case 0xE1...0xEF: needed = 2
      case 0xF0: (needed, lower) = (3, 0x90)
      case 0xF4: (needed, upper) = (3, 0x8F)
      case 0xF1...0xF3: needed = 3
      default: bad(byte)
      }
    }
  }

  /// The end of the bytes: a character cut short there is a bad byte.
  mutating func finish() {
    if needed > 0 {
      needed = 0
      bad(lower == 0x80 && upper == 0xBF ? 0x80 : lower)
    }
  }

  private mutating func bad(_ byte: UInt8) {
    invalid += 1
    if firstInvalid == nil { firstInvalid = (line, byte) }
  }

  var verdict: Verdict {
    guard let first = firstInvalid else { return .utf8 }
    return sequences >= invalid ? .mixed(line: first.line, byte: first.byte) : .cp1251
  }
}
