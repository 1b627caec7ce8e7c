/// The manual pages, made from the commands' declarations: circdesk(1) for the program, a page
/// for each group of commands that lists them (circdesk-book(1)), and a page for each command
/// (circdesk-book-add(1)), as git's commands have theirs.
enum ManualPages {
  /// Each page's file name and its text, in man(7) markup.
  static func pages(of catalogue: CommandCatalogue = .program, version: String = RootCommand.version) -> [(
    file: String, text: String
  )] {
    [("circdesk.1", programPage(catalogue, version: version))]
      + groups(of: catalogue).map { ("circdesk-\($0.name).1", groupPage($0, version: version)) }
      + catalogue.specs.map { ("\(pageName($0)).1", commandPage($0, version: version)) }
  }

  /// The entries that group several commands (`book`), which get a page of their own.
  static func groups(of catalogue: CommandCatalogue) -> [CommandCatalogue.Entry] {
    catalogue.entries.filter { $0.specs.count > 1 || $0.specs.first?.path != $0.name }
  }

  private static func groupPage(_ group: CommandCatalogue.Entry, version: String) -> String {
    let name = "circdesk-\(group.name)"
    var lines = header(name, version: version)
    lines += [".SH NAME", "\(escaped(name)) \\- \(escaped(sentence(group.abstract)))"]
    lines += [".SH SYNOPSIS", ".B circdesk \(escaped(group.name))", ".I command", "[\\fIarguments\\fR]"]
    lines += [".SH COMMANDS"]
    for spec in group.specs {
      lines += [
        ".TP", ".B \(escaped(String(spec.path.dropFirst(group.name.count + 1))))", escaped(spec.abstract),
        "See \\fB\\%\(escaped(pageName(spec)))\\fR(1).",
      ]
    }
    lines += [".SH SEE ALSO", "\\fBcircdesk\\fR(1)"]
    return lines.joined(separator: "\n") + "\n"
  }

  static func pageName(_ spec: CommandSpec) -> String {
    (["circdesk"] + spec.path.split(separator: " ").map(String.init)).joined(separator: "-")
  }

  private static func header(_ name: String, version: String) -> [String] {
    // No date: the page is the same for the same version, whenever it is made. Not hyphenated
    // and not justified: an option or a path broken at a line's end cannot be copied.
    [".TH \(name.uppercased()) 1 \"\" \"circdesk \(version)\" \"Circulation Desk\"", ".nh", ".ad l"]
  }

  private static func programPage(_ catalogue: CommandCatalogue, version: String) -> String {
    var lines = header("circdesk", version: version)
    lines += [".SH NAME", "circdesk \\- \(escaped(sentence(RootCommand.abstract)))"]
    lines += [".SH SYNOPSIS", synopsis(catalogue.desk), ".br", ".B circdesk", ".I command", "[\\fIarguments\\fR]"]
    lines += [".SH DESCRIPTION"] + paragraphs(RootCommand.description)
    lines += [".SH COMMANDS"]
    for entry in catalogue.entries {
      lines += [".TP", ".B \(escaped(entry.name))", escaped(entry.abstract)]
      let pages = entry.specs.map { "\\fB\\%\(escaped(pageName($0)))\\fR(1)" }
      lines.append("See " + pages.joined(separator: ", ") + ".")
    }
    lines += [".SH OPTIONS"] + options(catalogue.desk.options + RootCommand.programOptions)
    lines += [".SH EXIT STATUS"] + paragraphs(RootCommand.exitStatus)
    lines += [".SH ENVIRONMENT"]
    for (name, meaning) in RootCommand.environment {
      lines += [".TP", ".B \(escaped(name))", escaped(meaning)]
    }
    lines += [".SH FILES"]
    for (path, meaning) in RootCommand.files {
      lines += [".TP", ".I \(escaped(path))", escaped(meaning)]
    }
    lines += [".SH SEE ALSO"]
    lines.append(catalogue.specs.map { "\\fB\\%\(escaped(pageName($0)))\\fR(1)" }.joined(separator: ",\n"))
    return lines.joined(separator: "\n") + "\n"
  }

