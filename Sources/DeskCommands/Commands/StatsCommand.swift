import DeskDomain
import DeskStorage

/// `circdesk stats`: the work diary's figures («дневник работы библиотеки») over a range of days,
/// a row a day, month or year, split by reader group, branch of knowledge or desk.
struct StatsCommand: DeskCommand {
  static let from = CommandOption<LocalDate>.date(
    "--from", help: "The first day (default: the month's first; with --by month, quarter or year, the year's).")
  static let to = CommandOption<LocalDate>.date("--to", help: "The last day (default and at most: today).")
  static let by = CommandOption<DiaryPeriod>.choice(
    "--by", help: "A row a day (the default), a month, a quarter or a year.")
  static let split = CommandOption<DiarySplit>.choice(
    "--split",
    help: "Also split the figures by reader group (age where birth years are kept, else category), "
      + "by branch of knowledge (from the BBK index) or by desk.")
  static let csv = CommandFlag("--csv", help: "Print CSV: the diary's columns, a row a period, totals last.")
  static let check = CommandFlag(
    "--check",
    help: "Compare the diary's daily sums with a count of every event; where they differ, list them and "
      + "count the sums again (exit 1).")
  static let form = CommandOption<String>.choice(
    "--form", ["6-nk": "6-nk"],
    help: "Print the figures the annual state form 6-NK asks of users, visits and issues, for --year, "
      + "and what the desk cannot know, left for the librarian.")
  static let year = CommandOption<Int>.integer(
    "--year", value: "<year>", help: "The year of --form (default: this year).", in: 1900...9999)

  static let spec = CommandSpec(
    path: "stats", abstract: "Show the work diary's figures: readers, visits, issues, returns, holds, overdue.",
    options: [from, to, by, split, CommandSpec.jsonOption, csv, form, year, check, CommandSpec.databaseOption],
    discussion: """
      Every figure is counted from what the library records, on the day it happened in the
      library's time: readers registered; re-registered (a reader of an earlier year at their first
      visit of the year); visits (a reader at a counter, once a day a desk: chosen at the Desk, or
      an issue or return); issues and renewals apart; returns; holds placed and filled (the reader
      took the book); loans overdue at the day's end (a month's or year's row: at its last day's
      end). An undone issue or renewal counts nowhere. The split by branch of knowledge reads the
      book's BBK index by the library's mapping (circdesk policy set --diary-branches); issues of
      books without an index count under «other», and the report says how many.
      """)

  static let figureTitles: [DiaryFigure: String] = [
    .registered: "Registered", .reregistered: "Re-registered", .visits: "Visits", .issues: "Issues",
    .renewals: "Renewals", .returns: "Returns", .holdsPlaced: "Holds placed", .holdsFilled: "Holds filled",
    .overdue: "Overdue",
  ]

  static func run(_ arguments: ParsedArguments, in context: CommandContext) throws(CommandError) {
    guard !(arguments.has(CommandSpec.jsonOption) && arguments.has(csv)) else {
      throw .usage("choose --json or --csv, not both", command: spec.path)
    }
    let today = context.clock.now().date
    if arguments.has(check) {
      try checkSums(arguments, context: context)
      return
    }
    if try arguments.value(form) != nil {
      let others: [any OptionDeclaration] = [from, to, by, split, CommandSpec.jsonOption, csv]
      if let other = others.first(where: { !arguments.all($0.spec.name).isEmpty || arguments.has($0.spec.name) }) {
        throw .usage("--form prints the form's year alone, without \(other.spec.name)", command: spec.path)
      }
      try writeForm(arguments, today: today, context: context)
      return
    }
    let (year, month, _) = today.components
    let period = try arguments.value(by) ?? .day
    let asked = try arguments.value(to) ?? today
    // A diary is of what happened: days to come are not in it (their overdue would be a forecast).
    let last = min(asked, today)
    let first =
      try arguments.value(from)
      ?? (period == .day ? LocalDate(year: year, month: month, day: 1) : LocalDate(year: year, month: 1, day: 1))
      ?? today
    guard first <= today else {
      throw .usage(
        "--from \(first.iso) is after today, \(today.iso): the diary holds what has happened", command: spec.path)
    }
    guard first <= asked else {
      throw .usage("--from \(first.iso) is after --to \(asked.iso)", command: spec.path)
    }
    if let asked = try arguments.value(StatsCommand.year) {
      throw .usage(
        "--year goes with --form 6-nk; a year's diary is --by month --from \(asked)-01-01 --to \(asked)-12-31",
        command: spec.path)
    }
    if asked > today {
      context.errors.line("The diary ends today, \(today.iso): the days after it, to \(asked.iso), are not counted.")
    }
    let splitBy = try arguments.value(split)
    let store = try context.openStore(arguments, creating: false)
    let diary = try perform { () throws(StoreError) in
      try store.statistics.diary(from: first, to: last, period: period, split: splitBy)
    }
    if arguments.has(csv) {
      writeCSV(diary, split: splitBy, to: context)
    } else if arguments.has(CommandSpec.jsonOption) {
      context.output.line(json(diary, period: period, split: splitBy).rendered())
    } else {
      writeText(diary, split: splitBy, to: context)
    }
  }

