/// A book as typed into a form or given on the command line: every field is text, kept
/// exactly as entered, so that a refused form gives back what the librarian typed.
public struct BookDraft: Hashable, Sendable {
  public var inventoryNumber = ""
  public var isbn = ""
  public var authorSurname = ""
  public var authorInitials = ""
  public var title = ""
  public var publisher = ""
  public var city = ""
  public var year = ""
  public var pages = ""
  public var price = ""
  public var bbk = ""
  public var authorMark = ""
  public var place = ""
  public var received = ""
  /// A `CopyStatus` word; empty keeps the status as it is (available for a new copy).
  public var status = ""

  public init() {}

  /// The draft that edits `book`.
  public init(_ book: Book) {
    inventoryNumber = book.inventoryNumber
    isbn = book.isbn?.hyphenated ?? ""
    authorSurname = book.authorSurname
    authorInitials = book.authorInitials
    title = book.title
    publisher = book.publisher
    city = book.city
    year = book.year.map(String.init) ?? ""
    pages = book.pages.map(String.init) ?? ""
    price = book.price?.description ?? ""
    bbk = book.bbk
    authorMark = book.authorMark
    place = book.place
    received = book.received?.iso ?? ""
    status = book.status == .available ? "" : book.status.rawValue
  }

  public subscript(field: Field) -> String {
    get { self[keyPath: BookDraft.keyPath(field)] }
    set { self[keyPath: BookDraft.keyPath(field)] = newValue }
  }

  /// The fields of a book, in form order.
  public static let fields: [Field] = [
    .inventoryNumber, .isbn, .authorSurname, .authorInitials, .title, .publisher, .city, .year,
    .pages, .price, .bbk, .authorMark, .place, .received,
  ]

  private static func keyPath(_ field: Field) -> WritableKeyPath<BookDraft, String> {
    switch field {
    case .inventoryNumber: return \.inventoryNumber
    case .isbn: return \.isbn
    case .authorSurname: return \.authorSurname
    case .authorInitials: return \.authorInitials
    case .title: return \.title
    case .publisher: return \.publisher
    case .city: return \.city
    case .year: return \.year
    case .pages: return \.pages
    case .price: return \.price
    case .bbk: return \.bbk
    case .authorMark: return \.authorMark
    case .place: return \.place
    case .received: return \.received
    case .status: return \.status
    default: preconditionFailure("\(field) is not a book field")
    }
  }

  /// The book this draft describes, keeping the identity and creation time of `base` when it
  /// edits one. Checks everything that can be checked without the database; uniqueness of the
  /// inventory number is the store's to check.
  public func validated(base: Book?, today: LocalDate, now: Timestamp) throws(ValidationErrors) -> Book {
    var reader = FieldReader()
    let inventory = reader.identifier(inventoryNumber, .inventoryNumber)
    let isbn = reader.isbn(self.isbn)
    let surname = reader.text(authorSurname, .authorSurname, maximum: 200)
    let initials = reader.text(authorInitials, .authorInitials, maximum: 50)
    let title = reader.text(self.title, .title, required: true, maximum: 1000)
    let publisher = reader.text(self.publisher, .publisher)
    let city = reader.text(self.city, .city, maximum: 200)
    let year = reader.integer(self.year, .year, in: 1450...(today.year + 1))
    let pages = reader.integer(self.pages, .pages, in: 1...100_000)
    let price = reader.money(self.price)
    let bbk = reader.text(self.bbk, .bbk, maximum: 100)
    let authorMark = reader.text(self.authorMark, .authorMark, maximum: 20)
    let place = reader.text(self.place, .place, maximum: 100)
    let received = reader.date(self.received, .received)
    let status = reader.status(self.status) ?? base?.status ?? .available
    guard reader.errors.isEmpty else { throw ValidationErrors(reader.errors) }
    return Book(
      id: base?.id ?? .random(), inventoryNumber: inventory, isbn: isbn, authorSurname: surname,
      authorInitials: initials, title: title, publisher: publisher, city: city, year: year,
      pages: pages, price: price, bbk: bbk, authorMark: authorMark, place: place,
      received: received ?? (base == nil ? today : nil), status: status,
      created: base?.created ?? now, updated: now)
  }
}
