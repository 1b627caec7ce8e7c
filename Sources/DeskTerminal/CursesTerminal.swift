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

  /// The next event, or nil when no key came within the read timeout.
  public func readEvent(atMilliseconds now: Int64) -> Event? {
    var code: UInt32 = 0
    switch cdt_read(&code) {
    case -1:
      isGone = true
      return nil
    case 1:
      return .key(CursesTerminal.key(character: code), atMilliseconds: now)
    case 2:
      if Int(code) == Int(CDT_KEY_RESIZE) {
        let (rows, columns) = size
        return .resize(rows: rows, columns: columns)
      }
      guard let key = CursesTerminal.key(code: code) else { return nil }
      return .key(key, atMilliseconds: now)
    default:
      return nil
    }
  }

  static func key(character code: UInt32) -> Key {
    switch code {
    case 9: return .tab
    case 10, 13: return .enter
    case 27: return .escape
    case 8, 127: return .backspace
    case 1...26: return .control(Character(Unicode.Scalar(code + 96)!))
    default:
      return Unicode.Scalar(code).map { .character(Character($0)) } ?? .character("\u{FFFD}")
    }
  }

  static func key(code: UInt32) -> Key? {
    switch Int(code) {
    case Int(CDT_KEY_UP): return .up
    case Int(CDT_KEY_DOWN): return .down
    case Int(CDT_KEY_LEFT): return .left
    case Int(CDT_KEY_RIGHT): return .right
    case Int(CDT_KEY_HOME): return .home
    case Int(CDT_KEY_END): return .end
    case Int(CDT_KEY_PAGE_UP): return .pageUp
    case Int(CDT_KEY_PAGE_DOWN): return .pageDown
    case Int(CDT_KEY_BACKSPACE): return .backspace
    case Int(CDT_KEY_DELETE): return .delete
    case Int(CDT_KEY_ENTER): return .enter
    case Int(CDT_KEY_BACK_TAB): return .backTab
    default:
      let f0 = Int(CDT_KEY_F0)
      if Int(code) > f0 && Int(code) <= f0 + 24 { return .function(Int(code) - f0) }
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
