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
      (
        try store.policy.current(), try store.policy.categories(), try store.policy.holidays(),
        try store.policy.libraryContacts()
      )
    }
    let diaryBranches = try perform { () throws(StoreError) in try store.statistics.branches() }.text
    let closed = Weekday.allCases.filter(policy.calendar.closedWeekdays.contains).map(\.shortName)
    if arguments.has(CommandSpec.jsonOption) {
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
          ("diary_branches", .string(diaryBranches)),
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
                  ("hold_limit", .int($0.holdLimit)), ("written_as", .array($0.writtenAs.map { .string($0) })),
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
        ("Look-up time-out", "\(CopyCatalogue.timeoutSeconds(in: store)) s a catalogue"),
        ("Diary branches", diaryBranches),
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
    for category in categories where !category.writtenAs.isEmpty {
      context.output.line(
        "\(category.code) in other systems' files: \(category.writtenAs.joined(separator: "; "))".visibleForTerminal)
    }
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
      case .target(let target): return "\(target.name) (\(target.isSRU ? "SRU" : "Z39.50") \(target.address))"
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
  static let dueMode = CommandOption<DueDateMode>.choice(
    "--due-mode", value: "<mode>", help: "days, calendar or datedue (Koha's three modes).")
  static let closed = CommandOption<Set<Weekday>>(
    "--closed", value: "<days>", help: "Weekdays the library is closed, like sat,sun; none for none."
  ) { text in
    var days: Set<Weekday> = []
    guard text != "none" && !text.isEmpty else { return .success(days) }
    for name in text.split(separator: ",") {
      guard let day = Weekday(name: String(name).trimmingWhitespace()) else {
        return .failure(OptionRefusal(words: "takes weekdays like sat,sun, not «\(name)»"))
      }
      days.insert(day)
    }
    return .success(days)
  }
  static let blockOnOverdue = CommandOption<Bool>.choice(
    "--block-on-overdue", ["yes": true, "no": false], help: "Refuse issues and renewals to readers with overdue books.")
  static let renewalBase = CommandOption<RenewalBase>.choice(
    "--renewal-base", value: "<base>", help: "today or due-date: where a renewal's new period starts.")
  static let defaultCategory = CommandOption<String>(
    "--default-category", value: "<code>", help: "Category of new readers when none is named.")
  static let desk = CommandOption<String>("--desk", value: "<name>", help: "Name of this desk, written into each loan.")
  static let readerPrefix = CommandOption<String>(
    "--reader-prefix", value: "<text>", help: "Prefix of reader card codes, to tell them from book labels.")
  static let bookPrefix = CommandOption<String>("--book-prefix", value: "<text>", help: "Prefix of book label codes.")
  static let scannerGap = CommandOption<Int>.integer(
    "--scanner-gap", value: "<ms>", help: "Longest gap between the keys of one scan (default 50 ms).")
  static let scannerMinLength = CommandOption<Int>.integer(
    "--scanner-min-length", value: "<n>",
    help: "Shortest scanned code (default 4): a wedge burst, or a Code 39, Codabar or I2/5 read in a picture.")
  static let scannerPrefix = CommandOption<String>(
    "--scanner-prefix", value: "<text>", help: "Characters the scanner sends before each code (stripped).")
  static let scannerSuffix = CommandOption<String>(
    "--scanner-suffix", value: "<text>", help: "Characters the scanner sends after each code (stripped).")
  static let bell = CommandOption<Bool>.choice(
    "--bell", ["yes": true, "no": false], help: "Ring the bell on a refusal or an unknown code at the desk.")
  static let syncInterval = CommandOption<Int>.integer(
    "--sync-interval", value: "<s>", help: "Seconds between the desk's syncs with its central (default 30).")
  static let holdPickupDays = CommandOption<Int>.integer(
    "--hold-pickup-days", value: "<n>", help: "Days a copy put aside for a hold waits for its reader (default 7).")
  static let libraryName = CommandOption<String>(
    "--library-name", value: "<text>", help: "The library's name, on receipts and letters.")
  static let libraryAddress = CommandOption<String>(
    "--library-address", value: "<text>", help: "The library's address, on letters.")
  static let libraryPhone = CommandOption<String>(
    "--library-phone", value: "<text>", help: "The library's phone, on receipts and letters.")
  static let libraryEmail = CommandOption<String>(
    "--library-email", value: "<text>", help: "The library's e-mail, on receipts and letters.")
  static let lookupOrder = CommandOption<String>(
    "--lookup-order", value: "<list>",
    help: "ISBN catalogues to ask, in order: google, openlibrary and targets' names (circdesk target list).")
  static let lookupTimeout = CommandOption<Int>.integer(
    "--lookup-timeout", value: "<seconds>", help: "How long a Z39.50 or SRU target is given to answer (default 5).",
    in: 1...120, unit: "seconds")
  static let googleBooksUrl = CommandOption<String>(
    "--google-books-url", value: "<url>", help: "Address of the Google Books volumes service.")
  static let openLibraryUrl = CommandOption<String>(
    "--open-library-url", value: "<url>", help: "Address of the Open Library books service.")
  static let holiday = CommandOption<(date: LocalDate, name: String)>(
    "--holiday", value: "<date[=name]>", help: "Add a holiday, like 2026-12-31=New Year's Eve.", repeats: true
  ) { text in
    let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
    return CommandOption<LocalDate>.date("--holiday", help: "").read(parts.first ?? "").map {
      ($0, parts.count > 1 ? parts[1] : "")
    }
  }
  static let noHoliday = CommandOption<LocalDate>.date("--no-holiday", help: "Remove a holiday.", repeats: true)
  static let diaryBranches = CommandOption<BranchMapping>(
    "--diary-branches", value: "<list>",
    help: "Which BBK indexes count under which branch of knowledge in the work diary (circdesk stats): "
      + "prefix=branch pairs separated by «;», like 84=fiction;75=arts;7=social (the longest prefix that "
      + "matches a book's index wins; the list replaces the library's), or «default». "
      + "Branches: " + KnowledgeBranch.allCases.map(\.rawValue).joined(separator: ", ") + "."
  ) { text in
    BranchMapping(parsing: text).map { .success($0) }
      ?? .failure(
        OptionRefusal(
          words: "takes prefix=branch pairs separated by «;», each prefix once and each branch one of "
            + KnowledgeBranch.allCases.map(\.rawValue).joined(separator: ", ") + " (or «default»), not «\(text)»"))
  }

  static let spec = CommandSpec(
    path: "policy set", abstract: "Change the library-wide circulation rules and holidays.",
    options: [
      dueMode,
      closed,
      blockOnOverdue,
      renewalBase,
      defaultCategory,
      desk,
      readerPrefix,
      bookPrefix,
      scannerGap,
      scannerMinLength,
      scannerPrefix,
      scannerSuffix,
      bell,
      syncInterval,
      holdPickupDays,
      libraryName,
      libraryAddress,
      libraryPhone,
      libraryEmail,
      lookupOrder, lookupTimeout,
      googleBooksUrl,
      openLibraryUrl,
      holiday,
      noHoliday,
      diaryBranches,
      CommandSpec.databaseOption,
    ])

  static func run(_ arguments: ParsedArguments, in context: CommandContext) throws(CommandError) {
    let names = spec.options.map(\.name).filter { $0 != "--db" }
    guard names.contains(where: { !arguments.all($0).isEmpty }) else {
      throw .usage("name at least one rule to change", command: spec.path)
    }
    let holidays = try arguments.all(holiday)
    let removed = try arguments.all(noHoliday)
    let branches = try arguments.value(diaryBranches)
    let store = try context.openStore(arguments)
    var policy = try perform { () throws(StoreError) in try store.policy.current() }
    if let mode = try arguments.value(dueMode) { policy.dueDateMode = mode }
    if let days = try arguments.value(closed) { policy.calendar.closedWeekdays = days }
    if let block = try arguments.value(blockOnOverdue) { policy.blockOnOverdue = block }
    if let base = try arguments.value(renewalBase) { policy.renewalBase = base }
    if let category = try arguments.value(defaultCategory) { policy.defaultCategory = category }
    if let desk = try arguments.value(desk) { policy.deskName = desk }
    if let prefix = try arguments.value(readerPrefix) { policy.readerCodePrefix = prefix }
    if let prefix = try arguments.value(bookPrefix) { policy.bookCodePrefix = prefix }
    if let gap = try arguments.value(scannerGap) { policy.scannerMaximumGapMilliseconds = gap }
    if let length = try arguments.value(scannerMinLength) { policy.scannerMinimumLength = length }
    if let prefix = try arguments.value(scannerPrefix) { policy.scannerPrefix = prefix }
    if let suffix = try arguments.value(scannerSuffix) { policy.scannerSuffix = suffix }
    if let ring = try arguments.value(bell) { policy.bell = ring }
    if let interval = try arguments.value(syncInterval) { policy.syncIntervalSeconds = interval }
    if let days = try arguments.value(holdPickupDays) { policy.holdPickupDays = days }
    var contacts = try perform { () throws(StoreError) in try store.policy.libraryContacts() }
    if let name = try arguments.value(libraryName) { contacts.name = name }
    if let address = try arguments.value(libraryAddress) { contacts.address = address }
    if let phone = try arguments.value(libraryPhone) { contacts.phone = phone }
    if let email = try arguments.value(libraryEmail) { contacts.email = email }
    var order: String?
    if let written = try arguments.value(lookupOrder) {
      // Each name as the catalogue is named (a target in its own case), once.
      let targets = try perform { () throws(StoreError) in try store.copyCataloguing.targets() }.map(\.name)
      let known = ["google", "openlibrary"] + targets
      var names: [String] = []
      for written in written.split(separator: ",", omittingEmptySubsequences: false) {
        let name = String(written).trimmingWhitespace()
        guard let known = known.first(where: { $0.lowercased() == name.lowercased() }) else {
          throw .usage(
            "--lookup-order lists google, openlibrary and the targets (\(targets.isEmpty ? "none yet" : targets.joined(separator: ", "))): «\(name)» is none of them",
            command: spec.path)
        }
        guard !names.contains(known) else {
          throw .usage("--lookup-order names «\(known)» twice: name each catalogue once", command: spec.path)
        }
        names.append(known)
      }
      order = names.joined(separator: ",")
    }
    let (googleBooks, openLibrary) = (try arguments.value(googleBooksUrl), try arguments.value(openLibraryUrl))
    let timeout = try arguments.value(lookupTimeout)
    try perform { () throws(StoreError) in
      if let order { try store.policy.setSetting(ISBNLookup.orderKey, order) }
      if let timeout { try store.policy.setSetting(CopyCatalogue.timeoutKey, String(timeout)) }
      if let googleBooks { try store.policy.setSetting(ISBNLookup.googleBooksKey, googleBooks) }
      if let openLibrary { try store.policy.setSetting(ISBNLookup.openLibraryKey, openLibrary) }
      try store.policy.setCurrent(policy)
      try store.policy.setLibraryContacts(contacts)
      for (day, name) in holidays { try store.policy.addHoliday(day, name: name) }
      for day in removed { try store.policy.removeHoliday(day) }
      if let branches { try store.statistics.setBranches(branches) }
    }
    context.output.line("Saved the circulation rules.")
  }
}

