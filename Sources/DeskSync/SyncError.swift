import DeskDomain
import DeskStorage
import DeskWords

/// Why a desk could not join or sync. Each case reads as a sentence a librarian can act on.
public enum SyncError: Error, CustomStringConvertible {
  case central(CentralError)
  case store(StoreError)
  case notJoined
  case otherLibrary(desk: String, central: String)
  case centralNotReady(found: Int, needed: Int)
  case deskNameTaken(String)

  /// Any failure of a sync's parts, as a sync error.
  init(_ error: any Error) {
    switch error {
    case let error as SyncError: self = error
    case let error as CentralError: self = .central(error)
    case let error as StoreError: self = .store(error)
    default: self = .central(.query("\(error)"))
    }
  }

  /// True when the central could not be reached or the connection broke: the desk is offline,
  /// and a later attempt may well go through.
  public var isOffline: Bool {
    switch self {
    case .central(.cannotConnect), .central(.connectionLost): return true
    default: return false
    }
  }

  public var description: String {
    switch self {
    case .central(let error): return error.description
    case .store(let error): return EnglishWords().messages(error).joined(separator: "\n")
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
}
