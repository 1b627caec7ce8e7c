import DeskDomain
import DeskExchange
import DeskStorage
import DeskSync
import DeskWords

#if canImport(Glibc)
  import Glibc
#endif

/// `circdesk stocktake start`: a check of a part of the stock opens, its expected copies frozen.
struct StocktakeStart: DeskCommand {
  static let name = CommandOption<String>("--name", value: "<name>", help: "The check's name (default: by its day).")
  static let place = CommandOption<String>(
    "--place", value: "<prefix>", help: "Check the copies whose storage place begins so (any case); repeat for more.",
    repeats: true)
  static let shelfCodes = CommandOption<String>(
    "--shelf-code", value: "<from..to>",
    help:
      "Check the copies whose shelf code (BBK index) is in the range, both ends by their beginning: 84..84, 63..75, 75.."
  )
  static let status = CommandOption<String>(
    "--status", value: "<status>",
    help: "Check copies of this status (repeat for more; default: available, damaged, reference, processing).",
    repeats: true)

  static let spec = CommandSpec(
    path: "stocktake start", abstract: "Open a check of the stock: the copies it covers are expected from now.",
    options: [name, place, shelfCodes, status, CommandSpec.databaseOption],
    discussion: """
      The copies the check covers when it opens are the ones it expects: a book added later is not,
      a book issued later still is. Lost and written-off copies are not expected unless --status
      says so. Scan the shelves with circdesk stocktake scan; see what is missing with circdesk
      stocktake report.
      """)

  static func run(_ arguments: ParsedArguments, in context: CommandContext) throws(CommandError) {
    let places = try arguments.all(place)
    if places.contains(where: { $0.trimmingWhitespace().isEmpty }) {
      throw .usage("--place is the beginning of a storage place's name, not empty", command: spec.path)
    }
    var scope = StocktakeScope(placePrefixes: places)
    if let text = try arguments.value(shelfCodes) {
      guard let range = StocktakeScope.shelfCodes(parsing: text) else {
        throw .usage("--shelf-code is FROM..TO (84..84, 63..75, 75..), not «\(text)»", command: spec.path)
      }
      scope.shelfCodes = range
    }
    let words = try arguments.all(status)
    if !words.isEmpty {
      var statuses: Set<CopyStatus> = []
      for word in words {
        guard let status = CopyStatus(word: word) else {
          throw .usage(
            "--status is one of \(CopyStatus.allCases.map(\.rawValue).joined(separator: ", ")), not «\(word)»",
            command: spec.path)
        }
        statuses.insert(status)
      }
      scope.statuses = statuses
    }
    let store = try context.openStore(arguments, creating: false)
    let given =
      try arguments.value(name)
      ?? StocktakeAct.defaultName(on: store.clock.now().date, in: context.language == .russian ? .russian : .english)
    let open = try perform { () throws(StoreError) in try store.stocktakes.checks() }.filter { $0.closed == nil }
    guard let check = try perform({ () throws(StoreError) in try store.stocktakes.start(name: given, scope: scope) })
    else { throw .failed(["No copy is covered by this check: see the --place, --shelf-code and --status given"]) }
    for other in open {
      context.errors.line(
        "Check \(other.number) «\(other.name)» is open too: scans go into the latest unless --check says"
          .visibleForTerminal)
    }
    context.output.line(
      "Check \(check.number) «\(check.name)» is open: \(check.expected) \(check.expected == 1 ? "copy" : "copies") expected."
        .visibleForTerminal)
  }
}

/// `circdesk stocktake scan`: codes scanned at the shelves, one a line, each sorted as it comes.
struct StocktakeScan: DeskCommand {
  static let place = CommandOption<String>(
    "--place", value: "<place>", help: "Where the copies are being scanned (a line PLACE:<place> changes it).")
  static let check = CommandOption<Int>.integer(
    "--check", value: "<number>", help: "The check to scan into (default: the latest open one).", in: 1...Int(Int32.max)
  )
  static let standardInput = CommandFlag("--stdin", help: "Read one code a line from standard input.")

