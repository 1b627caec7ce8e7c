/// Reads IRBIS plain-text records line by line, from text already decoded. A malformed line
/// makes its record invalid, never guessed at: the reader reports the record's number, the
/// line's number and the reason, skips to the record's end, and goes on.
public struct IRBISReader {
  public struct Problem: Error, Equatable, Sendable, CustomStringConvertible {
    public var record: Int
    public var line: Int
    public var reason: String

    public var description: String { "record \(record), line \(line): \(reason)" }
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
  public mutating func feed(_ line: String, problem: String? = nil) -> Item? {
    lineNumber += 1
    if line.hasPrefix("*****") {
      defer { startNextRecord() }
      if let broken { return .problem(broken) }
      if current.fields.isEmpty {
        return .problem(Problem(record: recordNumber, line: lineNumber, reason: "an empty record"))
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
    if let problem { return fail(problem) }
    if let blankLine { return fail("a blank line inside the record", at: blankLine) }
    guard line.hasPrefix("#") else { return fail("the line does not start with # and a tag") }
    guard let colon = line.firstIndex(of: ":") else { return fail("no : after the tag") }
    let tagText = line[line.index(after: line.startIndex)..<colon]
    guard let tag = Int(tagText), tag >= 0, tagText.allSatisfy(\.isNumber) else {
      return fail("«\(tagText)» is not a field tag (digits)")
    }
    let afterColon = line[line.index(after: colon)...]
    guard afterColon.first == " " else { return fail("no space after #\(tag):") }
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
    return .problem(
      Problem(record: recordNumber, line: lineNumber, reason: "the file ends inside the record (no ***** line)"))
  }

  private mutating func fail(_ reason: String, at line: Int? = nil) -> Item? {
    broken = Problem(record: recordNumber, line: line ?? lineNumber, reason: reason)
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
