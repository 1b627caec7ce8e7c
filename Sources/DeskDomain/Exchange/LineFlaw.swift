/// What is wrong with a line of a text file read for an import: its record is refused with it.
public enum LineFlaw: Equatable, Sendable {
  /// Bytes that are not valid in the file's encoding.
  case invalidBytes
  /// A NUL byte: a value would be cut short at it, or read as another.
  case nul
  /// Longer than the limit (its length in bytes).
  case tooLong(Int, limit: Int)
  /// No line break within `bytes` bytes: not a text file; nothing follows.
  case unending(bytes: Int)
}
