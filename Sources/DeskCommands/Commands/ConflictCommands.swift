import DeskDomain
import DeskStorage
import DeskWords

/// `circdesk conflicts list`: what desks did that cannot both stand.
struct ConflictsList: DeskCommand {
  static let all = CommandFlag("--all", help: "Settled ones too.")

  static let spec = CommandSpec(
    path: "conflicts list", abstract: "List the open conflicts between desks.",
    options: [
      all, CommandSpec.jsonOption, CommandSpec.databaseOption,
    ])

  static func run(_ arguments: ParsedArguments, in context: CommandContext) throws(CommandError) {
    let store = try context.openStore(arguments, creating: false)
    let conflicts = try perform { () throws(StoreError) in
      try store.conflicts.list(includingSettled: arguments.has(all))
    }
    if arguments.has(CommandSpec.jsonOption) {
      context.output.line(JSON.array(conflicts.map(json)).rendered())
      return
    }
    guard !conflicts.isEmpty else {
      context.output.line("No open conflicts.")
      return
    }
    for conflict in conflicts {
      let state = conflict.resolved == nil ? "" : " (settled: \(conflict.resolution))"
      context.output.line(
        "\(conflict.number)  \(english.conflictKind(conflict.kind)): \(english.conflictSummary(conflict))\(state)"
          .visibleForTerminal)
    }
  }

  static func json(_ conflict: Conflict) -> JSON {
    .object([
      ("number", .int(conflict.number)), ("key", .string(conflict.key)), ("kind", .string(conflict.kind.rawValue)),
      ("entity", .string(conflict.entity)), ("record", .string(conflict.recordID)),
      ("summary", .string(english.conflictSummary(conflict))),
      ("sides", .array(english.conflictSides(conflict).map(JSON.string))),
      ("raised", .string(conflict.raised.iso)), ("resolved", .optional(conflict.resolved?.iso)),
      ("resolution", .string(conflict.resolution)),
    ])
  }
}

/// Conflicts are listed and shown in English, as the command line's reports are (its refusals
/// speak the locale's language).
private let english = EnglishWords()

/// `circdesk conflicts show N`: both sides of one conflict, and how to settle it.
struct ConflictsShow: DeskCommand {
  static let spec = CommandSpec(
    path: "conflicts show", abstract: "Show both sides of a conflict and how to settle it.",
    arguments: [.init("<number>", "The conflict's number, from conflicts list.")],
    options: [CommandSpec.jsonOption, CommandSpec.databaseOption])

  static func run(_ arguments: ParsedArguments, in context: CommandContext) throws(CommandError) {
    let number = try arguments.recordNumber(of: "a conflict", listedBy: "conflicts list")
    let store = try context.openStore(arguments, creating: false)
    let conflict = try perform { () throws(StoreError) in
      guard let conflict = try store.conflicts.conflict(number: number) else {
        throw StoreError.conflictNotFound(number)
      }
      return conflict
    }
    if arguments.has(CommandSpec.jsonOption) {
      context.output.line(ConflictsList.json(conflict).rendered())
      return
    }
    var lines = [
      "Conflict \(conflict.number): \(english.conflictKind(conflict.kind))", english.conflictSummary(conflict),
    ]
    lines += english.conflictSides(conflict).map { "  " + $0 }
    if conflict.resolved != nil {
      lines.append("Settled \(conflict.resolved?.iso ?? ""): \(conflict.resolution)")
    } else {
      lines.append("To settle it, \(english.remedy(conflict.kind, number: conflict.number)).")
    }
    for line in lines { context.output.line(line.visibleForTerminal) }
  }

}

/// `circdesk conflicts resolve N …`: settles a conflict; the settlement travels to every desk.
struct ConflictsResolve: DeskCommand {
  static let holder = CommandOption<String>(
    "--holder", value: "<ticket>", help: "A book issued twice: this reader holds it; the other loans are closed.")
  static let renumber = CommandOption<String>(
    "--renumber", value: "<number>", help: "A number given twice: this desk's record takes this number instead.")
  static let duplicate = CommandFlag(
    "--duplicate",
    help: "A number given twice to one book (or reader): this desk's record goes, its loans move to the other.")
  static let restore = CommandFlag(
    "--restore", help: "A record changed after its deletion: bring it back with the change.")
  static let keepDeleted = CommandFlag("--keep-deleted", help: "A record changed after its deletion: it stays deleted.")
  static let copy = CommandOption<String>(
    "--copy", value: "<inventory>",
    help: "Copies put aside twice for a hold: the reader collects this one; the other goes to the next hold.")
  static let resend = CommandFlag(
    "--resend", help: "A change the central refused: send the record again as it stands (correct it first).")
  static let drop = CommandFlag("--drop", help: "A change not taken: let it go.")
  static let keepRenewals = CommandFlag(
    "--keep-renewals", help: "A loan renewed past its limit at desks apart: the renewals stand.")
  static let takeBackRenewal = CommandFlag(
    "--take-back-renewal",
    help: "A loan renewed past its limit: back to the limit, due on the earlier date the renewals gave.")
  static let acknowledge = CommandFlag(
    "--acknowledge", help: "A renewal made after the book was back: close the conflict.")

  static let spec = CommandSpec(
    path: "conflicts resolve", abstract: "Settle a conflict between desks.",
    arguments: [.init("<number>", "The conflict's number, from conflicts list.")],
    options: [
      holder,
      renumber,
      duplicate,
      restore,
      keepDeleted,
      copy,
      resend,
      drop,
      keepRenewals,
      takeBackRenewal,
      acknowledge,
      CommandSpec.databaseOption,
    ],
    discussion: "Exactly one of the options. The settlement is a change like any other: the next sync sends it.")

  static func run(_ arguments: ParsedArguments, in context: CommandContext) throws(CommandError) {
    let number = try arguments.recordNumber(of: "a conflict", listedBy: "conflicts list")
    var settlements: [ConflictStore.Settlement] = []
    if let ticket = try arguments.value(holder) { settlements.append(.holder(ticket: ticket)) }
    if let renumber = try arguments.value(renumber) { settlements.append(.renumber(renumber)) }
    if arguments.has(duplicate) { settlements.append(.duplicate) }
    if arguments.has(restore) { settlements.append(.restore) }
    if arguments.has(keepDeleted) { settlements.append(.keepDeleted) }
    if let copy = try arguments.value(copy) { settlements.append(.copy(inventory: copy)) }
    if arguments.has(resend) { settlements.append(.resend) }
    if arguments.has(drop) { settlements.append(.drop) }
    if arguments.has(keepRenewals) { settlements.append(.keepRenewals) }
    if arguments.has(takeBackRenewal) { settlements.append(.takeBackRenewal) }
    if arguments.has(acknowledge) { settlements.append(.acknowledge) }
    guard settlements.count == 1, let settlement = settlements.first else {
      throw .usage(
        "say how to settle it: one of --holder, --renumber, --duplicate, --restore, --keep-deleted, --copy, "
          + "--resend, --drop, --keep-renewals, --take-back-renewal, --acknowledge",
        command: spec.path)
    }
    let store = try context.openExistingStore(arguments)
    let (settled, moves) = try perform { () throws(StoreError) in try store.conflicts.settleMoving(number, settlement) }
    let outcome = settled.resolved == nil ? "sent to the central at the next sync" : settled.resolution
    context.output.line("Conflict \(number): \(outcome).".visibleForTerminal)
    for move in moves { context.output.line(context.words.line(move).visibleForTerminal) }
  }
}
