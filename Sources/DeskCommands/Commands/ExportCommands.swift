import DeskDomain
import DeskExchange
import DeskStorage

struct ExportIRBIS: DeskCommand {
  static let spec = CommandSpec(
    path: "export irbis", abstract: "Write books or readers as IRBIS plain-text records.",
    arguments: [
      .init("books|readers", "What to export."), .init("<inventory>|<ticket>", "Only these books or readers.", .any),
    ],
    options: [
      ExchangeOptions.all, ExchangeOptions.newSince, ExchangeOptions.issued,
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
    let words = arguments.positionals
    let names = Array(words.dropFirst())
    let store = try context.openStore(arguments, creating: false)
    let (writer, destination) = try ExchangeOptions.writer(arguments, command: spec.path)
    let count: Int
    switch words[0] {
    case "books":
      let selection = try ExchangeOptions.bookSelection(arguments, names: names, command: spec.path)
      count = try perform { () throws(StoreError) in try IRBISExport.books(selection, from: store, to: writer) }
    case "readers":
      guard !names.isEmpty || arguments.has(ExchangeOptions.all) else {
        throw .usage("name reader tickets, or --all", command: spec.path)
      }
      let selection: IRBISExport.ReaderSelection = names.isEmpty ? .all : .tickets(names)
      count = try perform { () throws(StoreError) in try IRBISExport.readers(selection, from: store, to: writer) }
    default:
      throw .usage("export books or readers, not «\(words[0])»", command: spec.path)
    }
    try ExchangeOptions.close(writer)
    guard !arguments.has(ExchangeOptions.standardOutput) else { return }
    context.output.line(context.words.written(count, transactions: false, to: destination).visibleForTerminal)
    ExchangeOptions.reportReplaced(writer.replacedCharacters, context: context)
  }
}

struct ExportISO2709: DeskCommand {
  static let format = CommandOption<ISO2709.Format>(
    "--format", value: "<rusmarc|marc21>",
    help: "rusmarc (the default: the IRBIS record's fields, copies in 910) or marc21 (UTF-8, items in 952)."
  ) { text in
    ISO2709.Format(rawValue: text.lowercased().replacingDashes()).flatMap { $0 == .auto ? nil : .success($0) }
      ?? .failure(OptionRefusal(words: "is rusmarc or marc21, not «\(text)»"))
  }

  static let branch = CommandOption<String>(
    "--branch", value: "<code>",
    help: "With marc21: the library's branch code in Koha, each item's home and holding branch (952 $a, $b).")
  static let itemType = CommandOption<String>(
    "--item-type", value: "<code>", help: "With marc21: the items' type in Koha (952 $y; default BK).")

  static let spec = CommandSpec(
    path: "export iso2709", abstract: "Write books as ISO 2709 records: RUSMARC or MARC 21.",
    arguments: [.init("books", "What to export."), .init("<inventory>", "Only these books.", .any)],
    options: [
      ExchangeOptions.all.withHelp("Every book."), ExchangeOptions.newSince, ExchangeOptions.issued, format,
      branch, itemType, ExchangeOptions.output, ExchangeOptions.standardOutput, ExchangeOptions.encoding,
      CommandSpec.databaseOption,
    ],
    discussion: """
      One record for the copies of each imported record, as export irbis writes them. RUSMARC
      is Windows-1251 unless --encoding utf8 (leader position 9 `a`); MARC 21 is always UTF-8,
      with 001 and 008, the author mark in 090 $b, and Koha's items in 952: Koha takes an item only
      with its branch (--branch).
      Fields tagged over 999 (IRBIS's local ones) do not fit ISO 2709 and are counted, not written.
      """)

  static func run(_ arguments: ParsedArguments, in context: CommandContext) throws(CommandError) {
    let positionals = arguments.positionals
    guard positionals[0] == "books" else {
      throw .usage("export books, not «\(positionals[0])»", command: spec.path)
    }
    let names = Array(positionals.dropFirst())
    let format = try arguments.value(format) ?? .rusmarc
    let selection = try ExchangeOptions.bookSelection(arguments, names: names, command: spec.path)
    let store = try context.openStore(arguments, creating: false)
    let (writer, destination) = try ExchangeOptions.writer(arguments, command: spec.path)
    var report = ISO2709Export.Report()
    let items = MARC21Books.KohaItems(
      branch: try arguments.value(branch) ?? "", itemType: try arguments.value(itemType) ?? "BK")
    let count = try perform { () throws(StoreError) in
      try ISO2709Export.books(selection, from: store, to: writer, format: format, items: items, report: &report)
    }
    try ExchangeOptions.close(writer)
    let words = context.words
    for (books, problem) in report.problems {
      context.errors.line((words.skipped + words.line(problem, books: books)).visibleForTerminal)
    }
    guard !arguments.has(ExchangeOptions.standardOutput) else { return }
    context.output.line(words.written(count, transactions: false, to: destination).visibleForTerminal)
    if report.fieldsLeftOut > 0 { context.output.line(words.fieldsLeftOut(report.fieldsLeftOut)) }
    ExchangeOptions.reportReplaced(report.replacedCharacters, context: context)
    if report.itemsWithoutBranch > 0 {
      context.output.line(words.itemsWithoutBranch)
    }
  }
}

struct ExportKOC: DeskCommand {
  static let since = CommandOption<String>(
    "--since", value: "<datetime>", help: "Only what happened since, like 2026-11-30T09:00:00Z.")

  static let spec = CommandSpec(
    path: "export koc", abstract: "Write issues and returns as a Koha offline circulation file.",
    options: [
      since,
      ExchangeOptions.output, ExchangeOptions.standardOutput, CommandSpec.databaseOption,
    ])

  static func run(_ arguments: ParsedArguments, in context: CommandContext) throws(CommandError) {
    var start: Timestamp?
    if let text = try arguments.value(since) {
      guard let time = Timestamp(iso: text) ?? LocalDate(iso: text).map({ Timestamp(date: $0) }) else {
        throw .usage("--since takes a time like 2026-11-30T09:00:00Z or a date, not «\(text)»", command: spec.path)
      }
      start = time
    }
    let store = try context.openStore(arguments, creating: false)
    var parsed = arguments
    parsed.setDefault(ExchangeOptions.encoding, "utf8")
    let (writer, destination) = try ExchangeOptions.writer(parsed, command: spec.path)
    let count = try perform { () throws(StoreError) in
      try KOC.export(from: store, since: start, version: RootCommand.version, to: writer)
    }
    try ExchangeOptions.close(writer)
    if !arguments.has(ExchangeOptions.standardOutput) {
      context.output.line(context.words.written(count, transactions: true, to: destination).visibleForTerminal)
    }
  }
}
