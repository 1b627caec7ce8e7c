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

  /// What an import keeps of a book's record, replaced (`--update`).
  public func keep(_ kept: IRBISKeptRecord?, forBook inventory: String) throws(StoreError) {
    // One statement: inside an import's transaction it needs no savepoint of its own.
    try writeWithin {
      try database.execute(
        "UPDATE book SET source_record = ?, source_copy = ?, record_group = ? WHERE inventory = ? AND deleted = 0",
        kept?.record ?? "", kept?.copy ?? "", kept?.group ?? "", inventory)
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
