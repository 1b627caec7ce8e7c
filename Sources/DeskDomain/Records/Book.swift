/// One copy of a book in the library, identified at the desk by its inventory number.
public struct Book: Hashable, Sendable {
  public var id: RecordID
  public var inventoryNumber: String
  public var isbn: ISBN?
  public var authorSurname: String
  public var authorInitials: String
  public var title: String
  public var publisher: String
  public var city: String
  public var year: Int?
  public var pages: Int?
  public var price: Money?
  public var bbk: String
  public var authorMark: String
  public var place: String
  public var received: LocalDate?
  /// Whether the copy may be issued; out or in is its loans' to say.
  public var status: CopyStatus
  public var created: Timestamp
  public var updated: Timestamp
  /// The day a closed check of the stock last found the copy on the shelves (IRBIS 910 ^S).
  public var lastChecked: LocalDate?

  public init(
    id: RecordID = .random(), inventoryNumber: String, isbn: ISBN? = nil, authorSurname: String = "",
    authorInitials: String = "", title: String, publisher: String = "", city: String = "",
    year: Int? = nil, pages: Int? = nil, price: Money? = nil, bbk: String = "", authorMark: String = "",
    place: String = "", received: LocalDate? = nil, status: CopyStatus = .available, created: Timestamp,
    updated: Timestamp, lastChecked: LocalDate? = nil
  ) {
    self.lastChecked = lastChecked
    self.id = id
    self.inventoryNumber = inventoryNumber
    self.isbn = isbn
    self.authorSurname = authorSurname
    self.authorInitials = authorInitials
    self.title = title
    self.publisher = publisher
    self.city = city
    self.year = year
    self.pages = pages
    self.price = price
    self.bbk = bbk
    self.authorMark = authorMark
    self.place = place
    self.received = received
    self.status = status
    self.created = created
    self.updated = updated
  }

  /// `Лермонтов М. Ю.`, or empty for a book without an author.
  public var author: String {
    Book.author(surname: authorSurname, initials: authorInitials)
  }

  /// `Лермонтов М. Ю.`: the surname and initials, either of which may be missing.
  public static func author(surname: String, initials: String) -> String {
    [surname, initials].filter { !$0.isEmpty }.joined(separator: " ")
  }

  /// `Лермонтов М. Ю. «Герой нашего времени»`: how a list of scans names its copy.
  public var authorAndQuotedTitle: String {
    (author.isEmpty ? "" : author + " ") + "«\(title)»"
  }

  /// `Лермонтов М. Ю. Герой нашего времени`: how a loan names its book.
  public var shortDescription: String {
    [author, title].filter { !$0.isEmpty }.joined(separator: " ")
  }

  /// Orders books by author then title, the way a catalogue card drawer does; a book
  /// without an author files under its title. Unique, because it ends with the inventory number.
  public var sortKey: String { sortPrefix + inventoryNumber }

  /// The folded words a search looks in. Codes (inventory number, ISBN) are not among them: a
  /// search finds those exactly, and a million unique numbers would swamp the vocabulary.
  public var searchText: String {
    let fields = [authorSurname, authorInitials, title, publisher]
    return TextFolding.joinedWords(fields.joined(separator: " "))
  }
}
