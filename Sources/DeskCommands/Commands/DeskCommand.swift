/// One subcommand: its spec (for parsing and help) and what it does.
protocol DeskCommand {
  static var spec: CommandSpec { get }
  static func run(_ arguments: ParsedArguments, in context: CommandContext) throws(CommandError)
}

/// A word that groups subcommands (`book`, `reader`, `policy`).
struct CommandGroup {
  let name: String
  let abstract: String
  let commands: [any DeskCommand.Type]

  var helpText: String { helpText(under: name) }

  /// The help of the group's commands under `prefix` (the group's name, or its first words of a
  /// longer path: `sip2 account`).
  func helpText(under prefix: String) -> String {
    var lines = ["OVERVIEW: \(abstract)", "", "USAGE: circdesk \(prefix) <subcommand>", "", "SUBCOMMANDS:"]
    lines += CommandSpec.columns(
      commands.filter { $0.spec.path.hasPrefix(prefix + " ") }.map {
        (String($0.spec.path.dropFirst(prefix.count + 1)), $0.spec.abstract)
      })
    lines += ["", "  See 'circdesk \(prefix) <subcommand> --help' for detailed help."]
    return lines.joined(separator: "\n") + "\n"
  }
}
