/// `circdesk`: finds the subcommand named by the first words and runs it, mapping every failure
/// to a message on standard error and an exit status.
public enum RootCommand {
  public static let version = "0.1.0"

  static let groups: [CommandGroup] = [
    CommandGroup(
      name: "book", abstract: "Add, list, show, change and delete books.",
      commands: [BookAdd.self, BookList.self, BookShow.self, BookEdit.self, BookDelete.self]),
    CommandGroup(
      name: "reader", abstract: "Register, list, show, change and delete readers.",
      commands: [ReaderAdd.self, ReaderList.self, ReaderShow.self, ReaderEdit.self, ReaderDelete.self]),
    CommandGroup(
      name: "export", abstract: "Write books and readers for IRBIS, and circulation for Koha.",
      commands: [ExportIRBIS.self, ExportISO2709.self, ExportKOC.self]),
    CommandGroup(
      name: "import", abstract: "Read IRBIS records, ISO 2709 files and Koha offline circulation.",
      commands: [ImportIRBIS.self, ImportISO2709.self, ImportKOC.self]),
    CommandGroup(
      name: "policy", abstract: "Show and change the circulation rules.",
      commands: [PolicyShow.self, PolicySet.self, PolicyCategory.self]),
    CommandGroup(
      name: "hold", abstract: "Holds: readers queue for books that are out.",
      commands: [HoldPlace.self, HoldList.self, HoldCancel.self, HoldSuspend.self, HoldExpire.self]),
    CommandGroup(
      name: "notices", abstract: "Write letters to readers: overdue books, books waiting on the hold shelf.",
      commands: [NoticesOverdue.self, NoticesHolds.self]),
    CommandGroup(
      name: "central", abstract: "Share one library between several desks through a PostgreSQL central.",
      commands: [CentralInit.self, CentralJoin.self, CentralLeave.self]),
    CommandGroup(
      name: "conflicts", abstract: "List and settle conflicts between the desks of a shared library.",
      commands: [ConflictsList.self, ConflictsShow.self, ConflictsResolve.self]),
  ]

  static let commands: [any DeskCommand.Type] = [
    IssueCommand.self, ReturnCommand.self, RenewCommand.self, OverdueCommand.self, ScanCommand.self, LabelCommand.self,
    LookupCommand.self, SyncCommand.self, DemoCommand.self,
  ]

  public static var helpText: String {
    var lines = [
      "OVERVIEW: Circulation Desk: the front desk of a library, in a terminal.",
      "",
      "USAGE: circdesk [--db <path>] [--lang en|ru]",
      "       circdesk <command> [<arguments>] [--db <path>]",
      "",
      "With no command, opens the full-screen desk (on a terminal; elsewhere it prints the library at a",
      "glance: counts, overdue books, the first page of books).",
      "",
      "COMMANDS:",
    ]
    var rows = groups.map { ($0.name, $0.abstract) }
    rows += commands.map { ($0.spec.path, $0.spec.abstract) }
    lines += CommandSpec.columns(rows)
    lines += [
      "",
      "OPTIONS:",
    ]
    lines += CommandSpec.columns([
      ("--db <path>", CommandSpec.databaseOption.spec.help),
      ("--version", "Show the version."),
      ("-h, --help", "Show this help."),
    ])
    lines += [
      "",
      "EXIT STATUS:",
      "  0 done; 1 refused by a rule or validation (nothing changed), or the library could not be used;",
      "  64 the command line is wrong.",
      "",
      "  See 'circdesk <command> --help' for detailed help.",
    ]
    return lines.joined(separator: "\n") + "\n"
  }

  /// Runs the command line (without the program name) and returns the exit status.
  public static func run(_ arguments: [String], context: CommandContext) -> Int32 {
    do {
      try dispatch(arguments, context: context)
      return 0
    } catch {
      for line in error.lines(in: context.words) { context.errors.line(line.visibleForTerminal) }
      return error.exitStatus
    }
  }

  static func dispatch(_ arguments: [String], context: CommandContext) throws(CommandError) {
    // The options every command takes may come before its words too: `circdesk --db X scan F`.
    var leading: [String] = []
    var words = arguments[...]
    while let first = words.first, first.hasPrefix("--db") || first.hasPrefix("--lang") {
      leading.append(first)
      words = words.dropFirst()
      if !first.contains("="), let value = words.first {
        leading.append(value)
        words = words.dropFirst()
      }
    }
    guard let first = words.first else {
      try run(HomeCommand.self, leading, context: context)
      return
    }
    try dispatch(command: Array(words), first: first, leading: leading, context: context)
  }

  private static func dispatch(command arguments: [String], first: String, leading: [String], context: CommandContext)
    throws(CommandError)
  {
    if first == "--help" || first == "-h" || first == "help" {
      context.output.write(helpText)
      return
    }
    if first == "--version" {
      context.output.line("circdesk \(version)")
      return
    }
    if let group = groups.first(where: { $0.name == first }) {
      guard let word = arguments.dropFirst().first, !word.hasPrefix("-") || word == "-h" || word == "--help" else {
        if arguments.count == 1 || arguments[1] == "--help" || arguments[1] == "-h" {
          context.output.write(group.helpText)
          return
        }
        throw .usage("name a subcommand of '\(group.name)'", command: group.name)
      }
      if word == "-h" || word == "--help" {
        context.output.write(group.helpText)
        return
      }
      guard let command = group.commands.first(where: { $0.spec.path == "\(group.name) \(word)" }) else {
        throw .usage("unknown subcommand '\(group.name) \(word)'", command: group.name)
      }
      try run(command, Array(arguments.dropFirst(2)) + leading, context: context)
      return
    }
    guard let command = commands.first(where: { $0.spec.path == first }) else {
      throw .usage("unknown command '\(first)'", command: "")
    }
    try run(command, Array(arguments.dropFirst()) + leading, context: context)
  }

  static func run(_ command: any DeskCommand.Type, _ arguments: [String], context: CommandContext) throws(CommandError)
  {
    if arguments.contains("--help") || arguments.contains("-h") {
      context.output.write(command.spec.helpText)
      return
    }
    let parsed = try ParsedArguments(arguments, spec: command.spec)
    try command.run(parsed, in: context)
  }
}
