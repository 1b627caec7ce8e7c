import DeskDomain
import DeskStorage

/// Writes books and readers as IRBIS plain-text records, page by page from the database, so
/// that memory stays flat however large the catalogue.
public enum IRBISExport {
  public enum BookSelection: Sendable {
    case all
    case inventories([String])
    case newSince(LocalDate)
    case issued
  }

  public enum ReaderSelection: Sendable {
    case all
    case tickets([String])
  }

  /// Line breaks by encoding: Windows-1251 files get CRLF, as IRBIS writes them; UTF-8 files LF.
  static func newline(_ encoding: FileEncoding) -> String {
    encoding == .cp1251 ? "\r\n" : "\n"
  }

  /// Writes the books; returns how many records were written.
  public static func books(
    _ selection: BookSelection, from store: LibraryStore, to writer: TextWriter, filter: BookFilter = .all,
    search: String = ""
  ) throws(StoreError) -> Int {
    let newline = newline(writer.encoding)
    return try forEachRecord(selection, from: store, filter: filter, search: search) { record, _, _ in
      writer.write(record, newline: newline)
    }
  }

  /// Calls `body` with the catalogue record of each book of the selection, its copies, and whether
  /// they are the whole record they came in (or a part split off it), page by page; returns how
  /// many records there were.
  /// `asMARC`: the records are for an ISO 2709 file (`IRBISBooks.record(for:asMARC:)`).
  public static func forEachRecord(
    _ selection: BookSelection, from store: LibraryStore, filter: BookFilter = .all, search: String = "",
    asMARC: Bool = false, _ body: (IRBISRecord, [IRBISCopy], Bool) throws(StoreError) -> Void
  ) throws(StoreError) -> Int {
    var count = 0
    var records = RecordCopies()
    func write(_ exported: ExportedCopies) throws(StoreError) {
      try body(
        IRBISBooks.record(for: exported.copies, withOtherEntries: exported.whole, asMARC: asMARC), exported.copies,
        exported.whole)
      count += 1
    }
    func write(_ listing: BookWithLoan, kept: IRBISKeptRecord?, onHoldShelf: Bool) throws(StoreError) {
      guard let exported = try records.copies(of: listing, kept: kept, onHoldShelf: onHoldShelf, in: store) else {
        return
      }
      try write(exported)
    }
    switch selection {
    case .inventories(let numbers):
      records.only = Set(numbers)
      for number in numbers {
        guard let book = try store.books.book(inventory: number) else { throw .bookNotFound(number) }
        try write(
          BookWithLoan(book: book, loan: try store.books.currentLoan(ofBook: book)),
          kept: try store.books.kept(forBook: number),
          onHoldShelf: try store.holds.waiting(forBook: number) != nil)
      }
    case .all where filter == .all && search.isEmpty, .newSince where filter == .all && search.isEmpty:
      // The whole catalogue (or its new books) goes out in the order the books were entered, as
      // IRBIS writes its records by number; a list the librarian sees goes out in its own order.
      try forEachInEntryOrder(selection, of: store, write)
    case .all, .newSince, .issued:
      let effectiveFilter: BookFilter
      if case .issued = selection { effectiveFilter = .issued } else { effectiveFilter = filter }
      var position = PagePosition.first
      while true {
        let page = try store.books.booksToExport(
          filter: effectiveFilter, search: search, position: position, limit: 1000)
        for (listing, kept, onHoldShelf) in page where isSelected(listing.book, selection) {
          try write(listing, kept: kept, onHoldShelf: onHoldShelf)
        }
        guard page.count == 1000, let last = page.last else { break }
        position = .after(last.listing.book.sortKey)
      }
    }
    return count
  }

  /// Writes the readers, each with a field 40 for every loan (open ones with `^F******`).
  public static func readers(_ selection: ReaderSelection, from store: LibraryStore, to writer: TextWriter)
    throws(StoreError) -> Int
  {
    let newline = newline(writer.encoding)
    var count = 0
    let categories = try store.policy.categories()
    let defaultCategory = try store.policy.current().defaultCategory
    func write(_ reader: Reader) throws(StoreError) {
      let loans = try store.circulation.loans(ofReader: reader).map { record in irbisLoan(record, store: store) }
      let kept = try store.readers.kept(forReader: reader)
      // A reader imported from another system goes back as the record they came in.
      let record =
        kept.isEmpty
        ? IRBISReaders.record(for: reader, loans: loans)
        : IRBISReaders.record(
          for: reader, loans: loans, kept: kept, categories: categories, defaultCategory: defaultCategory,
          pending: try store.circulation.pendingLoans(ofReader: reader))
      writer.write(record, newline: newline)
      count += 1
    }
    switch selection {
    case .tickets(let tickets):
      for ticket in tickets {
        guard let reader = try store.readers.reader(ticket: ticket) else { throw .readerNotFound(ticket) }
        try write(reader)
      }
    case .all:
      var position = PagePosition.first
      while true {
        let page = try store.readers.page(position: position, limit: 1000)
        for listing in page { try write(listing.reader) }
        guard page.count == 1000, let last = page.last else { break }
        position = .after(last.reader.sortKey)
      }
    }
    return count
  }

  /// `HHMMSS`, or nothing for local midnight: an import gives a loan whose file has no time
  /// (40 ^1, ^2) the start of its day, and an export does not make one up.
  static func timeOfDay(_ moment: LocalMoment) -> String {
    moment.compactTime == "000000" ? "" : moment.compactTime
  }

  static func irbisLoan(_ record: LoanRecord, store: LibraryStore) -> IRBISLoan {
    let issued = store.clock.local(record.loan.issued)
    let returned = record.loan.returned.map { store.clock.local($0) }
    let book = try? store.books.book(inventory: record.inventory)
    return IRBISLoan(
      inventory: record.inventory, shelfCode: book.map(IRBISBooks.shelfCode) ?? record.inventory,
      description: [record.bookAuthor, record.bookTitle].filter { !$0.isEmpty }.joined(separator: " "),
      issued: issued.date, issuedTime: timeOfDay(issued), due: record.loan.due, returned: returned?.date,
      returnedTime: returned.map(timeOfDay) ?? "", renewed: record.loan.lastRenewed.map { store.clock.local($0).date },
      renewals: record.loan.renewals, desk: record.loan.desk, place: book?.place ?? "")
  }
}

extension Book {
  /// True when both copies describe the same edition in every field of the catalogue record: the
  /// copies of one imported record go out together while they do; a copy whose description the
  /// librarian changed goes out on its own.
  func sharesDescription(with other: Book) -> Bool {
    isbn == other.isbn && authorSurname == other.authorSurname && authorInitials == other.authorInitials
      && title == other.title && publisher == other.publisher && city == other.city && year == other.year
      && pages == other.pages && bbk == other.bbk && authorMark == other.authorMark
  }
}
