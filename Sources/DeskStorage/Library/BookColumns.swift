import DeskDomain

/// The columns of a whole book, `book b`, in the order `bookColumns` selects them.
enum BookColumn: Int32, SelectedColumn {
  case id, uuid, inventory, isbn, authorSurname, authorInitials, title, publisher, city, year, pages, priceMinor, bbk
  case authorMark, place, received, createdAt, updatedAt, status, lastChecked

  var sql: String { column(of: "b") }
}

/// What an import kept of a book's record, after a book's columns.
enum KeptColumn: Int32, SelectedColumn {
  case sourceRecord, sourceCopy, recordGroup

  var sql: String { column(of: "b") }
}

/// The columns of `book b` that the full-screen list shows, all of them in `book_list`.
enum BriefColumn: Int32, SelectedColumn {
  case sortKey, inventory, authorSurname, authorInitials, title, year, status

  var sql: String { column(of: "b") }
}

extension LibraryStore {
  static let bookColumns = BookColumn.list

  static func decodeBook(_ row: Row, from start: Int32 = 0) throws -> Book {
    Book(
      id: RecordID(row.string(BookColumn.uuid, from: start)),
      inventoryNumber: row.string(BookColumn.inventory, from: start),
      isbn: row.optionalString(BookColumn.isbn, from: start).flatMap { try? ISBN($0) },
      authorSurname: row.string(BookColumn.authorSurname, from: start),
      authorInitials: row.string(BookColumn.authorInitials, from: start),
      title: row.string(BookColumn.title, from: start),
      publisher: row.string(BookColumn.publisher, from: start), city: row.string(BookColumn.city, from: start),
      year: row.optionalInt(BookColumn.year, from: start), pages: row.optionalInt(BookColumn.pages, from: start),
      price: row.isNull(BookColumn.priceMinor, from: start)
        ? nil : Money(minorUnits: row.int64(BookColumn.priceMinor, from: start)),
      bbk: row.string(BookColumn.bbk, from: start), authorMark: row.string(BookColumn.authorMark, from: start),
      place: row.string(BookColumn.place, from: start),
      received: try row.optionalDate(BookColumn.received, from: start),
      status: CopyStatus(rawValue: row.string(BookColumn.status, from: start)) ?? .available,
      created: try row.timestamp(BookColumn.createdAt, from: start),
      updated: try row.timestamp(BookColumn.updatedAt, from: start),
      lastChecked: try row.optionalDate(BookColumn.lastChecked, from: start))
  }

  /// A brief record, from `BriefColumn.list`.
  static func decodeBrief(_ row: Row) -> BriefRecord {
    BriefRecord(
      inventoryNumber: row.string(BriefColumn.inventory), authorSurname: row.string(BriefColumn.authorSurname),
      authorInitials: row.string(BriefColumn.authorInitials), title: row.string(BriefColumn.title),
      year: row.optionalInt(BriefColumn.year),
      status: CopyStatus(rawValue: row.string(BriefColumn.status)) ?? .available,
      sortKey: row.string(BriefColumn.sortKey))
  }

  static func decodeKept(_ row: Row, from start: Int32) -> IRBISKeptRecord? {
    let record = row.string(KeptColumn.sourceRecord, from: start)
    let copy = row.string(KeptColumn.sourceCopy, from: start)
    guard !record.isEmpty || !copy.isEmpty else { return nil }
    return IRBISKeptRecord(record: record, copy: copy, group: row.string(KeptColumn.recordGroup, from: start))
  }

  /// The columns of `bookFieldValues`, in its order.
  static let bookFieldColumns = [
    "inventory", "isbn", "isbn13", "author_surname", "author_initials", "title", "publisher", "city", "year", "pages",
    "price_minor", "bbk", "author_mark", "place", "received", "status",
  ]

  /// A book's fields as the table stores them.
  static func bookFieldValues(_ book: Book) -> [DatabaseValue] {
    [
      .text(book.inventoryNumber), .optionalText(book.isbn?.digits), .optionalText(book.isbn?.isbn13),
      .text(book.authorSurname), .text(book.authorInitials), .text(book.title), .text(book.publisher),
      .text(book.city), .optionalInteger(book.year), .optionalInteger(book.pages),
      book.price.map { .integer($0.minorUnits) } ?? .null, .text(book.bbk), .text(book.authorMark),
      .text(book.place), .optionalText(book.received?.iso), .text(book.status.rawValue),
    ]
  }
}
