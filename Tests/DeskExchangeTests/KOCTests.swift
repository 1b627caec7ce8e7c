import DeskDomain
import DeskStorage
import DeskTestSupport
import DeskWords
import Foundation
import Testing

@testable import DeskExchange

/// Koha's offline circulation files, written and replayed with Koha's rules.
@Suite struct KOCTests {
  let folder = TemporaryFolder()
  let clock = TestClock("2026-11-30T10:00:00Z")
  let store: LibraryStore

  init() throws {
    store = try LibraryStore(path: folder.file("library.sqlite"), clock: clock)
    for number in 1...5 { try store.books.add(bookDraft("B\(number)", "Книга \(number)")) }
    try store.readers.add(readerDraft("R1", "Первый"))
    try store.readers.add(readerDraft("R2", "Второй"))
  }

  func file(_ lines: [String]) throws -> String {
    let path = folder.file("\(UUID().uuidString).koc")
    try (["Version=1.0\tGenerator=kocdesk\tGeneratorVersion=1"] + lines).joined(separator: "\n")
      .write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  func replay(_ paths: [String]) throws -> [String] {
    let (transactions, problems) = try KOC.read(paths: paths, clock: clock)
    #expect(problems.isEmpty)
    return try KOC.replay(transactions, into: store).map {
      let line = EnglishWords().line($0.outcome, source: $0.source)
      return String(line.split(separator: ":", maxSplits: 2).last ?? "").trimmingWhitespace()
    }
  }

  @Test func exportsIssuesAndReturnsInKohasFormat() throws {
    try store.circulation.issue(ticket: "R1", inventories: ["B1"])
    clock.advance(days: 1)
    try store.circulation.returnBooks(inventories: ["B1"])
    let path = folder.file("out.koc")
    let writer = try TextWriter(path: path, encoding: .utf8)
    #expect(try KOC.export(from: store, since: nil, version: "0.1.0", to: writer) == 2)
    try writer.close()
    #expect(
      try String(contentsOfFile: path, encoding: .utf8) == """
        Version=1.0\tGenerator=circdesk\tGeneratorVersion=0.1.0
        2026-11-30 10:00:00 000\tissue\tR1\tB1
        2026-12-01 10:00:00 000\treturn\tB1

        """)
  }

