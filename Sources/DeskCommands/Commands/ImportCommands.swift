import DeskDomain
import DeskExchange
import DeskStorage

struct ImportIRBIS: DeskCommand {
  static let dryRun = ExchangeOptions.dryRun
  static let update = CommandFlag(
    "--update",
    help: "Write the file's values over the books and readers already there (a value it leaves empty stays); "
      + "else they are skipped.")
  static let maxLine = CommandOption<Int>.integer(
    "--max-line", value: "<bytes>",
    help: "The longest line taken (default 1048576); a longer one refuses its record.", in: 1024...(1 << 30),
    unit: "bytes")

  static let spec = CommandSpec(
    path: "import irbis", abstract: "Read books and readers from an IRBIS plain-text file.",
    arguments: [.init("<file>", "IRBIS records: UTF-8 (with or without BOM) or Windows-1251, CRLF or LF.")],
    options: [
      dryRun,
      update,
      ExchangeOptions.importEncoding,
      maxLine,
      ExchangeOptions.assignInventory, CommandSpec.databaseOption,
    ],
    discussion: """
      Catalogue records become books, one per copy (field 910) with an inventory number, each
      with its status (910 ^A); fields the desk does not model are kept and written back by
      export irbis. Reader records (RDR, or any worksheet with a ticket in field 30) become
      readers with their loans. Records it cannot take are reported with their
      record and line numbers and the reason (bad bytes, a NUL, a line over the limit); the rest
      is imported, in one transaction. The encoding is told from the whole file: a file that is
      UTF-8 but for a few bytes is refused with the line of the first, unless --encoding says.
      Exit status 1 when records were refused and none was taken.
      """)

  static func run(_ arguments: ParsedArguments, in context: CommandContext) throws(CommandError) {
    let limit = try arguments.value(maxLine) ?? LineReader.defaultMaximumLineBytes
    let assign = try arguments.value(ExchangeOptions.assignInventory)
    try importFile(arguments, command: spec.path, defaultEncoding: nil, context: context) {
      path, encoding, store, update, dryRun in
      try IRBISTextImport.run(
        path: path, encoding: encoding, store: store, update: update, dryRun: dryRun, maximumLineBytes: limit,
        assignInventory: assign)
    }
  }

  /// What the file imports share: the file, the encoding, the library, the report.
  static func importFile(
    _ arguments: ParsedArguments, command: String, defaultEncoding: FileEncoding?, context: CommandContext,
    _ body: (String, FileEncoding?, LibraryStore, Bool, Bool) throws -> ImportReport
  ) throws(CommandError) {
    let path = arguments.positionals[0]
    let encoding = try arguments.value(ExchangeOptions.importEncoding) ?? defaultEncoding
    let dryRun = arguments.has(dryRun)
    let (store, scratch) = dryRun ? try context.openStoreForTrial(arguments) : (try context.openStore(arguments), nil)
    defer { scratch.map(CommandContext.removeTrial) }
    if scratch != nil {
      context.output.line(
        context.words.trialOnEmptyLibrary(path: try context.databasePath(arguments)).visibleForTerminal)
    }
    let report: ImportReport
    do {
      report = try store.asFirstImport { try body(path, encoding, store, arguments.has(update), dryRun) }
    } catch let error as StoreError {
      throw .store(error)
    } catch let error as FileError {
      throw .file(error)
    } catch {
      throw .failed(["\(error)"])
    }
    print(report, dryRun: dryRun, context: context)
    // Nothing taken and something refused: a failure, for scripts to see.
    if report.taken == 0, !report.problems.isEmpty { throw .exit(1) }
  }

  static func print(_ report: ImportReport, dryRun: Bool, context: CommandContext) {
    for line in context.words.lines(report, dryRun: dryRun) { context.output.line(line.visibleForTerminal) }
  }
}

