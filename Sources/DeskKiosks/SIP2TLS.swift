import CTLS

#if canImport(Glibc)
  import Glibc
#endif

/// The server's TLS: a certificate chain and its key, for kiosks across a network. Made once;
/// each kiosk's handshake and its session are `handshake`'s.
public final class SIP2TLS: @unchecked Sendable {
  private let context: OpaquePointer

  /// Reads the PEM files; throws what OpenSSL says is wrong with them.
  public init(certificate: String, key: String) throws(SIP2ServerError) {
    var message = [CChar](repeating: 0, count: 256)
    guard let made = ctls_server(certificate, key, &message) else {
      throw .tls(String(cString: message))
    }
    context = made
  }

  /// The handshake on an accepted socket, given `seconds` before it is given up.
  func handshake(_ socket: Int32, seconds: Int) -> Result<OpaquePointer, SIP2ServerError> {
    var timeout = timeval(tv_sec: seconds, tv_usec: 0)
    setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var message = [CChar](repeating: 0, count: 256)
    guard let session = ctls_accept(context, socket, &message) else { return .failure(.tls(String(cString: message))) }
    return .success(session)
  }
}
