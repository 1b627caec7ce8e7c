import DeskDomain

/// Why the central could not be used. Every case reads as a sentence a librarian or an
/// administrator can act on.
public enum CentralError: Error, CustomStringConvertible {
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

  /// libpq's messages run over several lines, indented with tabs: one line here.
  private static func oneLine(_ text: String) -> String {
    text.split(whereSeparator: { $0 == "\n" || $0 == "\t" || $0 == "\r" }).map { String($0).trimmingWhitespace() }
      .filter { !$0.isEmpty }.joined(separator: " ")
  }

  public var description: String {
    switch self {
    case .cannotConnect(let reason):
      return "Cannot reach the central: \(CentralError.oneLine(reason)) (check the URL, the server and the password)"
    case .query(let reason):
      if reason.contains("permission denied") {
        return "The central refused: \(CentralError.oneLine(reason)) (this role may not do that: setting up or "
          + "updating the central needs the role that owns its database)"
      }
      return "The central refused: \(CentralError.oneLine(reason))"
    case .newerSchema(let found, let supported):
      return "The central was set up by a newer circdesk (schema \(found); this version knows up to "
        + "\(supported)): update circdesk on this desk"
    case .notACentral(let tables):
      return
        "The database holds tables that are not a library central's (\(tables.prefix(5).joined(separator: ", "))): "
        + "give the central a database of its own"
    case .connectionLost(let reason):
      return "The connection to the central was lost: \(CentralError.oneLine(reason)) (nothing is lost: sync again)"
    case .clientLibraryMissing(let reason):
      return "PostgreSQL's client library cannot be loaded (\(CentralError.oneLine(reason))): install it "
        + "(apt-get install libpq5); the desk works on alone meanwhile"
    case .noURL:
      return "No central named: give --url, or set CIRCDESK_CENTRAL_URL"
    }
  }
}
