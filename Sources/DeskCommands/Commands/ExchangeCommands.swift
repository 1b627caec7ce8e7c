import DeskDomain
import DeskExchange
import DeskStorage

/// Options every file-writing exchange command takes.
enum ExchangeOptions {
  static let output = CommandSpec.Option(
    "-o", value: "<file>", help: "The file to write (its folder made when missing).")
  static let standardOutput = CommandSpec.Option("--stdout", help: "Write to standard output instead of a file.")
  static let encoding = CommandSpec.Option(
    "--encoding", value: "<cp1251|utf8>",
    help: "cp1251 (the default, with CRLF line ends, as IRBIS's own files) or utf8 (LF).")

  static func encoding(_ arguments: ParsedArguments, command: String) throws(CommandError) -> FileEncoding? {
    guard let text = arguments.value("--encoding") else { return nil }
    guard let encoding = FileEncoding(rawValue: text.lowercased().replacingDashes()) else {
      throw .usage("--encoding is cp1251 or utf8, not «\(text)»", command: command)
    }
    return encoding
  }

  static func writer(_ arguments: ParsedArguments, command: String) throws(CommandError) -> (TextWriter, String) {
    let encoding = try encoding(arguments, command: command) ?? .cp1251
    if arguments.has("--stdout") { return (TextWriter(standardOutputWith: encoding), "standard output") }
    guard let path = arguments.value("-o") else {
      throw .usage("name the file with -o, or give --stdout", command: command)
    }
    do throws(FileError) {
      // The file's folder is made when missing, as every -o does.
      if let slash = path.lastIndex(of: "/"), slash != path.startIndex { try makeFolder(String(path[..<slash])) }
      return (try TextWriter(path: path, encoding: encoding), path)
    } catch {
      throw .failed([error.description])
    }
  }

  static let assignInventory = CommandSpec.Option(
    "--assign-inventory", value: "<start>",
    help: "Give each book record without a numbered copy one new copy, numbered from <start> up "
      + "(skipping numbers in use), like 2026-0001.")

  static func assignInventory(_ arguments: ParsedArguments, command: String) throws(CommandError) -> String? {
    guard let start = arguments.value("--assign-inventory") else { return nil }
    guard InventoryNumbers.isValidStart(start) else {
      throw .usage(
        "--assign-inventory takes a number that ends in digits, like 2026-0001, not «\(start)»", command: command)
    }
    return start
  }

  static func close(_ writer: TextWriter) throws(CommandError) {
    do throws(FileError) { try writer.close() } catch { throw .failed([error.description]) }
  }
}

extension String {
  func replacingDashes() -> String { String(filter { $0 != "-" }) }
}

struct ExportIRBIS: DeskCommand {
  static let spec = CommandSpec(
    path: "export irbis", abstract: "Write books or readers as IRBIS plain-text records.",
    arguments: [
      .init("books|readers", "What to export."), .init("<inventory>|<ticket>", "Only these books or readers.", .any),
    ],
    options: [
      CommandSpec.Option("--all", help: "Every book or reader."),
      CommandSpec.Option("--new-since", value: "<date>", help: "Books received since this date (YYYY-MM-DD)."),
      CommandSpec.Option("--issued", help: "Books that are out."),
      ExchangeOptions.output, ExchangeOptions.standardOutput, ExchangeOptions.encoding, CommandSpec.databaseOption,
    ],
    discussion: """
      Books: 920 PAZK, 10 (ISBN, price), 700, 200, 210, 215, 621, 908, 903 and a 910 for each copy
      (status 0 on the shelf, 1 out, 2–6 in processing, damaged, lost, reference, written off). A
      book imported from IRBIS goes back as its record came, with what changed written anew. Readers: 920 RDR, 10/11/12, 21, 30, 13, 17, 32, 50, 51 and a
      field 40 for each loan. The format has no escaping: ^, line breaks and control characters in
      a value become spaces. In Windows-1251 a letter the code page lacks is written as its plain
      letter (é as e) or as ?, and the count of such letters is reported.
      """)

  static func run(_ arguments: ParsedArguments, in context: CommandContext) throws(CommandError) {
    let words = try arguments.positionals(minimum: 1)
    let names = Array(words.dropFirst())
    let store = try context.openStore(arguments)
    let (writer, destination) = try ExchangeOptions.writer(arguments, command: spec.path)
    let count: Int
    switch words[0] {
    case "books":
      let selection: IRBISExport.BookSelection
      if !names.isEmpty {
        selection = .inventories(names)
      } else if let since = try arguments.date("--new-since") {
        selection = .newSince(since)
      } else if arguments.has("--issued") {
        selection = .issued
      } else if arguments.has("--all") {
        selection = .all
      } else {
        throw .usage("name inventory numbers, or --all, --new-since or --issued", command: spec.path)
      }
      count = try perform { () throws(StoreError) in try IRBISExport.books(selection, from: store, to: writer) }
    case "readers":
      guard !names.isEmpty || arguments.has("--all") else {
        throw .usage("name reader tickets, or --all", command: spec.path)
      }
      let selection: IRBISExport.ReaderSelection = names.isEmpty ? .all : .tickets(names)
      count = try perform { () throws(StoreError) in try IRBISExport.readers(selection, from: store, to: writer) }
    default:
      throw .usage("export books or readers, not «\(words[0])»", command: spec.path)
    }
    try ExchangeOptions.close(writer)
    guard !arguments.has("--stdout") else { return }
    context.output.line("Wrote \(count) \(count == 1 ? "record" : "records") to \(destination)".visibleForTerminal)
    if writer.replacedCharacters > 0 {
      context.output.line(
        "\(writer.replacedCharacters) characters have no place in Windows-1251 and were written as plain letters or ?; "
          + "--encoding utf8 keeps them")
    }
  }
}

