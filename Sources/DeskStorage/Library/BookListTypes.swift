import DeskDomain

/// A whole book record and, when it is out, who has it and until when: what the command line,
/// exports and searches give.
public struct BookWithLoan: Hashable, Sendable {
  public var book: Book
  public var loan: CurrentLoan?
  /// A completed ISBN look-up offers an update to this book.
  public var hasLookupOffer: Bool

  public init(book: Book, loan: CurrentLoan?, hasLookupOffer: Bool = false) {
    self.book = book
    self.loan = loan
    self.hasLookupOffer = hasLookupOffer
  }
}

/// A book's brief record: the few fields a row of the full-screen list shows, read from the
/// list's covering index (as Koha's and Evergreen's result lists show brief records). Not a
/// whole record: a screen that edits or exports the book reads it whole by its inventory number.
public struct BriefRecord: Hashable, Sendable {
  public var inventoryNumber: String
  public var authorSurname: String
  public var authorInitials: String
  public var title: String
  public var year: Int?
  public var status: CopyStatus
  /// The key the list is sorted and paged by, as stored.
  public var sortKey: String

  public init(
    inventoryNumber: String, authorSurname: String, authorInitials: String, title: String, year: Int?,
    status: CopyStatus = .available, sortKey: String
  ) {
    self.inventoryNumber = inventoryNumber
    self.authorSurname = authorSurname
    self.authorInitials = authorInitials
    self.title = title
    self.year = year
    self.status = status
    self.sortKey = sortKey
  }

  public init(_ book: Book) {
    self.init(
      inventoryNumber: book.inventoryNumber, authorSurname: book.authorSurname, authorInitials: book.authorInitials,
      title: book.title, year: book.year, status: book.status, sortKey: book.sortKey)
  }

  public var author: String {
    Book.author(surname: authorSurname, initials: authorInitials)
  }
}

/// A row of the full-screen book list: the book's brief record and, when it is out, its loan.
public struct BookListRow: Hashable, Sendable {
  public var book: BriefRecord
  public var loan: CurrentLoan?
  public var hasLookupOffer: Bool

  public init(book: BriefRecord, loan: CurrentLoan?, hasLookupOffer: Bool = false) {
    self.book = book
    self.loan = loan
    self.hasLookupOffer = hasLookupOffer
  }

  public init(_ listing: BookWithLoan) {
    self.init(book: BriefRecord(listing.book), loan: listing.loan, hasLookupOffer: listing.hasLookupOffer)
  }
}

/// A book in a list, whole or brief: what a search needs to tell books apart.
public protocol InventoryNumbered: Sendable {
  var inventoryNumber: String { get }
}

extension BookWithLoan: InventoryNumbered {
  public var inventoryNumber: String { book.inventoryNumber }
}

extension BookListRow: InventoryNumbered {
  public var inventoryNumber: String { book.inventoryNumber }
}

/// The open loan of a book, with the reader named.
public struct CurrentLoan: Hashable, Sendable {
  public var loan: Loan
  public var readerTicket: String
  public var readerName: String

  public init(loan: Loan, readerTicket: String, readerName: String) {
    self.loan = loan
    self.readerTicket = readerTicket
    self.readerName = readerName
  }
}

public enum BookFilter: String, CaseIterable, Sendable {
  case all, issued, available, overdue
  /// Copies that may not be issued: lost, written off, in repair, in processing, reference only.
  case notForLoan
}

/// Where a page of a list starts. Lists page by their sort key (keyset paging), so the cost of a
/// page does not grow with its distance from the top.
public enum PagePosition: Hashable, Sendable {
  case first
  /// From this key on, the key itself included.
  case from(String)
  case after(String)
  case before(String)
  case last
}
