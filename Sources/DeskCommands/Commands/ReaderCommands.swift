import DeskDomain
import DeskStorage

struct ReaderAdd: DeskCommand {
  static let spec = CommandSpec(
    path: "reader add", abstract: "Register a reader.",
    options: ReaderOptions.options(requiring: [ReaderOptions.ticket, ReaderOptions.surname]) + [
      CommandSpec.jsonOption, CommandSpec.databaseOption,
    ],
    discussion: "A phone that already has an address gives the reader that address when none is typed.")

  static func run(_ arguments: ParsedArguments, in context: CommandContext) throws(CommandError) {
    var draft = ReaderDraft()
    ReaderOptions.apply(try ReaderOptions.values(arguments), to: &draft)
    let store = try context.openStore(arguments)
    let reader = try perform { () throws(StoreError) in try store.readers.add(draft) }
    if arguments.has(CommandSpec.jsonOption) {
      context.output.line(RecordJSON.reader(reader, booksOut: 0, overdue: 0).rendered())
    } else {
      context.output.line("Added: \(reader.ticket) \(reader.fullName)".visibleForTerminal)
      if let address = reader.address, draft.street.isEmpty && draft.addressCity.isEmpty {
        context.output.line("Address of phone \(address.phone): \(address.singleLine)".visibleForTerminal)
      }
    }
  }
}

struct ReaderEdit: DeskCommand {
  static let spec = CommandSpec(
    path: "reader edit", abstract: "Change fields of a reader.",
    arguments: [.init("<ticket>", "Ticket number of the reader to change.")],
    options: ReaderOptions.options() + [CommandSpec.jsonOption, CommandSpec.databaseOption],
    discussion: "Fields not named keep their values; an empty value clears an optional field.")

  static func run(_ arguments: ParsedArguments, in context: CommandContext) throws(CommandError) {
    let ticket = arguments.positionals[0]
    guard ReaderOptions.fields.contains(where: { arguments.isGiven($0.option) }) else {
      throw .usage("name at least one field to change, like --phone", command: spec.path)
    }
    let values = try ReaderOptions.values(arguments)
    let store = try context.openStore(arguments)
    let reader = try perform { () throws(StoreError) in
      try store.readers.update(ticket: ticket) { ReaderOptions.apply(values, to: &$0) }
    }
    if arguments.has(CommandSpec.jsonOption) {
      context.output.line(RecordJSON.reader(reader, booksOut: nil, overdue: nil).rendered())
    } else {
      context.output.line("Saved: \(reader.ticket) \(reader.fullName)".visibleForTerminal)
    }
  }
}

struct ReaderShow: DeskCommand {
  static let spec = CommandSpec(
    path: "reader show", abstract: "Show a reader with the books they hold and their history.",
    arguments: [.init("<ticket>", "Ticket number of the reader.")],
    options: [CommandSpec.jsonOption, CommandSpec.databaseOption])

  static func run(_ arguments: ParsedArguments, in context: CommandContext) throws(CommandError) {
    let ticket = arguments.positionals[0]
    let store = try context.openStore(arguments, creating: false)
    let (reader, loans, holds) = try perform { () throws(StoreError) in
      guard let reader = try store.readers.reader(ticket: ticket) else { throw StoreError.readerNotFound(ticket) }
      return (
        reader, try store.circulation.loans(ofReader: reader, includingUndone: true),
        try store.holds.list(ofReader: reader.ticket).filter { $0.state.isActive || $0.state == .expired }
      )
    }
    let today = context.clock.now().date
    let mark = try perform { () throws(StoreError) in try store.sync.mark(entity: .reader, recordID: reader.id) }
    if arguments.has(CommandSpec.jsonOption) {
      let open = loans.filter { $0.loan.isOpen }
      guard
        case .object(var members) = RecordJSON.reader(
          reader, booksOut: open.count, overdue: open.filter { $0.loan.isOverdue(on: today) }.count)
      else { return }
      members.append(("loans", .array(open.map { RecordJSON.loan($0, today: today) })))
      members.append(("history", .array(loans.filter { !$0.loan.isOpen }.map { RecordJSON.loan($0, today: today) })))
      members.append(("holds", .array(holds.map(HoldList.json))))
      if let mark { members.append(("sync", RecordJSON.syncMark(mark))) }
      context.output.line(JSON.object(members).rendered())
    } else {
      let waiting = try perform { () throws(StoreError) in try store.circulation.pendingLoans(ofReader: reader) }
        .compactMap { IRBISLoan(IRBISRecord.Field(tag: 40, value: $0)) }
      context.output.write(RecordText.reader(reader, loans: loans, waiting: waiting, clock: context.clock))
      if !holds.isEmpty {
        context.output.line("Holds:")
        for hold in holds { context.output.line(("  " + HoldList.line(hold)).visibleForTerminal) }
      }
      RecordText.syncMark(mark, in: context.words, to: context.output)
    }
  }
}