  private static func commandPage(_ spec: CommandSpec, version: String) -> String {
    let name = pageName(spec)
    var lines = header(name, version: version)
    lines += [".SH NAME", "\(escaped(name)) \\- \(escaped(sentence(spec.abstract)))"]
    lines += [".SH SYNOPSIS", synopsis(spec)]
    lines += [".SH DESCRIPTION"] + paragraphs(spec.discussion ?? spec.abstract)
    if !spec.arguments.isEmpty {
      lines.append(".SH ARGUMENTS")
      for argument in spec.arguments {
        lines += [".TP", ".I \(escaped(argument.name))", escaped(argument.help)]
      }
    }
    lines += [".SH OPTIONS"] + options(spec.options + [CommandSpec.Option("-h, --help", help: "Show this help.")])
    lines += [".SH SEE ALSO", "\\fBcircdesk\\fR(1)"]
    return lines.joined(separator: "\n") + "\n"
  }

  /// The command in bold, its arguments in italics, and its options, those it can do without in
  /// brackets.
  private static func synopsis(_ spec: CommandSpec) -> String {
    var words = [".B " + (["circdesk"] + spec.path.split(separator: " ").map(String.init)).joined(separator: " ")]
    for argument in spec.arguments {
      let name = "\\fI\(escaped(argument.name))\\fR"
      switch argument.count {
      case .one: words.append(name)
      case .optional: words.append("[\(name)]")
      case .oneOrMore: words.append("\(name)...")
      case .any: words.append("[\(name)...]")
      }
    }
    for option in spec.options {
      // An unbreakable space: an option and its value stay on one line.
      let usage = "\\fB\(escaped(option.name))\\fR" + (option.value.map { "\\ \\fI\(escaped($0))\\fR" } ?? "")
      words.append(option.required ? usage : "[\(usage)]")
    }
    return words.joined(separator: "\n")
  }

  private static func options(_ options: [CommandSpec.Option]) -> [String] {
    options.flatMap { option in
      [
        ".TP",
        "\\fB\(escaped(option.name))\\fR" + (option.value.map { " \\fI\(escaped($0))\\fR" } ?? ""),
        escaped(option.help),
      ]
    }
  }

  /// Text written for the terminal, its lines broken by hand, as filled paragraphs.
  private static func paragraphs(_ text: String) -> [String] {
    var lines: [String] = []
    for (index, paragraph) in text.split(separator: "\n\n").enumerated() {
      if index > 0 { lines.append(".PP") }
      let words = paragraph.split(whereSeparator: \.isWhitespace).joined(separator: " ")
      lines.append(escaped(words))
    }
    return lines
  }

  /// An abstract as a page's name line has it: after a dash, so in lower case (an acronym
  /// stays), and without its closing full stop.
  private static func sentence(_ abstract: String) -> String {
    var text = abstract.hasSuffix(".") ? String(abstract.dropLast()) : abstract
    if let first = text.first, let second = text.dropFirst().first, second.isLowercase {
      text = first.lowercased() + text.dropFirst()
    }
    return text
  }

  /// Text that roff prints as it is: a backslash is `\e`, a minus sign `\-` (a hyphen would be
  /// set as a hyphen, and a pasted option would not work), anything beyond ASCII its Unicode
  /// name (`\[u041C]`: the page reads the same whatever groff takes its input as), and a line
  /// never starts a request.
  static func escaped(_ text: String) -> String {
    var result = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\\": result += "\\e"
      case "-": result += "\\-"
      case _ where scalar.value > 0x7F:
        let hex = String(scalar.value, radix: 16, uppercase: true)
        result += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
      default: result.unicodeScalars.append(scalar)
      }
    }
    if result.hasPrefix(".") || result.hasPrefix("'") { result = "\\&" + result }
    return result
  }
}
