import DeskDomain
import DeskExchange
import DeskStorage

/// What every `notices` command takes: the folder for the letters, and their language.
enum Letters {
  static let folder = CommandOption<String>(
    "-o", value: "<folder>", help: "The folder for the letters, one <ticket>.txt each (made when missing).",
    required: true)
  static let language = CommandOption<OverdueNotice.Language>.choice(
    "--lang", help: "The letters' language (default English).")
  static let options: [any OptionDeclaration] = [folder, language, CommandSpec.databaseOption]

  static func folderAndLanguage(_ arguments: ParsedArguments) throws(CommandError)
    -> (folder: String, language: OverdueNotice.Language)
  {
    (try arguments.required(folder), try arguments.value(language) ?? .english)
  }
}

/// `circdesk notices overdue`: one reminder letter per reader with overdue books.
struct NoticesOverdue: DeskCommand {
  static let spec = CommandSpec(
    path: "notices overdue", abstract: "Write a reminder letter to each reader with overdue books.",
    options: Letters.options,
    discussion: """
      Each letter names the reader's overdue books with their due dates and days overdue, and is
      signed with the library's name and contacts (policy set --library-name, --library-address,
      --library-phone, --library-email). Plain UTF-8 text; the folder is made when missing.
      """)

  static func run(_ arguments: ParsedArguments, in context: CommandContext) throws(CommandError) {
    let (folder, language) = try Letters.folderAndLanguage(arguments)
    let store = try context.openStore(arguments, creating: false)
    let (readers, library) = try perform { () throws(StoreError) in
      (try store.circulation.overdueReaders(), try store.policy.libraryContacts())
    }
    do throws(FileError) {
      try makeFolder(folder)
      let today = context.clock.now().date
      for entry in readers {
        let notice = OverdueNotice(
          reader: entry.reader,
          books: entry.loans.map {
            OverdueNotice.Book(inventory: $0.inventory, author: $0.bookAuthor, title: $0.bookTitle, due: $0.loan.due)
          }, library: library, today: today)
        let path = folder + "/" + fileName(for: entry.reader.ticket) + ".txt"
        let writer = try TextWriter(path: path, encoding: .utf8)
        writer.write(notice.text(in: language))
        try writer.close()
        context.output.line("Wrote \(path)".visibleForTerminal)
      }
    } catch {
      throw .file(error)
    }
    context.output.line("\(readers.count) \(readers.count == 1 ? "letter" : "letters")")
  }
}

/// `circdesk notices holds`: one "your book is waiting" letter per reader with books on the hold
/// shelf.
struct NoticesHolds: DeskCommand {
  static let spec = CommandSpec(
    path: "notices holds", abstract: "Write to each reader whose held books wait on the hold shelf.",
    options: Letters.options,
    discussion: """
      Each letter names the books waiting for the reader with the last day to collect each, and is
      signed with the library's name and contacts. Plain UTF-8 text; the folder is made when missing.
      """)

  static func run(_ arguments: ParsedArguments, in context: CommandContext) throws(CommandError) {
    let (folder, language) = try Letters.folderAndLanguage(arguments)
    let store = try context.openStore(arguments, creating: false)
    let (waiting, library) = try perform { () throws(StoreError) in
      (try store.holds.list(.waiting), try store.policy.libraryContacts())
    }
    var byReader: [(ticket: String, holds: [HoldRecord])] = []
    // A copy past its pickup date is for hold expire to move, not for a letter to call for.
    let today = context.clock.now().date
    for hold in waiting where (hold.pickupBy ?? today) >= today {
      if let index = byReader.firstIndex(where: { $0.ticket == hold.readerTicket }) {
        byReader[index].holds.append(hold)
      } else {
        byReader.append((hold.readerTicket, [hold]))
      }
    }
    do throws(FileError) {
      try makeFolder(folder)
      for entry in byReader {
        guard let reader = try? store.readers.reader(ticket: entry.ticket) else { continue }
        let notice = HoldNotice(
          reader: reader,
          books: entry.holds.map {
            HoldNotice.Book(label: $0.label, inventory: $0.waitingCopy ?? "", pickupBy: $0.pickupBy ?? today)
          }, library: library, today: today)
        let path = folder + "/" + fileName(for: reader.ticket) + ".txt"
        let writer = try TextWriter(path: path, encoding: .utf8)
        writer.write(notice.text(in: language))
        try writer.close()
        context.output.line("Wrote \(path)".visibleForTerminal)
      }
    } catch {
      throw .file(error)
    }
    context.output.line(englishPlural(byReader.count, "letter"))
  }
}
