import DeskDomain
import DeskLookup
import DeskStorage

struct PolicyShow: DeskCommand {
  static let spec = CommandSpec(
    path: "policy show", abstract: "Show the circulation rules, reader categories and holidays.",
    options: [CommandSpec.jsonOption, CommandSpec.databaseOption])

  static func run(_ arguments: ParsedArguments, in context: CommandContext) throws(CommandError) {
    let store = try context.openStore(arguments, creating: false)
    let (policy, categories, holidays, contacts) = try perform { () throws(StoreError) in
      (try store.policy(), try store.categories(), try store.holidays(), try store.libraryContacts())
    }
    let closed = Weekday.allCases.filter(policy.calendar.closedWeekdays.contains).map(\.shortName)
    if arguments.has("--json") {
      context.output.line(
        JSON.object([
          ("due_date_mode", .string(policy.dueDateMode.rawValue)),
          ("closed_weekdays", .array(closed.map(JSON.string))),
          ("block_on_overdue", .bool(policy.blockOnOverdue)),
          ("renewal_base", .string(policy.renewalBase.rawValue)),
          ("default_category", .string(policy.defaultCategory)),
          ("desk", .string(policy.deskName)),
          ("reader_code_prefix", .string(policy.readerCodePrefix)),
          ("book_code_prefix", .string(policy.bookCodePrefix)),
          ("bell", .bool(policy.bell)),
          ("sync_interval_s", .int(policy.syncIntervalSeconds)),
          ("hold_pickup_days", .int(policy.holdPickupDays)),
          (
            "library",
            .object([
              ("name", .string(contacts.name)), ("address", .string(contacts.address)),
              ("phone", .string(contacts.phone)), ("email", .string(contacts.email)),
            ])
          ),
          (
            "scanner",
            .object([
              ("max_gap_ms", .int(policy.scannerMaximumGapMilliseconds)),
              ("min_length", .int(policy.scannerMinimumLength)), ("prefix", .string(policy.scannerPrefix)),
              ("suffix", .string(policy.scannerSuffix)),
            ])
          ),
          (
            "categories",
            .array(
              categories.map {
                .object([
                  ("code", .string($0.code)), ("name", .string($0.name)), ("loan_days", .int($0.loanDays)),
                  ("loan_limit", .int($0.loanLimit)), ("renewal_limit", .int($0.renewalLimit)),
                  ("hold_limit", .int($0.holdLimit)),
                ])
              })
          ),
          ("holidays", .array(holidays.map { .object([("date", .string($0.day.iso)), ("name", .string($0.name))]) })),
        ]).rendered())
      return
    }
    context.output.write(
      RecordText.fields([
        ("Library", ([contacts.name] + contacts.lines).filter { !$0.isEmpty }.joined(separator: ", ")),
        ("Due-date mode", "\(policy.dueDateMode.rawValue) (\(describe(policy.dueDateMode)))"),
        ("Closed weekdays", closed.isEmpty ? "none" : closed.joined(separator: ", ")),
        ("Block on overdue", policy.blockOnOverdue ? "yes: no issue or renewal while a book is overdue" : "no"),
        ("Renewal counts from", policy.renewalBase == .today ? "today" : "the old due date"),
        ("Default category", policy.defaultCategory),
        ("Desk name", policy.deskName),
        ("ISBN look-up", lookupText(store: store, environment: context.environment)),
        ("Code prefixes", "reader «\(policy.readerCodePrefix)», book «\(policy.bookCodePrefix)»"),
        (
          "Scanner",
          "keys at most \(policy.scannerMaximumGapMilliseconds) ms apart, codes of \(policy.scannerMinimumLength)+ "
            + "characters, prefix «\(policy.scannerPrefix)», suffix «\(policy.scannerSuffix)»"
        ),
        ("Bell", policy.bell ? "on: a refusal or an unknown code at the desk rings it" : "off"),
        ("Sync", "every \(policy.syncIntervalSeconds) s with the central, and soon after each change here"),
        ("Holds", "a copy waits \(RecordText.days(policy.holdPickupDays)) on the hold shelf for its reader"),
      ]))
    context.output.line()
    var table = Table([
      .init(title: "Category", maximumWidth: 16), .init(title: "Name", maximumWidth: 24),
      .init(title: "Loan days", maximumWidth: 9), .init(title: "Books", maximumWidth: 5),
      .init(title: "Renewals", maximumWidth: 8), .init(title: "Holds", maximumWidth: 5),
    ])
    for category in categories {
      table.append([
        category.code, category.name, String(category.loanDays), String(category.loanLimit),
        String(category.renewalLimit), String(category.holdLimit),
      ])
    }
    context.output.write(table.rendered())
    context.output.line()
    context.output.line(holidays.isEmpty ? "Holidays: none" : "Holidays:")
    for holiday in holidays {
      context.output.line("  \(holiday.day.iso)  \(holiday.name)".visibleForTerminal.trimmedTrailingSpaces())
    }
  }