  @Test func replaysWithKohasRules() throws {
    // B1 out to R1 since 2026-11-20; B2 out to R2 since 2026-11-25; B3 on the shelf.
    try store.circulation.recordLoan(
      ticket: "R1", inventory: "B1", issued: Timestamp(iso: "2026-11-20T09:00:00Z")!,
      due: LocalDate(iso: "2026-12-04")!, desk: "d")
    try store.circulation.recordLoan(
      ticket: "R2", inventory: "B2", issued: Timestamp(iso: "2026-11-25T09:00:00Z")!,
      due: LocalDate(iso: "2026-12-09")!, desk: "d")
    let first = try file([
      "2026-11-26 10:00:00 000\tissue\tR1\tB1",  // same reader: renewed
      "2026-11-26 11:00:00 000\tissue\tR1\tB2",  // another reader since earlier: returned, then issued
      "2026-11-24 12:00:00 000\treturn\tB2",  // older than B2's loan: sorted first, and skipped
    ])
    let second = try file([
      "2026-11-26 10:30:00 500\tissue\tR2\tB404",  // unknown item
      "2026-11-26 10:45:00 000\tissue\tR9\tB3",  // unknown reader
      "2026-11-26 12:00:00 000\treturn\tB3",  // not on loan
      "2026-11-26 13:00:00 000\tissue\tR2\tB3",
    ])
    let results = try replay([first, second])
    #expect(
      results == [
        "skipped: B2 has a newer loan",
        "applied: renewed B1 for R1",
        "unknown item B404",
        "unknown reader R9",
        "applied: B2 returned from R2, issued to R1",
        "skipped: B3 is not on loan",
        "applied: issued B3 to R2",
      ])
    let bookOne = try #require(try store.books.book(inventory: "B1"))
    let b1 = try #require(try store.books.currentLoan(ofBook: bookOne))
    #expect(b1.loan.renewals == 1)
    #expect(b1.loan.due.iso == "2026-12-18", "14 days from the old due date")
    let bookTwo = try #require(try store.books.book(inventory: "B2"))
    let b2 = try #require(try store.books.currentLoan(ofBook: bookTwo))
    #expect(b2.readerTicket == "R1")
    #expect(b2.loan.issued.iso == "2026-11-26T11:00:00.000Z")
    #expect(try store.integrityCheck() == ["ok"])
  }

  /// A clock of Central European time: an hour ahead of UTC in winter, two in summer (from the
  /// last Sunday of March to the last of October, 2026: March 29 and October 25, 01:00 UTC).
  struct CentralEuropeanClock: Clock {
    let instant = Timestamp(iso: "2026-12-01T09:00:00Z")!
    func now() -> LocalMoment { local(instant) }
    func local(_ instant: Timestamp) -> LocalMoment {
      let summer =
        instant >= Timestamp(iso: "2026-03-29T01:00:00Z")! && instant < Timestamp(iso: "2026-10-25T01:00:00Z")!
      return LocalMoment(instant: instant, utcOffsetSeconds: summer ? 7200 : 3600)
    }
  }

  @Test func eachLineIsReadWithTheOffsetOfItsOwnDate() throws {
    let path = try file([
      "2026-07-15 10:00:00 000\tissue\tR1\tB1", "2026-12-01 10:00:00 000\treturn\tB1",
    ])
    let (transactions, problems) = try KOC.read(paths: [path], clock: CentralEuropeanClock())
    #expect(problems.isEmpty)
    #expect(transactions.map(\.time.iso) == ["2026-07-15T08:00:00.000Z", "2026-12-01T09:00:00.000Z"])
  }

  @Test func renewalsAreExportedAsKohaReadsThem() throws {
    try store.circulation.issue(ticket: "R1", inventories: ["B1"])
    clock.advance(days: 2)
    _ = try store.circulation.renew(inventories: ["B1"])
    let path = folder.file("out.koc")
    let writer = try TextWriter(path: path, encoding: .utf8)
    #expect(try KOC.export(from: store, since: nil, version: "0.1.0", to: writer) == 2)
    try writer.close()
    let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
    #expect(
      lines.dropFirst().map(String.init) == [
        "2026-11-30 10:00:00 000\tissue\tR1\tB1", "2026-12-02 10:00:00 000\tissue\tR1\tB1",
      ])
    // Replayed, the second issue to the same reader is the renewal.
    let other = try LibraryStore(path: folder.file("other.sqlite"), clock: clock)
    try other.books.add(bookDraft("B1", "Книга 1"))
    try other.readers.add(readerDraft("R1", "Первый"))
    let (transactions, _) = try KOC.read(paths: [path], clock: clock)
    let results = try KOC.replay(transactions, into: other)
    #expect(results.last?.outcome == .renewed(inventory: "B1", ticket: "R1"))
    #expect(
      try other.circulation.loans(ofBook: #require(try other.books.book(inventory: "B1"))).first?.loan.renewals == 1)
  }

  @Test func anotherVersionIsRefusedAndPaymentsAreReported() throws {
    let path = folder.file("v2.koc")
    try "Version=2.0\tGenerator=x\n2026-11-30 10:00:00 000\treturn\tB1\n".write(
      toFile: path, atomically: true, encoding: .utf8)
    let (none, refused) = try KOC.read(paths: [path], clock: clock)
    #expect(none.isEmpty)
    #expect(
      refused.map(\.english) == [
        "\(path):1: the header says «Version=2.0», not Version=1.0: this is not a Koha offline circulation file this desk reads; nothing of it was taken"
      ])
    let payments = try file(["2026-11-30 10:00:00 000\tpayment\tR1\t5.00", "2026-11-30 10:01:00 000\treturn\tB1"])
    let (transactions, problems) = try KOC.read(paths: [payments], clock: clock)
    #expect(transactions.count == 1)
    #expect(problems.map(\.english) == ["\(payments):2: a payment (fines), which this desk does not keep; not taken"])
  }

  /// A file replayed twice changes the library once: the second time each transaction is passed
  /// over, from this file or another holding the same line.
  @Test func aFileReplayedTwiceChangesTheLibraryOnce() throws {
    let lines = [
      "2026-11-20 09:00:00 000\tissue\tR1\tB1", "2026-11-21 09:00:00 000\tissue\tR2\tB2",
      "2026-11-22 09:00:00 000\treturn\tB2",
    ]
    #expect(
      try replay([try file(lines)]) == ["applied: issued B1 to R1", "applied: issued B2 to R2", "applied: returned B2"])
    let book = try #require(try store.books.book(inventory: "B1"))
    let loan = try #require(try store.books.currentLoan(ofBook: book))
    #expect(try replay([try file(lines)]) == Array(repeating: "skipped: replayed here before", count: 3))
    #expect(try replay([try file([lines[0]])]) == ["skipped: replayed here before"], "the same line in another file")
    #expect(try store.books.currentLoan(ofBook: book) == loan, "no renewal, no new due date")
    #expect(try store.circulation.loans(ofBook: #require(try store.books.book(inventory: "B2"))).count == 1)
  }

  /// An issue or return that names no book says so, and the rest of the file is read.
  @Test func aLineWithoutABarcodeSaysSo() throws {
    let path = try file([
      "2026-11-20 09:00:00 000\tissue\tR1", "2026-11-20 09:01:00 000\tissue\tR1\t",
      "2026-11-20 09:02:00 000\treturn\t", "2026-11-20 09:03:00 000\tissue\tR1\tB1",
    ])
    let (transactions, problems) = try KOC.read(paths: [path], clock: clock)
    #expect(transactions.count == 1)
    #expect(
      problems.map(\.english) == [
        "\(path):2: an issue without the book's barcode", "\(path):3: an issue without the book's barcode",
        "\(path):4: a return without the book's barcode",
      ])
  }

  /// An issue dated before a loan the desk has had since (taken back or not) is older than the
  /// book's history: applied, it would make two loans of one book at once. It is skipped.
  @Test func anIssueOlderThanALoanTakenBackIsSkipped() throws {
    try store.circulation.recordLoan(
      ticket: "R1", inventory: "B1", issued: Timestamp(iso: "2026-11-20T09:00:00Z")!,
      due: LocalDate(iso: "2026-12-04")!, returned: Timestamp(iso: "2026-11-22T09:00:00Z")!, desk: "d")
    #expect(try replay([try file(["2026-11-19 09:00:00 000\tissue\tR2\tB1"])]) == ["skipped: B1 has a newer loan"])
    #expect(try store.books.currentLoan(ofBook: #require(try store.books.book(inventory: "B1"))) == nil)
  }
}
