/// A registered reader, identified at the desk by the number on their ticket (library card).
public struct Reader: Hashable, Sendable {
  public var id: RecordID
  public var ticket: String
  public var surname: String
  public var firstName: String
  public var patronymic: String
  public var birthYear: Int?
  public var phone: String
  public var email: String
  public var category: String
  public var registered: LocalDate
  public var address: Address?
  public var created: Timestamp
  public var updated: Timestamp

  public init(
    id: RecordID = .random(), ticket: String, surname: String, firstName: String = "",
    patronymic: String = "", birthYear: Int? = nil, phone: String = "", email: String = "",
    category: String, registered: LocalDate, address: Address? = nil, created: Timestamp,
    updated: Timestamp
  ) {
    self.id = id
    self.ticket = ticket
    self.surname = surname
    self.firstName = firstName
    self.patronymic = patronymic
    self.birthYear = birthYear
    self.phone = phone
    self.email = email
    self.category = category
    self.registered = registered
    self.address = address
    self.created = created
    self.updated = updated
  }

  /// `Иванова Мария Петровна`.
  public var fullName: String {
    [surname, firstName, patronymic].filter { !$0.isEmpty }.joined(separator: " ")
  }

  /// `Иванова М. П.`: how lists and refusals name a reader.
  public var shortName: String {
    Reader.shortName(surname: surname, firstName: firstName, patronymic: patronymic)
  }

  public static func shortName(surname: String, firstName: String, patronymic: String) -> String {
    let initials = [firstName, patronymic].compactMap { $0.first.map { "\($0)." } }
    return ([surname] + [initials.joined(separator: " ")]).filter { !$0.isEmpty }.joined(separator: " ")
  }

  public var sortKey: String {
    ([surname, firstName, patronymic].map(TextFolding.fold) + [ticket]).joined(separator: "\u{1}")
  }

  /// The folded words a search looks in; the ticket and the phone are found exactly instead.
  public var searchText: String {
    TextFolding.joinedWords([surname, firstName, patronymic].joined(separator: " "))
  }
}
