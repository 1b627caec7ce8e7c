import CArgon2
import Synchronization

/// Kiosk passwords as Argon2id hashes (libargon2, loaded when first used).
public enum KioskPassword {
  /// A hash of `password` with a fresh salt, or why none could be made.
  public static func hash(_ password: String) -> Result<String, KioskPasswordError> {
    var encoded = [CChar](repeating: 0, count: 256)
    var message = [CChar](repeating: 0, count: 256)
    let bytes = Array(password.utf8)
    let result = bytes.withUnsafeBufferPointer { pointer in
      pointer.withMemoryRebound(to: CChar.self) { chars in
        cargon2_hash(chars.baseAddress, chars.count, &encoded, encoded.count, &message)
      }
    }
    guard result == 0 else { return .failure(.cannotHash(String(cString: message))) }
    return .success(String(cString: encoded))
  }

  /// True when `password` is the one `hash` was made from. One check at a time: each takes 19 MiB
  /// and some 30 ms, and a hundred kiosks logging in at once would take them all together.
  public static func verify(_ password: String, against hash: String) -> Bool {
    checking.withLock { _ in
      var message = [CChar](repeating: 0, count: 256)
      let bytes = Array(password.utf8)
      return bytes.withUnsafeBufferPointer { pointer in
        pointer.withMemoryRebound(to: CChar.self) { chars in
          cargon2_verify(hash, chars.baseAddress, chars.count, &message) == 1
        }
      }
    }
  }

  private static let checking = Mutex(())
}

public enum KioskPasswordError: Error, Equatable, Sendable {
  case cannotHash(String)

  public var message: String {
    switch self {
    case .cannotHash(let reason): return "the password could not be hashed: \(reason)"
    }
  }
}
