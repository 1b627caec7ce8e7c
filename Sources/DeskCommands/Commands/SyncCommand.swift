import DeskDomain
import DeskStorage
import DeskSync
import DeskWords

/// `circdesk sync`: sends the changes made here to the central and applies those of the other
/// desks; `--status` says where the desk stands without connecting.
struct SyncCommand: DeskCommand {
  static let status = CommandFlag("--status", help: "Say where this desk stands, without connecting.")
  static let url = CommandOption<String>(
    "--url", value: "<url>", help: "Connect with this connection string instead of the one joined with.")

  static let spec = CommandSpec(
    path: "sync", abstract: "Send changes to the central and apply the other desks' changes.",
    options: [
      status,
      url,
      CommandSpec.jsonOption, CommandSpec.databaseOption,
    ],
    discussion: """
      A sync cut at any moment (a killed desk, a restarted server, a dropped network) is finished by the
      next one: nothing is lost and nothing applied twice.
      """)

  static func run(_ arguments: ParsedArguments, in context: CommandContext) throws(CommandError) {
    let store =
      try arguments.has(status) ? context.openStore(arguments, creating: false) : context.openExistingStore(arguments)
    if arguments.has(status) {
      let status = try perform { () throws(StoreError) in try store.sync.status() }
      describe(status, json: arguments.has(CommandSpec.jsonOption), to: context)
      return
    }
    let given = try arguments.value(url)
    if let given, given.trimmingWhitespace().isEmpty {
      throw .usage("--url needs a connection string", command: spec.path)
    }
    let tie = try perform { () throws(StoreError) in try store.sync.deskTie() }
    guard tie != nil else { throw .sync(.notJoined) }
    do throws(SyncError) {
      // The library keeps the failure for `sync --status`, which reports in English.
      let report = try Synchronizer(store: store, url: given, describing: { EnglishWords().message($0) }).sync()
      if arguments.has(CommandSpec.jsonOption) {
        context.output.line(
          JSON.object([
            ("pushed", .int(report.pushed)), ("refused", .int(report.refused)), ("pulled", .int(report.pulled)),
            ("applied", .int(report.applied)), ("conflicts_raised", .int(report.conflictsRaised)),
            ("clock_offset_ms", .int(Int(report.clockOffset.milliseconds))),
            (
              "hold_shelf_moves",
              .array(
                report.holdShelfMoves.map { move in
                  .object([
                    ("inventory", .string(move.inventory)), ("hold_of", .string(move.fromReader)),
                    ("next_ticket", .optional(move.next?.readerTicket)),
                  ])
                })
            ),
          ]).rendered())
      } else {
        describe(report, to: context)
      }
    } catch {
      throw .sync(error)
    }
  }

  static func describe(_ report: SyncReport, to context: CommandContext) {
    context.output.line(
      // Its own changes come back from the central too (as marks, for the order of the log): not
      // news to the librarian, who read «received 487 (0 from other desks)» after sending 487.
      "Sent \(englishPlural(report.pushed, "change")), received \(report.applied) from other desks."
        + (report.refused > 0
          ? " \(englishPlural(report.refused, "change")) not taken by the central \(report.refused == 1 ? "waits" : "wait") "
            + "for a conflict to be settled" + (report.conflictsRaised > 0 ? "." : ": circdesk conflicts list.") : "")
        + (report.conflictsRaised > 0
          ? " \(englishPlural(report.conflictsRaised, "new conflict")) to settle: circdesk conflicts list." : ""))
    for move in report.holdShelfMoves { context.output.line(context.words.line(move).visibleForTerminal) }
    if report.clockOffset.isBeyondBound { context.output.line(report.clockOffset.englishWarning + ".") }
  }

  static func describe(_ status: SyncStatus, json: Bool, to context: CommandContext) {
    let tie = status.tie
    if json {
      context.output.line(
        JSON.object([
          ("joined", .bool(tie != nil)), ("central", .optional(tie?.central)), ("desk", .optional(tie?.deskName)),
          ("desk_id", .optional(tie?.deskID)), ("library_id", .optional(tie?.libraryID)),
          ("last_sync", .optional(tie?.lastSync?.iso)), ("last_attempt", .optional(tie?.lastAttempt?.iso)),
          ("last_error", .optional(tie.map(\.lastError).flatMap { $0.isEmpty ? nil : $0 })),
          ("waiting", .int(status.waiting)), ("held", .int(status.held)),
          ("open_conflicts", .int(status.openConflicts)),
          ("clock_offset_ms", tie.map { .int(Int($0.clockOffset.milliseconds)) } ?? .null),
        ]).rendered())
      return
    }
    guard let tie else {
      context.output.line("This library is a desk on its own (not joined to a central).")
      if let left = status.left {
        context.output.line(
          ("It left the central \(left.central) as desk «\(left.deskName)»: "
            + "\(englishPlural(status.waiting, "change")) made since wait for it to join again.").visibleForTerminal)
      }
      return
    }
    var lines = [
      "Central:      \(tie.central)", "Desk:         \(tie.deskName) (\(tie.deskID))",
      "Library:      \(tie.libraryID)",
      "Last sync:    " + (tie.lastSync.map { "\($0.iso)" } ?? "never"),
      "Waiting:      \(englishPlural(status.waiting, "change"))"
        + (status.held > 0 ? " (\(status.held) held back by a conflict)" : ""),
      "Conflicts:    \(status.openConflicts) open" + (status.openConflicts > 0 ? ": circdesk conflicts list" : ""),
    ]
    if tie.lastSync != nil {
      lines.append(
        tie.clockOffset.isBeyondBound
          ? "Clock:        " + tie.clockOffset.englishWarning
          : "Clock:        within \(ClockSpan(milliseconds: UInt64(ClockOffset.boundMilliseconds)).english) of the central's"
      )
    }
    if !tie.lastError.isEmpty, tie.lastAttempt != tie.lastSync {
      lines.append("Last attempt: " + (tie.lastAttempt?.iso ?? "") + " failed: " + tie.lastError)
    }
    for line in lines { context.output.line(line.visibleForTerminal) }
  }
}
