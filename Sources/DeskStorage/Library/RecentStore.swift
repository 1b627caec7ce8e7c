import DeskDomain

/// The books and readers opened last, kept in the library so that they survive a restart.
extension LibraryStore {
  static let recentKept = 20

  func noteOpened(kind: String, id: RecordID) throws(StoreError) {
    let now = clock.now().instant.iso
    try write {
      try database.execute(
        """
        INSERT INTO recent(kind, record_uuid, opened_at) VALUES (?, ?, ?)
        ON CONFLICT(kind, record_uuid) DO UPDATE SET opened_at = excluded.opened_at
        """, kind, id.text, now)
      try database.execute(
        """
        DELETE FROM recent WHERE kind = ? AND record_uuid NOT IN
          (SELECT record_uuid FROM recent WHERE kind = ? ORDER BY opened_at DESC LIMIT ?)
        """, kind, kind, LibraryStore.recentKept)
    }
  }
}

extension BookStore {
  public func noteOpened(_ book: Book) throws(StoreError) {
    try store.noteOpened(kind: "book", id: book.id)
  }

  /// The books opened last, newest first (deleted ones left out).
  public func recent(limit: Int = 5) throws(StoreError) -> [BookWithLoan] {
    let inventories = try read {
      try database.query(
        """
        SELECT b.inventory FROM recent x JOIN book b ON b.uuid = x.record_uuid AND b.deleted = 0
        WHERE x.kind = 'book' ORDER BY x.opened_at DESC LIMIT ?
        """, limit
      ) { $0.string(0) }
    }
    var listings: [BookWithLoan] = []
    for inventory in inventories {
      guard let book = try book(inventory: inventory) else { continue }
      listings.append(BookWithLoan(book: book, loan: try currentLoan(ofBook: book)))
    }
    return listings
  }
}

extension ReaderStore {
  public func noteOpened(_ reader: Reader) throws(StoreError) {
    try store.noteOpened(kind: "reader", id: reader.id)
  }

  public func recent(limit: Int = 5) throws(StoreError) -> [ReaderListing] {
    let tickets = try read {
      try database.query(
        """
        SELECT r.ticket FROM recent x JOIN reader r ON r.uuid = x.record_uuid AND r.deleted = 0
        WHERE x.kind = 'reader' ORDER BY x.opened_at DESC LIMIT ?
        """, limit
      ) { $0.string(0) }
    }
    var listings: [ReaderListing] = []
    for ticket in tickets {
      guard let answer = try search(ticket, limit: 1).exact.first(where: { $0.reader.ticket == ticket }) else {
        continue
      }
      listings.append(answer)
    }
    return listings
  }
}
