import DeskDomain
import DeskStorage
import DeskTestSupport
import Testing

@testable import DeskUI

/// The open screen follows changes other programs make to the library file (the command line,
/// another desk on the same file), without a key.
@Suite struct LiveScreenTests {
  @Test func aChangeByAnotherProgramShowsWithinASecond() throws {
    let desk = try DeskHarness()
    desk.press(.character("b"))
    #expect(!desk.text().contains("Азбука (2-е изд.)"))
    let other = try LibraryStore(path: desk.folder.file("library.sqlite"), clock: TestClock())
    try other.books.update(inventory: "100239") { $0.title = "Азбука (2-е изд.)" }
    try other.circulation.returnBooks(inventories: ["100235"])
    for _ in 0..<6 { desk.idle() }
    let screen = desk.text()
    #expect(screen.contains("Азбука (2-е изд.)"))
    #expect(screen.contains("6 books, 1 out"), "the counts follow")
  }
}

extension LiveScreenTests {
  /// A status line too long loses whole items from its end, never half a number.
  @Test func aLongStatusLineLosesWholeItems() {
    #expect(DeskApp.fitting(" a · 33 books, 12 out · x", width: 15) == " a · 33 books")
    #expect(DeskApp.fitting(" a · 33 books, 12 out · x", width: 30) == " a · 33 books, 12 out · x")
  }
}
