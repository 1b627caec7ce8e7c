/// A key as the desk understands it, whatever terminal sent it.
public enum Key: Hashable, Sendable {
  case character(Character)
  case enter, escape, tab, backTab, backspace, delete
  case up, down, left, right, home, end, pageUp, pageDown, insert
  case function(Int)
  /// Ctrl and a letter, lower case: `.control("u")` for Ctrl-U.
  case control(Character)
}

/// What reaches the app: a key with the moment it arrived (for telling a scanner's burst from
/// typing), a new terminal size, or the answer to background work.
public enum Event: Sendable {
  /// Bytes as the terminal sent them (the driver's only input): decoded into keys by the app.
  case input([UInt8], atMilliseconds: Int64)
  /// A key already decoded (tests that speak of keys rather than bytes).
  case key(Key, atMilliseconds: Int64)
  case resize(rows: Int, columns: Int)
  case searchFinished(SearchResult)
  case tick(atMilliseconds: Int64)
}
