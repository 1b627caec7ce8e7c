import DeskExchange

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
      name: "stocktake", abstract: "Check the stock against the catalogue with the scanner.",
      commands: [
        StocktakeStart.self, StocktakeScan.self, StocktakeReport.self, StocktakeList.self, StocktakeClose.self,
        StocktakeActCommand.self,
      ]),
    CommandGroup(
      name: "sip2", abstract: "Self-check kiosks and book drops: the SIP2 server and its accounts.",
      commands: [SIP2Serve.self, SIP2AccountAdd.self, SIP2AccountList.self, SIP2AccountRemove.self]),
    CommandGroup(
      name: "target", abstract: "Other libraries' catalogues (Z39.50, SRU) to copy book records from.",
      commands: [TargetAdd.self, TargetList.self, TargetRemove.self]),
    CommandGroup(
      name: "conflicts", abstract: "List and settle conflicts between the desks of a shared library.",
      commands: [ConflictsList.self, ConflictsShow.self, ConflictsResolve.self]),
  ]

  static let commands: [any DeskCommand.Type] = [
    IssueCommand.self, ReturnCommand.self, RenewCommand.self, OverdueCommand.self, ScanCommand.self, LabelCommand.self,
    LookupCommand.self, SyncCommand.self, StatsCommand.self, DemoCommand.self,
  ]

  /// What the program is, after its name.
  static let abstract = "the front desk of a library, in a terminal"

  static let description = """
    With no command, opens the full-screen desk (on a terminal; elsewhere it prints the library at a
    glance: counts, overdue books, the first page of books).
    """

  static let exitStatus = """
    0 done; 1 refused by a rule or validation (nothing changed), or the library could not be used;
    64 the command line is wrong.
    """

  /// The options of the program itself, beside the desk's.
  static let programOptions = [
    CommandSpec.Option("--version", help: "Show the version."),
    CommandSpec.Option("-h, --help", help: "Show this help."),
    CommandSpec.Option(
      "--generate-manual", value: "<folder>", help: "Write the manual pages, circdesk(1) and one for each command."),
    CommandSpec.Option(
      "--complete", value: "<inventory|ticket>",
      help: "Print the library's inventory numbers or tickets that begin with the word after it (for the completions)."),
    CommandSpec.Option(
      "--generate-completion-script",
      value: "<\(CompletionScripts.Shell.allCases.map(\.rawValue).joined(separator: "|"))>",
      help: "Print the shell's completion script."),
  ]

  /// The environment variables the program reads.
  /// The files the program reads and writes, for its manual page.
  static let files = [
    (
      "~/.local/share/circdesk/library.sqlite",
      "The library when neither --db nor CIRCDESK_DB names one (under XDG_DATA_HOME when set), with its -wal and -shm files beside it while a desk has it open."
    ),
    (
      "/usr/lib/circdesk/circdesk-zxing",
      "The second barcode decoder, installed by the package (a build keeps it beside circdesk)."
    ),
    (
      "/usr/lib/systemd/system/circdesk-sip2.service",
      "The SIP2 server for self-check kiosks, under systemd (from the package)."
    ),
  ]

  static let environment = [
    ("CIRCDESK_DB", "The library file when --db is not given."),
    (
      "XDG_DATA_HOME", "The folder of the default library file, circdesk/library.sqlite in it (default ~/.local/share)."
    ),
    ("CIRCDESK_CENTRAL_URL", "The central library's connection string when --url is not given."),
    (
      "CIRCDESK_GOOGLE_BOOKS_URL, CIRCDESK_OPEN_LIBRARY_URL",
      "The ISBN look-up's catalogues, over the library's settings."
    ),
    ("CIRCDESK_ZXING", "The second barcode decoder's program (default: circdesk-zxing beside circdesk)."),
    ("CIRCDESK_NOW", "An ISO 8601 instant the program's clock stands at, for reproducible examples."),
    ("LC_ALL, LC_MESSAGES, LANG", "A Russian locale (ru_RU.UTF-8) gives the desk and the messages in Russian."),
    ("NO_COLOR", "When set and not empty, the desk draws without colours."),
  ]

  public static var helpText: String {
    var lines = [
      "OVERVIEW: Circulation Desk: \(abstract).",
      "",
      "USAGE: circdesk [--db <path>] [--lang en|ru]",
      "       circdesk <command> [<arguments>] [--db <path>]",
      "",
    ]
    lines += description.split(separator: "\n").map(String.init)
    lines += ["", "COMMANDS:"]
    var rows = groups.map { ($0.name, $0.abstract) }
    rows += commands.map { ($0.spec.path, $0.spec.abstract) }
    lines += CommandSpec.columns(rows)
    lines += [
      "",
      "OPTIONS:",
    ]
    lines += CommandSpec.columns(
      [("--db <path>", CommandSpec.databaseOption.spec.help)]
        + programOptions.map { ($0.name + ($0.value.map { " " + $0 } ?? ""), $0.help) })
    lines += ["", "EXIT STATUS:"]
    lines += exitStatus.split(separator: "\n").map { "  " + $0 }
    lines += [
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
    if first == "--complete" {
      try LibraryCompletion.run(Array(arguments.dropFirst()) + leading, context: context)
      return
    }
    if first == "--generate-manual" || first == "--generate-completion-script" {
      try generate(first, arguments.dropFirst(), context: context)
      return
    }
    // The targets are the look-up's catalogues: `lookup target …` is the target group's other
    // spelling (no ISBN reads «target»).
    if first == "lookup", arguments.dropFirst().first == "target" {
      try dispatch(command: Array(arguments.dropFirst()), first: "target", leading: leading, context: context)
      return
    }
    if let group = groups.first(where: { $0.name == first }) {
      // A group's words lead to its command: `sip2 serve`, `sip2 account add`.
      var prefix = group.name
      var rest = arguments.dropFirst()
      while true {
        guard let word = rest.first, !word.hasPrefix("-") else {
          if rest.isEmpty || rest.first == "--help" || rest.first == "-h" {
            context.output.write(group.helpText(under: prefix))
            return
          }
          throw .usage("name a subcommand of '\(prefix)'", command: prefix)
        }
        let path = prefix + " " + word
        rest = rest.dropFirst()
        if let command = group.commands.first(where: { $0.spec.path == path }) {
          try run(command, Array(rest) + leading, context: context)
          return
        }
        guard group.commands.contains(where: { $0.spec.path.hasPrefix(path + " ") }) else {
          throw .usage("unknown subcommand '\(path)'", command: prefix)
        }
        prefix = path
      }
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

  /// Writes the manual pages into a folder, or prints a shell's completion script.
  private static func generate(_ option: String, _ values: ArraySlice<String>, context: CommandContext)
    throws(CommandError)
  {
    guard values.count == 1, let value = values.first else {
      throw .usage("\(option) takes one value", command: "")
    }
    if option == "--generate-completion-script" {
      guard let shell = CompletionScripts.Shell(rawValue: value) else {
        let shells = CompletionScripts.Shell.allCases.map(\.rawValue).joined(separator: " or ")
        throw .usage("\(option) is \(shells), not «\(value)»", command: "")
      }
      context.output.write(CompletionScripts.script(for: shell))
      return
    }
    let pages = ManualPages.pages()
    do throws(FileError) {
      try makeFolder(value)
      for page in pages {
        let writer = try TextWriter(path: value + "/" + page.file, encoding: .utf8)
        writer.write(page.text)
        try writer.close()
      }
    } catch {
      throw .file(error)
    }
    context.output.line("\(pages.count) manual pages written to \(value)")
  }
}
