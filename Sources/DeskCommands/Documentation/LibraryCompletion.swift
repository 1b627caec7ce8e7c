import DeskStorage

/// `circdesk --complete inventory|ticket PREFIX [--db PATH]`: the library's inventory numbers or
/// tickets that begin with the prefix, one a line, for the shell completions (which call it where
/// a command's argument is one). Silent where there is no library: a completion never prints an
/// error into the command line.
enum LibraryCompletion {
  /// The words whose values are in the library, as command arguments name them.
  enum Kind: String, CaseIterable {
    case inventory, ticket

    /// The kind an argument's name asks for (`<inventory>`, `<ticket>`), if any.
    init?(argument: String) {
      guard argument.hasPrefix("<"), argument.hasSuffix(">") else { return nil }
      self.init(rawValue: String(argument.dropFirst().dropLast()))
    }
  }

  /// At most this many are offered: a shell lists them all, and more would not be read.
  static let limit = 100

  static let spec = CommandSpec(
    path: "--complete", abstract: "Print the library's inventory numbers or tickets that begin so.",
    arguments: [
      .init("<inventory|ticket>", "What to complete."), .init("<prefix>", "What is typed so far.", .optional),
    ],
    options: [CommandSpec.databaseOption])

  static func run(_ arguments: [String], context: CommandContext) throws(CommandError) {
    let parsed = try ParsedArguments(arguments, spec: spec)
    guard let kind = Kind(rawValue: parsed.positionals[0]) else {
      throw .usage("--complete takes inventory or ticket, not «\(parsed.positionals[0])»", command: "")
    }
    let prefix = parsed.positionals.count > 1 ? parsed.positionals[1] : ""
    guard let store = try? context.openStore(parsed, creating: false) else { return }
    let found: [String]?
    switch kind {
    case .inventory: found = try? store.books.inventoryNumbers(startingWith: prefix, limit: limit)
    case .ticket: found = try? store.readers.tickets(startingWith: prefix, limit: limit)
    }
    for value in found ?? [] where !value.contains(where: \.isNewline) { context.output.line(value) }
  }
}
