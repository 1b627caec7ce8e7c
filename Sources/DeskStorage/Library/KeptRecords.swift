import DeskDomain

/// What an import keeps of the records its books came from, for an export without loss.
extension BookStore {
  /// The copies of one imported record, in the order they came, each with what it kept and
  /// whether it is out.
  public func copies(inGroup group: String) throws(StoreError) -> [IRBISCopy] {
    try read {
      try database.query(
        """
        SELECT \(LibraryStore.bookColumns), \(KeptColumn.list),
          EXISTS (SELECT 1 FROM loan l WHERE l.book_id = b.id AND l.returned_at IS NULL AND l.deleted = 0),
          \(BookStore.onHoldShelf)
        FROM book b WHERE b.record_group = ? AND b.deleted = 0 ORDER BY b.id
        """, group
      ) { row in
        let kept = BookColumn.count
        return IRBISCopy(
          book: try LibraryStore.decodeBook(row), kept: LibraryStore.decodeKept(row, from: kept),
          onLoan: row.bool(kept + KeptColumn.count), onHoldShelf: row.bool(kept + KeptColumn.count + 1))
      }
    }
  }

  /// Adds a book catalogued from another library's record, and keeps that record with it: one
  /// transaction, so that a refused book keeps nothing.
  public func add(_ draft: BookDraft, copiedFrom record: CopiedRecord) throws(StoreError) -> Book {
    try store.transaction {
      let book = try add(draft)
      try keep(record.kept(for: book), forBook: book.inventoryNumber)
      return book
    }
  }

  /// What an import keeps of a book's record, replaced (`--update`).
  public func keep(_ kept: IRBISKeptRecord?, forBook inventory: String) throws(StoreError) {
    // One statement: inside an import's transaction it needs no savepoint of its own.
    try writeWithin {
      try database.execute(
        "UPDATE book SET source_record = ?, source_copy = ?, record_group = ? WHERE inventory = ? AND deleted = 0",
        kept?.record ?? "", kept?.copy ?? "", kept?.group ?? "", inventory)
      if let uuid = try database.queryFirst(
        "SELECT uuid FROM book WHERE inventory = ? AND deleted = 0", inventory, read: { $0.string(0) })
      {
        try store.indexOtherISBNs(kept?.otherISBNs.map(\.isbn13) ?? [], ofBook: uuid, replacing: true)
      }
    }
  }

  /// What an import kept of a book's record, if anything.
  public func kept(forBook inventory: String) throws(StoreError) -> IRBISKeptRecord? {
    try read {
      try database.queryFirst(
        "SELECT \(KeptColumn.list) FROM book b WHERE b.inventory = ? AND b.deleted = 0 ORDER BY b.clash",
        inventory
      ) { LibraryStore.decodeKept($0, from: 0) } ?? nil
    }
  }
}

extension LibraryStore {
  /// Writes where a scan finds a book by the other ISBNs of its record (`book_isbn`, migration
  /// 25): the desk's own index, made again from the record wherever one is written (an import, a
  /// pulled change), never synced. `replacing`: those the book had go first.
  func indexOtherISBNs(_ isbns: [String], ofBook uuid: String, replacing: Bool = false) throws {
    if replacing {
      try database.execute("DELETE FROM book_isbn WHERE book_id = (SELECT id FROM book WHERE uuid = ?)", uuid)
    }
    for isbn in isbns {
      try database.execute(
        "INSERT OR IGNORE INTO book_isbn(isbn13, book_id) SELECT ?, id FROM book WHERE uuid = ?", isbn, uuid)
    }
  }

  /// Indexes the other ISBNs of every kept record that has some (a library opened the first time
  /// since migration 25).
  func indexAllOtherISBNs() throws {
    // Two 10 fields at least: the first is the book's own ISBN.
    let records = try database.query(
      "SELECT uuid, source_record FROM book WHERE source_record LIKE '%#10:%#10:%'"
    ) { ($0.string(0), $0.string(1)) }
    for (uuid, record) in records {
      try indexOtherISBNs(IRBISKeptRecord(record: record, copy: "", group: "").otherISBNs.map(\.isbn13), ofBook: uuid)
    }
  }
}
