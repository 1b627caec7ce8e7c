import DeskDomain

/// What the desk makes of a book's or reader's fields and stores beside them: the sort key and
/// the search words. One rule for the desk's own writes (`updateBook`), an import's, and the
/// changes pulled from other desks (`RecordWrites.swift`).
extension LibraryStore {
  /// The fields a book's or reader's sort key and search words are made from
  /// (`derivedColumns`).
  static let derivedFrom: [RecordKind: [String]] = [
    .book: ["inventory", "author_surname", "author_initials", "title", "publisher"],
    .reader: ["ticket", "surname", "first_name", "patronymic"],
  ]

  /// The sort key and search words of a book or reader that a change makes, from its fields
  /// (those `derivedFrom` names).
  static func derivedColumns(_ entity: RecordKind, key: String, _ fields: [String: DatabaseValue]) -> (String, String)?
  {
    func text(_ name: String) -> String {
      guard case .text(let value)? = fields[name] else { return "" }
      return value
    }
    let epoch = Timestamp(millisecondsSinceEpoch: 0)
    switch entity {
    case .book:
      let book = Book(
        id: RecordID(key), inventoryNumber: text("inventory"), authorSurname: text("author_surname"),
        authorInitials: text("author_initials"), title: text("title"), publisher: text("publisher"), created: epoch,
        updated: epoch)
      return (book.sortKey, book.searchText)
    case .reader:
      let reader = Reader(
        id: RecordID(key), ticket: text("ticket"), surname: text("surname"), firstName: text("first_name"),
        patronymic: text("patronymic"), category: "", registered: LocalDate(daysSinceEpoch: 0), created: epoch,
        updated: epoch)
      return (reader.sortKey, reader.searchText)
    default:
      return nil
    }
  }
}
