import DeskDomain
import DeskStorage

/// `circdesk` with no command: the full-screen desk on a terminal; elsewhere (a pipe, a script)
/// the state of the library at a glance — counts, the overdue books and the first page of books.
struct HomeCommand: DeskCommand {
  static let lang = CommandOption<InterfaceLanguage>.choice(
    "--lang", help: "Language of the desk (default: from LANG).")

  static let spec = CommandSpec(
    path: "", abstract: "Open the full-screen desk.",
    options: [
      CommandSpec.databaseOption,
      lang,
    ])

  static func run(_ arguments: ParsedArguments, in context: CommandContext) throws(CommandError) {
    let language = try arguments.value(lang) ?? context.language
    let store = try context.openStore(arguments)
    if let fullScreen = context.fullScreen {
      let status = fullScreen(store, try context.databasePath(arguments), language)
      guard status == 0 else { throw .exit(status) }
      return
    }
    let (books, issued, overdue, readers) = try perform { () throws(StoreError) in
      (
        try store.books.count(), try store.books.count(filter: .issued), try store.books.count(filter: .overdue),
        try store.readers.count()
      )
    }
    context.output.line("Circulation Desk — \(try context.databasePath(arguments))".visibleForTerminal)
    context.output.line(
      "\(context.clock.now().date.iso): \(books) books, \(issued) out, \(overdue) overdue; \(readers) readers")
    if overdue > 0 {
      context.output.line()
      context.output.line("Overdue:")
      try BookList.list(arguments, filter: .overdue, limit: 20, store: store, in: context)
    }
    context.output.line()
    context.output.line("Catalogue (first 40 by author; 'circdesk book list --help' for more):")
    try BookList.list(arguments, filter: .all, limit: 40, store: store, in: context)
  }
}
