import DeskDomain
import DeskLookup
import DeskStorage

/// `circdesk lookup`: what the public catalogues say of an ISBN, and the queue of look-ups that
/// waited for the network.
struct LookupCommand: DeskCommand {
  static let pending = CommandFlag("--pending", help: "Work through the look-ups that waited for the network.")
  static let title = CommandOption<String>(
    "--title", value: "<words>", help: "Search the targets (circdesk target list) by title words.")
  static let author = CommandOption<String>("--author", value: "<name>", help: "…and by the author's name.")
  static let year = CommandOption<Int>.integer(
    "--year", value: "<year>", help: "…and by the year of publication.", in: 1000...2999, unit: "")

  static let spec = CommandSpec(
    path: "lookup",
    abstract: "Look a book up in public and other libraries' catalogues, by ISBN or by title and author.",
    arguments: [.init("<isbn>", "ISBN-10 or ISBN-13, with or without hyphens.", .optional)],
    options: [
      pending, title, author, year,
      CommandSpec.jsonOption, CommandSpec.databaseOption,
    ],
    discussion: """
      Answers are kept in the library: an ISBN asks the network once. Without network the ISBN
      waits in a queue for 'lookup --pending' (the desk also retries it while it runs). Catalogues
      and their order are settings (lookup_providers, google_books_url, open_library_url), and the
      environment variables CIRCDESK_GOOGLE_BOOKS_URL and CIRCDESK_OPEN_LIBRARY_URL override them.
      Other libraries' catalogues (Z39.50, SRU: circdesk target add) join the order by their names.
      --title and --author search every target at once and list the records found, a book once,
      with where each came from; a search no target could answer waits for --pending too.
      Exit status 1 when nothing was found, the ISBN is invalid, or no catalogue could answer.
      """)

  static func run(_ arguments: ParsedArguments, in context: CommandContext) throws(CommandError) {
    let words = arguments.positionals
    let (titleWords, authorName, yearGiven) = (
      try arguments.value(title) ?? "", try arguments.value(author) ?? "", try arguments.value(year)
    )
    if !titleWords.isEmpty || !authorName.isEmpty || yearGiven != nil {
      guard words.isEmpty, !arguments.has(pending) else {
        throw .usage("search by ISBN, or by --title and --author, not both", command: spec.path)
      }
      guard let query = CopyQuery.words(title: titleWords, author: authorName, year: yearGiven.map(String.init) ?? "")
      else { throw .usage("--year needs --title or --author beside it", command: spec.path) }
      try searchTargets(query, arguments, in: context)
      return
    }
    guard arguments.has(pending) != !words.isEmpty else {
      throw .usage("name one ISBN, or --pending", command: spec.path)
    }
    var isbn: ISBN?
    if let text = words.first {
      do throws(ISBNError) {
        isbn = try ISBN(text)
      } catch {
        throw .failed([error.description])
      }
    }
    let store = try context.openStore(arguments)
    let lookup = ISBNLookup.configured(store: store, environment: context.environment)
    let json = arguments.has(CommandSpec.jsonOption)
    if let isbn {
      let outcome = lookup.lookup(isbn, in: store)
      report(isbn, outcome, json: json, context: context)
      if case .found = outcome { return }
      throw .exit(1)
    }
    let results = lookup.processPending(in: store)
    for (isbn, outcome) in results { report(isbn, outcome, json: json, context: context) }
    let searches = lookup.catalogue.processPending(in: store)
    for (query, result) in searches { CopySearchReport.write(result, for: query, json: json, context: context) }
    if !json {
      if results.isEmpty && searches.isEmpty { context.output.line("No look-ups are waiting.") }
      if !results.isEmpty { context.output.line(summary(results)) }
      if !searches.isEmpty {
        let waiting = searches.filter { $0.1.isUnavailable }.count
        context.output.line(
          englishPlural(searches.count, "search", "searches")
            + " of the targets: \(searches.count - waiting) answered, \(waiting) still waiting")
      }
    }
    if searches.contains(where: { $0.1.isUnavailable }) { throw .exit(1) }
    if results.contains(where: { if case .found = $0.1 { return false } else { return true } }) { throw .exit(1) }
  }

