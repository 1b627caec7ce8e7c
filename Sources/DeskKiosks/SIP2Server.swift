import DeskDomain
import DeskStorage
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// The library's SIP2 server: listens on one address, and gives each kiosk that connects a
/// thread and a connection to the library file of its own (SQLite's write lock orders their
/// loans; a kiosk waiting on it holds up no other kiosk's reading).
public final class SIP2Server: @unchecked Sendable {
  public final class Settings: Sendable {
    public let path: String
    public let idleSeconds: Int
    /// Where the server's lines go (one per connection event), from any thread.
    public let log: @Sendable (String) -> Void
    /// The turns of logins by address.
    let logins = LoginGate()
    /// The kiosks' writes, one at a time.
    let turns = WriteTurns()

    /// TLS for every kiosk, when the server has a certificate.
    public let tls: SIP2TLS?

    public init(
      path: String, idleSeconds: Int = 600, tls: SIP2TLS? = nil, log: @escaping @Sendable (String) -> Void
    ) {
      self.path = path
      self.idleSeconds = idleSeconds
      self.tls = tls
      self.log = log
    }
  }

  /// A kiosk's message is a few hundred bytes; one this long without a CR is not a kiosk.
  static let longestMessage = 65_536
  /// Kiosks served at once; one more is closed as it connects.
  public static let mostConnections = 256

  private let listener: Int32
  private let settings: Settings
  private let open = Mutex(0)
  private let stopped = Mutex(false)
  /// The address and port listened on (the port the system chose, when asked for 0).
  public let address: String

  /// True for an IPv4 address in dotted form, which the server listens on.
  public static func isAddress(_ host: String) -> Bool {
    var address = in_addr()
    return inet_pton(AF_INET, host, &address) == 1
  }

  /// Listens on `host:port` (an IPv4 address).
  public init(host: String, port: Int, settings: Settings) throws(SIP2ServerError) {
    self.settings = settings
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { throw .cannotListen("\(host):\(port)", String(cString: strerror(errno))) }
    var yes: Int32 = 1
    setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(clamping: port)).bigEndian
    guard inet_pton(AF_INET, host, &address.sin_addr) == 1 else {
      close(socket)
      throw .badAddress(host)
    }
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0, listen(socket, 128) == 0 else {
      let reason = String(cString: strerror(errno))
      close(socket)
      throw .cannotListen("\(host):\(port)", reason)
    }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
    }
    listener = socket
    self.address = "\(host):\(UInt16(bigEndian: address.sin_port))"
  }

  /// Accepts kiosks until `stop`; the kiosks connected then are served to their end.
  public func run() {
    // A kiosk gone while its reply is written must not end the server: OpenSSL writes to the
    // socket without MSG_NOSIGNAL.
    signal(SIGPIPE, SIG_IGN)
    while !stopped.withLock({ $0 }) {
      var peer = sockaddr_in()
      var length = socklen_t(MemoryLayout<sockaddr_in>.size)
      let client = withUnsafeMutablePointer(to: &peer) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { accept(listener, $0, &length) }
      }
      guard client >= 0 else {
        if errno == EINTR || errno == ECONNABORTED { continue }
        if stopped.withLock({ $0 }) { return }
        // Out of descriptors for a moment (EMFILE): a kiosk closing frees one.
        usleep(100_000)
        continue
      }
      var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
      inet_ntop(AF_INET, &peer.sin_addr, &text, socklen_t(text.count))
      let address = "\(String(cString: text)):\(UInt16(bigEndian: peer.sin_port))"
      let admitted = open.withLock { count in
        guard count < SIP2Server.mostConnections else { return false }
        count += 1
        return true
      }
      guard admitted else {
        settings.log("\(address): more than \(SIP2Server.mostConnections) kiosks at once: connection closed")
        close(client)
        continue
      }
      BackgroundThread.start { [self] in
        defer { open.withLock { $0 -= 1 } }
        serve(client, address: address)
      }
    }
  }

  /// Stops listening: `run` returns.
  public func stop() {
    stopped.withLock { $0 = true }
    shutdown(listener, Int32(SHUT_RDWR))
  }

  private func serve(_ client: Int32, address: String) {
    let store: LibraryStore
    do {
      store = try LibraryStore(path: settings.path, create: false)
    } catch {
      settings.log("\(address): the library cannot be opened: \(error)")
      close(client)
      return
    }
    var session: OpaquePointer?
    if let tls = settings.tls {
      // A kiosk that stalls in its handshake is given up after the same time as a silent one.
      switch tls.handshake(client, seconds: min(settings.idleSeconds, 60)) {
      case .success(let made): session = made
      case .failure(let error):
        settings.log("\(address): \(error.message)")
        close(client)
        return
      }
    }
    settings.log("\(address): connected\(session != nil ? " (TLS)" : "")")
    SIP2Connection(socket: client, tls: session, address: address, store: store, settings: settings).run()
    settings.log("\(address): gone")
  }
}

public enum SIP2ServerError: Error, Equatable, Sendable {
  case badAddress(String)
  case cannotListen(String, String)
  case tls(String)

  public var message: String {
    switch self {
    case .badAddress(let host):
      return "«\(host)» is not an IPv4 address to listen on (for example 127.0.0.1 or 0.0.0.0)"
    case .cannotListen(let address, let reason): return "cannot listen on \(address): \(reason)"
    case .tls(let reason): return reason
    }
  }
}
