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
    // A tick comes as soon as no key waits after one was handled, and then each time no key comes
    // within the read timeout. Idle work (a list reading its next page ahead) thus starts once the
    // key's screen is painted. A tick only after 20 ms without a key never came while a key was
    // held down repeating faster than that: every page down then read the disk (at ten million
    // books 1.9–3.2 ms median, p99 up to 7.7 on the benchmark's machine, against about 0.6).
    var waiting = false
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
      let event = terminal.readEvent(atMilliseconds: now, waiting: waiting) ?? .tick(atMilliseconds: now)
      if terminal.isGone { return SIGHUP }
      if case .tick = event { waiting = true } else { waiting = false }
      guard app.handle(event) else { return 0 }
    }
  }

  static func monotonicMilliseconds() -> Int64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec / 1_000_000)
  }
}
