import DeskDomain
import DeskStorage
import DeskTestSupport
import Foundation
import Testing

@testable import DeskLookup

/// Look-ups against a real HTTP server on 127.0.0.1 that plays back recorded answers.
@Suite struct LookupTests {
  let folder = TemporaryFolder()
  let store: LibraryStore

  init() throws {
    store = try LibraryStore(path: folder.file("library.sqlite"), clock: TestClock())
  }

  /// A server answering Google Books at /google and Open Library at /openlibrary from the tables.
  func server(google: [String: LocalHTTPServer.Response], openLibrary: [String: LocalHTTPServer.Response]) throws
    -> LocalHTTPServer
  {
    try LocalHTTPServer { target in
      let table = target.hasPrefix("/google") ? google : openLibrary
      for (isbn, response) in table where target.contains(isbn) { return response }
      return LocalHTTPServer.Response(
        body: target.hasPrefix("/google") ? Answers.googleEmpty : Answers.openLibraryEmpty)
    }
  }

  func lookup(_ server: LocalHTTPServer, timeout: Int = 2000) -> ISBNLookup {
    ISBNLookup(
      providers: [
        .googleBooks(baseURL: server.baseURL + "/google"), .openLibrary(baseURL: server.baseURL + "/openlibrary"),
      ], timeoutMilliseconds: timeout)
  }

  @Test func aRussianBookFromGoogleBooks() throws {
    let server = try server(google: ["9785170795857": .init(body: Answers.googleLermontov)], openLibrary: [:])
    let outcome = lookup(server).lookup(try ISBN("978-5-17-079585-7"), in: store)
    guard case .found(let facts, let cached) = outcome else {
      Issue.record("\(outcome)")
      return
    }
    #expect(!cached)
    #expect(facts.provider == "Google Books")
    let values = facts.fieldValues
    #expect(values[.title] == "Герой нашего времени : роман")
    #expect(values[.authorSurname] == "Лермонтов")
    #expect(values[.authorInitials] == "М. Ю.")
    #expect(values[.publisher] == "АСТ")
    #expect(values[.year] == "2018")
    #expect(values[.pages] == "414")
    #expect(server.requests.count == 1)
    #expect(server.requests.first == "/google?q=isbn%3A9785170795857")
  }

