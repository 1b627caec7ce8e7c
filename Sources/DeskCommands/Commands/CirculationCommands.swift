import DeskDomain
import DeskStorage

struct IssueCommand: DeskCommand {
  static let due = CommandOption<LocalDate>.date(
    "--due", value: "<date>", help: "Due date YYYY-MM-DD instead of the one the rules give.")

  static let spec = CommandSpec(
    path: "issue", abstract: "Issue books to a reader.",
    arguments: [
      .init("<ticket>", "Ticket number of the reader."),
      .init("<inventory>", "Inventory numbers of the books.", .oneOrMore),
    ],
    options: [
      due,
      CommandSpec.jsonOption, CommandSpec.databaseOption,
    ],
    discussion: "All the books are issued, or none: every reason for a refusal is printed, one per line.")

  static func run(_ arguments: ParsedArguments, in context: CommandContext) throws(CommandError) {
    let words = arguments.positionals
    let due = try arguments.value(due)
    let store = try context.openStore(arguments)
    let loans = try perform { () throws(StoreError) in
      try store.circulation.issue(ticket: words[0], inventories: Array(words.dropFirst()), due: due)
    }
    report(loans, verb: "Issued", arguments: arguments, context: context)
  }

  static func report(_ loans: [LoanRecord], verb: String, arguments: ParsedArguments, context: CommandContext) {
    let today = context.clock.now().date
    if arguments.has(CommandSpec.jsonOption) {
      context.output.line(JSON.array(loans.map { RecordJSON.loan($0, today: today) }).rendered())
      return
    }
    for record in loans {
      var line = "\(verb): \(record.inventory) «\(record.bookTitle)» — \(record.readerName) (\(record.readerTicket))"
      if record.loan.isOpen { line += ", due \(record.loan.due.iso)" }
      context.output.line(line.visibleForTerminal)
    }
  }
}

struct ReturnCommand: DeskCommand {
  static let spec = CommandSpec(
    path: "return", abstract: "Take books back.",
    arguments: [.init("<inventory>", "Inventory numbers of the books.", .oneOrMore)],
    options: [CommandSpec.jsonOption, CommandSpec.databaseOption],
    discussion: "Only the books are needed. All are returned, or none.")

  static func run(_ arguments: ParsedArguments, in context: CommandContext) throws(CommandError) {
    let inventories = arguments.positionals
    let store = try context.openStore(arguments)
    let loans = try perform { () throws(StoreError) in try store.circulation.returnBooks(inventories: inventories) }
    let today = context.clock.now().date
    IssueCommand.report(loans, verb: "Returned", arguments: arguments, context: context)
    if !arguments.has(CommandSpec.jsonOption) {
      for record in loans where record.loan.due < today {
        context.output.line(
          "  \(record.inventory) came back \(RecordText.days(record.loan.due.days(until: today))) late")
      }
      // Loud: the copy does not go back on the shelf.
      for record in loans { if let trap = record.heldFor { context.output.line(HoldExpire.moveLine(trap)) } }
    }
  }
}

struct RenewCommand: DeskCommand {
  static let spec = CommandSpec(
    path: "renew", abstract: "Renew loans: extend their due dates.",
    arguments: [.init("<inventory>", "Inventory numbers of the books.", .oneOrMore)],
    options: [CommandSpec.jsonOption, CommandSpec.databaseOption],
    discussion: "All are renewed, or none. The renewal limit comes from the reader's category.")

  static func run(_ arguments: ParsedArguments, in context: CommandContext) throws(CommandError) {
    let inventories = arguments.positionals
    let store = try context.openStore(arguments)
    let loans = try perform { () throws(StoreError) in try store.circulation.renew(inventories: inventories) }
    IssueCommand.report(loans, verb: "Renewed", arguments: arguments, context: context)
  }
}