struct PolicyCategory: DeskCommand {
  static let name = CommandOption<String>("--name", value: "<text>", help: "Name shown to people.")
  static let loanDays = CommandOption<Int>.integer(
    "--loan-days", value: "<n>", help: "Loan period in days (open days in calendar mode).")
  static let loanLimit = CommandOption<Int>.integer(
    "--loan-limit", value: "<n>", help: "Books a reader of the category may hold at once.")
  static let renewalLimit = CommandOption<Int>.integer(
    "--renewal-limit", value: "<n>", help: "Times one loan may be renewed.")
  static let holdLimit = CommandOption<Int>.integer(
    "--hold-limit", value: "<n>", help: "Holds a reader of the category may have at once.")
  static let remove = CommandFlag("--remove", help: "Remove the category (refused while readers belong to it).")
  static let writtenAs = CommandOption<String>(
    "--written-as", value: "<names>",
    help: "What other systems' files write for it, like \"сотрудник библиотеки; сотр.\" (\"\" for none).")

  static let spec = CommandSpec(
    path: "policy category", abstract: "Add, change or remove a reader category.",
    arguments: [.init("<code>", "The category's code, like adult.")],
    options: [
      name,
      loanDays,
      loanLimit,
      renewalLimit,
      holdLimit,
      writtenAs,
      remove,
      CommandSpec.databaseOption,
    ],
    discussion:
      "A new category takes 14 days, 10 books, 2 renewals and 5 holds for whatever is not given. An import "
      + "takes a reader whose category is written as the code, the name or one of --written-as into the "
      + "category, and an export writes the category back as the file had it.")