  /// `--title`, `--author`: every target asked at once, the records listed.
  static func searchTargets(_ query: CopyQuery, _ arguments: ParsedArguments, in context: CommandContext)
    throws(CommandError)
  {
    let store = try context.openStore(arguments)
    let catalogue = ISBNLookup.configured(store: store, environment: context.environment).catalogue
    guard !catalogue.targets.isEmpty else {
      throw .failed([
        "No target to search: add one with circdesk target add NAME --z3950 host:port/database --syntax rusmarc"
      ])
    }
    let result = catalogue.search(query, in: store)
    CopySearchReport.write(result, json: arguments.has(CommandSpec.jsonOption), context: context)
    if result.records.isEmpty { throw .exit(1) }
  }

  static func summary(_ results: [(ISBN, LookupOutcome)]) -> String {
    let found = results.filter { if case .found = $0.1 { return true } else { return false } }.count
    let waiting = results.filter { if case .unavailable = $0.1 { return true } else { return false } }.count
    return
      englishPlural(results.count, "look-up")
      + ": \(found) found, \(results.count - found - waiting) not found, \(waiting) still waiting"
  }

  static func report(_ isbn: ISBN, _ outcome: LookupOutcome, json: Bool, context: CommandContext) {
    switch outcome {
    case .found(let facts, let cached):
      if json {
        context.output.line(
          JSON.object([
            ("isbn", .string(isbn.isbn13)), ("result", .string("found")), ("provider", .string(facts.provider)),
            ("cached", .bool(cached)), ("title", .string(facts.title)), ("subtitle", .string(facts.subtitle)),
            ("authors", .array(facts.authors.map(JSON.string))), ("publisher", .string(facts.publisher)),
            ("city", .string(facts.city)), ("year", .optional(facts.year)), ("pages", .optional(facts.pages)),
          ]).rendered().replacingNewlines())
        return
      }
      let values = facts.fieldValues
      context.output.line(
        "ISBN \(isbn.hyphenated): found in \(facts.provider)\(cached ? " (remembered from an earlier look-up)" : "")"
          .visibleForTerminal)
      var pairs: [(String, String)] = [
        ("Title", values[.title] ?? ""),
        (
          "Author",
          [values[.authorSurname] ?? "", values[.authorInitials] ?? ""].filter { !$0.isEmpty }.joined(separator: " ")
        ),
      ]
      if facts.authors.count > 1 {
        pairs.append(("Further authors", facts.authors.dropFirst().joined(separator: "; ")))
      }
      pairs += [
        ("Publisher", facts.publisher), ("City", facts.city), ("Year", facts.year.map(String.init) ?? ""),
        ("Pages", facts.pages.map(String.init) ?? ""),
      ]
      context.output.write(RecordText.fields(pairs.filter { !$0.1.isEmpty }))
    case .notFound(let cached):
      let text = "ISBN \(isbn.hyphenated): no catalogue knows this book\(cached ? " (remembered)" : "")"
      if json {
        context.output.line(
          JSON.object([("isbn", .string(isbn.isbn13)), ("result", .string("not-found"))]).rendered().replacingNewlines()
        )
      } else {
        context.output.line(text)
      }
    case .unavailable(let failures):
      let reasons = failures.map(\.description)
      if json {
        context.output.line(
          JSON.object([
            ("isbn", .string(isbn.isbn13)), ("result", .string("waiting")),
            ("reasons", .array(reasons.map(JSON.string))),
          ]).rendered().replacingNewlines())
      } else {
        context.output.line(
          "ISBN \(isbn.hyphenated): no catalogue could answer (\(reasons.joined(separator: "; "))); "
            + "it waits for 'circdesk lookup --pending'")
      }
    }
  }
}
