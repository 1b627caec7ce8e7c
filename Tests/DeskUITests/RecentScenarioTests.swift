import DeskDomain
import DeskStorage
import DeskTestSupport
import Testing

@testable import DeskUI

/// The records opened lately, above the lists, kept across restarts; and an ISBN the library
/// lacks, offered as a new book.
@Suite struct RecentScenarioTests {
  @Test func recentlyOpenedBooksComeFirstAndSurviveARestart() throws {
    let desk = try DeskHarness()
    desk.press(.character("b"), .down, .down, .enter, .escape)  // Булгаков
    desk.press(.character("/"))
    desk.type("лерм")
    desk.press(.enter, .enter, .escape)  // Лермонтов, from a search
    desk.press(.escape)  // clear the search: the recent block shows again
    let screen = desk.shown
    #expect(screen.contains("Opened lately (↑ to choose):"))
    let lines = screen.split(separator: "\n").map(String.init)
    let heading = try #require(lines.firstIndex { $0.contains("Opened lately") })
    #expect(lines[heading + 1].contains("100234"), "the latest first")
    #expect(lines[heading + 2].contains("100235"))
    #expect(lines[heading + 3].contains("All:"))
    // Up from the top of the list goes into the recent block.
    desk.press(.home, .up, .enter)
    #expect((desk.app.top as? BookDetailScreen)?.inventory == "100235")

    // A new desk on the same file remembers.
    let again = DeskApp(context: desk.app.context, search: ImmediateSearchService(store: desk.store))
    again.handle(.key(.character("b"), atMilliseconds: 10_000))
    again.handle(.tick(atMilliseconds: 10_500))
    #expect(again.render(rows: 24, columns: 80).text.contains("Opened lately"))
  }

  @Test func recentReadersToo() throws {
    let desk = try DeskHarness()
    desk.press(.character("r"), .down, .enter, .escape)
    #expect(desk.shown.contains("Opened lately"))
    #expect(try desk.store.readers.recent().map(\.reader.ticket) == ["18"])
  }

  @Test func anISBNTheLibraryLacksIsOfferedAsANewBook() throws {
    let desk = try DeskHarness()
    desk.press(.character("b"), .character("/"))
    desk.type("978-0-14-044913-6")
    desk.press(.enter)  // done typing: the answer stays
    #expect(desk.shown.contains("This ISBN is not in the library: Enter adds it, looked up"))
    desk.press(.enter)
    let form = try #require(desk.app.top as? BookFormScreen)
    #expect(form.editors[.isbn]?.text == "978-0-14-044913-6")
  }
}
