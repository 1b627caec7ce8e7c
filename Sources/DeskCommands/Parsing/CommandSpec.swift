/// What a command takes, written once: parsing, `--help` and the errors all read from it.
public struct CommandSpec: Sendable {
  public struct Option: Sendable {
    public let name: String
    /// The placeholder of the value (`<number>`); nil for a flag.
    public let value: String?
    public let help: String
    public let repeats: Bool
    /// True for an option the command cannot do without (shown bare in the usage line).
    public let required: Bool
    /// The words the value is one of, for an option that takes one of some words (shell completion
    /// offers them); nil for any other.
    public let choices: [String]?

    public init(
      _ name: String, value: String? = nil, help: String, repeats: Bool = false, required: Bool = false,
      choices: [String]? = nil
    ) {
      self.name = name
      self.value = value
      self.help = help
      self.repeats = repeats
      self.required = required
      self.choices = choices
    }

    var usage: String { name + (value.map { " \($0)" } ?? "") }
  }

  /// A positional argument: how many of it the command takes.
  public struct Argument: Sendable {
    public enum Count: Sendable {
      case one, optional, oneOrMore, any
    }

    public let name: String
    public let help: String
    public let count: Count

    public init(_ name: String, _ help: String, _ count: Count = .one) {
      self.name = name
      self.help = help
      self.count = count
    }

    var usage: String {
      switch count {
      case .one: return name
      case .optional: return "[\(name)]"
      case .oneOrMore: return "\(name)..."
      case .any: return "[\(name)...]"
      }
    }
  }

  /// `book add`: the words after `circdesk`.
  public let path: String
  public let abstract: String
  public let arguments: [Argument]
  public let options: [Option]
  public let discussion: String?

  public init(
    path: String, abstract: String, arguments: [Argument] = [], options: [any OptionDeclaration] = [],
    discussion: String? = nil
  ) {
    self.path = path
    self.abstract = abstract
    self.arguments = arguments
    self.options = options.map(\.spec)
    self.discussion = discussion
  }

  /// The usage line, made from the arguments and options: required ones bare, the others in
  /// brackets, wrapped under the command at 100 characters.
  public var usage: String {
    var words = [path].filter { !$0.isEmpty } + arguments.map(\.usage)
    words += options.map { $0.required ? $0.usage : "[\($0.usage)]" }
    let start = "USAGE: circdesk "
    var lines: [String] = []
    var line = ""
    for word in words {
      if !line.isEmpty, start.count + line.count + 1 + word.count > 100 {
        lines.append(line)
        line = String(repeating: " ", count: path.count + 1)
      }
      line += (line.allSatisfy { $0 == " " } ? "" : " ") + word
    }
    lines.append(line)
    return lines.joined(separator: "\n" + String(repeating: " ", count: start.count))
  }

  /// How many positional arguments the command takes: at least, and at most (nil: no limit).
  var positionalBounds: (minimum: Int, maximum: Int?) {
    var minimum = 0
    var maximum: Int? = 0
    for argument in arguments {
      switch argument.count {
      case .one:
        minimum += 1
        maximum = maximum.map { $0 + 1 }
      case .optional: maximum = maximum.map { $0 + 1 }
      case .oneOrMore:
        minimum += 1
        maximum = nil
      case .any: maximum = nil
      }
    }
    return (minimum, maximum)
  }

  /// Options every command that opens the library takes.
  static let databaseOption = CommandOption<String>(
    "--db", value: "<path>",
    help: "The library file (default: $CIRCDESK_DB, else $XDG_DATA_HOME/circdesk/library.sqlite, "
      + "else ~/.local/share/circdesk/library.sqlite).")
  static let jsonOption = CommandFlag("--json", help: "Print JSON for scripts instead of text.")

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
