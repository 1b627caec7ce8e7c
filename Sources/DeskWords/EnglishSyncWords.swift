import DeskSync

/// Why a desk could not join or sync, in English.
extension EnglishWords {
  public func message(_ error: SyncError) -> String {
    switch error {
    case .central(let error): return message(error)
    case .store(let error): return messages(error).joined(separator: "\n")
    case .notJoined:
      return "This library has not joined a central: run circdesk central join --url URL --desk NAME"
    case .otherLibrary(let desk, let central):
      return "The central holds another library (\(central)) than this desk's (\(desk)): check the URL"
    case .centralNotReady(let found, let needed):
      return found > needed
        ? "The central was set up by a newer circdesk (schema \(found); this version knows up to \(needed)): "
          + "update circdesk on this desk"
        : "The central's schema is \(found == 0 ? "missing" : "older (\(found))"): run circdesk central init on it"
    case .deskNameTaken(let name):
      return "Another desk of this library is called «\(name)»: choose another name with --desk"
    }
  }

  private func message(_ error: CentralError) -> String {
    switch error {
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
