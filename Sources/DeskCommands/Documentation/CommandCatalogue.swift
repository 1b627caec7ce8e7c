/// Every command of the program as the manual pages and the shell completions describe it: made
/// from the same declarations (`CommandSpec`) that parse the command line and print `--help`.
struct CommandCatalogue {
  /// A group of subcommands (`book`) or a command of its own (`issue`), with its subcommands.
  struct Entry {
    let name: String
    let abstract: String
    /// The subcommands of a group; a command of its own is its only one.
    let specs: [CommandSpec]
  }

  let desk: CommandSpec
  let entries: [Entry]

  static let program = CommandCatalogue(
    desk: HomeCommand.spec,
    entries: RootCommand.groups.map {
      Entry(name: $0.name, abstract: $0.abstract, specs: $0.commands.map { command in command.spec })
    }
      + RootCommand.commands.map { Entry(name: $0.spec.path, abstract: $0.spec.abstract, specs: [$0.spec]) })

  var specs: [CommandSpec] { entries.flatMap(\.specs) }
}

extension CommandSpec.Option {
  /// What a shell offers for the option's value.
  enum ValueCompletion: Equatable {
    /// A flag: it takes no value.
    case none
    /// Any text: nothing to offer.
    case text
    case words([String])
    case file
    case folder
  }

  var completion: ValueCompletion {
    guard let value else { return .none }
    if let choices { return .words(choices) }
    let inner = value.hasPrefix("<") && value.hasSuffix(">") ? String(value.dropFirst().dropLast()) : value
    if inner.contains("|") { return .words(inner.split(separator: "|").map(String.init)) }
    switch inner {
    case "path", "file": return .file
    case "folder": return .folder
    default: return .text
    }
  }
}

extension CommandSpec.Argument {
  /// True for an argument that names files (an image, a file to import).
  var namesFiles: Bool { ["<file>", "<image>"].contains(name) }
}
