import DeskDomain
import DeskTestSupport
import Testing

@testable import DeskUI

/// Every screen drawn at 80×24 and at a wide size, with Cyrillic data, against golden text.
@Suite struct ScreenTests {
  @Test(arguments: [(24, 80), (40, 132)])
  func everyScreen(rows: Int, columns: Int) throws {
    let desk = try DeskHarness()
    let size = "\(columns)x\(rows)"
    #expect(try matchesGolden(desk.text(rows: rows, columns: columns), "home-\(size).txt"))
    desk.press(.character("b"))
    #expect(try matchesGolden(desk.text(rows: rows, columns: columns), "book-list-\(size).txt"))
    desk.press(.down, .down, .enter)
    #expect(try matchesGolden(desk.text(rows: rows, columns: columns), "book-detail-\(size).txt"))
    desk.press(.escape, .character("n"))
    #expect(try matchesGolden(desk.text(rows: rows, columns: columns), "book-form-\(size).txt"))
    desk.press(.function(2))
    #expect(try matchesGolden(desk.text(rows: rows, columns: columns), "alert-\(size).txt"))
    desk.press(.enter, .escape, .escape, .character("r"))
    #expect(try matchesGolden(desk.text(rows: rows, columns: columns), "reader-list-\(size).txt"))
    desk.press(.down, .enter)
    #expect(try matchesGolden(desk.text(rows: rows, columns: columns), "reader-detail-\(size).txt"))
    desk.press(.character("e"))
    #expect(try matchesGolden(desk.text(rows: rows, columns: columns), "reader-form-\(size).txt"))
    desk.press(.escape, .escape, .escape, .character("d"))
    desk.type("18")
    desk.press(.enter)
    #expect(try matchesGolden(desk.text(rows: rows, columns: columns), "desk-\(size).txt"))
    desk.press(.function(1))
    #expect(try matchesGolden(desk.text(rows: rows, columns: columns), "help-\(size).txt"))
  }

  @Test func russianInterface() throws {
    let desk = try DeskHarness(language: .russian)
    #expect(try matchesGolden(desk.text(), "home-ru.txt"))
    desk.press(.character("и"))  // b under a Russian layout
    #expect(try matchesGolden(desk.text(), "book-list-ru.txt"))
    desk.press(.character("n"), .function(2))
    #expect(desk.text().contains("Поле «Инвентарный номер» обязательно"))
  }

  @Test func issuedAndOverdueRowsStandOut() throws {
    let desk = try DeskHarness()
    desk.press(.character("b"))
    let screen = desk.screen()
    // Rows: 0 title, 1 search, 2 header, then books by author: Austen, Азбука, Булгаков (out),
    // Достоевский (overdue), Ёлкин, Лермонтов.
    #expect(screen.text(row: 5).hasPrefix(" * 100235"))
    #expect(screen.text(row: 6).hasPrefix(" ! 100236"))
    let issued = try #require(screen.style(row: 5, of: "100235"))
    let overdue = try #require(screen.style(row: 6, of: "100236"))
    let plain = try #require(screen.style(row: 4, of: "100239"))
    #expect(issued.foreground == .yellow && issued.bold)
    #expect(overdue.foreground == .red && overdue.bold && overdue.underline)
    #expect(plain == .plain)
    #expect(screen.style(row: 3, of: "100238")?.reverse == true, "the selected row")

    // Without colour the same rows keep their attributes and markers.
    let mono = try DeskHarness(colors: false)
    mono.press(.character("b"))
    let monoScreen = mono.screen()
    #expect(monoScreen.style(row: 5, of: "100235") == Style(bold: true))
    #expect(monoScreen.style(row: 6, of: "100236") == Style(bold: true, underline: true))
  }

  @Test func aTerminalTooSmallSaysSoAndRecovers() throws {
    let desk = try DeskHarness()
    let small = desk.text(rows: 10, columns: 40)
    #expect(small.contains("The terminal is too small (40×10)"))
    #expect(desk.text(rows: 24, columns: 80).contains("Books"))
  }

  @Test func controlCharactersInDataAreShownAsPlaceholders() throws {
    let desk = try DeskHarness(seed: { store in
      try store.books.add(bookDraft("1", "Evil\u{1B}[2J ti\u{07}tle"))
    })
    desk.press(.character("b"))
    let screen = desk.screen()
    #expect(!screen.text.contains("\u{1B}"))
    #expect(screen.text.contains("Evil\u{241B}[2J ti\u{2407}tle"))
  }

  /// A bidirectional override in a record would turn the rest of the terminal's line around: it
  /// shows as a placeholder, and the columns after it stay where they were.
  @Test func bidiControlsInDataAreShownAsPlaceholders() throws {
    let desk = try DeskHarness(seed: { store in
      try store.books.add(bookDraft("1", "abc\u{202E}def\u{202C} \u{2067}x\u{2069}\u{200F}", surname: "Ko\u{200E}ch"))
    })
    desk.press(.character("b"))
    let screen = desk.screen()
    for control in ["\u{202E}", "\u{202C}", "\u{2067}", "\u{2069}", "\u{200F}", "\u{200E}"] {
      #expect(!screen.text.contains(control))
    }
    #expect(screen.text.contains("abc\u{FFFD}def\u{FFFD} \u{FFFD}x\u{FFFD}\u{FFFD}"))
    // The title starts under its heading: the placeholder in the author takes one column.
    let lines = screen.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let row = try #require(lines.first { $0.contains("abc") })
    let title = try #require(row.range(of: "abc"))
    let heading = try #require(lines[2].range(of: "Title"))
    #expect(
      row.distance(from: row.startIndex, to: title.lowerBound)
        == lines[2].distance(from: lines[2].startIndex, to: heading.lowerBound))
    var editor = LineEditor("a\u{202E}b")
    #expect(editor.visible(width: 10).cursorColumn == 3, "the cursor after the placeholder")
    editor.handle(.left)
    #expect(editor.visible(width: 10).cursorColumn == 2)
  }

  /// Latin and Cyrillic text is written cell by cell without grapheme breaking; what shows must
  /// be what the general rule gives: the text, or cut with `…` to exactly the width. Text with a
  /// combining mark, a wide character or a control character goes the general way.
  @Test func plainTextIsCutAsTheGeneralRuleCutsIt() {
    let texts = [
      "", "a", "Tolstoy", "Толстой, Лев Николаевич", "Ёж · № 5 — «Война и мир»", "über café",
      "e\u{301}cole", "東京の本", "Tab\there", "\u{AD}soft",
    ]
    for text in texts {
      for width in 1...30 {
        var buffer = ScreenBuffer(rows: 1, columns: 40)
        let written = buffer.write(text, row: 0, column: 2, width: width)
        let expected = text.visibleForTerminal.truncated(toWidth: width)
        #expect(written == expected.displayWidth, "\(text) in \(width)")
        #expect(buffer.text(row: 0) == ("  " + expected).trimmingTrailingBlanks, "\(text) in \(width)")
      }
    }
  }
}

extension String {
  fileprivate var trimmingTrailingBlanks: String {
    var text = self
    while text.last == " " { text.removeLast() }
    return text
  }
}
