import DeskDomain

/// The options that set a book's fields, shared by `book add` and `book edit`.
enum BookOptions {
  static let fields: [(option: String, field: Field, value: String, help: String)] = [
    ("--inventory", .inventoryNumber, "<number>", "Inventory number: required, unique in the library."),
    ("--isbn", .isbn, "<isbn>", "ISBN-10 or ISBN-13, with or without hyphens; the check digit is verified."),
    ("--author-surname", .authorSurname, "<text>", "Surname of the first author."),
    ("--author-initials", .authorInitials, "<text>", "Initials of the first author (М. Ю.)."),
    ("--title", .title, "<text>", "Title: required."),
    ("--publisher", .publisher, "<text>", "Publisher."),
    ("--city", .city, "<text>", "City of publication."),
    ("--year", .year, "<year>", "Year of publication."),
    ("--pages", .pages, "<number>", "Number of pages."),
    ("--price", .price, "<amount>", "Price, like 254 or 254.50."),
    ("--bbk", .bbk, "<index>", "BBK classification index, like 84(2Рос=Рус)1."),
    ("--author-mark", .authorMark, "<mark>", "Author mark, like Л49."),
    ("--place", .place, "<text>", "Storage place (shelf, room)."),
    ("--received", .received, "<date>", "Date received, YYYY-MM-DD (default: today for a new book)."),
    (
      "--status", .status, "<status>",
      "Copy status: \(CopyStatus.words) (default available); only an available copy is issued."
    ),
  ]

  /// The options, those in `required` shown as the ones a new record cannot do without.
  static func options(requiring required: Set<String> = []) -> [CommandSpec.Option] {
    fields.map {
      CommandSpec.Option($0.option, value: $0.value, help: $0.help, required: required.contains($0.option))
    }
  }

  /// Refuses a date option that is not a date the library takes, as every command's date options
  /// are refused (a usage error); an empty one clears its field.
  static func checkDates(_ arguments: ParsedArguments) throws(CommandError) {
    try ParsedArguments.checkDates(of: fields.filter { $0.value == "<date>" }.map(\.option), in: arguments)
  }

  /// Copies the given options into the draft; fields not named are left as they are.
  static func apply(_ arguments: ParsedArguments, to draft: inout BookDraft) {
    for entry in fields {
      if let value = arguments.value(entry.option) { draft[entry.field] = value }
    }
    // An empty status, as an empty field elsewhere, clears it: the copy is available.
    if arguments.value("--status")?.trimmingWhitespace().isEmpty == true {
      draft.status = CopyStatus.available.rawValue
    }
  }
}

/// The options that set a reader's fields, shared by `reader add` and `reader edit`.
enum ReaderOptions {
  static let fields: [(option: String, field: Field, value: String, help: String)] = [
    ("--ticket", .ticket, "<number>", "Reader ticket number: required, unique in the library."),
    ("--surname", .surname, "<text>", "Surname: required."),
    ("--name", .firstName, "<text>", "First name."),
    ("--patronymic", .patronymic, "<text>", "Patronymic."),
    ("--birth-year", .birthYear, "<year>", "Year of birth."),
    ("--phone", .phone, "<phone>", "Home phone; readers with the same phone share one address."),
    ("--email", .email, "<address>", "E-mail address."),
    ("--category", .category, "<code>", "Reader category (see 'circdesk policy show'); default from the policy."),
    ("--registered", .registered, "<date>", "Registration date, YYYY-MM-DD (default: today)."),
    ("--postcode", .postcode, "<text>", "Postcode of the address."),
    ("--address-city", .addressCity, "<text>", "City of the address."),
    ("--street", .street, "<text>", "Street of the address."),
    ("--house", .house, "<text>", "House number."),
    ("--flat", .flat, "<text>", "Flat number."),
  ]

  /// The options, those in `required` shown as the ones a new record cannot do without.
  static func options(requiring required: Set<String> = []) -> [CommandSpec.Option] {
    fields.map {
      CommandSpec.Option($0.option, value: $0.value, help: $0.help, required: required.contains($0.option))
    }
  }

  /// Refuses a date option that is not a date the library takes; an empty one clears its field.
  static func checkDates(_ arguments: ParsedArguments) throws(CommandError) {
    try ParsedArguments.checkDates(of: fields.filter { $0.value == "<date>" }.map(\.option), in: arguments)
  }

  static func apply(_ arguments: ParsedArguments, to draft: inout ReaderDraft) {
    for entry in fields {
      if let value = arguments.value(entry.option) { draft[entry.field] = value }
    }
  }
}