  static let spec = CommandSpec(
    path: "stocktake scan", abstract: "Scan copies into the open check: each is sorted and said as it comes.",
    options: [standardInput, place, check, CommandSpec.databaseOption],
    discussion: """
      Each line is a copy's number, as a wedge scanner types it; a line PLACE:<place> (a shelf's
      label) says where the following copies are. Each copy is found; misplaced (in another place
      than its record's); on loan (the catalogue says it is out); not in stock (lost or written
      off); outside the check (another section's); unknown; or scanned again (counted once).
      """)

  static func run(_ arguments: ParsedArguments, in context: CommandContext) throws(CommandError) {
    guard arguments.has(standardInput) else { throw .usage("read the codes with --stdin", command: spec.path) }
    let store = try context.openStore(arguments, creating: false)
    let number = try arguments.value(check)
    guard let open = try perform({ () throws(StoreError) in try store.stocktakes.openCheck(number) }) else {
      throw .failed([
        number.map { "No open check numbered \($0): see circdesk stocktake list" }
          ?? "No check is open: start one with circdesk stocktake start"
      ])
    }
    // Which check the scans go into, said first: several may be open.
    context.output.line("Check \(open.number) «\(open.name)»:".visibleForTerminal)
    var here = try arguments.value(place) ?? ""
    var line = 0
    var refused = 0
    while let read = ScanCommand.readLine(from: stdin, maximumBytes: 65536) {
      line += 1
      guard case .text(let text) = read else {
        context.errors.line("line \(line): not read (a NUL byte, or longer than 65536 bytes)")
        refused += 1
        continue
      }
      let code = ScannedCode.clean(text)
      guard !code.isEmpty else { continue }
      if let place = ShelfLabel.place(in: code) {
        here = place
        context.output.line("Place: \(here)".visibleForTerminal)
        continue
      }
      let scan = try perform { () throws(StoreError) in try store.stocktakes.scan(code, in: open, at: here) }
      context.output.line(StocktakeScan.describe(scan).visibleForTerminal)
    }
    if refused > 0 { throw .exit(1) }
  }

  static func describe(_ scan: StocktakeStore.Scan) -> String {
    let copy = scan.book.map { "\(scan.code) «\($0.title)»" } ?? scan.code
    // Read back after it was dealt with: what was done, not what the library says now.
    if scan.settled {
      switch scan.finding {
      case .misplaced(_, let actual): return "\(copy): misplaced; its record has been moved to \(actual) since"
      case .onLoan: return "\(copy): recorded as out when scanned; returned since"
      case .notInStock: return "\(copy): recorded as lost or written off when scanned; available since"
      case .unknown: return "\(copy): not in the library when scanned; added as a new book since"
      default: break
      }
    }
    switch scan.finding {
    case .found: return "\(copy): found"
    case .misplaced(let recorded, let actual):
      return "\(copy): misplaced, its record says \(recorded), found in \(actual)"
    case .onLoan(let reader, let ticket, let since):
      return "\(copy): on loan to \(reader) (ticket \(ticket)) since \(since.iso): return it, or it is another copy"
    case .notInStock(let status): return "\(copy): recorded as \(status.rawValue)"
    case .unknown: return "\(copy): no copy with this number in the library"
    case .outsideCheck: return "\(copy): not part of this check"
    case .scannedAgain: return "\(copy): scanned before (counted once)"
    case .isbn: return "\(copy): an ISBN, not a copy's number (not kept): scan the copy's inventory label"
    }
  }
}

/// `circdesk stocktake report`: what a check has found so far, and what is missing.
struct StocktakeReport: DeskCommand {
  static let check = CommandOption<Int>.integer(
    "--check", value: "<number>", help: "The check (default: the latest).", in: 1...Int(Int32.max))
  static let csv = CommandFlag("--csv", help: "Print the missing copies as CSV (RFC 4180).")

  static let spec = CommandSpec(
    path: "stocktake report", abstract: "Show a check's findings and the copies missing.",
    options: [check, csv, CommandSpec.databaseOption],
    discussion: """
      Missing are the expected copies neither scanned nor accounted for: a copy out on loan, on
      the hold shelf or in processing is present.
      """)

