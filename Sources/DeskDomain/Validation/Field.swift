/// The fields of the desk's forms, for pointing a validation error at the field to fix.
public enum Field: String, CaseIterable, Sendable {
  // Book
  case inventoryNumber, isbn, authorSurname, authorInitials, title, publisher, city, year, pages
  case price, bbk, authorMark, place, received, status
  // Reader
  case ticket, surname, firstName, patronymic, birthYear, phone, email, category, registered
  case postcode, addressCity, street, house, flat

  /// The English label, as the forms and messages print it.
  public var label: String {
    switch self {
    case .inventoryNumber: return "Inventory number"
    case .isbn: return "ISBN"
    case .authorSurname: return "Author surname"
    case .authorInitials: return "Author initials"
    case .title: return "Title"
    case .publisher: return "Publisher"
    case .city: return "City of publication"
    case .year: return "Year"
    case .pages: return "Pages"
    case .price: return "Price"
    case .bbk: return "BBK index"
    case .authorMark: return "Author mark"
    case .place: return "Storage place"
    case .received: return "Date received"
    case .status: return "Status"
    case .ticket: return "Reader ticket"
    case .surname: return "Surname"
    case .firstName: return "First name"
    case .patronymic: return "Patronymic"
    case .birthYear: return "Birth year"
    case .phone: return "Phone"
    case .email: return "E-mail"
    case .category: return "Category"
    case .registered: return "Registration date"
    case .postcode: return "Postcode"
    case .addressCity: return "City"
    case .street: return "Street"
    case .house: return "House"
    case .flat: return "Flat"
    }
  }
}

extension Field {
  /// The form field a synced column (`author_surname`, `inventory`, `price_minor`) holds, if any.
  public init?(column: String) {
    switch column {
    case "inventory": self = .inventoryNumber
    case "price_minor": self = .price
    default:
      let words = column.split(separator: "_")
      let camel =
        (words.first.map(String.init) ?? "")
        + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
      self.init(rawValue: camel)
    }
  }
}
