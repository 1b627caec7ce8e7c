import DeskDomain
import DeskKiosks
@_spi(Connection) import DeskStorage
import DeskTestSupport
import Foundation
import Testing

/// A kiosk's conversation over TCP on 127.0.0.1 with the server on a real library file: a client
/// written from the specification, its messages and their checksums made here.
@Suite(.serialized) struct SIP2ServerTests {
  let folder = TemporaryFolder()
  let path: String
  let server: SIP2Server
  let lines = Locked<[String]>([])

  init() throws {
    path = folder.file("library.sqlite")
    let store = try LibraryStore(path: path)
    try store.readers.add(readerDraft("1001", "Попова", firstName: "Анна"))
    try store.readers.add(readerDraft("1002", "Dupont", firstName: "Élise"))
    try store.books.add(bookDraft("5001", "Война и мир", surname: "Толстой"))
    try store.books.add(bookDraft("5002", "Jane Eyre", surname: "Brontë"))
    for (name, encoding) in [("kiosk", SIP2Encoding.utf8), ("киоск", .cp1251)] {
      let hash = try KioskPassword.hash("secret").get()
      try store.kiosks.add(
        KioskAccount(
          name: name, location: "MAIN", encoding: encoding, language: encoding == .utf8 ? .english : .russian),
        passwordHash: hash)
    }
    let lines = lines
    server = try SIP2Server(
      host: "127.0.0.1", port: 0,
      settings: SIP2Server.Settings(path: path, idleSeconds: 10, log: { line in lines.update { $0.append(line) } }))
    let server = server
    Thread { server.run() }.start()
  }

  private var now: String { SIP2Date.text(SystemClock().now()) }

  @Test func aKioskLogsInChecksOutAndInAndItsLoansAreItsOwn() throws {
    let kiosk = try Kiosk(server.address)
    defer { server.stop() }
    #expect(try kiosk.ask("9300CNkiosk|COwrong|CPMAIN|", sequence: 0).hasPrefix("940AY0AZ"))
    #expect(try kiosk.ask("9300CNkiosk|COsecret|CPMAIN|", sequence: 1).hasPrefix("941AY1AZ"))
    let status = try kiosk.ask("9900302.00", sequence: 2)
    #expect(status.hasPrefix("98YYYYNN") && status.contains("|BXYYYNYYYYYNYNNNYY|"))
    let patron = try kiosk.ask("23001" + now + "AOMAIN|AA1002|AC|", sequence: 3)
    #expect(patron.hasPrefix("24" + String(repeating: " ", count: 14) + "001") && patron.contains("|BLY|"))
    let out = try kiosk.ask("11YN" + now + SIP2Date.blank + "AOMAIN|AA1002|AB5002|AC|", sequence: 4)
    #expect(out.hasPrefix("121NUY") && out.contains("|AJJane Eyre|") && out.contains("|AH2"))
    let store = try LibraryStore(path: path)
    let book = try #require(try store.books.book(inventory: "5002"))
    #expect(try store.books.currentLoan(ofBook: book)?.loan.desk == "kiosk")
    #expect(try kiosk.ask("17" + now + "AOMAIN|AB5002|", sequence: 5).hasPrefix("1804"))
    let information = try kiosk.ask("63001" + now + "  Y       AOMAIN|AA1002|", sequence: 6)
    #expect(information.contains("|AU5002|"))
    #expect(try kiosk.ask("29NN" + now + SIP2Date.blank + "AOMAIN|AA1002|AB5002|", sequence: 7).hasPrefix("301Y"))
    // Another reader's copy is refused at the kiosk without their name.
    let refused = try kiosk.ask("11YN" + now + SIP2Date.blank + "AOMAIN|AA1001|AB5002|AC|", sequence: 8)
    #expect(refused.hasPrefix("120") && !refused.contains("Dupont") && refused.contains("|AF"))
    #expect(try kiosk.ask("09N" + now + now + "APMAIN|AOMAIN|AB5002|AC|", sequence: 9).hasPrefix("101"))
    #expect(try kiosk.ask("09N" + now + now + "APMAIN|AOMAIN|AB5002|AC|", sequence: 0).hasPrefix("100"))
    #expect(try store.books.currentLoan(ofBook: book) == nil)
    // The last reply again, as it was sent; a wrong checksum is asked again (96).
    let last = try kiosk.ask("97")
    #expect(last.hasPrefix("100") && last.contains("AY0AZ"))
    #expect(try kiosk.ask("9900302.00AY3AZ0000", sequence: nil) == "96AZFEF6")
    #expect(try kiosk.ask("35" + now + "AOMAIN|AA1002|", sequence: 1).hasPrefix("36Y"))
  }