struct ExportKOC: DeskCommand {
  static let spec = CommandSpec(
    path: "export koc", abstract: "Write issues and returns as a Koha offline circulation file.",
    options: [
      CommandSpec.Option("--since", value: "<datetime>", help: "Only what happened since, like 2026-11-30T09:00:00Z."),
      ExchangeOptions.output, ExchangeOptions.standardOutput, CommandSpec.databaseOption,
    ])

  static func run(_ arguments: ParsedArguments, in context: CommandContext) throws(CommandError) {
    _ = try arguments.positionals(minimum: 0, maximum: 0)
    var since: Timestamp?
    if let text = arguments.value("--since") {
      guard let time = Timestamp(iso: text) ?? LocalDate(iso: text).map({ Timestamp(date: $0) }) else {
        throw .usage("--since takes a time like 2026-11-30T09:00:00Z or a date, not «\(text)»", command: spec.path)
      }
      since = time
    }
    let store = try context.openStore(arguments)
    var parsed = arguments
    parsed.setDefault("--encoding", "utf8")
    let (writer, destination) = try ExchangeOptions.writer(parsed, command: spec.path)
    let count = try perform { () throws(StoreError) in
      try KOC.export(from: store, since: since, version: RootCommand.version, to: writer)
    }
    try ExchangeOptions.close(writer)
    if !arguments.has("--stdout") {
      context.output.line("Wrote \(count) transactions to \(destination)".visibleForTerminal)
    }
  }
}

struct ImportIRBIS: DeskCommand {
  static let spec = CommandSpec(
    path: "import irbis", abstract: "Read books and readers from an IRBIS plain-text file.",
    arguments: [.init("<file>", "IRBIS records: UTF-8 (with or without BOM) or Windows-1251, CRLF or LF.")],
    options: [
      CommandSpec.Option("--dry-run", help: "Report what would happen and change nothing."),
      CommandSpec.Option("--update", help: "Replace books and readers that are already there (else they are skipped)."),
      ExchangeOptions.encoding,
      CommandSpec.Option(
        "--max-line", value: "<bytes>",
        help: "The longest line taken (default 1048576); a longer one refuses its record."),
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
    let limit = try arguments.integer("--max-line") ?? LineReader.defaultMaximumLineBytes
    guard (1024...(1 << 30)).contains(limit) else {
      throw .usage("--max-line takes 1024 to 1073741824 bytes, not \(limit)", command: spec.path)
    }
    let assign = try ExchangeOptions.assignInventory(arguments, command: spec.path)
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
    let path = try arguments.positionals(minimum: 1, maximum: 1)[0]
    let encoding = try ExchangeOptions.encoding(arguments, command: command) ?? defaultEncoding
    let store = try context.openStore(arguments)
    let dryRun = arguments.has("--dry-run")
    let report: ImportReport
    do {
      report = try body(path, encoding, store, arguments.has("--update"), dryRun)
    } catch let error as StoreError {
      throw .store(error)
    } catch {
      throw .failed(["\(error)"])
    }
    print(report, dryRun: dryRun, context: context)
    // Nothing taken and something refused: a failure, for scripts to see.
    let taken =
      report.booksAdded + report.booksUpdated + report.readersAdded + report.readersUpdated + report.loansAdded
    if taken == 0, !report.problems.isEmpty { throw .exit(1) }
  }

  static func print(_ report: ImportReport, dryRun: Bool, context: CommandContext) {
    for line in report.problems { context.output.line(("skipped: " + line).visibleForTerminal) }
    for line in report.notes { context.output.line(("note: " + line).visibleForTerminal) }
    let verb = dryRun ? "Would import" : "Imported"
    context.output.line(
      "\(verb) from \(report.records) records: \(report.booksAdded) books added, \(report.booksUpdated) updated; "
        + "\(report.readersAdded) readers added, \(report.readersUpdated) updated; \(report.loansAdded) loans; "
        + "\(report.problems.count) skipped" + (dryRun ? " (dry run: nothing changed)" : ""))
  }
}

struct ImportISO2709: DeskCommand {
  static let spec = CommandSpec(
    path: "import iso2709", abstract: "Read books from an ISO 2709 file: RUSMARC, UNIMARC or MARC 21.",
    arguments: [.init("<file>", "ISO 2709 records, Windows-1251 unless --encoding or the leader says otherwise.")],
    options: [
      CommandSpec.Option("--dry-run", help: "Report what would happen and change nothing."),
      CommandSpec.Option("--update", help: "Replace books that are already there."),
      CommandSpec.Option(
        "--format", value: "<auto|rusmarc|marc21>",
        help: "The records' format (default auto: MARC 21 when a record has 245 and no 200)."),
      ExchangeOptions.assignInventory, ExchangeOptions.encoding, CommandSpec.databaseOption,
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
    let assign = try ExchangeOptions.assignInventory(arguments, command: spec.path)
    let formatText = arguments.value("--format") ?? "auto"
    guard let format = ISO2709.Format(rawValue: formatText.lowercased().replacingDashes()) else {
      throw .usage("--format is auto, rusmarc or marc21, not «\(formatText)»", command: spec.path)
    }
    try ImportIRBIS.importFile(arguments, command: spec.path, defaultEncoding: .cp1251, context: context) {
      path, encoding, store, update, dryRun in
      try ISO2709.run(
        path: path, encoding: encoding ?? .cp1251, store: store, update: update, dryRun: dryRun, format: format,
        assignInventory: assign)
    }
  }
}

struct ExportISO2709: DeskCommand {
  static let spec = CommandSpec(
    path: "export iso2709", abstract: "Write books as ISO 2709 records: RUSMARC or MARC 21.",
    arguments: [.init("books", "What to export."), .init("<inventory>", "Only these books.", .any)],
    options: [
      CommandSpec.Option("--all", help: "Every book."),
      CommandSpec.Option("--new-since", value: "<date>", help: "Books received since this date (YYYY-MM-DD)."),
      CommandSpec.Option("--issued", help: "Books that are out."),
      CommandSpec.Option(
        "--format", value: "<rusmarc|marc21>",
        help: "rusmarc (the default: the IRBIS record's fields, copies in 910) or marc21 (UTF-8, items in 952)."),
      ExchangeOptions.output, ExchangeOptions.standardOutput, ExchangeOptions.encoding, CommandSpec.databaseOption,
    ],
    discussion: """
      One record for the copies of each imported record, as export irbis writes them. RUSMARC
      is Windows-1251 unless --encoding utf8 (leader position 9 `a`); MARC 21 is always UTF-8.
      Fields tagged over 999 (IRBIS's local ones) do not fit ISO 2709 and are counted, not written.
      """)

