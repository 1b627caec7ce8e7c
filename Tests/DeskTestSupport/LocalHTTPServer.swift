import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A small HTTP server on 127.0.0.1 for tests: it answers each GET with what `respond` says for
/// the request's path and query, after an optional delay. It listens on a port of its own
/// choosing and stops with `stop()` or when released.
public final class LocalHTTPServer: @unchecked Sendable {
  public struct Response: Sendable {
    public var status: Int
    public var body: [UInt8]
    public var delaySeconds: Double
    public var contentType = "application/json; charset=utf-8"

    public init(status: Int = 200, body: String, delaySeconds: Double = 0) {
      self.status = status
      self.body = Array(body.utf8)
      self.delaySeconds = delaySeconds
    }

    /// An answer of bytes in another encoding than UTF-8 (an XML document in Windows-1251).
    public init(status: Int = 200, bytes: [UInt8], contentType: String) {
      self.status = status
      self.body = bytes
      self.delaySeconds = 0
      self.contentType = contentType
    }
  }

  public let port: UInt16
  private let socketDescriptor: Int32
  private let respond: @Sendable (String) -> Response
  private let requestLog = Locked<[String]>([])
  private let running = Locked(true)

  public init(respond: @escaping @Sendable (String) -> Response) throws {
    self.respond = respond
    (socketDescriptor, port) = try LoopbackSocket.listening()
    Thread.detachNewThread { [self] in acceptLoop() }
  }

  deinit {
    stop()
  }

  public var baseURL: String { "http://127.0.0.1:\(port)" }

  /// The targets (path and query) requested so far.
  public var requests: [String] { requestLog.value }

  public func stop() {
    var wasRunning = false
    running.update { running in
      wasRunning = running
      running = false
    }
    guard wasRunning else { return }
    shutdown(socketDescriptor, Int32(SHUT_RDWR))
    close(socketDescriptor)
  }

  private func acceptLoop() {
    while true {
      let connection = accept(socketDescriptor, nil, nil)
      guard connection >= 0 else { return }
      Thread.detachNewThread { [self] in serve(connection) }
    }
  }

  private func serve(_ connection: Int32) {
    defer { close(connection) }
    var request: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while !request.ends(with: Array("\r\n\r\n".utf8)) {
      let count = read(connection, &buffer, buffer.count)
      guard count > 0 else { return }
      request += buffer[0..<count]
    }
    let line = String(decoding: request.prefix { $0 != 0x0D }, as: UTF8.self)
    let parts = line.split(separator: " ")
    guard parts.count >= 2 else { return }
    let target = String(parts[1])
    requestLog.update { $0.append(target) }
    let response = respond(target)
    if response.delaySeconds > 0 { Thread.sleep(forTimeInterval: response.delaySeconds) }
    let head =
      "HTTP/1.1 \(response.status) Answer\r\nContent-Type: \(response.contentType)\r\n"
      + "Content-Length: \(response.body.count)\r\nConnection: close\r\n\r\n"
    let bytes = Array(head.utf8) + response.body
    var sent = 0
    while sent < bytes.count {
      let count = bytes[sent...].withUnsafeBufferPointer { write(connection, $0.baseAddress, $0.count) }
      guard count > 0 else { return }
      sent += count
    }
  }
}

extension Array where Element == UInt8 {
  fileprivate func ends(with suffix: [UInt8]) -> Bool {
    count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
  }
}
