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
    var count = 0
    func write(_ listing: BookListing) {
      writer.write(IRBISBooks.record(for: listing.book, onLoan: listing.loan != nil).text(newline: newline))
      count += 1
    }
    switch selection {
    case .inventories(let numbers):
      for number in numbers {
        guard let book = try store.book(inventory: number) else { throw .bookNotFound(number) }
        write(BookListing(book: book, loan: try store.currentLoan(ofBook: book)))
      }
    case .all, .newSince, .issued:
      let effectiveFilter: BookFilter
      if case .issued = selection { effectiveFilter = .issued } else { effectiveFilter = filter }
      var position = PagePosition.first
      while true {
        let page = try store.books(filter: effectiveFilter, search: search, position: position, limit: 1000)
        for listing in page {
          if case .newSince(let date) = selection {
            let received = listing.book.received ?? listing.book.created.utcDate
            guard received >= date else { continue }
          }
          write(listing)
        }
        guard page.count == 1000, let last = page.last else { break }
        position = .after(last.book.sortKey)
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
    func write(_ reader: Reader) throws(StoreError) {
      let loans = try store.loans(ofReader: reader).map { record in irbisLoan(record, store: store) }
      writer.write(IRBISReaders.record(for: reader, loans: loans).text(newline: newline))
      count += 1
    }
    switch selection {
    case .tickets(let tickets):
      for ticket in tickets {
        guard let reader = try store.reader(ticket: ticket) else { throw .readerNotFound(ticket) }
        try write(reader)
      }
    case .all:
      var position = PagePosition.first
      while true {
        let page = try store.readers(position: position, limit: 1000)
        for listing in page { try write(listing.reader) }
        guard page.count == 1000, let last = page.last else { break }
        position = .after(last.reader.sortKey)
      }
    }
    return count
  }

  static func irbisLoan(_ record: LoanRecord, store: LibraryStore) -> IRBISLoan {
    let issued = store.clock.local(record.loan.issued)
    let returned = record.loan.returned.map { store.clock.local($0) }
    let book = try? store.book(inventory: record.inventory)
    return IRBISLoan(
      inventory: record.inventory, shelfCode: book.map(IRBISBooks.shelfCode) ?? record.inventory,
      description: [record.bookAuthor, record.bookTitle].filter { !$0.isEmpty }.joined(separator: " "),
      issued: issued.date, issuedTime: issued.compactTime, due: record.loan.due, returned: returned?.date,
      returnedTime: returned?.compactTime ?? "", renewed: record.loan.lastRenewed.map { store.clock.local($0).date },
      renewals: record.loan.renewals, desk: record.loan.desk, place: book?.place ?? "")
  }
}
