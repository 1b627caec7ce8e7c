import DeskDomain
import DeskLookup
import DeskStorage
import DeskTestSupport
import Foundation
import Testing

@testable import DeskUI

/// The New Book form filling itself from a catalogue on 127.0.0.1, and never overwriting what
/// the librarian typed.
@Suite struct LookupScenarioTests {
  static let answer = """
    {"kind": "books#volumes", "totalItems": 1, "items": [{"volumeInfo": {"title": "Преступление и наказание",
      "authors": ["Фёдор Михайлович Достоевский"], "publisher": "Азбука", "publishedDate": "2016", "pageCount": 608,
      "industryIdentifiers": [{"type": "ISBN_13", "identifier": "9785389049345"}]}}]}
    """

  func catalogue() throws -> LocalHTTPServer {
    try LocalHTTPServer { target in
      target.contains("9785389049345") && target.hasPrefix("/google")
        ? .init(body: LookupScenarioTests.answer)
        : .init(body: target.hasPrefix("/google") ? "{\"totalItems\": 0}" : "{}")
    }
  }

  func desk(_ server: LocalHTTPServer) throws -> DeskHarness {
    try DeskHarness(lookup: { store in
      ImmediateLookupService(
        store: store,
        lookup: ISBNLookup(providers: [
          .googleBooks(baseURL: server.baseURL + "/google"), .openLibrary(baseURL: server.baseURL + "/ol"),
        ]))
    })
  }

  @Test func aScannedISBNFillsTheNewBookForm() throws {
    let server = try catalogue()
    let desk = try desk(server)
    desk.scan("9785389049345")
    let form = try #require(desk.app.top as? BookFormScreen)
    #expect(form.editors[.title]?.text == "Преступление и наказание")
    #expect(form.editors[.authorSurname]?.text == "Достоевский")
    #expect(form.editors[.authorInitials]?.text == "Ф. М.")
    #expect(form.editors[.pages]?.text == "608")
    #expect(desk.shown.contains("Found in Google Books: 6 fields filled"))
    #expect(form.focusedField == .inventoryNumber, "the librarian goes on with the inventory number")
  }

  @Test func typedFieldsAreNeverOverwrittenOnlyOffered() throws {
    let server = try catalogue()
    let desk = try desk(server)
    desk.press(.character("b"), .character("n"), .tab, .tab, .tab, .tab)
    desk.type("Моё название")
    desk.press(.backTab, .backTab, .backTab)
    desk.type("9785389049345")
    // Leaving the ISBN field starts the look-up; the form stays usable meanwhile.
    desk.press(.tab)
    let form = try #require(desk.app.top as? BookFormScreen)
    #expect(form.editors[.title]?.text == "Моё название", "what was typed stays")
    #expect(form.editors[.authorSurname]?.text == "Достоевский", "an empty field is filled")
    #expect(desk.shown.contains("differs from what was typed: Title (F5 takes the found values)"))
    #expect(form.offered[.title] == "Преступление и наказание")
    desk.press(.function(5))
    #expect(form.editors[.title]?.text == "Преступление и наказание", "taken when the librarian says so")
    #expect(server.requests.count == 1)
  }

  @Test func withoutNetworkTheFormSaysTheLookUpWaits() throws {
    let desk = try DeskHarness(lookup: { store in
      ImmediateLookupService(
        store: store,
        lookup: ISBNLookup(providers: [.googleBooks(baseURL: "http://127.0.0.1:9/google")], timeoutMilliseconds: 500))
    })
    desk.scan("9785389049345")
    #expect(desk.shown.contains("Look-up waits for the network"))
    #expect(try desk.store.books.pendingLookups().count == 1)
    #expect(desk.app.top is BookFormScreen, "the form is there to fill by hand")
  }
}
