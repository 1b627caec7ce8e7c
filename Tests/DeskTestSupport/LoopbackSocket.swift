import Foundation

/// TCP on 127.0.0.1 for the servers of the tests: a port the kernel chooses, so that runs side
/// by side never collide.
public enum LoopbackSocket {
  /// A socket listening on a port of the kernel's choice, and that port.
  public static func listening(backlog: Int32 = 16) throws -> (descriptor: Int32, port: UInt16) {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw POSIXError(.EIO) }
    var yes: Int32 = 1
    setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
      }
    }
    guard bound, listen(descriptor, backlog) == 0 else {
      close(descriptor)
      throw POSIXError(.EADDRINUSE)
    }
    return (descriptor, UInt16(bigEndian: address.sin_port))
  }

  /// A port nothing listens on now.
  public static func freePort() throws -> UInt16 {
    let socket = try listening()
    close(socket.descriptor)
    return socket.port
  }

  /// Whether something accepts connections on `port`.
  public static func canConnect(port: UInt16) -> Bool {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    return withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
      }
    }
  }
}

/// A port that takes connections and never answers: a server behind a dead network (the kernel
/// completes the handshake from its backlog; nothing ever reads or writes).
public final class SilentServer {
  public let port: UInt16
  private let descriptor: Int32

  public init() throws {
    (descriptor, port) = try LoopbackSocket.listening()
  }

  deinit { close(descriptor) }
}
