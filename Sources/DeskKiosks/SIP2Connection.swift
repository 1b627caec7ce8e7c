import CTLS
import DeskDomain
import DeskStorage

#if canImport(Glibc)
  import Glibc
#endif

/// One kiosk's TCP connection: messages read up to their CR (an LF after it is skipped), each
/// answered in turn, on a thread of its own so that a slow kiosk holds up nobody else.
final class SIP2Connection {
  private let socket: Int32
  private let address: String
  /// The kiosk's IP address alone, which its logins are counted by.
  private let host: String
  private let settings: SIP2Server.Settings
  private let store: LibraryStore
  private var session: SIP2Session
  private var buffer: [UInt8] = []
  /// The last reply as sent, for a kiosk that asks for it again (97).
  private var lastSent: [UInt8]?

  /// The kiosk's TLS session (`ctls_session`), when the server speaks TLS.
  private let tls: OpaquePointer?

  init(socket: Int32, tls: OpaquePointer?, address: String, store: LibraryStore, settings: SIP2Server.Settings) {
    self.socket = socket
    self.tls = tls
    self.address = address
    host = address.lastIndex(of: ":").map { String(address[..<$0]) } ?? address
    self.settings = settings
    self.store = store
    session = SIP2Session(store: store, turns: settings.turns)
  }

  /// Answers the kiosk until it leaves, sends no whole message for the idle time, or sends what
  /// cannot be a conversation (a message longer than the limit, anything before its login).
  func run() {
    defer {
      if let tls { ctls_close(tls) }
      close(socket)
    }
    while let bytes = nextMessage() {
      let account = session.account
      let encoding = account?.encoding ?? loginEncoding(bytes)
      let text = encoding.decode(bytes)
      switch SIP2Message.parse(text, bytes: bytes) {
      case .failure(let error):
        settings.log("\(address): \(error.message)")
        // With a checksum when the kiosk's message ended with one (a wrong one, here).
        let checked = account?.checksums == .required || text.dropLast(4).hasSuffix("AZ")
        guard send(SIP2Reply(code: "96"), sequence: nil, checksums: checked) else { return }
      case .success(let message):
        // Replies carry a checksum when the message did, or the kiosk's account requires them.
        let checksums = message.hasChecksum || account?.checksums == .required
        if account?.checksums == .required, !message.hasChecksum, message.code != "97" {
          settings.log("\(address): a message without its checksum from \(shown(account?.name ?? ""))")
          guard send(SIP2Reply(code: "96"), sequence: nil, checksums: true) else { return }
          continue
        }
        guard account != nil || message.code == "93" else {
          settings.log("\(address): message \(message.code) before a login: connection closed")
          return
        }
        if message.code == "97" {
          guard let lastSent, write(lastSent) else { return }
          continue
        }
        if message.code == "93", !message.hasChecksum,
          (try? store.kiosks.account(name: message.field("CN") ?? ""))??.account.checksums == .required
        {
          settings.log("\(address): a login without its checksum as «\(shown(message.field("CN") ?? ""))»")
          guard send(SIP2Reply(code: "96"), sequence: nil, checksums: false) else { return }
          continue
        }
        if message.code == "93" {
          let wait = settings.logins.wait(for: host)
          if wait > 0 { usleep(useconds_t(min(wait, 600) * 1_000_000)) }
        }
        guard let reply = session.reply(to: message) else { continue }
        if message.code == "93" {
          let accepted = session.account != nil
          settings.log(
            "\(address): login as «\(shown(message.field("CN") ?? ""))» \(accepted ? "accepted" : "refused")")
          if accepted { settings.logins.succeeded(host) } else { settings.logins.failed(host) }
        }
        guard send(reply, sequence: message.sequence, checksums: checksums || session.account?.checksums == .required)
        else { return }
      }
    }
  }

  /// A name a kiosk sent, as the log shows it: at most 64 characters.
  private func shown(_ text: String) -> String {
    text.count > 64 ? String(text.prefix(64)) + "…" : text
  }

  /// The encoding of a kiosk not yet logged in: the one whose reading of the message names an
  /// account of that encoding (a login name in Cyrillic is other bytes in Windows-1251), else UTF-8.
  private func loginEncoding(_ bytes: [UInt8]) -> SIP2Encoding {
    for encoding in SIP2Encoding.allCases {
      guard case .success(let message) = SIP2Message.parse(encoding.decode(bytes), bytes: bytes),
        message.code == "93", let name = message.field("CN"),
        (try? store.kiosks.account(name: name))??.account.encoding == encoding
      else { continue }
      return encoding
    }
    return .utf8
  }

  /// Writes the reply in the kiosk's encoding, with its terminator.
  private func send(_ reply: SIP2Reply, sequence: Int?, checksums: Bool) -> Bool {
    let account = session.account
    var bytes = reply.bytes(
      encoding: account?.encoding ?? .utf8, sequence: reply.code == "96" ? nil : sequence, checksums: checksums)
    bytes += (account?.terminator ?? .cr).bytes
    if reply.code != "96" { lastSent = bytes }
    return write(bytes)
  }

  private func write(_ bytes: [UInt8]) -> Bool {
    if let tls { return bytes.withUnsafeBytes { ctls_write(tls, $0.baseAddress, $0.count) } == 0 }
    var written = 0
    while written < bytes.count {
      let count = bytes[written...].withUnsafeBytes {
        Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      if count <= 0 {
        if count < 0, errno == EINTR { continue }
        return false
      }
      written += count
    }
    return true
  }

  /// The bytes of the next message, without its terminator; nil when the kiosk left, sent no
  /// whole message for the idle time (bytes trickling in do not keep it open), or sent more than
  /// the limit without a CR.
  private func nextMessage() -> [UInt8]? {
    let deadline = LoginGate.now() + Double(settings.idleSeconds)
    while true {
      // An LF left from the last message's CR LF.
      if buffer.first == 0x0A { buffer.removeFirst() }
      if let end = buffer.firstIndex(of: 0x0D) {
        let message = Array(buffer[..<end])
        buffer.removeSubrange(...end)
        return message
      }
      guard buffer.count <= SIP2Server.longestMessage else {
        settings.log("\(address): more than \(SIP2Server.longestMessage) bytes without a CR: connection closed")
        return nil
      }
      // What TLS has decrypted already is read without waiting on the socket.
      if tls.map({ ctls_pending($0) > 0 }) != true {
        let left = deadline - LoginGate.now()
        var poller = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        let ready = left <= 0 ? 0 : poll(&poller, 1, Int32(clamping: Int((left * 1000).rounded(.up))))
        if ready < 0, errno == EINTR { continue }
        guard ready > 0 else {
          if ready == 0 {
            settings.log("\(address): no whole message for \(settings.idleSeconds) s: connection closed")
          }
          return nil
        }
      }
      var chunk = [UInt8](repeating: 0, count: 4096)
      let count = chunk.withUnsafeMutableBytes { space in
        if let tls { return ctls_read(tls, space.baseAddress, space.count) }
        return recv(socket, space.baseAddress, space.count, 0)
      }
      if count < 0, errno == EINTR { continue }
      guard count > 0 else { return nil }
      buffer += chunk[..<count]
    }
  }
}
