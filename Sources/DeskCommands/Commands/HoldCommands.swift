import DeskDomain
import DeskStorage

/// `circdesk hold place`: a reader queues for a title, or for one copy.
struct HoldPlace: DeskCommand {
  static let isbn = CommandOption<String>(
    "--isbn", value: "<isbn>", help: "Hold the title with this ISBN: any copy of it.")
  static let titleOf = CommandOption<String>(
    "--title-of", value: "<inventory>",
    help: "Hold the title of this copy: any copy with its ISBN (or author, "
      + "title and year).")
  static let until = CommandOption<LocalDate>.date(
    "--until", value: "<date>", help: "The hold is not wanted after this date.")

  static let spec = CommandSpec(
    path: "hold place", abstract: "Place a hold: a reader queues for a title or a copy that is out.",
    arguments: [
      .init("<ticket>", "Ticket number of the reader."),
      .init("<inventory>", "The copy to hold (a hold on that copy only).", .optional),
    ],
    options: [
      isbn,
      titleOf,
      until,
      CommandSpec.jsonOption, CommandSpec.databaseOption,
    ],
    discussion: """
      Holds queue in the order placed. A copy that comes back is put aside for the first hold it
      fills and waits on the hold shelf for that reader only, for the days the policy says (policy
      set --hold-pickup-days). A hold is refused while a copy is on the shelf (issue it), when the
      reader holds the title already or has it on loan, and beyond the category's limit (policy
      category --hold-limit).
      """)

  static func run(_ arguments: ParsedArguments, in context: CommandContext) throws(CommandError) {
    let words = arguments.positionals
    guard !words[0].trimmingWhitespace().isEmpty else {
      throw .usage("the reader's ticket is empty", command: spec.path)
    }
    let named = [words.count > 1, arguments.isGiven(isbn), arguments.isGiven(titleOf)]
    guard named.filter({ $0 }).count == 1 else {
      throw .usage("name what is held: a copy's inventory number, --isbn or --title-of", command: spec.path)
    }
    let target: HoldTarget
    if let text = try arguments.value(isbn) {
      do {
        target = .isbn(try ISBN(text))
      } catch {
        throw .usage("--isbn: \(error.description)", command: spec.path)
      }
    } else if let copy = try arguments.value(titleOf) {
      target = .titleOf(copy)
    } else {
      target = .copy(words[1])
    }
    let until = try arguments.value(until)
    let store = try context.openStore(arguments)
    let hold = try perform { () throws(StoreError) in try store.holds.place(ticket: words[0], on: target, until: until)
    }
    if arguments.has(CommandSpec.jsonOption) {
      context.output.line(HoldList.json(hold).rendered())
      return
    }
    context.output.line(
      "Hold \(hold.number): \(hold.readerName) (\(hold.readerTicket)) waits for \(hold.label)"
        .visibleForTerminal + (hold.position.map { ", number \($0) in the queue" } ?? ""))
  }
}

/// `circdesk hold list`: the holds, or those waiting on the hold shelf.
struct HoldList: DeskCommand {
  static let waiting = CommandFlag(
    "--waiting", help: "Only the copies waiting on the hold shelf, the soonest due first.")
  static let expired = CommandFlag(
    "--expired", help: "Only the copies that waited too long: run hold expire to move them.")
  static let reader = CommandOption<String>("--reader", value: "<ticket>", help: "One reader's holds, ended ones too.")

  static let spec = CommandSpec(
    path: "hold list", abstract: "List the holds: queued and waiting on the hold shelf.",
    options: [
      waiting,
      expired,
      reader,
      CommandSpec.jsonOption, CommandSpec.databaseOption,
    ])

  static func run(_ arguments: ParsedArguments, in context: CommandContext) throws(CommandError) {
    guard
      [arguments.has(waiting), arguments.has(expired), arguments.isGiven(reader)]
        .filter({ $0 }).count <= 1
    else { throw .usage("choose one of --waiting, --expired and --reader", command: spec.path) }
    let store = try context.openStore(arguments, creating: false)
    let ticket = try arguments.value(reader)
    let holds = try perform { () throws(StoreError) in
      if let ticket {
        guard try store.readers.reader(ticket: ticket) != nil else { throw StoreError.readerNotFound(ticket) }
        return try store.holds.list(ofReader: ticket)
      }
      return try store.holds.list(
        arguments.has(waiting) ? .waiting : arguments.has(expired) ? .waitingTooLong : .active)
    }
    if arguments.has(CommandSpec.jsonOption) {
      context.output.line(JSON.array(holds.map(json)).rendered())
      return
    }
    guard !holds.isEmpty else {
      context.output.line("No holds.")
      return
    }
    for hold in holds { context.output.line(line(hold).visibleForTerminal) }
  }

  static func line(_ hold: HoldRecord) -> String {
    var text = "\(hold.number)  \(hold.readerName) (\(hold.readerTicket))  \(hold.label)"
    if let copy = hold.copy { text += " — copy \(copy)" }
    switch hold.state {
    case .queued:
      text += "  queued" + (hold.position.map { ", number \($0)" } ?? "")
      if let date = hold.suspendedUntil { text += ", suspended until \(date.iso)" }
      if let date = hold.notWantedAfter { text += ", not wanted after \(date.iso)" }
    case .waiting:
      text +=
        "  waiting: \(hold.waitingCopy ?? "") on the hold shelf"
        + (hold.shelfElsewhere.map { " of desk «\($0)»" } ?? "") + " until \(hold.pickupBy?.iso ?? "")"
    case .fulfilled, .cancelled, .expired:
      text += "  \(hold.state.rawValue)"
    }
    return text
  }

