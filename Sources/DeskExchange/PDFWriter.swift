#if canImport(Glibc)
  import Glibc
#endif

/// Plain text made into a PDF for printing (an act to sign), with Debian's own tools: `paps` lays
/// the text out in a monospaced font that has Cyrillic (DejaVu), `ps2pdf` (Ghostscript) makes the
/// PostScript a PDF.
public enum PDFWriter {
  /// The programs it needs, by the Debian package that has each.
  static let programs = [("paps", "paps"), ("ps2pdf", "ghostscript")]

  /// True when both programs are on the PATH.
  public static var isAvailable: Bool { programs.allSatisfy { ProgramInput.find($0.0) != nil } }

  /// Writes `text` as a PDF at `path` (A4, 10-point type: 78 columns fit the width).
  public static func write(_ text: String, to path: String) throws(FileError) {
    let missing = programs.filter { ProgramInput.find($0.0) == nil }
    guard missing.isEmpty, let paps = ProgramInput.find("paps"), let ps2pdf = ProgramInput.find("ps2pdf") else {
      throw .cannotWrite(
        path,
        "making a PDF needs \(missing.map(\.0).joined(separator: " and ")): "
          + "apt-get install \(missing.map(\.1).joined(separator: " ")); or print the text as it is")
    }
    let postScript = path + ".ps"
    defer { unlink(postScript) }
    try ProgramInput.feed(
      text, to: paps, arguments: ["--font=DejaVu Sans Mono 10", "--paper=a4", "--left-margin=50"],
      output: postScript, named: "paps", refusal: "the text could not be laid out")
    try ProgramInput.feed(
      "", to: ps2pdf, arguments: [postScript, path], named: "ps2pdf", refusal: "the PDF could not be made")
  }
}
