import DeskDomain
import DeskLookup
import DeskStorage
import DeskTestSupport
import Foundation
import Testing

@testable import DeskUI

/// The New Book form copying a record from another library's catalogue: F5 searches by what was
/// typed, the records found are listed with their source, the one chosen fills the form, and the
/// saved book keeps the whole record.
@Suite struct CopyCataloguingScenarioTests {
  static let record = SRUAnswer.record(
    leader: "00000nam  2200000   450 ", controlFields: [("001", "RU\\NLR\\bibl\\77")],
    dataFields: [
      ("010", "  ", [("a", "978-5-389-04934-5")]),
      ("200", "1 ", [("a", "Война и мир"), ("e", "роман")]),
      ("210", "  ", [("a", "Москва"), ("c", "АСТ"), ("d", "2013")]),
      ("215", "  ", [("a", "1300 с.")]),
      ("606", "1 ", [("a", "Художественная литература")]),
      ("700", " 1", [("a", "Толстой"), ("b", "Л. Н.")]),
      ("899", "  ", [("a", "НЛР"), ("p", "77")]),
    ])

  /// An SRU server answering every search with the one record, in Windows-1251.
  func catalogue() throws -> LocalHTTPServer {
    let bytes = try #require(
      SRUAnswer.searchRetrieve([Self.record], encoding: "windows-1251").data(using: .windowsCP1251))
    return try LocalHTTPServer { _ in .init(bytes: Array(bytes), contentType: "text/xml") }
  }

  func desk(_ server: LocalHTTPServer, order: String? = nil) throws -> DeskHarness {
    try DeskHarness(lookup: { store in
      try? store.copyCataloguing.add(
        CatalogueTarget(name: "nlr", endpoint: .sru(url: server.baseURL + "/nlr"), syntax: .rusmarc))
      if let order { try? store.policy.setSetting(ISBNLookup.orderKey, order) }
      return ImmediateLookupService(store: store, lookup: ISBNLookup.configured(store: store, environment: [:]))
    })
  }

  @Test func f5SearchesTheTargetsAndTheChosenRecordFillsTheForm() throws {
    let server = try catalogue()
    let desk = try desk(server)
    desk.press(.character("b"), .character("n"), .tab, .tab, .tab, .tab)
    desk.type("Война и мир")
    desk.press(.function(5))
    #expect(desk.shown.contains("Found in libraries' catalogues"))
    #expect(desk.shown.contains("> [nlr] Толстой Л. Н. Война и мир : роман. — Москва : АСТ, 2013"))
    let query = try #require(server.requests.first)
    #expect(query.contains("query=dc.title%3D%22"), "searched by the title typed")
    desk.press(.enter)
    let form = try #require(desk.app.top as? BookFormScreen)
    #expect(form.editors[.title]?.text == "Война и мир : роман")
    #expect(form.editors[.authorSurname]?.text == "Толстой")
    #expect(form.editors[.isbn]?.text == "978-5-389-04934-5")
    #expect(form.editors[.pages]?.text == "1300")
    #expect(form.focusedField == .inventoryNumber, "the inventory number is what is left to type")
    #expect(desk.shown.contains("Filled from nlr"))
    desk.type("В-100")
    desk.press(.function(2))
    let kept = try #require(try desk.store.books.kept(forBook: "В-100"))
    #expect(kept.record.contains("#606: ^aХудожественная литература"), "the subject heading is kept with the book")
    #expect(!kept.record.contains("#899"), "the other library's holdings are not")
    #expect(kept.record.contains("#920: PAZK"), "IRBIS opens it in the worksheet of books")
    #expect(!kept.record.contains("#1: "), "the other library's control number stays there")
    #expect(kept.copy.contains("В-100"))
  }

  @Test func aScannedISBNFoundAtATargetKeepsItsRecord() throws {
    let server = try catalogue()
    let desk = try desk(server, order: "nlr")
    desk.scan("9785389049345")
    let form = try #require(desk.app.top as? BookFormScreen)
    #expect(form.editors[.title]?.text == "Война и мир : роман")
    #expect(desk.shown.contains("Found in nlr"))
    #expect(server.requests.first?.contains("query=bath.isbn%3D%229785389049345%22") == true)
    desk.type("В-101")
    desk.press(.function(2))
    #expect(try desk.store.books.kept(forBook: "В-101")?.record.contains("#606:") == true)
  }

  /// No catalogue could answer: the search waits, and when the desk's retry finds the network
  /// back, the records show on the form that asked, without another F5.
  @Test func aSearchThatWaitedForTheNetworkShowsItsRecordsWhenTheyCome() throws {
    let closed = try LoopbackSocket.freePort()
    let desk = try DeskHarness(lookup: { store in
      try? store.copyCataloguing.add(
        CatalogueTarget(name: "nlr", endpoint: .sru(url: "http://127.0.0.1:\(closed)/nlr"), syntax: .rusmarc))
      try? store.copyCataloguing.add(
        CatalogueTarget(
          name: "rsl", endpoint: .z3950(host: "127.0.0.1", port: Int(closed), database: "rsl01"), syntax: .rusmarc))
      return ImmediateLookupService(store: store, lookup: ISBNLookup.configured(store: store, environment: [:]))
    })
    desk.press(.character("b"), .character("n"), .tab, .tab, .tab, .tab)
    desk.type("Война и мир")
    desk.press(.function(5))
    let waiting = desk.text(rows: 30, columns: 200)
    #expect(waiting.contains("the search waits for the network"), "\(waiting)")
    #expect(
      waiting.contains("nlr cannot be reached") && waiting.contains("rsl cannot be reached"), "each target's reason")
    // The network is back: the catalogue answers where it is now.
    let server = try catalogue()
    try desk.store.copyCataloguing.remove(name: "nlr")
    try desk.store.copyCataloguing.remove(name: "rsl")
    try desk.store.copyCataloguing.add(
      CatalogueTarget(name: "nlr", endpoint: .sru(url: server.baseURL + "/nlr"), syntax: .rusmarc))
    desk.now += DeskApp.retryIntervalMilliseconds
    desk.idle()
    desk.idle()
    #expect(desk.shown.contains("Found in libraries' catalogues"))
    #expect(desk.shown.contains("> [nlr] Толстой Л. Н. Война и мир : роман."))
    #expect(try desk.store.copyCataloguing.pending().isEmpty)
  }

  /// The answers of searches held back until the test lets them go: a new search still under way
  /// when the retry of an older one brings that one's records.
  final class HeldSearches: LookupService {
    let inner: ImmediateLookupService
    var holding = false
    private var held: [CopySearchAnswer] = []
    private var released: [CopySearchAnswer] = []

    init(_ inner: ImmediateLookupService) { self.inner = inner }
    func submit(_ isbn: ISBN, generation: Int) { inner.submit(isbn, generation: generation) }
    func takeResults() -> [LookupResult] { inner.takeResults() }
    func search(_ query: CopyQuery, generation: Int) {
      inner.search(query, generation: generation)
      if holding { held += inner.takeSearchAnswers() }
    }
    func takeSearchAnswers() -> [CopySearchAnswer] {
      defer { released = [] }
      return released + inner.takeSearchAnswers()
    }
    func retryPending() { inner.retryPending() }
    func release() {
      released += held
      held = []
    }
  }

  /// A search that waited, then a new one under way when the retry brings the first one's records:
  /// the form waits for the search the librarian asked last, and shows its records.
  @Test func aRetriedAnswerNeverTakesTheAnswerOfANewerSearch() throws {
    let closed = try LoopbackSocket.freePort()
    var service: HeldSearches?
    let desk = try DeskHarness(lookup: { store in
      try? store.copyCataloguing.add(
        CatalogueTarget(name: "nlr", endpoint: .sru(url: "http://127.0.0.1:\(closed)/nlr"), syntax: .rusmarc))
      let held = HeldSearches(
        ImmediateLookupService(store: store, lookup: ISBNLookup.configured(store: store, environment: [:])))
      service = held
      return held
    })
    desk.press(.character("b"), .character("n"), .tab, .tab, .tab, .tab)
    desk.type("Война")
    desk.press(.function(5))
    #expect(desk.text(rows: 30, columns: 200).contains("the search waits for the network"))
    let server = try catalogue()
    try desk.store.copyCataloguing.remove(name: "nlr")
    try desk.store.copyCataloguing.add(
      CatalogueTarget(name: "nlr", endpoint: .sru(url: server.baseURL + "/nlr"), syntax: .rusmarc))
    // A second search, its answer held back; then the first one's, retried.
    service?.holding = true
    desk.type(" и мир")
    desk.press(.function(5))
    service?.retryPending()
    desk.idle()
    #expect(!desk.shown.contains("Found in libraries' catalogues"), "the older search's answer is not shown")
    #expect(desk.shown.contains("Searching other libraries' catalogues"))
    service?.release()
    desk.idle()
    #expect(desk.shown.contains("Found in libraries' catalogues"), "the search asked last is answered")
  }

  @Test func f5WithNothingTypedOrNoTargetSaysWhatToDo() throws {
    let server = try catalogue()
    let desk = try desk(server)
    desk.press(.character("b"), .character("n"), .function(5))
    #expect(desk.shown.contains("Type a title or an author, then F5"))
    #expect(server.requests.isEmpty)
    let bare = try DeskHarness(lookup: { store in
      ImmediateLookupService(store: store, lookup: ISBNLookup.configured(store: store, environment: [:]))
    })
    bare.press(.character("b"), .character("n"), .tab, .tab, .tab, .tab)
    bare.type("Война")
    bare.press(.function(5))
    #expect(bare.shown.contains("No library catalogue to search: add one with circdesk target add"))
  }

  /// Another library's record with a wrong ISBN fills the form, and the status says so at once,
  /// not only when F2 refuses it.
  @Test func aCopiedRecordsWrongISBNIsSaidWhenItFills() throws {
    let record = SRUAnswer.record(
      leader: "00000nam  2200000   450 ",
      dataFields: [("010", "  ", [("a", "978-5-17-090335-2")]), ("200", "1 ", [("a", "Мастер и Маргарита")])])
    let server = try LocalHTTPServer { _ in
      .init(bytes: Array(SRUAnswer.searchRetrieve([record]).utf8), contentType: "text/xml")
    }
    let desk = try desk(server)
    desk.press(.character("b"), .character("n"), .tab, .tab, .tab, .tab)
    desk.type("Мастер")
    desk.press(.function(5), .enter)
    let text = desk.text(rows: 30, columns: 200)
    #expect(text.contains("The record's ISBN 978-5-17-090335-2 has a wrong check digit (expected 1)"), "\(text)")
  }
}
