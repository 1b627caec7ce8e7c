import DeskDomain
import DeskStorage
import DeskSync
import DeskWords

#if canImport(Glibc)
  import Glibc
#endif

/// What the `central` commands share.
enum CentralCommands {
  static let urlOption = CommandOption<String>(
    "--url", value: "<url>", help: "libpq connection string or URI of the central (default: $CIRCDESK_CENTRAL_URL).")

  /// The central named by `--url`, else by `$CIRCDESK_CENTRAL_URL`; nil when neither says.
  static func url(_ arguments: ParsedArguments, _ context: CommandContext) throws(CommandError) -> String? {
    guard let url = try arguments.value(urlOption) ?? context.environment["CIRCDESK_CENTRAL_URL"], !url.isEmpty else {
      return nil
    }
    return url
  }
}

/// `circdesk central init`: creates the central PostgreSQL schema the desks of one library
/// share, or brings it up to date.
struct CentralInit: DeskCommand {
  static let spec = CommandSpec(
    path: "central init", abstract: "Create or update the central database the desks share.",
    options: [
      CentralCommands.urlOption
    ],
    discussion: """
      Idempotent: run again, it changes nothing, or brings an older central up to date. Refused for
      a central set up by a newer circdesk, and for a database that holds other tables. Passwords
      come through libpq's own means (.pgpass, PGPASSWORD, client certificates), never the library.
      """)

  static func run(_ arguments: ParsedArguments, in context: CommandContext) throws(CommandError) {
    let given = try CentralCommands.url(arguments, context)
    do throws(CentralError) {
      guard let url = given else { throw .noURL }
      let central = try CentralConnection(url: url)
      let outcome = try CentralSchema.initialize(central)
      if outcome.from == outcome.to {
        context.output.line("The central is up to date: schema \(outcome.to), library \(outcome.libraryID).")
      } else if outcome.from == 0 {
        context.output.line("Created the central: schema \(outcome.to), library \(outcome.libraryID).")
      } else {
        context.output.line(
          "Updated the central from schema \(outcome.from) to \(outcome.to), library \(outcome.libraryID).")
      }
    } catch {
      throw .sync(.central(error))
    }
  }
}

/// `circdesk central join`: ties the library file to a central and syncs it.
struct CentralJoin: DeskCommand {
  static let desk = CommandOption<String>(
    "--desk", value: "<name>", help: "This desk's name, shown in loans and conflicts.", required: true)

  static let spec = CommandSpec(
    path: "central join", abstract: "Tie this library to a central as a named desk, and sync.",
    options: [
      CentralCommands.urlOption,
      desk,
      CommandSpec.databaseOption,
    ],
    discussion: """
      An empty library gets the whole library from the central. A library with records of its own sends
      them; a number another desk gave first becomes a conflict here, and nothing is dropped. From now
      on every change is kept in an outbox until the central has it. The URL is kept without its
      password: give that through .pgpass or PGPASSWORD.
      """)

  static func run(_ arguments: ParsedArguments, in context: CommandContext) throws(CommandError) {
    guard let url = try CentralCommands.url(arguments, context) else { throw .sync(.central(.noURL)) }
    let name = (try arguments.value(desk) ?? "").trimmingWhitespace()
    guard !name.isEmpty else { throw .usage("give the desk a name: --desk NAME", command: spec.path) }
    // A join refused before anything was written leaves no new file behind.
    let path = try context.databasePath(arguments)
    let existed = access(path, F_OK) == 0
    let store = try context.openStore(arguments)
    let before = try perform { () throws(StoreError) in try store.sync.deskTie() }
    do throws(SyncError) {
      let (queued, report) = try Synchronizer.join(
        store: store, url: url, deskName: name, describing: { EnglishWords().message($0) })
      let renamed = before.map { $0.deskName != name ? " (renamed from «\($0.deskName)»)" : "" } ?? ""
      context.output.line("Joined the central as desk «\(name)»\(renamed).".visibleForTerminal)
      if queued > 0 { context.output.line("Sent this library's \(englishPlural(queued, "record")).") }
      SyncCommand.describe(report, to: context)
      if CentralConnection.hasPassword(url) {
        context.output.line(
          "The password is not kept in the library: give it through ~/.pgpass or PGPASSWORD for the next syncs.")
      }
    } catch {
      // A new file the central never heard of goes; one it registered stays, for the next join to
      // take up under the same desk id.
      if !existed, (try? store.sync.deskTie()) == nil, (try? store.sync.deskIdentity()) == nil,
        (try? store.isEmpty()) == true
      {
        for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
      }
      throw .sync(error)
    }
  }
}

/// `circdesk central leave`: unties the library from its central.
struct CentralLeave: DeskCommand {
  static let discard = CommandFlag(
    "--discard", help: "Leave even though changes made here have not reached the central.")
  static let forget = CommandFlag(
    "--forget", help: "Keep nothing of the central: joining again, this desk is a new one and sends its library.")

  static let spec = CommandSpec(
    path: "central leave", abstract: "Untie this library from its central: a desk on its own again.",
    options: [
      discard,
      forget,
      CommandSpec.databaseOption,
    ],
    discussion: """
      The library keeps every record. Refused while the outbox holds changes, unless --discard. The desk
      keeps who it was to the library and records its changes: joining again, it takes what the other
      desks did meanwhile and sends only what it changed, under its own name.
      """)

  static func run(_ arguments: ParsedArguments, in context: CommandContext) throws(CommandError) {
    let store = try context.openExistingStore(arguments)
    let tie = try perform { () throws(StoreError) in try store.sync.deskTie() }
    guard let tie else { throw .sync(.notJoined) }
    let forgetting = arguments.has(forget)
    try perform { () throws(StoreError) in
      try store.sync.untie(discarding: arguments.has(discard), forgetting: forgetting)
    }
    context.output.line("Left the central (\(tie.central)); this library is a desk on its own.".visibleForTerminal)
    if !forgetting {
      context.output.line(
        "Changes made here are kept: joined again, the desk «\(tie.deskName)» sends them and takes the others'."
          .visibleForTerminal)
    }
  }
}