struct ImportISO2709: DeskCommand {
  static let dryRun = ExchangeOptions.dryRun
  static let update = CommandFlag(
    "--update", help: "Write the file's values over the books already there (a value it leaves empty stays).")
  static let format = CommandOption<ISO2709.Format>(
    "--format", value: "<auto|rusmarc|marc21>",
    help: "The records' format (default auto: MARC 21 when a record has 245 and no 200)."
  ) { text in
    ISO2709.Format(rawValue: text.lowercased().replacingDashes()).map { .success($0) }
      ?? .failure(OptionRefusal(words: "is auto, rusmarc or marc21, not «\(text)»"))
  }

  static let spec = CommandSpec(
    path: "import iso2709", abstract: "Read books from an ISO 2709 file: RUSMARC, UNIMARC or MARC 21.",
    arguments: [.init("<file>", "ISO 2709 records, Windows-1251 unless --encoding or the leader says otherwise.")],
    options: [
      dryRun,
      update,
      format,
      ExchangeOptions.assignInventory, ExchangeOptions.importEncoding, CommandSpec.databaseOption,
    ],
    discussion: """
      RUSMARC copies come from 910 or from the holdings in 899 (^a location, ^j shelf mark, ^p
      or ^x the copy's number). MARC 21 records give 020, 100/110, 245, 250, 260/264, 300,
      084/080, and a copy for each item in Koha's 952 ($p barcode, $o call number, $7 not for
      loan, $1 lost, $0 withdrawn, $4 damaged) or in 852/876. A leader with `a` at position 9
      is UTF-8; otherwise MARC 21 is MARC-8 (ASCII and ANSEL; other character sets are refused
      with the record) and RUSMARC is --encoding. Records without a numbered copy are reported
      unless --assign-inventory numbers one.
      """)

  static func run(_ arguments: ParsedArguments, in context: CommandContext) throws(CommandError) {
    let assign = try arguments.value(ExchangeOptions.assignInventory)
    let format = try arguments.value(format) ?? .auto
    try ImportIRBIS.importFile(arguments, command: spec.path, defaultEncoding: nil, context: context) {
      path, encoding, store, update, dryRun in
      try ISO2709.run(
        path: path, encoding: encoding, store: store, update: update, dryRun: dryRun, format: format,
        assignInventory: assign)
    }
  }
}

struct ImportKOC: DeskCommand {
  static let spec = CommandSpec(
    path: "import koc", abstract: "Replay Koha offline circulation files.",
    arguments: [.init("<file>", "Files of one or several desks; merged by timestamp before replay.", .oneOrMore)],
    options: [CommandSpec.databaseOption],
    discussion: """
      Koha's rules: an item on loan to the same reader is renewed; on loan to another since
      earlier, it is returned and then issued; a loan newer than the line makes the line skipped.
      Unknown items and readers are reported; the rest of the file is still applied. A transaction
      replayed before (from this file or another) is passed over: a file replayed twice changes
      the library once. Exit status 0 when every line was applied, 2 when some were and others
      were not, 1 when none was.
      """)

  static func run(_ arguments: ParsedArguments, in context: CommandContext) throws(CommandError) {
    let paths = arguments.positionals
    let store = try context.openStore(arguments)
    var results: [(source: String, outcome: KOC.Outcome)] = []
    var problems: [KOC.Problem] = []
    do {
      let (transactions, unreadable) = try KOC.read(paths: paths, clock: store.clock)
      problems = unreadable
      results = try KOC.replay(transactions, into: store)
    } catch let error as StoreError {
      throw .store(error)
    } catch let error as FileError {
      throw .file(error)
    } catch {
      throw .failed(["\(error)"])
    }
    let words = context.words
    let lines = results.map { words.line($0.outcome, source: $0.source) } + problems.map { words.line($0) }
    for line in lines { context.output.line(line.visibleForTerminal) }
    context.output.line(
      words.kocSummary(
        applied: results.filter(\.outcome.changedTheLibrary).count, of: results.count, notTaken: problems.count))
    // Applied with problems is not "nothing changed": a script that retries on 1 must not apply
    // the file again (it would change nothing now, but says so apart).
    if !problems.isEmpty || results.contains(where: \.outcome.isUnknown) {
      throw .exit(results.contains(where: \.outcome.changedTheLibrary) ? 2 : 1)
    }
  }
}
