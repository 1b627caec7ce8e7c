/// Reads IRBIS plain-text records line by line, from text already decoded. A malformed line
/// makes its record invalid, never guessed at: the reader reports the record's number, the
/// line's number and the reason, skips to the record's end, and goes on.
public struct IRBISReader {
  /// A record not read, and the line where it went wrong.
  public struct Problem: Error, Equatable, Sendable {
    public var record: Int
    public var line: Int
    public var flaw: Flaw
  }

  /// What is wrong with a record's lines.
  public enum Flaw: Equatable, Sendable {
    case empty
    /// The file ends before the record's `*****` line.
    case endsInside
    case blankLine
    /// A line that does not start with `#` and a tag.
    case noTag
    /// No `:` after the tag.
    case noColon
    /// A tag that is not digits.
    case notATag(String)
    /// No space after `#tag:`.
    case noSpace(tag: Int)
    /// The line's bytes (not valid in the file's encoding, a NUL, too long).
    case line(LineFlaw)
  }

  public enum Item: Equatable, Sendable {
    case record(IRBISRecord, number: Int, firstLine: Int)
    case problem(Problem)
  }

  private var current = IRBISRecord()
  private var recordNumber = 1
  private var recordStart = 0
  private var lineNumber = 0
  private var broken: Problem?
  /// The first blank line since the record began: harmless unless a field follows it.
  private var blankLine: Int?

  public init() {}

  /// Feeds one line (without its line break). `problem` says what is wrong with the line's bytes
  /// (not valid in the file's encoding, a NUL, too long): its record is refused with it.
  public mutating func feed(_ line: String, problem: LineFlaw? = nil) -> Item? {
    lineNumber += 1
    if line.hasPrefix("*****") {
      defer { startNextRecord() }
      if let broken { return .problem(broken) }
      if current.fields.isEmpty {
        return .problem(Problem(record: recordNumber, line: lineNumber, flaw: .empty))
      }
      return .record(current, number: recordNumber, firstLine: recordStart)
    }
    let trimmed = line.trimmingWhitespace()
    if trimmed.isEmpty, problem == nil {
      // Blank lines between records are harmless; inside a record they are not.
      if !current.fields.isEmpty, blankLine == nil { blankLine = lineNumber }
      return nil
    }
    if current.fields.isEmpty && broken == nil { recordStart = lineNumber }
    guard broken == nil else { return nil }
    if let problem { return fail(.line(problem)) }
    if let blankLine { return fail(.blankLine, at: blankLine) }
    guard line.hasPrefix("#") else { return fail(.noTag) }
    guard let colon = line.firstIndex(of: ":") else { return fail(.noColon) }
    let tagText = line[line.index(after: line.startIndex)..<colon]
    guard let tag = Int(tagText), tag >= 0, tagText.allSatisfy(\.isASCIIDigit) else {
      return fail(.notATag(String(tagText)))
    }
    let afterColon = line[line.index(after: colon)...]
    guard afterColon.first == " " else { return fail(.noSpace(tag: tag)) }
    current.fields.append(IRBISRecord.Field(tag: tag, value: String(afterColon.dropFirst())))
    return nil
  }

  /// Called at the end of the file: a record without its closing `*****` was cut short.
  public mutating func finish() -> Item? {
    if let broken {
      self.broken = nil
      return .problem(broken)
    }
    guard !current.fields.isEmpty else { return nil }
    return .problem(Problem(record: recordNumber, line: lineNumber, flaw: .endsInside))
  }

  private mutating func fail(_ flaw: Flaw, at line: Int? = nil) -> Item? {
    broken = Problem(record: recordNumber, line: line ?? lineNumber, flaw: flaw)
    return nil
  }

  private mutating func startNextRecord() {
    current = IRBISRecord()
    broken = nil
    blankLine = nil
    recordNumber += 1
    recordStart = lineNumber + 1
  }
}
