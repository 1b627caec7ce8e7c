import DeskDomain
import DeskStorage

struct BookAdd: DeskCommand {
  static let spec = CommandSpec(
    path: "book add", abstract: "Add a book to the catalogue.",
    options: BookOptions.options(requiring: [BookOptions.inventory, BookOptions.title]) + [
      CommandSpec.jsonOption, CommandSpec.databaseOption,
    ])

  static func run(_ arguments: ParsedArguments, in context: CommandContext) throws(CommandError) {
    var draft = BookDraft()
    BookOptions.apply(try BookOptions.values(arguments), to: &draft)
    let store = try context.openStore(arguments)
    let book = try perform { () throws(StoreError) in try store.books.add(draft) }
    if arguments.has(CommandSpec.jsonOption) {
      context.output.line(RecordJSON.book(book, loan: nil, today: context.clock.now().date).rendered())
    } else {
      context.output.line("Added: \(book.inventoryNumber) \(book.shortDescription)".visibleForTerminal)
    }
  }
}

struct BookEdit: DeskCommand {
  static let spec = CommandSpec(
    path: "book edit", abstract: "Change fields of a book.",
    arguments: [.init("<inventory>", "Inventory number of the book to change.")],
    options: BookOptions.options() + [CommandSpec.jsonOption, CommandSpec.databaseOption],
    discussion: "Fields not named keep their values; an empty value clears an optional field.")

  static func run(_ arguments: ParsedArguments, in context: CommandContext) throws(CommandError) {
    let inventory = arguments.positionals[0]
    guard BookOptions.fields.contains(where: { arguments.isGiven($0.option) }) else {
      throw .usage("name at least one field to change, like --title", command: spec.path)
    }
    let values = try BookOptions.values(arguments)
    let store = try context.openStore(arguments)
    let book = try perform { () throws(StoreError) in
      try store.books.update(inventory: inventory) { BookOptions.apply(values, to: &$0) }
    }
    if arguments.has(CommandSpec.jsonOption) {
      let loan = try perform { () throws(StoreError) in try store.books.currentLoan(ofBook: book) }
      context.output.line(RecordJSON.book(book, loan: loan, today: context.clock.now().date).rendered())
    } else {
      context.output.line("Saved: \(book.inventoryNumber) \(book.shortDescription)".visibleForTerminal)
      // A copy made available again may have gone straight to the hold shelf.
      if arguments.isGiven(BookOptions.status),
        let waiting = try perform({ () throws(StoreError) in try store.holds.waiting(forBook: book.inventoryNumber) })
      {
        context.output.line(
          "Hold for \(waiting.readerName) (ticket \(waiting.readerTicket)): put \(book.inventoryNumber) on the hold "
            .visibleForTerminal + "shelf, until \(waiting.pickupBy?.iso ?? "")")
      }
    }
  }
}

struct BookShow: DeskCommand {
  static let spec = CommandSpec(
    path: "book show", abstract: "Show a book with its current loan and loan history.",
    arguments: [.init("<inventory>", "Inventory number of the book.")],
    options: [CommandSpec.jsonOption, CommandSpec.databaseOption])

  static func run(_ arguments: ParsedArguments, in context: CommandContext) throws(CommandError) {
    let inventory = arguments.positionals[0]
    let store = try context.openStore(arguments, creating: false)
    let (book, loan, history, queue) = try perform { () throws(StoreError) in
      guard let book = try store.books.book(inventory: inventory) else { throw StoreError.bookNotFound(inventory) }
      return (
        book, try store.books.currentLoan(ofBook: book),
        try store.circulation.loans(ofBook: book, includingUndone: true),
        try store.holds.queue(forBook: book.inventoryNumber)
      )
    }
    let today = context.clock.now().date
    let mark = try perform { () throws(StoreError) in try store.sync.mark(entity: .book, recordID: book.id) }
    if arguments.has(CommandSpec.jsonOption) {
      guard case .object(var members) = RecordJSON.book(book, loan: loan, today: today) else { return }
      members.append(("history", .array(history.map { RecordJSON.loan($0, today: today) })))
      members.append(("holds", .array(queue.map(HoldList.json))))
      if let mark { members.append(("sync", RecordJSON.syncMark(mark))) }
      context.output.line(JSON.object(members).rendered())
    } else {
      let waiting = queue.first { $0.state == .waiting && $0.waitingCopy == book.inventoryNumber }
      context.output.write(
        RecordText.book(
          book, loan: loan, history: history, holdShelf: waiting,
          otherISBNs: try perform { () throws(StoreError) in
            try store.books.kept(forBook: book.inventoryNumber)?.otherISBNs ?? []
          },
          clock: context.clock))
      if !queue.isEmpty {
        context.output.line("Holds:")
        for hold in queue { context.output.line(("  " + HoldList.line(hold)).visibleForTerminal) }
      }
      RecordText.syncMark(mark, in: context.words, to: context.output)
    }
  }
}

struct BookDelete: DeskCommand {
  static let spec = CommandSpec(
    path: "book delete", abstract: "Delete a book (refused while it is out).",
    arguments: [.init("<inventory>", "Inventory number of the book.")],
    options: [CommandSpec.databaseOption],
    discussion: "The record is kept as deleted, so that other desks learn of the deletion; its loan history stays.")