  static func lookupText(store: LibraryStore, environment: [String: String]) -> String {
    ISBNLookup.configured(store: store, environment: environment).providers.map { provider -> String in
      switch provider {
      case .googleBooks(let url), .openLibrary(let url): return "\(provider.name) (\(url))"
      }
    }.joined(separator: ", then ")
  }

  static func describe(_ mode: DueDateMode) -> String {
    switch mode {
    case .days: return "issue date plus the loan period"
    case .calendar: return "only open days count"
    case .datedue: return "issue date plus the period, moved to the next open day"
    }
  }
}

struct PolicySet: DeskCommand {
  static let spec = CommandSpec(
    path: "policy set", abstract: "Change the library-wide circulation rules and holidays.",
    options: [
      CommandSpec.Option("--due-mode", value: "<mode>", help: "days, calendar or datedue (Koha's three modes)."),
      CommandSpec.Option(
        "--closed", value: "<days>", help: "Weekdays the library is closed, like sat,sun; none for none."),
      CommandSpec.Option(
        "--block-on-overdue", value: "<yes|no>", help: "Refuse issues and renewals to readers with overdue books."),
      CommandSpec.Option(
        "--renewal-base", value: "<base>", help: "today or due-date: where a renewal's new period starts."),
      CommandSpec.Option("--default-category", value: "<code>", help: "Category of new readers when none is named."),
      CommandSpec.Option("--desk", value: "<name>", help: "Name of this desk, written into each loan."),
      CommandSpec.Option(
        "--reader-prefix", value: "<text>", help: "Prefix of reader card codes, to tell them from book labels."),
      CommandSpec.Option("--book-prefix", value: "<text>", help: "Prefix of book label codes."),
      CommandSpec.Option(
        "--scanner-gap", value: "<ms>", help: "Longest gap between the keys of one scan (default 50 ms)."),
      CommandSpec.Option("--scanner-min-length", value: "<n>", help: "Shortest scanned code (default 4)."),
      CommandSpec.Option(
        "--scanner-prefix", value: "<text>", help: "Characters the scanner sends before each code (stripped)."),
      CommandSpec.Option(
        "--scanner-suffix", value: "<text>", help: "Characters the scanner sends after each code (stripped)."),
      CommandSpec.Option(
        "--bell", value: "<yes|no>", help: "Ring the bell on a refusal or an unknown code at the desk."),
      CommandSpec.Option(
        "--sync-interval", value: "<s>", help: "Seconds between the desk's syncs with its central (default 30)."),
      CommandSpec.Option(
        "--hold-pickup-days", value: "<n>", help: "Days a copy put aside for a hold waits for its reader (default 7)."),
      CommandSpec.Option("--library-name", value: "<text>", help: "The library's name, on receipts and letters."),
      CommandSpec.Option("--library-address", value: "<text>", help: "The library's address, on letters."),
      CommandSpec.Option("--library-phone", value: "<text>", help: "The library's phone, on receipts and letters."),
      CommandSpec.Option("--library-email", value: "<text>", help: "The library's e-mail, on receipts and letters."),
      CommandSpec.Option(
        "--lookup-order", value: "<list>",
        help: "ISBN catalogues to ask, in order: google,openlibrary (or one of them)."),
      CommandSpec.Option("--google-books-url", value: "<url>", help: "Address of the Google Books volumes service."),
      CommandSpec.Option("--open-library-url", value: "<url>", help: "Address of the Open Library books service."),
      CommandSpec.Option(
        "--holiday", value: "<date[=name]>", help: "Add a holiday, like 2026-12-31=New Year's Eve.", repeats: true),
      CommandSpec.Option("--no-holiday", value: "<date>", help: "Remove a holiday.", repeats: true),
      CommandSpec.databaseOption,
    ])

