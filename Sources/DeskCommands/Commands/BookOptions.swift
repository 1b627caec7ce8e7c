import DeskDomain

/// The options that set a book's fields, shared by `book add` and `book edit`.
enum BookOptions {
  static let inventory = CommandOption<String>(
    "--inventory", value: "<number>", help: "Inventory number: required, unique in the library.")
  static let isbn = CommandOption<String>(
    "--isbn", value: "<isbn>", help: "ISBN-10 or ISBN-13, with or without hyphens; the check digit is verified.")
  static let authorSurname = CommandOption<String>(
    "--author-surname", value: "<text>", help: "Surname of the first author.")
  static let authorInitials = CommandOption<String>(
    "--author-initials", value: "<text>", help: "Initials of the first author (М. Ю.).")
  static let title = CommandOption<String>("--title", value: "<text>", help: "Title: required.")
  static let publisher = CommandOption<String>("--publisher", value: "<text>", help: "Publisher.")
  static let city = CommandOption<String>("--city", value: "<text>", help: "City of publication.")
  static let year = CommandOption<String>("--year", value: "<year>", help: "Year of publication.")
  static let pages = CommandOption<String>("--pages", value: "<number>", help: "Number of pages.")
  static let price = CommandOption<String>("--price", value: "<amount>", help: "Price, like 254 or 254.50.")
  static let bbk = CommandOption<String>(
    "--bbk", value: "<index>", help: "BBK classification index, like 84(2Рос=Рус)1.")
  static let authorMark = CommandOption<String>("--author-mark", value: "<mark>", help: "Author mark, like Л49.")
  static let place = CommandOption<String>("--place", value: "<text>", help: "Storage place (shelf, room).")
  static let received = CommandOption<String>.fieldDate(
    "--received", help: "Date received, YYYY-MM-DD (default: today for a new book).")
  static let status = CommandOption<String>(
    "--status", value: "<status>",
    help: "Copy status: \(CopyStatus.words) (default available); only an available copy is issued.")

  static let fields: [(option: CommandOption<String>, field: Field)] = [
    (inventory, .inventoryNumber), (isbn, .isbn), (authorSurname, .authorSurname), (authorInitials, .authorInitials),
    (title, .title), (publisher, .publisher), (city, .city), (year, .year), (pages, .pages), (price, .price),
    (bbk, .bbk), (authorMark, .authorMark), (place, .place), (received, .received), (status, .status),
  ]

  /// The options, those in `required` shown as the ones a new record cannot do without.
  static func options(requiring required: [CommandOption<String>] = []) -> [any OptionDeclaration] {
    fields.map { entry in entry.option.required(required.contains { $0.name == entry.option.name }) }
  }

  /// The fields the options give, each read as every option is (a date field must be a date the
  /// library takes, or empty to clear it): a usage error before anything is opened.
  static func values(_ arguments: ParsedArguments) throws(CommandError) -> [(Field, String)] {
    var values: [(Field, String)] = []
    for entry in fields {
      if let value = try arguments.value(entry.option) { values.append((entry.field, value)) }
    }
    return values
  }

  /// Copies the given fields into the draft; fields not named are left as they are.
  static func apply(_ values: [(Field, String)], to draft: inout BookDraft) {
    for (field, value) in values {
      draft[field] = value
      // An empty status, as an empty field elsewhere, clears it: the copy is available.
      if field == .status && value.trimmingWhitespace().isEmpty { draft.status = CopyStatus.available.rawValue }
    }
  }
}

/// The options that set a reader's fields, shared by `reader add` and `reader edit`.
enum ReaderOptions {
  static let ticket = CommandOption<String>(
    "--ticket", value: "<number>", help: "Reader ticket number: required, unique in the library.")
  static let surname = CommandOption<String>("--surname", value: "<text>", help: "Surname: required.")
  static let name = CommandOption<String>("--name", value: "<text>", help: "First name.")
  static let patronymic = CommandOption<String>("--patronymic", value: "<text>", help: "Patronymic.")
  static let birthYear = CommandOption<String>("--birth-year", value: "<year>", help: "Year of birth.")
  static let phone = CommandOption<String>(
    "--phone", value: "<phone>", help: "Home phone; readers with the same phone share one address.")
  static let email = CommandOption<String>("--email", value: "<address>", help: "E-mail address.")
  static let category = CommandOption<String>(
    "--category", value: "<code>", help: "Reader category (see 'circdesk policy show'); default from the policy.")
  static let registered = CommandOption<String>.fieldDate(
    "--registered", help: "Registration date, YYYY-MM-DD (default: today).")
  static let postcode = CommandOption<String>("--postcode", value: "<text>", help: "Postcode of the address.")
  static let addressCity = CommandOption<String>("--address-city", value: "<text>", help: "City of the address.")
  static let street = CommandOption<String>("--street", value: "<text>", help: "Street of the address.")
  static let house = CommandOption<String>("--house", value: "<text>", help: "House number.")
  static let flat = CommandOption<String>("--flat", value: "<text>", help: "Flat number.")

  static let fields: [(option: CommandOption<String>, field: Field)] = [
    (ticket, .ticket), (surname, .surname), (name, .firstName), (patronymic, .patronymic), (birthYear, .birthYear),
    (phone, .phone), (email, .email), (category, .category), (registered, .registered), (postcode, .postcode),
    (addressCity, .addressCity), (street, .street), (house, .house), (flat, .flat),
  ]

  /// The options, those in `required` shown as the ones a new record cannot do without.
  static func options(requiring required: [CommandOption<String>] = []) -> [any OptionDeclaration] {
    fields.map { entry in entry.option.required(required.contains { $0.name == entry.option.name }) }
  }

  /// The fields the options give, each read (a date field checked): a usage error first.
  static func values(_ arguments: ParsedArguments) throws(CommandError) -> [(Field, String)] {
    var values: [(Field, String)] = []
    for entry in fields {
      if let value = try arguments.value(entry.option) { values.append((entry.field, value)) }
    }
    return values
  }

  static func apply(_ values: [(Field, String)], to draft: inout ReaderDraft) {
    for (field, value) in values { draft[field] = value }
  }
}
