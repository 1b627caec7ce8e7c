import DeskDomain

/// What the library remembers of an ISBN look-up.
public enum CachedLookup: Equatable, Sendable {
  case found(BookFacts)
  /// Every catalogue answered, and none knew the ISBN.
  case notFound
}

public struct PendingLookup: Equatable, Sendable {
  public var isbn: ISBN
  public var attempts: Int
  public var lastError: String
}

extension BookStore {
  public func cachedLookup(_ isbn: ISBN) throws(StoreError) -> CachedLookup? {
    try read {
      try database.queryFirst(
        """
        SELECT found, provider, title, subtitle, authors, publisher, city, year, pages
        FROM isbn_lookup WHERE isbn13 = ?
        """, isbn.isbn13
      ) { row -> CachedLookup in
        guard row.bool(0) else { return .notFound }
        return .found(
          BookFacts(
            provider: row.string(1), title: row.string(2), subtitle: row.string(3),
            authors: row.string(4).split(separator: "\n").map(String.init), publisher: row.string(5),
            city: row.string(6), year: row.optionalInt(7), pages: row.optionalInt(8)))
      }
    }
  }

  /// Keeps an answer, takes the ISBN off the queue, and offers the facts as an update to every
  /// saved book with this ISBN that they would change.
  public func saveLookup(_ isbn: ISBN, facts: BookFacts?) throws(StoreError) {
    let now = clock.now().instant.iso
    try write {
      try database.execute(
        """
        INSERT OR REPLACE INTO isbn_lookup(isbn13, found, provider, title, subtitle, authors, publisher, city, year,
          pages, fetched_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """, isbn.isbn13, facts != nil, facts?.provider ?? "", facts?.title ?? "", facts?.subtitle ?? "",
        facts?.authors.joined(separator: "\n") ?? "", facts?.publisher ?? "", facts?.city ?? "", facts?.year,
        facts?.pages, now)
      let wasQueued = try database.execute("DELETE FROM lookup_queue WHERE isbn13 = ?", isbn.isbn13) > 0
      guard wasQueued, let facts else { return }
      let books = try database.query(
        "SELECT \(LibraryStore.bookColumns) FROM book b WHERE b.isbn13 = ? AND b.deleted = 0", isbn.isbn13
      ) { ($0.int64(BookColumn.id), try LibraryStore.decodeBook($0)) }
      for (rowID, book) in books where BookStore.changes(facts, to: book) {
        try database.execute(
          "INSERT OR REPLACE INTO lookup_offer(book_id, isbn13, created_at) VALUES (?, ?, ?)", rowID, isbn.isbn13, now)
      }
    }
  }

  /// True when the facts would change a field of the book.
  static func changes(_ facts: BookFacts, to book: Book) -> Bool {
    let draft = BookDraft(book)
    return facts.fieldValues.contains { field, value in draft[field].trimmingWhitespace() != value }
  }

  /// Puts an ISBN on the queue of look-ups to try again when the network is back.
  public func enqueueLookup(_ isbn: ISBN, error: String) throws(StoreError) {
    let now = clock.now().instant.iso
    try write {
      try database.execute(
        """
        INSERT INTO lookup_queue(isbn13, queued_at, attempts, last_error) VALUES (?, ?, 1, ?)
        ON CONFLICT(isbn13) DO UPDATE SET attempts = attempts + 1, last_error = excluded.last_error
        """, isbn.isbn13, now, error)
    }
  }

  public func pendingLookups() throws(StoreError) -> [PendingLookup] {
    try read {
      try database.query("SELECT isbn13, attempts, last_error FROM lookup_queue ORDER BY queued_at") { row in
        (try? ISBN(row.string(0))).map { PendingLookup(isbn: $0, attempts: row.int(1), lastError: row.string(2)) }
      }.compactMap { $0 }
    }
  }

  /// The facts a completed look-up offers for this book, if any are waiting.
  public func lookupOffer(for book: Book) throws(StoreError) -> BookFacts? {
    let offered = try read {
      try database.scalarInt(
        "SELECT count(*) FROM lookup_offer o JOIN book b ON b.id = o.book_id WHERE b.uuid = ?", book.id.text) > 0
    }
    guard offered, let isbn = book.isbn, case .found(let facts) = try cachedLookup(isbn) else { return nil }
    return facts
  }

  /// Applies the offered facts to the book: the librarian has seen them and said yes.
  @discardableResult
  public func applyLookupOffer(to book: Book) throws(StoreError) -> Book {
    guard let facts = try lookupOffer(for: book) else { return book }
    return try store.transaction {
      let updated = try update(inventory: book.inventoryNumber) { draft in
        for (field, value) in facts.fieldValues { draft[field] = value }
      }
      try dismissOffer(book)
      return updated
    }
  }

  public func dismissLookupOffer(for book: Book) throws(StoreError) {
    try write { try dismissOffer(book) }
  }

  private func dismissOffer(_ book: Book) throws {
    try database.execute(
      "DELETE FROM lookup_offer WHERE book_id = (SELECT id FROM book WHERE uuid = ?)", book.id.text)
  }
}