  @Test func aKioskOfWindows1251GetsItsLettersAndChecksumsInIt() throws {
    let kiosk = try Kiosk(server.address, encoding: .cp1251)
    defer { server.stop() }
    #expect(try kiosk.ask("9300CNкиоск|COsecret|CPMAIN|", sequence: 0).hasPrefix("941"))
    let patron = try kiosk.ask("23015" + now + "AOMAIN|AA1001|", sequence: 1)
    #expect(patron.contains("|AEПопова Анна|"))
    let out = try kiosk.ask("11YN" + now + SIP2Date.blank + "AOMAIN|AA1001|AB5001|AC|", sequence: 2)
    #expect(out.hasPrefix("121") && out.contains("|AJВойна и мир|"))
    let again = try kiosk.ask("11YN" + now + SIP2Date.blank + "AOMAIN|AA1001|AB5001|AC|", sequence: 3)
    #expect(again.hasPrefix("120") && again.contains("|AF") && again.contains("уже"))
  }

  @Test func whatIsNotAConversationClosesTheConnection() throws {
    defer { server.stop() }
    // Anything before a login.
    let early = try Kiosk(server.address)
    try early.send(Array("9900302.00\r".utf8))
    #expect(try early.readToEnd().isEmpty)
    // A megabyte without a CR: closed once the limit is passed, not read to its end.
    let flood = try Kiosk(server.address)
    try? flood.send([UInt8](repeating: 0x41, count: 1 << 20))
    #expect(try flood.readToEnd().isEmpty)
    // Binary garbage ended by CR is answered 96, and the kiosk may go on.
    let garbage = try Kiosk(server.address)
    try garbage.send([0x00, 0xFF, 0x13, 0x0D])
    #expect(try garbage.reply() == "96")
    #expect(try garbage.ask("9300CNkiosk|COsecret|CPMAIN|").hasPrefix("941"))
    #expect(lines.value.contains { $0.contains("message 99 before a login: connection closed") })
    #expect(lines.value.contains { $0.contains("bytes without a CR: connection closed") })
  }
}

/// A kiosk of the tests: sends messages, with a sequence number and checksum when given one.
final class Kiosk {
  let socket: Int32
  let encoding: SIP2Encoding
  private var pending: [UInt8] = []

  init(_ address: String, encoding: SIP2Encoding = .utf8) throws {
    self.encoding = encoding
    let parts = address.split(separator: ":")
    socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var target = sockaddr_in()
    target.sin_family = sa_family_t(AF_INET)
    target.sin_port = in_port_t(UInt16(parts[1])!).bigEndian
    inet_pton(AF_INET, String(parts[0]), &target.sin_addr)
    let connected = withUnsafePointer(to: &target) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard connected == 0 else { throw KioskError.cannotConnect }
    var timeout = timeval(tv_sec: 20, tv_usec: 0)
    setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
  }

  deinit { close(socket) }

  enum KioskError: Error { case cannotConnect, closed }

  func send(_ bytes: [UInt8]) throws {
    var written = 0
    while written < bytes.count {
      let count = bytes[written...].withUnsafeBytes {
        Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      guard count > 0 else { throw KioskError.closed }
      written += count
    }
  }

  /// Sends `text` (with `AY<sequence>AZ<checksum>` when a sequence is given) and reads the reply.
  func ask(_ text: String, sequence: Int? = nil) throws -> String {
    var bytes = encoding.encode(text)
    if let sequence {
      bytes += Array("AY\(sequence)AZ".utf8)
      bytes += Array(SIP2Checksum.of(bytes).utf8)
    }
    try send(bytes + [0x0D])
    return try reply()
  }

  /// The next reply, without its CR.
  func reply() throws -> String {
    while true {
      if let end = pending.firstIndex(of: 0x0D) {
        let message = Array(pending[..<end])
        pending.removeSubrange(...end)
        return encoding.decode(message)
      }
      var chunk = [UInt8](repeating: 0, count: 4096)
      let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
      guard count > 0 else { throw KioskError.closed }
      pending += chunk[..<count]
    }
  }

  /// What the server sends until it closes the connection.
  func readToEnd() throws -> [UInt8] {
    var all = pending
    while true {
      var chunk = [UInt8](repeating: 0, count: 4096)
      let count = chunk.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, 0) }
      if count <= 0 { return all }
      all += chunk[..<count]
    }
  }
}
