#if canImport(Glibc)
  import Glibc
#endif

/// A self-check kiosk for the tests and the benchmark, written from the SIP2 specification and
/// apart from the server's code: it connects over TCP, sends a message's bytes (with `AY<n>AZ` and
/// its own checksum when given a sequence number) ended by CR, and reads the reply up to its CR.
public final class KioskClient {
  public let socket: Int32
  private var pending: [UInt8] = []

  public enum Failure: Error { case cannotConnect(String), closed }

  /// Connects to `address` (`127.0.0.1:6001`); a reply that takes longer than `timeoutSeconds`
  /// counts as a closed connection.
  public init(_ address: String, timeoutSeconds: Int = 20) throws {
    let parts = address.split(separator: ":")
    guard parts.count == 2, let port = UInt16(parts[1]) else { throw Failure.cannotConnect(address) }
    socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var target = sockaddr_in()
    target.sin_family = sa_family_t(AF_INET)
    target.sin_port = in_port_t(port).bigEndian
    inet_pton(AF_INET, String(parts[0]), &target.sin_addr)
    let connected = withUnsafePointer(to: &target) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else {
      close(socket)
      throw Failure.cannotConnect(address)
    }
    var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
    setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var yes: Int32 = 1
    setsockopt(socket, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
  }

  deinit { close(socket) }

  public func send(_ bytes: [UInt8]) throws {
    var written = 0
    while written < bytes.count {
      let count = bytes[written...].withUnsafeBytes {
        Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      guard count > 0 else { throw Failure.closed }
      written += count
    }
  }

  /// Sends a message (its bytes, without the terminator) and returns the reply's bytes.
  public func ask(_ message: [UInt8], sequence: Int? = nil) throws -> [UInt8] {
    var bytes = message
    if let sequence {
      bytes += Array("AY\(sequence % 10)AZ".utf8)
      // The specification's checksum: the bytes' sum through "AZ", negated, in 16 bits.
      let sum = bytes.reduce(0) { ($0 + Int($1)) & 0xFFFF }
      let checksum = String((0x10000 - sum) & 0xFFFF, radix: 16, uppercase: true)
      bytes += Array((String(repeating: "0", count: 4 - checksum.count) + checksum).utf8)
    }
    try send(bytes + [0x0D])
    return try reply()
  }

  /// Sends a message of UTF-8 text and returns the reply as text.
  public func ask(_ text: String, sequence: Int? = nil) throws -> String {
    String(decoding: try ask(Array(text.utf8), sequence: sequence), as: UTF8.self)
  }

  /// The next reply's bytes, without its CR (an LF after it is skipped).
  public func reply() throws -> [UInt8] {
    while true {
      if pending.first == 0x0A { pending.removeFirst() }
      if let end = pending.firstIndex(of: 0x0D) {
        let message = Array(pending[..<end])
        pending.removeSubrange(...end)
        return message
      }
      var chunk = [UInt8](repeating: 0, count: 4096)
      let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
      guard count > 0 else { throw Failure.closed }
      pending += chunk[..<count]
    }
  }

  /// What the server sends until it closes the connection.
  public func readToEnd() -> [UInt8] {
    var all = pending
    pending = []
    while true {
      var chunk = [UInt8](repeating: 0, count: 4096)
      let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
      if count <= 0 { return all }
      all += chunk[..<count]
    }
  }
}
