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

  public var description: String {
    switch self {
    case .cannotConnect(let reason):
      return "Cannot reach the central: \(reason.trimmingWhitespace()) (check the URL, the server and the password)"
    case .query(let reason):
      return "The central refused: \(reason.trimmingWhitespace())"
    case .newerSchema(let found, let supported):
      return "The central was set up by a newer circdesk (schema \(found); this version knows up to "
        + "\(supported)): update circdesk on this desk"
    case .notACentral(let tables):
      return
        "The database holds tables that are not a library central's (\(tables.prefix(5).joined(separator: ", "))): "
        + "give the central a database of its own"
    case .connectionLost(let reason):
      return "The connection to the central was lost: \(reason.trimmingWhitespace()) (nothing is lost: sync again)"
    case .noURL:
      return "No central named: give --url, or set CIRCDESK_CENTRAL_URL"
    }
  }
}