  static func json(_ hold: HoldRecord) -> JSON {
    .object([
      ("number", .int(hold.number)), ("id", .string(hold.id.text)), ("state", .string(hold.state.rawValue)),
      ("reader_ticket", .string(hold.readerTicket)), ("reader", .string(hold.readerName)),
      ("title", .string(hold.label)), ("copy", .optional(hold.copy)), ("waiting_copy", .optional(hold.waitingCopy)),
      ("placed", .string(hold.placed.iso)), ("not_wanted_after", .optional(hold.notWantedAfter?.iso)),
      ("suspended_until", .optional(hold.suspendedUntil?.iso)), ("pickup_by", .optional(hold.pickupBy?.iso)),
      ("position", .optional(hold.position)), ("shelf_desk", .optional(hold.shelfElsewhere)),
    ])
  }

}

/// `circdesk hold cancel N`: for the reader, or by the librarian.
struct HoldCancel: DeskCommand {
  static let spec = CommandSpec(
    path: "hold cancel", abstract: "Cancel a hold; a copy waiting for it goes to the next hold.",
    arguments: [.init("<number>", "The hold's number, from hold list.")],
    options: [CommandSpec.databaseOption])

  static func run(_ arguments: ParsedArguments, in context: CommandContext) throws(CommandError) {
    let number = try arguments.recordNumber(of: "a hold", listedBy: "hold list")
    let store = try context.openExistingStore(arguments)
    let (hold, freed, next, shelf) = try perform { () throws(StoreError) in
      let hold = try store.holds.hold(number: number)
      let (freed, next, shelf) = try store.holds.cancel(number: number)
      return (hold, freed, next, shelf)
    }
    context.output.line(
      "Hold \(number) of \(hold.readerName) (ticket \(hold.readerTicket)) on \(hold.label) cancelled."
        .visibleForTerminal)
    if let next {
      context.output.line(HoldExpire.moveLine(next))
    } else if let freed, let shelf {
      context.output.line(
        "\(freed) waits on the hold shelf of desk «\(shelf)», which passes it on when it hears of this"
          .visibleForTerminal)
    } else if let freed {
      context.output.line("\(freed) no longer waits on the hold shelf: put it back on the shelf".visibleForTerminal)
    }
  }
}

/// `circdesk hold suspend N --until DATE | --resume`.
struct HoldSuspend: DeskCommand {
  static let until = CommandOption<LocalDate>.date("--until", value: "<date>", help: "The last day it is passed over.")
  static let resume = CommandFlag("--resume", help: "Take the suspension back.")

  static let spec = CommandSpec(
    path: "hold suspend", abstract: "Suspend a queued hold until a date: it keeps its place and is passed over.",
    arguments: [.init("<number>", "The hold's number, from hold list.")],
    options: [
      until,
      resume, CommandSpec.databaseOption,
    ])

  static func run(_ arguments: ParsedArguments, in context: CommandContext) throws(CommandError) {
    let number = try arguments.recordNumber(of: "a hold", listedBy: "hold list")
    let until = try arguments.value(until)
    guard (until != nil) != arguments.has(resume) else {
      throw .usage("say --until DATE, or --resume", command: spec.path)
    }
    let store = try context.openExistingStore(arguments)
    try perform { () throws(StoreError) in try store.holds.suspend(number: number, until: until) }
    context.output.line(until.map { "Hold \(number) suspended until \($0.iso)." } ?? "Hold \(number) resumed.")
  }
}

/// `circdesk hold expire`: the copies that waited too long move on.
struct HoldExpire: DeskCommand {
  static let spec = CommandSpec(
    path: "hold expire", abstract: "Expire holds not collected in time; list where each copy goes.",
    options: [CommandSpec.databaseOption],
    discussion: """
      A copy on the hold shelf past its pickup date goes to the next hold of its queue, or back to
      the shelf; holds queued past the date after which they are not wanted end too.
      """)

  static func run(_ arguments: ParsedArguments, in context: CommandContext) throws(CommandError) {
    let store = try context.openExistingStore(arguments)
    let (moves, lapsed) = try perform { () throws(StoreError) in try store.holds.expire() }
    for hold in lapsed {
      context.output.line(
        "Hold \(hold.number) of \(hold.readerName) (\(hold.readerTicket)) for \(hold.label): not wanted after "
          .visibleForTerminal + "\(hold.notWantedAfter?.iso ?? ""), ended")
    }
    guard !moves.isEmpty else {
      context.output.line("No copy waited too long.")
      return
    }
    for move in moves {
      let destination = move.next.map(moveLine) ?? "back to the shelf"
      context.output.line(
        "\(move.inventory) \(move.label), not collected by \(move.fromReader): \(destination)".visibleForTerminal)
    }
  }

  static func moveLine(_ trap: HoldTrap) -> String {
    "Hold for \(trap.readerName) (ticket \(trap.readerTicket)): put \(trap.inventory) on the hold shelf, "
      + "until \(trap.pickupBy.iso)"
  }
}
