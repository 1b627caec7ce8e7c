/// A reader as typed into a form or given on the command line; see `BookDraft`.
public struct ReaderDraft: Hashable, Sendable {
  public var ticket = ""
  public var surname = ""
  public var firstName = ""
  public var patronymic = ""
  public var birthYear = ""
  public var phone = ""
  public var email = ""
  public var category = ""
  public var registered = ""
  public var postcode = ""
  public var addressCity = ""
  public var street = ""
  public var house = ""
  public var flat = ""

  public init() {}

  public init(_ reader: Reader) {
    ticket = reader.ticket
    surname = reader.surname
    firstName = reader.firstName
    patronymic = reader.patronymic
    birthYear = reader.birthYear.map(String.init) ?? ""
    phone = reader.phone
    email = reader.email
    category = reader.category
    registered = reader.registered.iso
    postcode = reader.address?.postcode ?? ""
    addressCity = reader.address?.city ?? ""
    street = reader.address?.street ?? ""
    house = reader.address?.house ?? ""
    flat = reader.address?.flat ?? ""
  }

  public static let fields: [Field] = [
    .ticket, .surname, .firstName, .patronymic, .birthYear, .phone, .email, .category, .registered,
    .postcode, .addressCity, .street, .house, .flat,
  ]

  public subscript(field: Field) -> String {
    get { self[keyPath: ReaderDraft.keyPath(field)] }
    set { self[keyPath: ReaderDraft.keyPath(field)] = newValue }
  }

  private static func keyPath(_ field: Field) -> WritableKeyPath<ReaderDraft, String> {
    switch field {
    case .ticket: return \.ticket
    case .surname: return \.surname
    case .firstName: return \.firstName
    case .patronymic: return \.patronymic
    case .birthYear: return \.birthYear
    case .phone: return \.phone
    case .email: return \.email
    case .category: return \.category
    case .registered: return \.registered
    case .postcode: return \.postcode
    case .addressCity: return \.addressCity
    case .street: return \.street
    case .house: return \.house
    case .flat: return \.flat
    default: preconditionFailure("\(field) is not a reader field")
    }
  }

  /// The reader this draft describes. `categories` are the codes the library has; an empty
  /// category takes `defaultCategory`. The address, when any of its fields is filled, is
  /// returned keyed by the phone; the store decides whether it is new or shared.
  public func validated(
    base: Reader?, categories: [String], defaultCategory: String, today: LocalDate, now: Timestamp
  ) throws(ValidationErrors) -> Reader {
    var reader = FieldReader()
    let ticket = reader.identifier(self.ticket, .ticket)
    let surname = reader.text(self.surname, .surname, required: true, maximum: 100)
    let firstName = reader.text(self.firstName, .firstName, maximum: 100)
    let patronymic = reader.text(self.patronymic, .patronymic, maximum: 100)
    let birthYear = reader.integer(self.birthYear, .birthYear, in: 1900...today.year)
    let phone = reader.text(self.phone, .phone, maximum: 40)
    let email = reader.text(self.email, .email, maximum: 200)
    if !email.isEmpty && !ReaderDraft.looksLikeEmail(email) { reader.add(.invalidEmail(email)) }
    var category = reader.text(self.category, .category, maximum: 40)
    if category.isEmpty { category = defaultCategory }
    if !categories.contains(category) { reader.add(.unknownCategory(category, known: categories)) }
    let registered = reader.date(self.registered, .registered)
    let address = Address(
      id: base?.address?.id ?? .random(), phone: phone,
      postcode: reader.text(postcode, .postcode, maximum: 20),
      city: reader.text(addressCity, .addressCity, maximum: 100),
      street: reader.text(street, .street, maximum: 200),
      house: reader.text(house, .house, maximum: 20),
      flat: reader.text(flat, .flat, maximum: 20))
    if address.hasLocation && address.phoneKey.isEmpty { reader.add(.phoneNeededForAddress) }
    guard reader.errors.isEmpty else { throw ValidationErrors(reader.errors) }
    return Reader(
      id: base?.id ?? .random(), ticket: ticket, surname: surname, firstName: firstName,
      patronymic: patronymic, birthYear: birthYear, phone: phone, email: email, category: category,
      registered: registered ?? base?.registered ?? today,
      address: address.phoneKey.isEmpty ? nil : address,
      created: base?.created ?? now, updated: now)
  }

  static func looksLikeEmail(_ text: String) -> Bool {
    let parts = text.split(separator: "@", omittingEmptySubsequences: false)
    return parts.count == 2 && !parts[0].isEmpty && parts[1].contains(".")
      && !parts[1].hasPrefix(".") && !parts[1].hasSuffix(".") && !text.contains(" ")
  }
}
