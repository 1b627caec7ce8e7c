import DeskDomain
@_spi(Connection) import DeskStorage
import DeskTestSupport
import Foundation
import Testing

@testable import DeskKiosks

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
    #expect(status.hasPrefix("98YYYYNN") && status.contains("|BXYYYNYYYYYNYNNYYY|"))
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
    // Checked out again: refused where the kiosk does not renew so, renewed where it does.
    let again = try kiosk.ask("11NN" + now + SIP2Date.blank + "AOMAIN|AA1001|AB5001|AC|", sequence: 3)
    #expect(again.hasPrefix("120") && again.contains("|AFЭта книга уже у вас"), "\(again)")
    let renewed = try kiosk.ask("11YN" + now + SIP2Date.blank + "AOMAIN|AA1001|AB5001|AC|", sequence: 4)
    #expect(renewed.hasPrefix("121YUN") && renewed.contains("|AH"), "\(renewed)")
  }

  /// A hold placed from a kiosk queues for the title, as the desk's; a copy returned then goes to
  /// the hold shelf, and the checkin says so with Koha's alert type.
  @Test func aKioskPlacesAndCancelsHoldsAndACheckinAlertsForTheShelf() throws {
    let kiosk = try Kiosk(server.address)
    defer { server.stop() }
    #expect(try kiosk.ask("9300CNkiosk|COsecret|CPMAIN|").hasPrefix("941"))
    #expect(try kiosk.ask("11YN" + now + SIP2Date.blank + "AOMAIN|AA1002|AB5001|AC|").hasPrefix("121"))
    let placed = try kiosk.ask("15+" + now + "BW20301231    235900|AOMAIN|AA1001|AB5001|")
    #expect(
      placed.hasPrefix("161N") && placed.contains("|BR1|") && placed.contains("BW20301231    235900|"), "\(placed)")
    #expect(try kiosk.ask("15+" + now + "AOMAIN|AA1001|AB5001|").hasPrefix("160"), "a second hold on one title")
    let queued = try kiosk.ask("17" + now + "AOMAIN|AB5001|")
    #expect(queued.contains("CF0001|"), "\(queued)")
    let back = try kiosk.ask("09N" + now + now + "APMAIN|AOMAIN|AB5001|AC|")
    #expect(back.hasPrefix("101YUY") && back.contains("|CV01|") && !back.contains("Попова"))
    let shelved = try kiosk.ask("17" + now + "AOMAIN|AB5001|")
    #expect(shelved.hasPrefix("1808") && shelved.contains("|CM2"), "\(shelved)")
    // Waiting for reader 1001: another reader is refused it without a name.
    let other = try kiosk.ask("11YN" + now + SIP2Date.blank + "AOMAIN|AA1002|AB5001|AC|")
    #expect(other.hasPrefix("120") && !other.contains("Попова"))
    #expect(try kiosk.ask("11YN" + now + SIP2Date.blank + "AOMAIN|AA1001|AB5001|AC|").hasPrefix("121"))
    #expect(try kiosk.ask("15-" + now + "AOMAIN|AA1002|AB5002|").hasPrefix("160"))
  }

  /// Requests that fail their checks change no loan: a checkout with no patron, an unknown copy,
  /// an empty item, a renewal by someone else than the holder.
  @Test func aRequestThatFailsItsChecksChangesNothing() throws {
    let kiosk = try Kiosk(server.address)
    defer { server.stop() }
    #expect(try kiosk.ask("9300CNkiosk|COsecret|CPMAIN|").hasPrefix("941"))
    #expect(try kiosk.ask("11YN" + now + SIP2Date.blank + "AOMAIN|AB5001|AC|").hasPrefix("120"))
    #expect(try kiosk.ask("11YN" + now + SIP2Date.blank + "AOMAIN|AA1001|AB|AC|").hasPrefix("120"))
    #expect(try kiosk.ask("11YN" + now + SIP2Date.blank + "AOMAIN|AA|AB5001|").hasPrefix("120"))
    #expect(try kiosk.ask("11YN" + now + SIP2Date.blank + "AOMAIN|AA1001|AB9999|AC|").hasPrefix("120"))
    // A fixed part short of its no-block due date: its fields are read as that date, and what is
    // left names no reader.
    #expect(try kiosk.ask("11YN" + now + "AOMAIN|AA1001|AB5001|").hasPrefix("120"))
    #expect(try kiosk.ask("11YN" + now + SIP2Date.blank + "AOMAIN|AA1002|AB5002|AC|").hasPrefix("121"))
    #expect(try kiosk.ask("29NN" + now + SIP2Date.blank + "AOMAIN|AA1001|AB5002|").hasPrefix("300"))
    #expect(try kiosk.ask("09N" + now + now + "APMAIN|AOMAIN|AB|AC|").hasPrefix("100"))
    let store = try LibraryStore(path: path)
    let loans = try store.database.query("SELECT b.inventory, l.renewals FROM loan l JOIN book b ON b.id = l.book_id") {
      "\($0.string(0)):\($0.int(1))"
    }
    #expect(loans == ["5002:0"])
  }

  /// A copy the desks disagree about is not issued or renewed at a kiosk (the desk settles it
  /// first); dropped in, it is taken back all the same.
  @Test func aCopyInConflictGoesToTheDeskButComesBackAtTheDrop() throws {
    let kiosk = try Kiosk(server.address)
    defer { server.stop() }
    let store = try LibraryStore(path: path)
    #expect(try kiosk.ask("9300CNkiosk|COsecret|CPMAIN|").hasPrefix("941"))
    #expect(try kiosk.ask("11YN" + now + SIP2Date.blank + "AOMAIN|AA1002|AB5002|AC|").hasPrefix("121"))
    let book = try #require(try store.books.book(inventory: "5002"))
    try store.database.execute(
      """
      INSERT INTO conflict(key, kind, entity, record_id, other_id, details, raised_at)
      VALUES ('test', 'edit_after_delete', 'book', ?, '', '{}', '2026-12-01T10:00:00.000Z')
      """, book.id.text)
    #expect(try !store.conflicts.openConflicts(entity: .book, recordID: book.id).isEmpty)
    let renewal = try kiosk.ask("29NN" + now + SIP2Date.blank + "AOMAIN|AA1002|AB5002|")
    #expect(renewal.hasPrefix("300") && renewal.contains("library desk"), "\(renewal)")
    #expect(try kiosk.ask("09N" + now + now + "APMAIN|AOMAIN|AB5002|AC|").hasPrefix("101"))
    let checkout = try kiosk.ask("11YN" + now + SIP2Date.blank + "AOMAIN|AA1002|AB5002|AC|")
    #expect(checkout.hasPrefix("120") && checkout.contains("library desk"), "\(checkout)")
  }

  /// What a kiosk's screen shows is for the reader in front of it: no other reader's name, no
  /// e-mail or phone, no key of the desk's, and no PIN taken as valid.
  @Test func aKioskScreenSaysWhatAReaderMaySee() throws {
    let kiosk = try Kiosk(server.address)
    defer { server.stop() }
    let store = try LibraryStore(path: path)
    try store.readers.update(ticket: "1002") {
      $0.email = "elise@example.org"
      $0.phone = "+33 1 44 55 66 34"
    }
    try store.books.update(inventory: "5001") { $0.status = "lost" }
    #expect(try kiosk.ask("9300CNkiosk|COsecret|CPMAIN|").hasPrefix("941"))
    let information = try kiosk.ask("63001" + now + "          AOMAIN|AA1002|AD1234|")
    #expect(!information.contains("example.org") && !information.contains("+33") && information.contains("|CQN|"))
    #expect(!(try kiosk.ask("23001" + now + "AOMAIN|AA1002|")).contains("|CQ"))
    let lost = try kiosk.ask("11YN" + now + SIP2Date.blank + "AOMAIN|AA1002|AB5001|AC|")
    #expect(lost.hasPrefix("120") && lost.contains("|AFThis copy cannot be borrowed"), "\(lost)")
    #expect(!lost.contains("book edit"))
    #expect(try kiosk.ask("11YN" + now + SIP2Date.blank + "AOMAIN|AA1002|AB5002|AC|").hasPrefix("121"))
    let others = try kiosk.ask("29NN" + now + SIP2Date.blank + "AOMAIN|AA1001|AB5002|")
    #expect(others.hasPrefix("300") && others.contains("|AJJane Eyre|") && others.contains("not available to you"))
    #expect(!others.contains("Dupont"))
    // Nothing renewed: every loan is listed as not renewed.
    let code = try #require(try store.readers.reader(ticket: "1002")).category
    var category = try #require(try store.policy.category(code: code))
    category.renewalLimit = 0
    try store.policy.setCategory(category)
    let none = try kiosk.ask("65" + now + "AOMAIN|AA1002|")
    #expect(none.hasPrefix("66" + "0" + "0000" + "0001") && none.contains("|BN5002|"), "\(none)")
    #expect(none.contains("cannot be renewed"))
    // A language that is not three digits comes back as unknown.
    #expect(try kiosk.ask("23abc" + now + "AOMAIN|AA1002|").hasPrefix("24" + String(repeating: " ", count: 14) + "000"))
  }

  /// What the library does not take from a kiosk is answered as the specification says, with
  /// nothing done: block patron and patron enable with the patron's status, item status update and
  /// fee paid refused; and SC status says so in BX.
  @Test func whatTheLibraryDoesNotTakeIsAnsweredAsNotDone() throws {
    let kiosk = try Kiosk(server.address)
    defer { server.stop() }
    #expect(try kiosk.ask("9300CNkiosk|COsecret|CPMAIN|").hasPrefix("941"))
    let blocked = try kiosk.ask("01N" + now + "AOMAIN|ALlost card|AA1002|AC|")
    #expect(blocked.hasPrefix("24") && blocked.contains("|AA1002|") && blocked.contains("|AF"))
    #expect(try kiosk.ask("25" + now + "AOMAIN|AA1002|").hasPrefix("24"))
    #expect(try kiosk.ask("19" + now + "AOMAIN|AB5001|CHx|").hasPrefix("200"))
    #expect(try kiosk.ask("37" + now + "0100USD" + "BV1.00|AOMAIN|AA1002|").hasPrefix("38N"))
    // The reader is not blocked: a checkout still goes.
    #expect(try kiosk.ask("11YN" + now + SIP2Date.blank + "AOMAIN|AA1002|AB5001|AC|").hasPrefix("121"))
  }

  /// A kiosk that sends a byte a second holds up nobody; a hundred kiosks at once are each served.
  @Test func aSlowKioskHoldsUpNobodyAndAHundredAreServed() throws {
    defer { server.stop() }
    let slow = try Kiosk(server.address)
    try slow.send(Array("93".utf8))
    let kiosks = try (0..<100).map { _ in try Kiosk(server.address) }
    let answers = Locked<[String]>([])
    runAtOnce(kiosks.count) { index in
      let kiosk = kiosks[index]
      let login = (try? kiosk.ask("9300CNkiosk|COsecret|CPMAIN|")) ?? "closed"
      let status = (try? kiosk.ask("9900302.00")) ?? "closed"
      answers.update { $0.append(String(login.prefix(3)) + " " + String(status.prefix(2))) }
    }
    #expect(answers.value.count == 100 && answers.value.allSatisfy { $0 == "941 98" })
    try slow.send(Array("00".utf8))
    try slow.send(Array("CNkiosk|COsecret|CPMAIN|\r".utf8))
    #expect(try slow.reply() == "941")
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

/// A kiosk whose account requires checksums cannot log in without one; a connection that sends
/// bytes but no whole message within the idle time is closed.
@Suite struct SIP2ConnectionLimitTests {
  @Test func aLoginWithoutItsRequiredChecksumAndATrickleAreRefused() throws {
    let folder = TemporaryFolder()
    let path = folder.file("library.sqlite")
    let store = try LibraryStore(path: path)
    try store.kiosks.add(
      KioskAccount(name: "strict", location: "MAIN", checksums: .required),
      passwordHash: try KioskPassword.hash("secret").get())
    let lines = Locked<[String]>([])
    let server = try SIP2Server(
      host: "127.0.0.1", port: 0,
      settings: SIP2Server.Settings(path: path, idleSeconds: 1, log: { line in lines.update { $0.append(line) } }))
    Thread { server.run() }.start()
    defer { server.stop() }
    let kiosk = try KioskClient(server.address)
    #expect(try kiosk.ask("9300CNstrict|COsecret|CPMAIN|") == "96")
    #expect(try kiosk.ask("9300CNstrict|COsecret|CPMAIN|", sequence: 0).hasPrefix("941AY0AZ"))
    // A byte every 0.3 s: never a whole message, closed after the idle second.
    let trickle = try KioskClient(server.address)
    var sent = 0
    while sent < 20, (try? trickle.send([0x39])) != nil {
      sent += 1
      usleep(300_000)
    }
    #expect(trickle.readToEnd().isEmpty)
    #expect(lines.value.contains { $0.contains("no whole message for 1 s") })
  }
}

/// Kiosks across a network speak TLS: OpenSSL's own client (`openssl s_client`) logs in over it
/// with a certificate made here, and a kiosk that does not speak TLS is closed at its handshake.
@Suite struct SIP2TLSTests {
  @Test func aKioskLogsInOverTLSAndOneWithoutItIsClosed() throws {
    let folder = TemporaryFolder()
    let path = folder.file("library.sqlite")
    let store = try LibraryStore(path: path)
    try store.kiosks.add(
      KioskAccount(name: "kiosk", location: "MAIN"), passwordHash: try KioskPassword.hash("secret").get())
    let (certificate, key) = (folder.file("cert.pem"), folder.file("key.pem"))
    let made = try runProgram(
      "/usr/bin/openssl",
      [
        "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate, "-days", "2", "-subj",
        "/CN=127.0.0.1",
      ])
    #expect(made.status == 0, "\(made.errors)")
    // A key that is not the certificate's is refused with OpenSSL's words.
    #expect(throws: SIP2ServerError.self) { try SIP2TLS(certificate: certificate, key: certificate) }
    let lines = Locked<[String]>([])
    let server = try SIP2Server(
      host: "127.0.0.1", port: 0,
      settings: SIP2Server.Settings(
        path: path, idleSeconds: 10, tls: try SIP2TLS(certificate: certificate, key: key),
        log: { line in lines.update { $0.append(line) } }))
    Thread { server.run() }.start()
    defer { server.stop() }
    let talk = try runProgram(
      "/bin/sh",
      [
        "-c",
        "(printf '9300CNkiosk|COsecret|CPMAIN|\\r'; sleep 1; printf '9900302.00\\r'; sleep 1) | "
          + "/usr/bin/openssl s_client -quiet -no_ign_eof -connect \(server.address) 2>/dev/null",
      ])
    #expect(talk.output.hasPrefix("941\r98YYYYNN"), "\(talk.output) \(talk.errors)")
    let plain = try KioskClient(server.address)
    try plain.send(Array("9300CNkiosk|COsecret|CPMAIN|\r".utf8))
    #expect(!String(decoding: plain.readToEnd(), as: UTF8.self).hasPrefix("941"))
    #expect(lines.value.contains { $0.contains("connected (TLS)") })
    #expect(lines.value.contains { $0.contains("the TLS handshake failed") })
  }
}

/// A kiosk of the tests in a character set: `KioskClient` (the tests' and the benchmark's own
/// SIP2 client) with its text encoded and decoded.
final class Kiosk {
  let client: KioskClient
  let encoding: SIP2Encoding

  init(_ address: String, encoding: SIP2Encoding = .utf8) throws {
    client = try KioskClient(address)
    self.encoding = encoding
  }

  func send(_ bytes: [UInt8]) throws { try client.send(bytes) }

  func ask(_ text: String, sequence: Int? = nil) throws -> String {
    encoding.decode(try client.ask(encoding.encode(text), sequence: sequence))
  }

  func reply() throws -> String { encoding.decode(try client.reply()) }

  func readToEnd() throws -> [UInt8] { client.readToEnd() }
}

/// Logins from one address take turns once one failed: over new connections, and at once.
@Suite struct LoginGateTests {
  @Test func failuresMakeTheNextAttemptsOfAnAddressWaitInTurn() {
    let gate = LoginGate()
    #expect(gate.wait(for: "10.0.0.1") == 0 && gate.wait(for: "10.0.0.1") == 0, "no failure, no wait")
    gate.failed("10.0.0.1")
    let first = gate.wait(for: "10.0.0.1")
    let second = gate.wait(for: "10.0.0.1")
    #expect(first > 0.2 && second > first + 0.2, "\(first) \(second)")
    #expect(gate.wait(for: "10.0.0.2") == 0, "another address")
    gate.failed("10.0.0.1")
    gate.failed("10.0.0.1")
    #expect(gate.wait(for: "10.0.0.1") > second)
    gate.succeeded("10.0.0.1")
    #expect(gate.wait(for: "10.0.0.1") == 0)
  }
}
