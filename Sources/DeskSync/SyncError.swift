import DeskDomain
import DeskStorage

/// Why a desk could not join or sync; `LibraryWords.message` says each as a sentence a librarian
/// can act on.
public enum SyncError: Error {
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
}
