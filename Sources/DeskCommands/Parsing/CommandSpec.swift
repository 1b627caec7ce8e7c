/// What a command takes, written once: parsing, `--help` and the errors all read from it.
public struct CommandSpec: Sendable {
  public struct Option: Sendable {
    public let name: String
    /// The placeholder of the value (`<number>`); nil for a flag.
    public let value: String?
    public let help: String
    public let repeats: Bool

    public init(_ name: String, value: String? = nil, help: String, repeats: Bool = false) {
      self.name = name
      self.value = value
      self.help = help
      self.repeats = repeats
    }
  }

  /// `book add`: the words after `circdesk`.
  public let path: String
  public let abstract: String
  public let usage: String
  public let arguments: [(name: String, help: String)]
  public let options: [Option]
  public let discussion: String?

  public init(
    path: String, abstract: String, usage: String, arguments: [(name: String, help: String)] = [],
    options: [Option] = [], discussion: String? = nil
  ) {
    self.path = path
    self.abstract = abstract
    self.usage = usage
    self.arguments = arguments
    self.options = options
    self.discussion = discussion
  }

  /// Options every command that opens the library takes.
  static let databaseOption = Option(
    "--db", value: "<path>",
    help: "The library file (default: $CIRCDESK_DB, else $XDG_DATA_HOME/circdesk/library.sqlite, "
      + "else ~/.local/share/circdesk/library.sqlite).")
  static let jsonOption = Option("--json", help: "Print JSON for scripts instead of text.")

  public var helpText: String {
    var lines = ["OVERVIEW: \(abstract)", "", "USAGE: circdesk \(usage)"]
    if !arguments.isEmpty {
      lines += ["", "ARGUMENTS:"]
      lines += CommandSpec.columns(arguments.map { ($0.name, $0.help) })
    }
    let all = options + [Option("-h, --help", help: "Show this help.")]
    lines += ["", "OPTIONS:"]
    lines += CommandSpec.columns(
      all.map { option in (option.name + (option.value.map { " \($0)" } ?? ""), option.help) })
    if let discussion { lines += ["", discussion] }
    return lines.joined(separator: "\n") + "\n"
  }

  /// Two columns, the second wrapped at 100 characters and aligned.
  static func columns(_ rows: [(String, String)]) -> [String] {
    let width = min(28, (rows.map { $0.0.count }.max() ?? 0) + 4)
    var lines: [String] = []
    for (left, right) in rows {
      var current = "  " + left
      if current.count + 2 > width {
        lines.append(current)
        current = ""
      }
      current = current.padding(to: width)
      var lineWords: [Substring] = []
      for word in right.split(separator: " ") {
        if current.count + lineWords.reduce(0, { $0 + $1.count + 1 }) + word.count > 100 && !lineWords.isEmpty {
          lines.append(current + lineWords.joined(separator: " "))
          current = "".padding(to: width)
          lineWords = []
        }
        lineWords.append(word)
      }
      lines.append(current + lineWords.joined(separator: " "))
    }
    return lines
  }
}

extension String {
  func padding(to width: Int) -> String {
    count >= width ? self : self + String(repeating: " ", count: width - count)
  }
}