  @Test func anEnglishBookFromOpenLibraryWhenGoogleHasNone() throws {
    let server = try server(google: [:], openLibrary: ["9780141439518": .init(body: Answers.openLibraryAusten)])
    guard case .found(let facts, _) = lookup(server).lookup(try ISBN("0-14-143951-3"), in: store) else {
      Issue.record("found")
      return
    }
    #expect(facts.provider == "Open Library")
    #expect(facts.fieldValues[.authorSurname] == "Austen")
    #expect(facts.fieldValues[.authorInitials] == "J.")
    #expect(facts.city == "London")
    #expect(facts.year == 2003)
    #expect(
      server.requests == [
        "/google?q=isbn%3A9780141439518",
        "/openlibrary?bibkeys=ISBN%3A9780141439518&format=json&jscmd=data",
      ])
  }

  @Test func severalAuthorsAreKept() throws {
    let server = try server(google: [:], openLibrary: ["9780060853983": .init(body: Answers.openLibraryGoodOmens)])
    guard case .found(let facts, _) = lookup(server).lookup(try ISBN("9780060853983"), in: store) else {
      Issue.record("found")
      return
    }
    #expect(facts.authors == ["Terry Pratchett", "Neil Gaiman"])
    #expect(facts.fieldValues[.authorSurname] == "Pratchett")
    guard case .found(let cached) = try store.books.cachedLookup(try ISBN("9780060853983")) else {
      Issue.record("kept")
      return
    }
    #expect(cached.authors == ["Terry Pratchett", "Neil Gaiman"])
  }

  @Test func anAnswerAboutAnotherBookFallsThrough() throws {
    let server = try server(
      google: ["9780141439518": .init(body: Answers.googleOtherBook)],
      openLibrary: ["9780141439518": .init(body: Answers.openLibraryAusten)])
    guard case .found(let facts, _) = lookup(server).lookup(try ISBN("9780141439518"), in: store) else {
      Issue.record("found")
      return
    }
    #expect(facts.provider == "Open Library")
    #expect(facts.title == "Pride and Prejudice")
  }

  @Test func emptyAnswersMeanNotFoundAndAreRemembered() throws {
    let server = try server(google: [:], openLibrary: [:])
    let isbn = try ISBN("9780140449136")
    #expect(lookup(server).lookup(isbn, in: store) == .notFound(cached: false))
    #expect(lookup(server).lookup(isbn, in: store) == .notFound(cached: true))
    #expect(server.requests.count == 2, "the second look-up never asked the network")
  }

  @Test func errorsTimeOutsAndMalformedAnswersQueueTheISBN() throws {
    let isbn = try ISBN("9785170795857")
    let failing = try server(
      google: ["9785170795857": .init(status: 500, body: "{}")],
      openLibrary: ["9785170795857": .init(body: "{\"ISBN:9785170795857\": {\"title\": ")])
    guard case .unavailable(let failures) = lookup(failing).lookup(isbn, in: store) else {
      Issue.record("unavailable")
      return
    }
    #expect(
      failures.map(\.description) == [
        "Google Books answered with HTTP status 500",
        "Open Library sent an answer that is not valid JSON (malformed JSON at byte 33)",
      ])
    #expect(try store.books.pendingLookups().map(\.isbn) == [isbn])

    // The servers answer after a minute: a look-up that waited for them would get their answers,
    // so timing out is giving up at the limit (no clock read here, which a loaded machine slows).
    let slow = try server(
      google: ["9785170795857": .init(body: Answers.googleLermontov, delaySeconds: 60)],
      openLibrary: ["9785170795857": .init(body: Answers.openLibraryEmpty, delaySeconds: 60)])
    guard case .unavailable(let timeouts) = lookup(slow, timeout: 400).lookup(isbn, in: store) else {
      Issue.record("unavailable")
      return
    }
    #expect(timeouts == [.timedOut("Google Books"), .timedOut("Open Library")])
    #expect(try store.books.pendingLookups().first?.attempts == 2)
  }

  @Test func theQueueFilledOfflineDrainsWhenTheServerComesBack() throws {
    let isbn = try ISBN("9785170795857")
    // Nothing listens on this port: the network is "down".
    let down = ISBNLookup(
      providers: [.googleBooks(baseURL: "http://127.0.0.1:9/google"), .openLibrary(baseURL: "http://127.0.0.1:9/ol")])
    try store.books.add(bookDraft("100234", "Герой", isbn: "9785170795857"))
    guard case .unavailable(let failures) = down.lookup(isbn, in: store) else {
      Issue.record("unavailable")
      return
    }
    #expect(failures == [.cannotConnect("Google Books"), .cannotConnect("Open Library")])
    #expect(try store.books.pendingLookups().count == 1)

    let server = try server(google: ["9785170795857": .init(body: Answers.googleLermontov)], openLibrary: [:])
    let results = lookup(server).processPending(in: store)
    #expect(results.count == 1)
    #expect(try store.books.pendingLookups().isEmpty)
    // The book saved meanwhile gets the answer offered, not applied.
    let book = try #require(try store.books.book(inventory: "100234"))
    #expect(book.title == "Герой")
    let offer = try #require(try store.books.lookupOffer(for: book))
    #expect(offer.title == "Герой нашего времени")
    #expect(try store.books.page().first?.hasLookupOffer == true)
    let updated = try store.books.applyLookupOffer(to: book)
    #expect(updated.title == "Герой нашего времени : роман")
    #expect(updated.authorSurname == "Лермонтов")
    #expect(try store.books.lookupOffer(for: updated) == nil)
    // Answered from memory without any network.
    #expect(down.lookup(isbn, in: store) == .found(offer, cached: true))
  }

  @Test(arguments: [
    ("Лермонтов, Михаил Юрьевич", "Лермонтов", "М. Ю."),
    ("Mikhail Lermontov", "Lermontov", "M."),
    ("M. Yu. Lermontov", "Lermontov", "M. Yu."),
    ("Лермонтов М. Ю.", "Лермонтов", "М. Ю."),
    ("J. R. R. Tolkien", "Tolkien", "J. R. R."),
    ("García Márquez, Gabriel", "García Márquez", "G."),
    ("Жан-Поль Сартр", "Сартр", "Ж.-П."),
    ("Homer", "Homer", ""),
    ("Fermat, Pierre de", "Fermat", "P. de"), ("Ludwig van Beethoven", "Beethoven", "L. van"),
    ("Vinci, Leonardo da", "Vinci", "L. da"), ("De Gaulle, Charles", "De Gaulle", "C."),
    ("夏目 漱石", "夏目", "漱石"),
    ("村上 春樹", "村上", "春樹"),
    ("김 영하", "김", "영하"),
  ])
  func splitsAuthorNames(name: String, surname: String, initials: String) {
    #expect(PersonName.split(name) == (surname, initials))
  }

  @Test func findsTheYearInAnyDate() {
    #expect(PersonName.year(in: "2013-08-20") == 2013)
    #expect(PersonName.year(in: "July 28, 2008") == 2008)
    #expect(PersonName.year(in: "c1994") == 1994)
    #expect(PersonName.year(in: "1808") == 1808)
    #expect(PersonName.year(in: "no date") == nil)
  }

  @Test func parsesJSONStrictly() throws {
    #expect(try JSON.parse(Array(#"{"a": [1, "б\u0432", true, null]}"#.utf8))["a"]?.array.count == 4)
    #expect(try JSON.parse(Array(#"{"a": "\ud83d\ude00"}"#.utf8))["a"]?.string == "😀")
    for bad in ["{", "[1,]", "{\"a\" 1}", "tru", "\"unterminated", "{} x"] {
      #expect(throws: JSONError.self, "\(bad)") { try JSON.parse(Array(bad.utf8)) }
    }
  }
}
