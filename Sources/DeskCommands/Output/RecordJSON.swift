import DeskDomain
import DeskStorage

/// The JSON shapes of the records, for `--json`. Keys are stable; absent values are null.
enum RecordJSON {
  static func book(_ book: Book, loan: CurrentLoan?, today: LocalDate) -> JSON {
    .object([
      ("id", .string(book.id.text)),
      ("inventory", .string(book.inventoryNumber)),
      ("isbn", .optional(book.isbn?.digits)),
      ("author_surname", .string(book.authorSurname)),
      ("author_initials", .string(book.authorInitials)),
      ("title", .string(book.title)),
      ("publisher", .string(book.publisher)),
      ("city", .string(book.city)),
      ("year", .optional(book.year)),
      ("pages", .optional(book.pages)),
      ("price", .optional(book.price?.description)),
      ("bbk", .string(book.bbk)),
      ("author_mark", .string(book.authorMark)),
      ("place", .string(book.place)),
      ("received", .optional(book.received?.iso)),
      ("status", .string(book.status.circulates || loan != nil ? status(loan?.loan, today: today) : "not_for_loan")),
      ("copy_status", .string(book.status.rawValue)),
      ("last_checked", .optional(book.lastChecked?.iso)),
      (
        "loan",
        loan.map { current in
          .object([
            ("reader_ticket", .string(current.readerTicket)),
            ("reader", .string(current.readerName)),
            ("issued", .string(current.loan.issued.iso)),
            ("due", .string(current.loan.due.iso)),
            ("renewals", .int(current.loan.renewals)),
            ("overdue", .bool(current.loan.isOverdue(on: today))),
          ])
        } ?? .null
      ),
      ("created", .string(book.created.iso)),
      ("updated", .string(book.updated.iso)),
    ])
  }

  static func reader(_ reader: Reader, booksOut: Int?, overdue: Int?) -> JSON {
    var members: [(String, JSON)] = [
      ("id", .string(reader.id.text)),
      ("ticket", .string(reader.ticket)),
      ("surname", .string(reader.surname)),
      ("first_name", .string(reader.firstName)),
      ("patronymic", .string(reader.patronymic)),
      ("birth_year", .optional(reader.birthYear)),
      ("phone", .string(reader.phone)),
      ("email", .string(reader.email)),
      ("category", .string(reader.category)),
      ("registered", .string(reader.registered.iso)),
      (
        "address",
        reader.address.map { address in
          .object([
            ("postcode", .string(address.postcode)), ("city", .string(address.city)),
            ("street", .string(address.street)), ("house", .string(address.house)), ("flat", .string(address.flat)),
          ])
        } ?? .null
      ),
    ]
    if let booksOut { members.append(("books_out", .int(booksOut))) }
    if let overdue { members.append(("overdue", .int(overdue))) }
    members += [("created", .string(reader.created.iso)), ("updated", .string(reader.updated.iso))]
    return .object(members)
  }

  static func loan(_ record: LoanRecord, today: LocalDate) -> JSON {
    .object([
      ("id", .string(record.loan.id.text)),
      ("inventory", .string(record.inventory)),
      ("title", .string(record.bookTitle)),
      ("author", .string(record.bookAuthor)),
      ("reader_ticket", .string(record.readerTicket)),
      ("reader", .string(record.readerName)),
      ("issued", .string(record.loan.issued.iso)),
      ("due", .string(record.loan.due.iso)),
      ("returned", .optional(record.loan.returned?.iso)),
      ("undone", .optional(record.loan.undone?.iso)),
      ("renewals", .int(record.loan.renewals)),
      ("overdue", .bool(record.loan.isOverdue(on: today))),
      ("desk", .string(record.loan.desk)),
      ("held_for", record.heldFor.map(trap) ?? .null),
    ])
  }

  /// The hold a returned copy was put aside for.
  static func trap(_ trap: HoldTrap) -> JSON {
    .object([
      ("hold", .int(trap.hold)), ("reader_ticket", .string(trap.readerTicket)), ("reader", .string(trap.readerName)),
      ("pickup_by", .string(trap.pickupBy.iso)),
    ])
  }

  /// `available`, `issued` or `overdue`.
  static func status(_ loan: Loan?, today: LocalDate) -> String {
    guard let loan else { return "available" }
    return loan.isOverdue(on: today) ? "overdue" : "issued"
  }

  static func syncMark(_ mark: SyncMark) -> JSON {
    .object([
      ("unsynced_changes", .int(mark.unsynced)),
      ("conflicts", .array(mark.conflicts.map { .int($0.number) })),
    ])
  }
}