  static func run(_ arguments: ParsedArguments, in context: CommandContext) throws(CommandError) {
    let inventory = arguments.positionals[0]
    let store = try context.openStore(arguments)
    try perform { () throws(StoreError) in try store.books.delete(inventory: inventory) }
    context.output.line("Deleted: \(inventory)".visibleForTerminal)
  }
}

struct BookList: DeskCommand {
  static let issued = CommandFlag("--issued", help: "Only books that are out.")
  static let available = CommandFlag("--available", help: "Only books on the shelf.")
  static let overdue = CommandFlag("--overdue", help: "Only books past their due date.")
  static let notForLoan = CommandFlag(
    "--not-for-loan", help: "Only copies lost, written off, in repair, in processing or for reference.")
  static let search = CommandOption<String>(
    "--search", value: "<text>",
    help: "Only books where each word starts a word of the title, author, publisher, inventory number or ISBN.")
  static let after = CommandOption<String>(
    "--after", value: "<key>", help: "Start after this sort key (from a previous --json page).")
  static let limit = CommandOption<Int>.integer(
    "--limit", value: "<n>",
    help: "At most this many books (default 100; 0 for all; a search, at most \(LibraryStore.searchCap)).")

  static let spec = CommandSpec(
    path: "book list", abstract: "List books, sorted by author and title.",
    options: [
      issued,
      available,
      overdue,
      notForLoan,
      search,
      after,
      limit,
      CommandSpec.jsonOption, CommandSpec.databaseOption,
    ])

  static func run(_ arguments: ParsedArguments, in context: CommandContext) throws(CommandError) {
    let filters = [
      "--issued": BookFilter.issued, "--available": .available, "--overdue": .overdue, "--not-for-loan": .notForLoan,
    ].filter { arguments.has($0.key) }
    guard filters.count <= 1 else {
      throw .usage("choose one of --issued, --available, --overdue and --not-for-loan", command: spec.path)
    }
    let filter = filters.first?.value ?? .all
    let limit = try arguments.value(limit) ?? 100
    guard limit >= 0 else { throw .usage("--limit cannot be negative", command: spec.path) }
    try list(
      arguments, filter: filter, limit: limit, store: try context.openStore(arguments, creating: false), in: context)
  }

  /// Prints the list on a library already open (the home summary shows two lists of one file).
  static func list(
    _ arguments: ParsedArguments, filter: BookFilter, limit: Int, store: LibraryStore, in context: CommandContext
  ) throws(CommandError) {
    let search = try arguments.value(search) ?? ""
    // Pages of the store's size until the limit, so that "all" streams without loading the table.
    var position = try arguments.value(after).map(PagePosition.after) ?? .first
    var listings: [BookWithLoan] = []
    let today = context.clock.now().date
    var table = Table([
      .init(title: "Inventory", maximumWidth: 12), .init(title: "Author", maximumWidth: 24),
      .init(title: "Title", maximumWidth: 40), .init(title: "Year", maximumWidth: 4),
      .init(title: "Status", maximumWidth: 48),
    ])
    var jsonItems: [JSON] = []
    func add(_ page: [BookWithLoan]) {
      for listing in page {
        if arguments.has(CommandSpec.jsonOption) {
          jsonItems.append(RecordJSON.book(listing.book, loan: listing.loan, today: today))
        } else {
          table.append([
            listing.book.inventoryNumber, listing.book.author, listing.book.title,
            listing.book.year.map(String.init) ?? "", status(listing, today: today),
          ])
        }
      }
      listings += page
    }
    if !search.trimmingWhitespace().isEmpty && !arguments.isGiven(after) {
      // A search: exact codes first, then prefix matches, then what a misspelling meant.
      let answer = try perform { () throws(StoreError) in
        try store.books.search(search, filter: filter, limit: SearchLimit.asked(for: limit))
      }
      add(SearchLimit.listed(answer.all, limit: limit, query: search, noun: "books", in: context))
      if !answer.corrections.isEmpty && !arguments.has(CommandSpec.jsonOption) {
        context.errors.line(
          "Did you mean: \(answer.corrections.map(\.1).joined(separator: " "))? (no exact match for the words as typed)"
            .visibleForTerminal)
      }
    } else {
      while limit == 0 || listings.count < limit {
        let size = limit == 0 ? 1000 : min(1000, limit - listings.count)
        let page = try perform { () throws(StoreError) in
          try store.books.page(filter: filter, search: search, position: position, limit: size)
        }
        add(page)
        guard page.count == size, let last = page.last else { break }
        position = .after(last.book.sortKey)
      }
    }
    if arguments.has(CommandSpec.jsonOption) {
      context.output.line(JSON.array(jsonItems).rendered())
    } else if listings.isEmpty {
      context.output.line("No books.")
    } else {
      context.output.write(table.rendered())
    }
  }

  static func status(_ listing: BookWithLoan, today: LocalDate) -> String {
    let copy = listing.book.status.circulates ? "" : listing.book.status.label
    guard let loan = listing.loan else { return copy }
    let overdue = loan.loan.isOverdue(on: today) ? "OVERDUE " : ""
    return "\(overdue)\(loan.readerName) (\(loan.readerTicket)) due \(loan.loan.due.iso)"
      + (copy.isEmpty ? "" : "; \(copy)")
  }
}
