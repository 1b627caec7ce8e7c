import DeskDomain

/// What a scanned or typed code means in this library.
public enum CodeResolution: Equatable, Sendable {
  /// A QR book record for a book the library does not have yet: a New Book form, filled.
  case newBook(BookDraft)
  /// A QR book record whose inventory number another book already has.
  case recordOfExistingBook(BookDraft, Book)
  /// An ISBN, with the copies of it the library has (none: a new book with this ISBN).
  case isbn(ISBN, copies: [Book])
  case book(Book)
  case reader(Reader)
  /// Nothing in the library answers to this code. Never create anything from it.
  case unknown(String)
}

/// Which record an ambiguous code means when it is both an inventory number and a ticket.
public enum CodePreference: Sendable {
  case book, reader
}

extension LibraryStore {
  /// Resolves a code in the order: QR book record, ISBN, inventory number, reader ticket, unknown
  /// (`prefer` decides between the last two when a code is both). Configured prefixes say at once
  /// whether a code is a reader's card or a book's label; a code typed under a Russian keyboard
  /// layout is read as its Latin twin when that is what matches.
  public func resolve(_ raw: String, prefer: CodePreference = .book) throws(StoreError) -> CodeResolution {
    let policy = try policy.current()
    switch ScannedCode(raw) {
    case .empty:
      return .unknown("")
    case .bookRecord(let draft):
      let inventory = draft.inventoryNumber.identifierForm
      if !inventory.isEmpty, let existing = try books.book(inventory: inventory) {
        return .recordOfExistingBook(draft, existing)
      }
      return .newBook(draft)
    case .isbn(let isbn):
      return .isbn(isbn, copies: try books.copies(isbn: isbn))
    case .number(let code):
      if let found = try resolveNumber(code, policy: policy, prefer: prefer) { return found }
      if let latin = ScannedCode.latinLayout(code) {
        if case .isbn(let isbn) = ScannedCode(latin) { return .isbn(isbn, copies: try books.copies(isbn: isbn)) }
        if let found = try resolveNumber(latin, policy: policy, prefer: prefer) { return found }
      }
      return .unknown(code)
    }
  }

  private func resolveNumber(_ code: String, policy: CirculationPolicy, prefer: CodePreference) throws(StoreError)
    -> CodeResolution?
  {
    if !policy.readerCodePrefix.isEmpty, code.hasPrefix(policy.readerCodePrefix) {
      let ticket = String(code.dropFirst(policy.readerCodePrefix.count))
      if let reader = try readers.reader(ticket: ticket) { return .reader(reader) }
      return try readers.reader(ticket: code).map(CodeResolution.reader)
    }
    if !policy.bookCodePrefix.isEmpty, code.hasPrefix(policy.bookCodePrefix) {
      let inventory = String(code.dropFirst(policy.bookCodePrefix.count))
      if let book = try books.book(inventory: inventory) { return .book(book) }
      return try books.book(inventory: code).map(CodeResolution.book)
    }
    let book = try books.book(inventory: code)
    let reader = try readers.reader(ticket: code)
    switch (book, reader, prefer) {
    case (let book?, nil, _), (let book?, _, .book): return .book(book)
    case (_, let reader?, _): return .reader(reader)
    default: return nil
    }
  }
}
