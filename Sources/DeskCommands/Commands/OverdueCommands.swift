import DeskDomain
import DeskExchange
import DeskStorage

/// `circdesk overdue`: every reader with overdue books, the longest overdue first, for chasing
/// them by phone, by mail merge or by script.
struct OverdueCommand: DeskCommand {
  static let csv = CommandFlag("--csv", help: "Print one line per overdue book as CSV, for a mail merge.")

  static let spec = CommandSpec(
    path: "overdue", abstract: "List the readers with overdue books, longest overdue first.",
    options: [
      CommandSpec.jsonOption,
      csv,
      CommandSpec.databaseOption,
    ],
    discussion: """
      Each reader with their ticket, phone and e-mail, then each overdue book with its due date and
      the days it is overdue. The CSV has a header line and one line per book (UTF-8, CRLF).
      """)

  static let csvHeader = [
    "ticket", "reader", "phone", "email", "inventory", "author", "title", "due", "days_overdue",
  ]

  static func run(_ arguments: ParsedArguments, in context: CommandContext) throws(CommandError) {
    guard !(arguments.has(CommandSpec.jsonOption) && arguments.has(csv)) else {
      throw .usage("choose --json or --csv, not both", command: spec.path)
    }
    let store = try context.openStore(arguments, creating: false)
    let readers = try perform { () throws(StoreError) in try store.circulation.overdueReaders() }
    let today = context.clock.now().date
    if arguments.has(csv) {
      context.output.write(CSV.line(csvHeader))
      for entry in readers {
        for loan in entry.loans {
          context.output.write(
            CSV.line([
              entry.reader.ticket, entry.reader.fullName, entry.reader.phone, entry.reader.email, loan.inventory,
              loan.bookAuthor, loan.bookTitle, loan.loan.due.iso, String(loan.loan.daysOverdue(on: today)),
            ]))
        }
      }
      return
    }
    if arguments.has(CommandSpec.jsonOption) {
      context.output.line(
        JSON.array(
          readers.map { entry in
            .object([
              ("ticket", .string(entry.reader.ticket)), ("reader", .string(entry.reader.fullName)),
              ("phone", .string(entry.reader.phone)), ("email", .string(entry.reader.email)),
              ("days_overdue", .int(entry.daysOverdue(on: today))),
              (
                "books",
                .array(
                  entry.loans.map { loan in
                    .object([
                      ("inventory", .string(loan.inventory)), ("author", .string(loan.bookAuthor)),
                      ("title", .string(loan.bookTitle)), ("due", .string(loan.loan.due.iso)),
                      ("days_overdue", .int(loan.loan.daysOverdue(on: today))),
                    ])
                  })
              ),
            ])
          }
        ).rendered())
      return
    }
    guard !readers.isEmpty else {
      context.output.line("No books are overdue.")
      return
    }
    var table = Table([
      .init(title: "Days", maximumWidth: 5), .init(title: "Ticket", maximumWidth: 12),
      .init(title: "Reader", maximumWidth: 30), .init(title: "Phone", maximumWidth: 18),
      .init(title: "E-mail", maximumWidth: 28), .init(title: "Inventory", maximumWidth: 12),
      .init(title: "Due", maximumWidth: 10), .init(title: "Book", maximumWidth: 60),
    ])
    for entry in readers {
      for (index, loan) in entry.loans.enumerated() {
        let first = index == 0
        let book = [loan.bookAuthor, "«\(loan.bookTitle)»"].filter { !$0.isEmpty }.joined(separator: " ")
        table.append([
          String(loan.loan.daysOverdue(on: today)), first ? entry.reader.ticket : "",
          first ? entry.reader.fullName : "", first ? entry.reader.phone : "", first ? entry.reader.email : "",
          loan.inventory, loan.loan.due.iso, book,
        ])
      }
    }
    context.output.write(table.rendered())
    let books = readers.map(\.loans.count).reduce(0, +)
    context.output.line(
      "\(readers.count) \(readers.count == 1 ? "reader" : "readers"), \(books) overdue \(books == 1 ? "book" : "books")"
    )
  }
}
