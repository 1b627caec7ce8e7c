#if canImport(Glibc)
  import Glibc
#endif

/// Plain text made into a PDF for printing (an act to sign), with Debian's own tools: `paps` lays
/// the text out in a monospaced font that has Cyrillic (DejaVu), `ps2pdf` (Ghostscript) makes the
/// PostScript a PDF.
public enum PDFWriter {
  /// The programs it needs, by the Debian package that has each.
  static let programs = [("paps", "paps"), ("ps2pdf", "ghostscript")]

  /// A path as seen from another folder: relative ones are in this process's working folder.
  static func absolutePath(_ path: String) -> String {
    guard !path.hasPrefix("/"), let folder = getcwd(nil, 0) else { return path }
    defer { free(folder) }
    return String(cString: folder) + "/" + path
  }

  /// True when both programs are on the PATH.
  public static var isAvailable: Bool { programs.allSatisfy { ProgramInput.find($0.0) != nil } }

  /// Writes `text` as a PDF at `path` (A4, 10-point type: 78 columns fit the width), each page
  /// headed by `title`, the day it was made and its number: an act's pages are signed one by one.
  public static func write(_ text: String, to path: String, title: String) throws(FileError) {
    let missing = programs.filter { ProgramInput.find($0.0) == nil }
    guard missing.isEmpty, let paps = ProgramInput.find("paps"), let ps2pdf = ProgramInput.find("ps2pdf") else {
      throw .cannotWrite(
        path,
        "making a PDF needs \(missing.map(\.0).joined(separator: " and ")): "
          + "apt-get install \(missing.map(\.1).joined(separator: " ")); or print the text as it is")
    }
    let postScript = path + ".ps"
    defer { unlink(postScript) }
    // paps heads each page with the name of the file it lays out: the text goes into a file named
    // by the title, in a folder of its own, and paps runs there.
    var template = Array("/tmp/circdesk-pdf-XXXXXX".utf8CString)
    guard let made = template.withUnsafeMutableBufferPointer({ $0.baseAddress.flatMap(mkdtemp) }) else {
      throw .cannotWrite(path, String(cString: strerror(errno)))
    }
    let folder = String(cString: made)
    let name = String(title.map { $0 == "/" || $0.isNewline ? "-" : $0 }.prefix(60)) + ".txt"
    defer {
      unlink(folder + "/" + name)
      rmdir(folder)
    }
    let writer = try TextWriter(path: folder + "/" + name, encoding: .utf8)
    writer.write(text)
    try writer.close()
    // The folder and names go to the shell as its arguments, never into its command's text.
    try ProgramInput.feed(
      "", to: "/bin/sh",
      arguments: [
        "-c", #"cd "$1" && exec "$2" --header "--font=DejaVu Sans Mono 10" --paper=a4 --left-margin=50 "$3""#, "sh",
        folder, paps, name,
      ], output: absolutePath(postScript), named: "paps", refusal: "the text could not be laid out")
    try ProgramInput.feed(
      "", to: ps2pdf, arguments: [postScript, path], named: "ps2pdf", refusal: "the PDF could not be made")
  }
}
