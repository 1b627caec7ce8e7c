#if canImport(Glibc)
  import Glibc
#endif

/// Where a command writes: the process's standard output and error, or a string in tests.
public protocol TextSink: AnyObject {
  func write(_ text: String)
}

extension TextSink {
  public func line(_ text: String = "") {
    write(text + "\n")
  }
}

public final class FileSink: TextSink {
  private let file: UnsafeMutablePointer<FILE>

  public init(_ file: UnsafeMutablePointer<FILE>) {
    self.file = file
  }

  public static var standardOutput: FileSink { FileSink(stdout) }
  public static var standardError: FileSink { FileSink(stderr) }

  public func write(_ text: String) {
    fputs(text, file)
  }

  /// True once a write found the reading end of a pipe closed (`circdesk book list | head`): the
  /// reader has what it wanted.
  public private(set) var readerLeft = false

  /// Writes out what waits; nil when all of it reached the file, else why not (a full disk, a
  /// closed pipe).
  @discardableResult
  public func flush() -> String? {
    if fflush(file) == 0 && ferror(file) == 0 { return nil }
    let code = errno
    if code == EPIPE { readerLeft = true }
    return String(cString: strerror(code))
  }
}

public final class StringSink: TextSink {
  public private(set) var text = ""

  public init() {}

  public func write(_ text: String) {
    self.text += text
  }
}