  /// The check `--check` names, or the latest, open or closed.
  static func chosenCheck(_ number: Int?, in store: LibraryStore) throws(CommandError) -> StocktakeStore.Check {
    let checks = try perform { () throws(StoreError) in try store.stocktakes.checks() }
    guard let chosen = checks.first(where: { number == nil || $0.number == number }) else {
      throw .failed([
        number.map { "No check numbered \($0): see circdesk stocktake list" }
          ?? "No check yet: start one with circdesk stocktake start"
      ])
    }
    return chosen
  }

  static func run(_ arguments: ParsedArguments, in context: CommandContext) throws(CommandError) {
    let store = try context.openStore(arguments, creating: false)
    let chosen = try chosenCheck(try arguments.value(check), in: store)
    let report = try perform { () throws(StoreError) in try store.stocktakes.report(chosen) }
    if arguments.has(csv) {
      context.output.write(CSV.line(["inventory", "author", "title", "place", "shelf code", "status"]))
      for book in report.missing {
        context.output.write(
          CSV.line([
            book.inventoryNumber, book.author, book.title,
            book.place, book.bbk, book.status.rawValue,
          ]))
      }
      return
    }
    let check = report.check
    context.output.line(
      "Check \(check.number) «\(check.name)», opened \(check.started.iso.prefix(10))\(check.closed.map { ", closed \($0.iso.prefix(10))" } ?? "")"
        .visibleForTerminal)
    context.output.line("Expected \(check.expected), present \(report.present), missing \(report.missing.count).")
    let kinds = ["found", "misplaced", "on-loan", "not-in-stock", "outside-check", "unknown", "scanned-again"]
    context.output.line(
      "Scans: " + kinds.map { "\($0) \(report.counts[$0] ?? 0)" }.joined(separator: ", ") + ".")
    for (title, tallies) in [("By place", report.byPlace), ("By shelf-code section", report.bySection)] {
      context.output.line("")
      context.output.line("\(title):")
      var table = Table([
        .init(title: "", maximumWidth: 40), .init(title: "Expected", maximumWidth: 10),
        .init(title: "Missing", maximumWidth: 10),
      ])
      for tally in tallies {
        table.append([tally.name.visibleForTerminal, String(tally.expected), String(tally.missing)])
      }
      context.output.write(table.rendered())
    }
    if !report.surprises.isEmpty {
      context.output.line("")
      context.output.line("Surprises, each once:")
      for scan in report.surprises {
        context.output.line(
          ("  " + StocktakeScan.describe(scan)).visibleForTerminal)
      }
    }
    guard !report.missing.isEmpty else { return }
    context.output.line("")
    context.output.line("Missing:")
    for book in report.missing {
      context.output.line(
        "  \(book.inventoryNumber)  \(book.authorSurname) «\(book.title)»  \(book.place)  \(book.bbk)"
          .visibleForTerminal)
    }
  }
}

/// `circdesk stocktake act`: the check's act for the commission to sign, as text or PDF.
struct StocktakeActCommand: DeskCommand {
  static let check = CommandOption<Int>.integer(
    "--check", value: "<number>", help: "The check (default: the latest).", in: 1...Int(Int32.max))
  static let language = CommandOption<OverdueNotice.Language>.choice(
    "--lang", help: "The act's language (default: the locale's).")
  static let pdf = CommandOption<String>(
    "--pdf", value: "<file>", help: "Write the act as a PDF (needs paps and ps2pdf) instead of printing its text.")

  static let spec = CommandSpec(
    path: "stocktake act", abstract: "Print a check's act: totals, what is missing, lines for the signatures.",
    options: [check, language, pdf, CommandSpec.databaseOption],
    discussion: """
      The act names the library (circdesk policy set --library-name), the check's dates and scope, the
      copies expected, present and missing with the missing copies' value, the tallies by storage
      place and shelf-code section, each missing copy, and lines for the commission's signatures.
      Printed as text of 78 columns (lp prints it as it is), or made a PDF with --pdf.
      """)

