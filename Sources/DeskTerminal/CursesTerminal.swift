import CDeskTerminal
import DeskUI

#if canImport(Glibc)
  import Glibc
#endif

/// The one ncurses driver: paints screen buffers and reads keys. Everything on screen is drawn
/// by `DeskApp` into a buffer first; this type only copies it to the terminal.
public final class CursesTerminal {
  public let hasColors: Bool

  /// Starts curses on the process's terminal. `colors` false keeps to attributes (`NO_COLOR`).
  public init(colors: Bool, readTimeoutMilliseconds: Int32 = 50) throws(TerminalError) {
    cdt_setup_locale()
    guard cdt_start(25, readTimeoutMilliseconds) == 0 else { throw .cannotStart }
    hasColors = colors && cdt_start_colors() == 1
  }

  /// Starts curses on a virtual terminal that writes to /dev/null: for tests without a terminal.
  public init(virtualTerminal term: String, rows: Int32, columns: Int32) throws(TerminalError) {
    cdt_setup_locale()
    guard cdt_start_virtual(term, rows, columns) == 0 else { throw .cannotStart }
    hasColors = cdt_start_colors() == 1
  }

  deinit {
    cdt_stop()
  }

  public func stop() {
    cdt_stop()
  }

  public var size: (rows: Int, columns: Int) {
    var rows: Int32 = 0
    var columns: Int32 = 0
    cdt_size(&rows, &columns)
    return (Int(rows), Int(columns))
  }

  /// Copies the buffer to the terminal; ncurses sends only what changed.
  public func paint(_ buffer: ScreenBuffer) {
    cdt_erase()
    for row in 0..<buffer.rows {
      var column = 0
      while column < buffer.columns {
        let style = buffer[row, column].style
        var text = ""
        let start = column
        while column < buffer.columns && buffer[row, column].style == style {
          text += buffer[row, column].text
          column += 1
        }
        draw(text, row: row, column: start, style: style)
      }
    }
    if let cursor = buffer.cursor {
      cdt_cursor(1, Int32(cursor.row), Int32(cursor.column))
    } else {
      cdt_cursor(0, 0, 0)
    }
    cdt_refresh()
  }

  /// Rings the terminal's bell, or flashes the screen where the terminal has no bell.
  public func ring() {
    cdt_bell()
  }

  private func draw(_ text: String, row: Int, column: Int, style: Style) {
    var attributes: Int32 = 0
    if style.bold { attributes |= 1 }
    if style.reverse { attributes |= 2 }
    if style.underline { attributes |= 4 }
    if style.dim { attributes |= 8 }
    var pair: Int32 = 0
    if hasColors && (style.foreground != nil || style.background != nil) {
      pair = cdt_pair(Int32(style.foreground?.rawValue ?? -1), Int32(style.background?.rawValue ?? -1))
    }
    cdt_draw(Int32(row), Int32(column), text, attributes, pair)
  }

  /// True once the terminal has gone away (its window closed, the connection dropped).
  public private(set) var isGone = false

  /// The next event, or nil when no byte came within the read timeout (with `waiting` false: when
  /// none is waiting now). Keys come as the bytes the terminal sent; the app decodes them
  /// (`KeyDecoder`), so tests can send the same bytes.
  public func readEvent(atMilliseconds now: Int64, waiting: Bool = true) -> Event? {
    var buffer = [UInt8](repeating: 0, count: 4096)
    let count = cdt_read_bytes(&buffer, Int32(buffer.count), waiting ? 1 : 0)
    switch count {
    case -1:
      isGone = true
      return nil
    case -2:
      let (rows, columns) = size
      return .resize(rows: rows, columns: columns)
    case 1...:
      return .input(Array(buffer.prefix(Int(count))), atMilliseconds: now)
    default:
      return nil
    }
  }

  /// Reads back a row of the terminal's own screen: for tests of the driver.
  public func readRow(_ row: Int) -> String {
    var buffer = [UInt32](repeating: 0, count: 1024)
    let count = cdt_read_line(Int32(row), &buffer, 1024)
    var text = ""
    for code in buffer.prefix(Int(count)) {
      if let scalar = Unicode.Scalar(code) { text.unicodeScalars.append(scalar) }
    }
    while text.last == " " { text.removeLast() }
    return text
  }

  /// The attributes of a cell of the terminal's own screen: bold, reverse, underline, dim.
  public func attributes(row: Int, column: Int) -> (bold: Bool, reverse: Bool, underline: Bool) {
    let bits = cdt_cell_attributes(Int32(row), Int32(column))
    return (bits & 1 != 0, bits & 2 != 0, bits & 4 != 0)
  }
}

public enum TerminalError: Error, CustomStringConvertible {
  case cannotStart

  public var description: String {
    "Cannot start the full-screen desk: the terminal is unknown (check TERM) or not a terminal"
  }
}
