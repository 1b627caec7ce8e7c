import DeskTestSupport
import Testing

@testable import DeskTerminal
@testable import DeskUI

/// The real ncurses driver, on a virtual terminal that writes to /dev/null: what it paints is
/// read back from curses' own screen, cell by cell.
@Suite(.serialized) struct CursesDriverTests {
  @Test func paintsTheBufferIntoCurses() throws {
    let desk = try DeskHarness()
    desk.press(.character("b"))
    let buffer = desk.screen(rows: 24, columns: 80)
    let terminal = try CursesTerminal(virtualTerminal: "xterm-256color", rows: 24, columns: 80)
    defer { terminal.stop() }
    #expect(terminal.size.rows == 24 && terminal.size.columns == 80)
    terminal.paint(buffer)
    for row in 0..<24 {
      #expect(terminal.readRow(row) == buffer.text(row: row), "row \(row)")
    }
    // The issued and overdue rows (5 and 6) are bold; the selected row (3) is reversed.
    #expect(terminal.readRow(5).hasPrefix(" * 100235    Булгаков М. А."))
    #expect(terminal.attributes(row: 5, column: 3).bold)
    #expect(terminal.attributes(row: 6, column: 3).underline)
    #expect(terminal.attributes(row: 3, column: 3).reverse)
    #expect(!terminal.attributes(row: 4, column: 3).bold)
  }
}