  static func run(_ arguments: ParsedArguments, in context: CommandContext) throws(CommandError) {
    let store = try context.openStore(arguments, creating: false)
    let chosen = try StocktakeReport.chosenCheck(try arguments.value(check), in: store)
    let act = try perform { () throws(StoreError) in try store.stocktakes.act(chosen) }
    let chosenLanguage = try arguments.value(language) ?? (context.language == .russian ? .russian : .english)
    let text = act.text(in: chosenLanguage)
    guard let path = try arguments.value(pdf) else {
      context.output.write(text)
      return
    }
    do throws(FileError) {
      try PDFWriter.write(text, to: path, title: (chosenLanguage == .russian ? "акт-" : "act-") + "\(chosen.number)")
    } catch {
      throw .failed([context.words.message(error)])
    }
    context.output.line("Wrote the act of check \(chosen.number) «\(chosen.name)» to \(path)".visibleForTerminal)
  }
}

/// `circdesk stocktake list`: the checks, the latest first.
struct StocktakeList: DeskCommand {
  static let spec = CommandSpec(
    path: "stocktake list", abstract: "List the checks of the stock.", options: [CommandSpec.databaseOption])

  static func run(_ arguments: ParsedArguments, in context: CommandContext) throws(CommandError) {
    let store = try context.openStore(arguments, creating: false)
    let checks = try perform { () throws(StoreError) in try store.stocktakes.checks() }
    if checks.isEmpty { context.output.line("No check yet: start one with circdesk stocktake start") }
    for check in checks {
      context.output.line(
        "\(check.number)  «\(check.name)»  opened \(check.started.iso.prefix(10))  \(check.expected) expected  \(check.closed == nil ? "open" : "closed")"
          .visibleForTerminal)
    }
  }
}

/// `circdesk stocktake close`: no more scans go into the check.
struct StocktakeClose: DeskCommand {
  static let check = CommandOption<Int>.integer(
    "--check", value: "<number>", help: "The check (default: the latest open one).", in: 1...Int(Int32.max))
  static let markLost = CommandFlag(
    "--mark-missing-lost",
    help: "Record the copies missing at the close as lost (after the commission's act); a joined desk syncs first.")
  static let spec = CommandSpec(
    path: "stocktake close", abstract: "Close a check: its report stays.",
    options: [check, markLost, CommandSpec.databaseOption])

  static func run(_ arguments: ParsedArguments, in context: CommandContext) throws(CommandError) {
    let store = try context.openStore(arguments, creating: false)
    let number = try arguments.value(check)
    let marking = arguments.has(markLost)
    // A desk joined to a central hears the other desks' scans first: a copy found at another desk
    // and not yet here would be recorded lost.
    if marking, try perform({ () throws(StoreError) in try store.sync.deskTie() }) != nil {
      do throws(SyncError) {
        _ = try Synchronizer(store: store, describing: { EnglishWords().message($0) }).sync()
      } catch {
        throw .failed([
          "The central could not be reached (\(EnglishWords().message(error))): the other desks' latest scans "
            + "may not be here, and their copies would be recorded lost. Try again when it answers, or close "
            + "without --mark-missing-lost"
        ])
      }
    }
    guard let open = try perform({ () throws(StoreError) in try store.stocktakes.openCheck(number) }) else {
      // The check named, or with none named the latest: closed already, say so.
      let closed = try perform { () throws(StoreError) in try store.stocktakes.checks() }.first {
        (number == nil || $0.number == number) && $0.closed != nil
      }
      throw .failed([
        closed.map { "Check \($0.number) «\($0.name)» is closed already: see circdesk stocktake report" }
          ?? "No open check\(number.map { " numbered \($0)" } ?? ""): see circdesk stocktake list"
      ])
    }
    let missing = try perform { () throws(StoreError) in
      try store.stocktakes.close(open, markingMissingLost: marking)
    }
    context.output.line("Check \(open.number) «\(open.name)» is closed.".visibleForTerminal)
    if marking {
      context.output.line("\(missing) missing \(missing == 1 ? "copy is" : "copies are") now recorded as lost.")
    } else if missing > 0 {
      context.output.line(
        "\(missing) \(missing == 1 ? "copy was" : "copies were") missing at the close: circdesk stocktake report "
          + "--check \(open.number) lists them.")
    }
  }
}
