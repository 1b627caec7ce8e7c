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

  var helpText: String {
    var lines = ["OVERVIEW: \(abstract)", "", "USAGE: circdesk \(name) <subcommand>", "", "SUBCOMMANDS:"]
    lines += CommandSpec.columns(commands.map { (String($0.spec.path.dropFirst(name.count + 1)), $0.spec.abstract) })
    lines += ["", "  See 'circdesk \(name) <subcommand> --help' for detailed help."]
    return lines.joined(separator: "\n") + "\n"
  }
}
