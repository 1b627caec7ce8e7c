import DeskSync

/// `circdesk central init`: creates the central PostgreSQL schema the desks of one library
/// share, or brings it up to date.
struct CentralInit: DeskCommand {
  static let spec = CommandSpec(
    path: "central init", abstract: "Create or update the central database the desks share.",
    options: [
      CommandSpec.Option(
        "--url", value: "<url>",
        help: "libpq connection string or URI of the central (default: $CIRCDESK_CENTRAL_URL).")
    ],
    discussion: """
      Idempotent: run again, it changes nothing, or brings an older central up to date. Refused for
      a central set up by a newer circdesk, and for a database that holds other tables. Passwords
      come through libpq's own means (.pgpass, PGPASSWORD, client certificates), never the library.
      """)

  static func run(_ arguments: ParsedArguments, in context: CommandContext) throws(CommandError) {
    do throws(CentralError) {
      guard let url = arguments.value("--url") ?? context.environment["CIRCDESK_CENTRAL_URL"], !url.isEmpty else {
        throw .noURL
      }
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
      throw .failed([error.description])
    }
  }
}
