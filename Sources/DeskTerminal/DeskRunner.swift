import CDeskTerminal
import DeskUI

#if canImport(Glibc)
  import Glibc
#endif

/// Runs the desk on the terminal until the librarian quits or a signal (SIGINT, SIGTERM, SIGHUP)
/// asks it to stop; the terminal is restored on every way out.
public enum DeskRunner {
  /// Returns the signal that stopped the desk, or 0 when the librarian quit.
  @discardableResult
  public static func run(_ app: DeskApp, colors: Bool) throws(TerminalError) -> Int32 {
    cdt_install_signal_handlers()
    let terminal = try CursesTerminal(colors: colors, readTimeoutMilliseconds: 20)
    defer { terminal.stop() }
    let (rows, columns) = terminal.size
    app.handle(.resize(rows: rows, columns: columns))
    while true {
      let signal = cdt_pending_signal()
      if signal != 0 { return signal }
      if app.needsRedraw {
        let (rows, columns) = terminal.size
        terminal.paint(app.render(rows: rows, columns: columns))
      }
      if app.takeBell() { terminal.ring() }
      let now = monotonicMilliseconds()
      // No key within the read timeout is a tick: background answers may have arrived.
      let event = terminal.readEvent(atMilliseconds: now) ?? .tick(atMilliseconds: now)
      if terminal.isGone { return SIGHUP }
      guard app.handle(event) else { return 0 }
    }
  }

  static func monotonicMilliseconds() -> Int64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec / 1_000_000)
  }
}