  /// `--check`: the daily sums against the events, counted again where they differ.
  static func checkSums(_ arguments: ParsedArguments, context: CommandContext) throws(CommandError) {
    let store = try context.openStore(arguments, creating: false)
    let differing = try perform { () throws(StoreError) in try store.statistics.sumsDifferingFromEvents() }
    guard !differing.isEmpty else {
      context.output.line("The work diary's sums agree with the events.")
      return
    }
    context.output.line(
      "\(differing.count) of the work diary's sums differ from the events (figure, day, desk, group, branch: kept, counted):"
    )
    for line in differing.prefix(50) { context.output.line("  " + line.visibleForTerminal) }
    if differing.count > 50 { context.output.line("  … and \(differing.count - 50) more") }
    try perform { () throws(StoreError) in try store.statistics.recountSums() }
    context.output.line("Counted them again from the events.")
    throw .exit(1)
  }

  /// The split's columns of a figure: none where the split does not divide it (a visit has no book).
  static func columns(of figure: DiaryFigure, in diary: WorkDiary, split: DiarySplit?) -> [String] {
    guard let split, split != .branch || figure.isOfABook else { return [] }
    return diary.columns
  }

  static func writeCSV(_ diary: WorkDiary, split: DiarySplit?, to context: CommandContext) {
    var header = ["period"]
    for figure in DiaryFigure.allCases {
      header.append(figure.rawValue)
      header += columns(of: figure, in: diary, split: split).map { "\(figure.rawValue):\($0.isEmpty ? "-" : $0)" }
    }
    context.output.write(CSV.line(header))
    for row in diary.rows + [diary.total] {
      var fields = [row.name]
      for figure in DiaryFigure.allCases {
        fields.append(String(row.total(figure)))
        fields += columns(of: figure, in: diary, split: split).map { String(row.count(figure, in: $0)) }
      }
      context.output.write(CSV.line(fields))
    }
  }

  static func json(_ diary: WorkDiary, period: DiaryPeriod, split: DiarySplit?) -> JSON {
    func row(_ row: WorkDiary.Row) -> JSON {
      .object(
        [("period", .string(row.name)), ("first", .string(row.first.iso)), ("last", .string(row.last.iso))]
          + DiaryFigure.allCases.map { figure in
            let columns = columns(of: figure, in: diary, split: split)
            guard !columns.isEmpty else { return (figure.rawValue, .int(row.total(figure))) }
            return (
              figure.rawValue,
              .object([
                ("total", .int(row.total(figure))),
                ("split", .object(columns.map { ($0, .int(row.count(figure, in: $0))) })),
              ])
            )
          })
    }
    return .object([
      ("from", .string(diary.from.iso)), ("to", .string(diary.to.iso)), ("by", .string(period.rawValue)),
      ("split", split.map { .string($0.rawValue) } ?? .null), ("columns", .array(diary.columns.map { .string($0) })),
      ("issues_without_index", .int(diary.issuesWithoutIndex)), ("rows", .array(diary.rows.map(row))),
      ("total", row(diary.total)),
    ])
  }

  /// What the figures are split by, in a heading.
  static func splitName(_ split: DiarySplit?) -> String {
    switch split {
    case .category?: "reader group"
    case .branch?: "branch of knowledge"
    case .desk?: "desk"
    case nil: ""
    }
  }

  /// A split column's title: an age group says its ages, as the Statistics screen's columns do.
  static func columnTitle(_ name: String, split: DiarySplit?) -> String {
    if name.isEmpty { return "—" }
    guard split == .category, let group = AgeGroup(rawValue: name) else { return name }
    return "\(name) (\(group.span))"
  }