  static func run(_ arguments: ParsedArguments, in context: CommandContext) throws(CommandError) {
    let names = spec.options.map(\.name).filter { $0 != "--db" }
    guard names.contains(where: { !arguments.all($0).isEmpty }) else {
      throw .usage("name at least one rule to change", command: spec.path)
    }
    var holidays: [(LocalDate, String)] = []
    for text in arguments.all("--holiday") {
      let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
      let day = try ParsedArguments.date(parts.first ?? "", option: "--holiday", command: spec.path)
      holidays.append((day, parts.count > 1 ? parts[1] : ""))
    }
    var removed: [LocalDate] = []
    for text in arguments.all("--no-holiday") {
      removed.append(try ParsedArguments.date(text, option: "--no-holiday", command: spec.path))
    }
    let store = try context.openStore(arguments)
    var policy = try perform { () throws(StoreError) in try store.policy() }
    if let mode = arguments.value("--due-mode") {
      guard let value = DueDateMode(rawValue: mode) else {
        throw .usage("--due-mode is days, calendar or datedue, not «\(mode)»", command: spec.path)
      }
      policy.dueDateMode = value
    }
    if let closed = arguments.value("--closed") {
      var days: Set<Weekday> = []
      if closed != "none" && !closed.isEmpty {
        for name in closed.split(separator: ",") {
          guard let day = Weekday(name: String(name).trimmingWhitespace()) else {
            throw .usage("--closed takes weekdays like sat,sun, not «\(name)»", command: spec.path)
          }
          days.insert(day)
        }
      }
      policy.calendar.closedWeekdays = days
    }
    if let block = arguments.value("--block-on-overdue") {
      guard let value = ["yes": true, "no": false][block] else {
        throw .usage("--block-on-overdue is yes or no, not «\(block)»", command: spec.path)
      }
      policy.blockOnOverdue = value
    }
    if let base = arguments.value("--renewal-base") {
      guard let value = RenewalBase(rawValue: base) else {
        throw .usage("--renewal-base is today or due-date, not «\(base)»", command: spec.path)
      }
      policy.renewalBase = value
    }
    if let category = arguments.value("--default-category") { policy.defaultCategory = category }
    if let desk = arguments.value("--desk") { policy.deskName = desk }
    if let prefix = arguments.value("--reader-prefix") { policy.readerCodePrefix = prefix }
    if let prefix = arguments.value("--book-prefix") { policy.bookCodePrefix = prefix }
    if let gap = try arguments.integer("--scanner-gap") { policy.scannerMaximumGapMilliseconds = gap }
    if let length = try arguments.integer("--scanner-min-length") { policy.scannerMinimumLength = length }
    if let prefix = arguments.value("--scanner-prefix") { policy.scannerPrefix = prefix }
    if let suffix = arguments.value("--scanner-suffix") { policy.scannerSuffix = suffix }
    if let bell = arguments.value("--bell") {
      guard let value = ["yes": true, "no": false][bell] else {
        throw .usage("--bell is yes or no, not «\(bell)»", command: spec.path)
      }
      policy.bell = value
    }
    if let interval = try arguments.integer("--sync-interval") { policy.syncIntervalSeconds = interval }
    if let days = try arguments.integer("--hold-pickup-days") { policy.holdPickupDays = days }
    var contacts = try perform { () throws(StoreError) in try store.libraryContacts() }
    if let name = arguments.value("--library-name") { contacts.name = name }
    if let address = arguments.value("--library-address") { contacts.address = address }
    if let phone = arguments.value("--library-phone") { contacts.phone = phone }
    if let email = arguments.value("--library-email") { contacts.email = email }
    if let order = arguments.value("--lookup-order") {
      let names = order.split(separator: ",").map { String($0).trimmingWhitespace() }
      guard !names.isEmpty, names.allSatisfy({ ["google", "openlibrary"].contains($0) }) else {
        throw .usage("--lookup-order lists google and openlibrary, not «\(order)»", command: spec.path)
      }
    }
    try perform { () throws(StoreError) in
      if let order = arguments.value("--lookup-order") { try store.setSetting(ISBNLookup.orderKey, order) }
      if let url = arguments.value("--google-books-url") { try store.setSetting(ISBNLookup.googleBooksKey, url) }
      if let url = arguments.value("--open-library-url") { try store.setSetting(ISBNLookup.openLibraryKey, url) }
      try store.setPolicy(policy)
      try store.setLibraryContacts(contacts)
      for (day, name) in holidays { try store.addHoliday(day, name: name) }
      for day in removed { try store.removeHoliday(day) }
    }
    context.output.line("Saved the circulation rules.")
  }
}

