import DeskDomain
import DeskScratch
import DeskStorage
import DeskTestSupport
import Foundation
import Testing

@testable import DeskLookup

/// Copy cataloguing against real servers on 127.0.0.1: YAZ's own `yaz-ztest` (Z39.50 and SRU),
/// an SRU server of the tests' own answering with records of their choosing, one that never
/// answers, a port that refuses.
@Suite struct CopyCatalogueTests {
  let folder = TemporaryFolder()
  let store: LibraryStore

  init() throws {
    store = try LibraryStore(path: folder.file("library.sqlite"), clock: TestClock())
  }

  func z3950(_ name: String, _ server: YazTestServer) throws -> CatalogueTarget {
    CatalogueTarget(name: name, endpoint: try CatalogueTarget.z3950(server.z3950Address), syntax: .marc21)
  }

  func sru(_ name: String, _ url: String, _ syntax: CatalogueTarget.Syntax = .marc21) throws -> CatalogueTarget {
    CatalogueTarget(name: name, endpoint: try CatalogueTarget.sru(url), syntax: syntax)
  }

  @Test func aZ3950TargetAnswersAndItsAnswerIsKept() throws {
    let server = try YazTestServer(folder: folder)
    let catalogue = CopyCatalogue(targets: [try z3950("ztest", server)], timeoutSeconds: 5)
    let query = try #require(CopyQuery.words(title: "computer", author: "", year: ""))
    let first = catalogue.search(query, in: store)
    #expect(first.failures.isEmpty)
    #expect(!first.cached)
    let record = try #require(first.records.first)
    #expect(record.target == "ztest")
    #expect(record.draft.title == "How to program a computer")
    #expect(record.draft.authorSurname == "Collins")
    #expect(record.record.marc21 != nil, "the MARC 21 original is kept whole")
    // A query asks a target once: with the server gone, the same search answers from the library.
    server.stop()
    let again = catalogue.search(query, in: store)
    #expect(again.cached)
    #expect(again.records == first.records)
    #expect(try store.copyCataloguing.pending().isEmpty)
  }

  @Test func theSameServerOverSRUAndABookOnceAcrossTargets() throws {
    let server = try YazTestServer(folder: folder)
    let query = try #require(CopyQuery.words(title: "computer", author: "", year: ""))
    let overSRU = CopyCatalogue(targets: [try sru("ztsru", server.sruAddress)]).search(query, in: store)
    #expect(overSRU.failures.isEmpty)
    #expect(overSRU.records.first?.draft.title == "How to program a computer")
    let both = CopyCatalogue(targets: [try z3950("ztest", server), try sru("ztsru", server.sruAddress)])
      .search(query, in: store)
    #expect(both.records.count == overSRU.records.count, "the same records from two targets are listed once")
    #expect(both.records.allSatisfy { $0.target == "ztest" }, "named by the first target that has them")
  }

  @Test func anISBNIsLookedUpThroughATargetInTheOrder() throws {
    let server = try YazTestServer(folder: folder)
    let target = try z3950("ztest", server)
    let lookup = ISBNLookup(providers: [.target(target)], timeoutMilliseconds: 5000)
    let isbn = try ISBN("0839108826")
    guard case .found(let facts, let cached) = lookup.lookup(isbn, in: store) else {
      Issue.record("found")
      return
    }
    #expect(!cached)
    #expect(facts.provider == "ztest")
    #expect(facts.title.hasPrefix("Reconstruction tomography"))
    #expect(facts.record?.record.marc21?.fields.contains { $0.tag == 650 } == true, "its subjects come with it")
    guard case .found(let remembered, let cachedNow) = lookup.lookup(isbn, in: store) else {
      Issue.record("remembered")
      return
    }
    #expect(cachedNow)
    #expect(remembered.record == facts.record, "a remembered answer brings its whole record back")
  }

