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

  public func flush() {
    fflush(file)
  }
}

public final class StringSink: TextSink {
  public private(set) var text = ""

  public init() {}

  public func write(_ text: String) {
    self.text += text
  }
}