struct PolicyCategory: DeskCommand {
  static let spec = CommandSpec(
    path: "policy category", abstract: "Add, change or remove a reader category.",
    arguments: [.init("<code>", "The category's code, like adult.")],
    options: [
      CommandSpec.Option("--name", value: "<text>", help: "Name shown to people."),
      CommandSpec.Option("--loan-days", value: "<n>", help: "Loan period in days (open days in calendar mode)."),
      CommandSpec.Option("--loan-limit", value: "<n>", help: "Books a reader of the category may hold at once."),
      CommandSpec.Option("--renewal-limit", value: "<n>", help: "Times one loan may be renewed."),
      CommandSpec.Option("--hold-limit", value: "<n>", help: "Holds a reader of the category may have at once."),
      CommandSpec.Option("--remove", help: "Remove the category (refused while readers belong to it)."),
      CommandSpec.databaseOption,
    ],
    discussion: "A new category takes 14 days, 10 books, 2 renewals and 5 holds for whatever is not given.")

  static func run(_ arguments: ParsedArguments, in context: CommandContext) throws(CommandError) {
    let code = arguments.positionals[0]
    let store = try context.openStore(arguments)
    if arguments.has("--remove") {
      try perform { () throws(StoreError) in try store.removeCategory(code: code) }
      context.output.line("Removed category \(code).".visibleForTerminal)
      return
    }
    var category =
      try perform { () throws(StoreError) in try store.category(code: code) }
      ?? ReaderCategory(code: code, name: code, loanDays: 14, loanLimit: 10, renewalLimit: 2)
    if let name = arguments.value("--name") { category.name = name }
    if let days = try arguments.integer("--loan-days") { category.loanDays = days }
    if let limit = try arguments.integer("--loan-limit") { category.loanLimit = limit }
    if let limit = try arguments.integer("--renewal-limit") { category.renewalLimit = limit }
    if let limit = try arguments.integer("--hold-limit") { category.holdLimit = limit }
    try perform { () throws(StoreError) in try store.setCategory(category) }
    context.output.line(
      ("Saved category \(category.code): \(englishPlural(category.loanDays, "day")), "
        + "\(englishPlural(category.loanLimit, "book")), \(englishPlural(category.renewalLimit, "renewal")), "
        + "\(englishPlural(category.holdLimit, "hold"))").visibleForTerminal)
  }
}