struct ReaderDelete: DeskCommand {
  static let spec = CommandSpec(
    path: "reader delete", abstract: "Delete a reader (refused while they hold books).",
    arguments: [.init("<ticket>", "Ticket number of the reader.")],
    options: [CommandSpec.databaseOption])

  static func run(_ arguments: ParsedArguments, in context: CommandContext) throws(CommandError) {
    let ticket = arguments.positionals[0]
    let store = try context.openStore(arguments)
    try perform { () throws(StoreError) in try store.readers.delete(ticket: ticket) }
    context.output.line("Deleted: \(ticket)".visibleForTerminal)
  }
}

struct ReaderList: DeskCommand {
  static let search = CommandOption<String>(
    "--search", value: "<text>", help: "Only readers where each word starts a word of the name, ticket or phone.")
  static let limit = CommandOption<Int>.integer(
    "--limit", value: "<n>",
    help: "At most this many readers (default 100; 0 for all; a search, at most \(LibraryStore.searchCap)).")

  static let spec = CommandSpec(
    path: "reader list", abstract: "List readers, sorted by name.",
    options: [
      search,
      limit,
      CommandSpec.jsonOption, CommandSpec.databaseOption,
    ])

  static func run(_ arguments: ParsedArguments, in context: CommandContext) throws(CommandError) {
    let limit = try arguments.value(limit) ?? 100
    guard limit >= 0 else { throw .usage("--limit cannot be negative", command: spec.path) }
    let store = try context.openStore(arguments, creating: false)
    let search = try arguments.value(search) ?? ""
    var position = PagePosition.first
    var listings: [ReaderListing] = []
    if !search.trimmingWhitespace().isEmpty {
      let answer = try perform { () throws(StoreError) in
        try store.readers.search(search, limit: SearchLimit.asked(for: limit))
      }
      listings = SearchLimit.listed(answer.all, limit: limit, query: search, noun: "readers", in: context)
      if !answer.corrections.isEmpty && !arguments.has(CommandSpec.jsonOption) {
        context.errors.line("Did you mean: \(answer.corrections.map(\.1).joined(separator: " "))?".visibleForTerminal)
      }
    }
    while search.trimmingWhitespace().isEmpty && (limit == 0 || listings.count < limit) {
      let size = limit == 0 ? 1000 : min(1000, limit - listings.count)
      let page = try perform { () throws(StoreError) in
        try store.readers.page(search: search, position: position, limit: size)
      }
      listings += page
      guard page.count == size, let last = page.last else { break }
      position = .after(last.reader.sortKey)
    }
    if arguments.has(CommandSpec.jsonOption) {
      context.output.line(
        JSON.array(listings.map { RecordJSON.reader($0.reader, booksOut: $0.booksOut, overdue: $0.overdue) }).rendered()
      )
      return
    }
    guard !listings.isEmpty else { return context.output.line("No readers.") }
    var table = Table([
      .init(title: "Ticket", maximumWidth: 12), .init(title: "Name", maximumWidth: 40),
      .init(title: "Phone", maximumWidth: 20), .init(title: "Books", maximumWidth: 5),
      .init(title: "Overdue", maximumWidth: 7),
    ])
    for listing in listings {
      table.append([
        listing.reader.ticket, listing.reader.fullName, listing.reader.phone, String(listing.booksOut),
        listing.overdue > 0 ? "! \(listing.overdue)" : "",
      ])
    }
    context.output.write(table.rendered())
  }
}