  @Test func recordsOfOurOwnSRUServerInTheirOwnEncodings() throws {
    let rusmarc = SRUAnswer.record(
      leader: "00000nam  2200000   450 ", controlFields: [("001", "RU\\NLR\\123")],
      dataFields: [
        ("010", "  ", [("a", "978-5-17-079585-7")]),
        ("100", "  ", [("a", "20121010d2013    k  y0rusy50      ca")]),
        ("200", "1 ", [("a", "Война и мир"), ("e", "роман")]),
        ("210", "  ", [("a", "Москва"), ("c", "АСТ"), ("d", "2013")]),
        ("215", "  ", [("a", "1300 с.")]),
        ("606", "1 ", [("a", "Художественная литература")]),
        ("686", "  ", [("a", "84(2Рос=Рус)1"), ("2", "rubbks")]),
        ("700", " 1", [("a", "Толстой"), ("b", "Л. Н.")]),
        ("899", "  ", [("a", "НЛР"), ("p", "123456")]),
        ("910", "  ", [("a", "0"), ("b", "123456")]),
      ])
    let unimarc = SRUAnswer.record(
      leader: "00000nam  2200000   450 ",
      dataFields: [
        ("010", "  ", [("a", "2-07-040850-5")]),
        ("200", "1 ", [("a", "Les Misérables"), ("f", "Victor Hugo")]),
        ("210", "  ", [("a", "Paris"), ("c", "Gallimard"), ("d", "1995")]),
        ("700", " 1", [("a", "Hugo"), ("b", "Victor")]),
      ])
    // The leader's blank at position 9 says MARC-8; in XML the text is Unicode all the same.
    let marc21 = SRUAnswer.record(
      leader: "00000cam  2200000 i 4500",
      dataFields: [
        ("020", "  ", [("a", "0465026567")]),
        ("100", "1 ", [("a", "Hofstadter, Douglas R.")]),
        ("245", "10", [("a", "Gödel, Escher, Bach :"), ("b", "an eternal golden braid /")]),
        ("260", "  ", [("a", "New York :"), ("b", "Basic Books,"), ("c", "1979.")]),
        ("300", "  ", [("a", "777 p.")]),
        ("650", " 0", [("a", "Artificial intelligence."), ("x", "Philosophy.")]),
        ("700", "1 ", [("a", "Escher, M. C.")]),
        ("852", "  ", [("a", "Their library"), ("h", "QA9.8")]),
      ])
    let windows1251 = try #require(
      SRUAnswer.searchRetrieve([rusmarc], encoding: "windows-1251").data(using: .windowsCP1251))
    let http = try LocalHTTPServer { target in
      if target.hasPrefix("/rus") { return .init(bytes: Array(windows1251), contentType: "text/xml") }
      if target.hasPrefix("/uni") {
        return .init(bytes: Array(SRUAnswer.searchRetrieve([unimarc]).utf8), contentType: "text/xml")
      }
      return .init(bytes: Array(SRUAnswer.searchRetrieve([marc21]).utf8), contentType: "text/xml")
    }
    let targets = [
      try sru("rus", http.baseURL + "/rus", .rusmarc), try sru("uni", http.baseURL + "/uni", .unimarc),
      CatalogueTarget(
        name: "lc", endpoint: try CatalogueTarget.sru(http.baseURL + "/lc"), syntax: .marc21, schema: "MARC21-xml"),
    ]
    let result = CopyCatalogue(targets: targets).search(
      try #require(CopyQuery.words(title: "книга", author: "", year: "")), in: store)
    #expect(result.failures.isEmpty)
    #expect(result.unreadable.isEmpty)
    #expect(result.records.map(\.target) == ["rus", "uni", "lc"])
    let war = result.records[0]
    #expect(war.draft.title == "Война и мир : роман")
    #expect(war.draft.authorSurname == "Толстой")
    #expect(war.draft.publisher == "АСТ")
    #expect(war.draft.isbn == "978-5-17-079585-7")
    #expect(war.draft.bbk == "84(2Рос=Рус)1", "RUSMARC's BBK: 686 with $2 rubbks")
    #expect(war.record.fields.contains { $0.tag == 606 }, "the subject heading is kept")
    #expect(!war.record.fields.contains { [899, 910].contains($0.tag) }, "the other library's holdings are not")
    #expect(result.records[1].draft.title == "Les Misérables")
    #expect(result.records[1].draft.authorSurname == "Hugo")
    let gödel = result.records[2]
    #expect(gödel.draft.title == "Gödel, Escher, Bach : an eternal golden braid")
    #expect(gödel.draft.authorSurname == "Hofstadter")
    #expect(gödel.record.marc21?.fields.contains { $0.tag == 852 } == false)
    // Its subject and further author in IRBIS's fields too, for the IRBIS export.
    #expect(gödel.record.all(606).map { $0.subfield("A") } == ["Artificial intelligence"])
    #expect(gödel.record.all(701).map { $0.subfield("A") } == ["Escher"])
    let query = try #require(http.requests.first { $0.hasPrefix("/rus") })
    #expect(query.contains("operation=searchRetrieve"))
    #expect(query.contains("query=dc.title%3D%22%D0%BA%D0%BD%D0%B8%D0%B3%D0%B0%22"), "CQL's dc.title, in UTF-8")
    #expect(query.contains("recordSchema=marcxml"))
    #expect(
      http.requests.contains { $0.hasPrefix("/lc") && $0.contains("recordSchema=MARC21-xml") },
      "a target's own schema name")
  }

  @Test func aBrokenRecordIsToldAndTheOthersAreRead() throws {
    let good = SRUAnswer.record(leader: "00000nam  2200000   450 ", dataFields: [("200", "1 ", [("a", "Целая")])])
    // A data field without its tag: MARCXML that YAZ cannot make a record of.
    let broken =
      "<record xmlns=\"http://www.loc.gov/MARC21/slim\"><leader>00000nam  2200000   450 </leader>"
      + "<datafield ind1=\" \" ind2=\" \"><subfield code=\"a\">Без метки</subfield></datafield></record>"
    let http = try LocalHTTPServer { _ in
      .init(bytes: Array(SRUAnswer.searchRetrieve([broken, good]).utf8), contentType: "text/xml")
    }
    let target = try sru("half", http.baseURL + "/db", .rusmarc)
    let query = try #require(CopyQuery.words(title: "целая", author: "", year: ""))
    let result = CopyCatalogue(targets: [target]).search(query, in: store)
    #expect(result.records.map(\.draft.title) == ["Целая"])
    #expect(result.unreadable == ["half sent a record that cannot be read"])
    #expect(
      try store.copyCataloguing.answer(of: "half", to: query) == nil, "an answer with a broken record is asked again")
  }

  @Test func aTargetThatNeverAnswersIsGivenUpAndHoldsNoOther() throws {
    let server = try YazTestServer(folder: folder)
    let silent = try SilentServer()
    let hanging = CatalogueTarget(
      name: "hangs", endpoint: try CatalogueTarget.z3950("127.0.0.1:\(silent.port)/db"), syntax: .rusmarc)
    let query = try #require(CopyQuery.words(title: "computer", author: "", year: ""))
    let started = Date()
    let result = CopyCatalogue(targets: [hanging, try z3950("ztest", server)], timeoutSeconds: 1).search(
      query, in: store)
    let elapsed = Date().timeIntervalSince(started)
    #expect(result.failures == [.timedOut("hangs")])
    #expect(!result.records.isEmpty, "the target that answered is listed")
    #expect(elapsed < 4, "given up after the time-out (\(elapsed) s)")
    #expect(!result.isUnavailable)
  }

  @Test func noNetworkIsAStateTheSearchWaitsInTheQueue() throws {
    let closed = try LoopbackSocket.freePort()
    let refusing = CatalogueTarget(
      name: "away", endpoint: try CatalogueTarget.z3950("127.0.0.1:\(closed)/db"), syntax: .rusmarc)
    #expect(try store.copyCataloguing.add(refusing))
    let query = try #require(CopyQuery.words(title: "Война и мир", author: "Толстой", year: "2013"))
    let catalogue = CopyCatalogue(targets: [refusing], timeoutSeconds: 2)
    let result = catalogue.search(query, in: store)
    #expect(result.failures == [.cannotConnect("away")])
    #expect(result.isUnavailable)
    #expect(try store.copyCataloguing.pending().map(\.query) == [query])
    // The network is back (the target is reachable at its new address): the queue is worked through.
    let server = try YazTestServer(folder: folder)
    let back = CopyCatalogue(
      targets: [
        CatalogueTarget(name: "away", endpoint: try CatalogueTarget.z3950(server.z3950Address), syntax: .marc21)
      ])
    let answered = back.processPending(in: store)
    #expect(answered.count == 1)
    #expect(answered.first?.1.failures.isEmpty == true)
    #expect(try store.copyCataloguing.pending().isEmpty)
  }

  @Test func aTargetsPasswordComesFromTheEnvironment() throws {
    let target = CatalogueTarget(
      name: "locked", endpoint: try CatalogueTarget.z3950("127.0.0.1:9/db"), syntax: .rusmarc, user: "desk",
      passwordVariable: "RSL_PASSWORD")
    let query = try #require(CopyQuery.words(title: "x", author: "", year: ""))
    let result = CopyCatalogue(targets: [target], environment: [:]).search(query, in: store)
    #expect(
      result.failures.map(\.description) == [
        "locked: the target «locked» logs in with the password in RSL_PASSWORD, which is not set"
      ])
  }
}
