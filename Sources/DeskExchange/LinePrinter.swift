#if canImport(Glibc)
  import Glibc
#endif

/// The system's printer, through `lp` (CUPS): text is handed to `lp` on its standard input.
public enum LinePrinter {
  /// True when `lp` is on the PATH.
  public static var isAvailable: Bool { path != nil }

  static var path: String? { ProgramInput.find("lp") }

  /// Prints the text; fails with `lp`'s exit status when it refuses (no default printer, say).
  public static func print(_ text: String) throws(FileError) {
    guard let lp = path else { throw .cannotWrite("lp", "no printing system is installed (lp not found)") }
    try ProgramInput.feed(text, to: lp, arguments: ["-s"], named: "lp", refusal: "the printing system refused the job")
  }
}