  static func writeText(_ diary: WorkDiary, split: DiarySplit?, to context: CommandContext) {
    let figures = DiaryFigure.allCases
    var table = Table(
      [.init(title: "Period", maximumWidth: 10)]
        + figures.map { .init(title: figureTitles[$0] ?? $0.rawValue, maximumWidth: 14) })
    for row in diary.rows + [diary.total] {
      table.append([row.name == "total" ? "Total" : row.name] + figures.map { String(row.total($0)) })
    }
    context.output.write(table.rendered())
    // Each figure's split, where it has one and counted something.
    for figure in figures where diary.total.total(figure) > 0 {
      let columns = columns(of: figure, in: diary, split: split)
      guard !columns.isEmpty else { continue }
      context.output.line("")
      context.output.line("\(figureTitles[figure] ?? figure.rawValue) by \(splitName(split)):")
      var splitTable = Table(
        [.init(title: "Period", maximumWidth: 10)]
          + columns.map { .init(title: columnTitle($0, split: split), maximumWidth: 24) })
      for row in diary.rows + [diary.total] where row.total(figure) > 0 {
        splitTable.append(
          [row.name == "total" ? "Total" : row.name] + columns.map { String(row.count(figure, in: $0)) })
      }
      context.output.write(splitTable.rendered())
    }
    context.output.line("")
    context.output.line("Overdue: the loans overdue at each period's end; in the total, at \(diary.to.iso)'s end.")
    if diary.issuesWithoutIndex > 0, split == .branch {
      let count = diary.issuesWithoutIndex
      context.output.line(
        "\(count) of the issues \(count == 1 ? "was" : "were") of books without a BBK index"
          + (split == .branch ? " (counted under «other»)." : "."))
    }
  }

  /// The figures form 6-NK asks of the library's users, visits and issues for a year (to today
  /// for this one): its rows as the form words them, each with how the desk counts it.
  static func writeForm(_ arguments: ParsedArguments, today: LocalDate, context: CommandContext) throws(CommandError) {
    let wanted = try arguments.value(year) ?? today.year
    guard let first = LocalDate(year: wanted, month: 1, day: 1), first <= today else {
      throw .usage("--year \(wanted) has not begun: the form counts what has happened", command: spec.path)
    }
    let last = min(today, LocalDate(year: wanted, month: 12, day: 31) ?? today)
    let store = try context.openStore(arguments, creating: false)
    let diary = try perform { () throws(StoreError) in
      try store.statistics.diary(from: first, to: last, period: .year, split: .category)
    }
    let total = diary.total
    func ages(_ figure: DiaryFigure) -> (children: Int, youth: Int, unknown: Int) {
      let split = total.split[figure] ?? [:]
      let known = AgeGroup.allCases.map(\.rawValue)
      let unknown = split.filter { !known.contains($0.key) }.values.reduce(0, +)
      return (split[AgeGroup.children.rawValue] ?? 0, split[AgeGroup.youth.rawValue] ?? 0, unknown)
    }
    let users = total.total(.registered) + total.total(.reregistered)
    let userAges = (ages(.registered), ages(.reregistered))
    let visitAges = ages(.visits)
    let issueAges = ages(.issues)
    let rows: [(String, Int, String)] = [
      (
        "Число зарегистрированных пользователей", users,
        "readers registered this year (\(total.total(.registered))) and re-registered at their first visit "
          + "(\(total.total(.reregistered)))"
      ),
      ("  в том числе детей до 14 лет", userAges.0.children + userAges.1.children, "by birth year"),
      ("  в том числе молодёжи 15–30 лет", userAges.0.youth + userAges.1.youth, "by birth year"),
      ("Число посещений", total.total(.visits), "a reader at a counter, once a day a desk"),
      ("  в том числе детьми до 14 лет", visitAges.children, ""),
      ("  в том числе молодёжью 15–30 лет", visitAges.youth, ""),
      ("Выдано документов", total.total(.issues), "issues; renewals apart: \(total.total(.renewals))"),
      ("  в том числе детям до 14 лет", issueAges.children, ""),
      ("  в том числе молодёжи 15–30 лет", issueAges.youth, ""),
    ]
    context.output.line("Form 6-NK, \(wanted) (\(first.iso) to \(last.iso)): the figures the desk counts")
    context.output.line("")
    var table = Table([
      .init(title: "Row", maximumWidth: 40), .init(title: "Figure", maximumWidth: 10),
      .init(title: "Counted as", maximumWidth: 80),
    ])
    for (row, value, note) in rows { table.append([row, String(value), note]) }
    context.output.write(table.rendered())
    let withoutYear = userAges.0.unknown + userAges.1.unknown
    context.output.line("")
    if withoutYear > 0 {
      context.output.line(
        withoutYear == 1
          ? "1 of the users has no birth year: in no age group."
          : "\(withoutYear) of the users have no birth year: they are in no age group.")
    }
    context.output.line(
      "Left for the librarian (the desk does not see them): visits to events, remote users and visits to "
        + "the library's site, electronic documents, interlibrary loan, documents read in the reading room "
        + "without a loan, and the library's other figures (stock, staff, finance).")
  }
}
