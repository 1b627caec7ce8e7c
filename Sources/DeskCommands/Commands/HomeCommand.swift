import DeskDomain
import DeskStorage

/// `circdesk` with no command: the state of the library at a glance — counts, then the overdue
/// books and the first page of the catalogue. The full-screen desk takes this place when a
/// terminal is there.
struct HomeCommand: DeskCommand {
  static let spec = CommandSpec(
    path: "", abstract: "Show the library at a glance.", usage: "[--db <path>]",
    options: [CommandSpec.databaseOption])

  static func run(_ arguments: ParsedArguments, in context: CommandContext) throws(CommandError) {
    _ = try arguments.positionals(minimum: 0, maximum: 0)
    let store = try context.openStore(arguments)
    let (books, issued, overdue, readers) = try perform { () throws(StoreError) in
      (
        try store.bookCount(), try store.bookCount(filter: .issued), try store.bookCount(filter: .overdue),
        try store.readerCount()
      )
    }
    context.output.line("Circulation Desk — \(context.databasePath(arguments))".visibleForTerminal)
    context.output.line(
      "\(context.clock.now().date.iso): \(books) books, \(issued) out, \(overdue) overdue; \(readers) readers")
    if overdue > 0 {
      context.output.line()
      context.output.line("Overdue:")
      try BookList.run(
        try ParsedArguments(["--overdue", "--limit", "20"] + dbArguments(arguments), spec: BookList.spec), in: context)
    }
    context.output.line()
    context.output.line("Catalogue (first 40 by author; 'circdesk book list --help' for more):")
    try BookList.run(try ParsedArguments(["--limit", "40"] + dbArguments(arguments), spec: BookList.spec), in: context)
  }

  private static func dbArguments(_ arguments: ParsedArguments) -> [String] {
    arguments.value("--db").map { ["--db", $0] } ?? []
  }
}
