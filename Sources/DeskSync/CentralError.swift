import DeskDomain

/// Why the central could not be used; `LibraryWords.message` says each as a sentence a librarian
/// or an administrator can act on.
public enum CentralError: Error {
  case cannotConnect(String)
  case query(String)
  case newerSchema(found: Int, supported: Int)
  /// The database holds tables that are not a central's: another program's, or nothing of ours.
  case notACentral(tables: [String])
  case noURL
  /// The connection broke in the middle (network, server restart).
  case connectionLost(String)
  /// libpq, loaded when the first connection is made, is not installed (or not the one built
  /// against).
  case clientLibraryMissing(String)

  /// libpq's messages run over several lines, indented with tabs: one line here, each of its
  /// lines a sentence («…failed: Connection refused. Is the server running…»).
  public static func oneLine(_ text: String) -> String {
    let lines = text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }).map {
      String($0).trimmingWhitespace()
    }.filter { !$0.isEmpty }
    return lines.enumerated().map { index, line in
      index < lines.count - 1 && !".?!:;".contains(line.last ?? ".") ? line + "." : line
    }.joined(separator: " ")
  }
}