  static func run(_ arguments: ParsedArguments, in context: CommandContext) throws(CommandError) {
    let words = try arguments.positionals(minimum: 1)
    guard words[0] == "books" else { throw .usage("export books, not «\(words[0])»", command: spec.path) }
    let names = Array(words.dropFirst())
    let formatText = arguments.value("--format") ?? "rusmarc"
    guard let format = ISO2709.Format(rawValue: formatText.lowercased().replacingDashes()), format != .auto else {
      throw .usage("--format is rusmarc or marc21, not «\(formatText)»", command: spec.path)
    }
    let selection: IRBISExport.BookSelection
    if !names.isEmpty {
      selection = .inventories(names)
    } else if let since = try arguments.date("--new-since") {
      selection = .newSince(since)
    } else if arguments.has("--issued") {
      selection = .issued
    } else if arguments.has("--all") {
      selection = .all
    } else {
      throw .usage("name inventory numbers, or --all, --new-since or --issued", command: spec.path)
    }
    let store = try context.openStore(arguments)
    let (writer, destination) = try ExchangeOptions.writer(arguments, command: spec.path)
    var report = ISO2709Export.Report()
    let count = try perform { () throws(StoreError) in
      try ISO2709Export.books(selection, from: store, to: writer, format: format, report: &report)
    }
    try ExchangeOptions.close(writer)
    for line in report.problems { context.errors.line(("skipped: " + line).visibleForTerminal) }
    guard !arguments.has("--stdout") else { return }
    context.output.line("Wrote \(count) \(count == 1 ? "record" : "records") to \(destination)".visibleForTerminal)
    if report.fieldsLeftOut > 0 {
      context.output.line("\(report.fieldsLeftOut) fields tagged over 999 do not fit ISO 2709 and were left out")
    }
    if report.replacedCharacters > 0 {
      context.output.line(
        "\(report.replacedCharacters) characters have no place in Windows-1251 and were written as plain letters or ?; "
          + "--encoding utf8 keeps them")
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
      Unknown items and readers are reported; the rest of the file is still applied.
      """)

  static func run(_ arguments: ParsedArguments, in context: CommandContext) throws(CommandError) {
    let paths = try arguments.positionals(minimum: 1)
    let store = try context.openStore(arguments)
    var results: [String] = []
    var problems: [String] = []
    do {
      let (transactions, unreadable) = try KOC.read(paths: paths, clock: store.clock)
      problems = unreadable
      results = try KOC.replay(transactions, into: store)
    } catch let error as StoreError {
      throw .store(error)
    } catch {
      throw .failed(["\(error)"])
    }
    for line in results + problems { context.output.line(line.visibleForTerminal) }
    context.output.line("\(results.count) transactions replayed; \(problems.count) lines unreadable")
    if !problems.isEmpty || results.contains(where: { $0.contains(": unknown ") }) { throw .exit(1) }
  }
}