  static func run(_ arguments: ParsedArguments, in context: CommandContext) throws(CommandError) {
    let code = arguments.positionals[0]
    let store = try context.openStore(arguments)
    if arguments.has(remove) {
      try perform { () throws(StoreError) in try store.policy.removeCategory(code: code) }
      context.output.line("Removed category \(code).".visibleForTerminal)
      return
    }
    var category =
      try perform { () throws(StoreError) in try store.policy.category(code: code) }
      ?? ReaderCategory(code: code, name: code, loanDays: 14, loanLimit: 10, renewalLimit: 2)
    if let name = try arguments.value(name) { category.name = name }
    if let days = try arguments.value(loanDays) { category.loanDays = days }
    if let limit = try arguments.value(loanLimit) { category.loanLimit = limit }
    if let limit = try arguments.value(renewalLimit) { category.renewalLimit = limit }
    if let limit = try arguments.value(holdLimit) { category.holdLimit = limit }
    if let names = try arguments.value(writtenAs) { category.writtenAs = ReaderCategory.writtenNames(names) }
    try perform { () throws(StoreError) in try store.policy.setCategory(category) }
    context.output.line(
      ("Saved category \(category.code): \(englishPlural(category.loanDays, "day")), "
        + "\(englishPlural(category.loanLimit, "book")), \(englishPlural(category.renewalLimit, "renewal")), "
        + "\(englishPlural(category.holdLimit, "hold"))").visibleForTerminal)
  }
}
