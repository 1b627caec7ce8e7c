extension LibraryStore {
  /// The indexes a bulk write of books and readers drops and makes again at its end: those whose
  /// keys come in no order (a title's sort key, an ISBN, a reader's name), so that each new row is
  /// an insert at a random place of a B-tree larger than the page cache. Made again at the end,
  /// each is one sort of the table. Measured on a desk's first join of a central holding 1,000,000
  /// books and 200,000 readers (release build): 162 s with the indexes, 118 s without them, and
  /// 5 s to make them all again. Unique indexes stay (they catch a number another desk took),
  /// as does every index a statement names (`INDEXED BY`) and those written in order (the
  /// time of a change).
  static let indexesPutOffInBulk = ["book_list", "book_isbn13", "reader_sort"]

  /// The new books and readers from which a bulk write puts indexes off: below it, making them
  /// again costs about what it saves.
  public static let indexesPutOffFrom = 10_000

  /// Whether a bulk write bringing about `rows` new books and readers puts indexes off
  /// (`puttingOffIndexes`): it brings at least `minimum`, and twice what the library holds. A
  /// library taking a little more than it has keeps them: making them again, each a sort of the
  /// whole table (about 2 s a million books), would cost it more than it saves.
  public func putsOffIndexes(bringing rows: Int, minimum: Int = LibraryStore.indexesPutOffFrom)
    throws(StoreError) -> Bool
  {
    guard rows >= minimum else { return false }
    return rows >= 2 * (try books.count() + readers.count())
  }

  /// Runs `body`, which writes many books and readers over one transaction or several (a desk's
  /// first join of a large library), with `indexesPutOffInBulk` dropped, and makes them again
  /// after it, failed or not. The list, lists' search and look-ups by ISBN work meanwhile, more slowly.
  /// Each index is kept in `put_off_index` by the transaction that drops it: one cut by a crash
  /// or a kill is made again by the next opening of the file (`restoreIndexesPutOff`).
  public func puttingOffIndexes<T>(_ body: () throws -> T) throws -> T {
    try writeWithin {
      let indexes = try database.query(
        """
        SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND name IN (\(
          LibraryStore.indexesPutOffInBulk.map { _ in "?" }.joined(separator: ", ")))
        """, arguments: LibraryStore.indexesPutOffInBulk
      ) { (name: $0.string(0), sql: $0.string(1)) }
      for index in indexes {
        try database.execute("INSERT OR REPLACE INTO put_off_index(name, sql) VALUES (?, ?)", index.name, index.sql)
        // A name read from the schema itself, which DROP INDEX cannot take as a parameter.
        try database.executeScript("DROP INDEX \(index.name)")
      }
    }
    let result: T
    do {
      result = try body()
    } catch {
      try? restoreIndexesPutOff()
      throw error
    }
    try restoreIndexesPutOff()
    return result
  }

  /// Makes again the indexes a bulk write put off (`puttingOffIndexes`), if any: at the end of
  /// that write, or when a file is opened after one was cut.
  /// A million books' keys sorted in memory took a join from 138 to 284 MiB, and an import from
  /// 79 to 207: the indexes are made with the temporary store on disk, which SQLite changes
  /// outside a transaction only (and then prepares every statement again, once).
  func restoreIndexesPutOff() throws(StoreError) {
    let sortingOnDisk = database.isAutocommit && (try? hasIndexesPutOff()) == true
    if sortingOnDisk { try? database.executeScript("PRAGMA temp_store = FILE") }
    defer { if sortingOnDisk { try? database.executeScript("PRAGMA temp_store = MEMORY") } }
    try writeWithin {
      let indexes = try database.query("SELECT name, sql FROM put_off_index ORDER BY name") {
        (name: $0.string(0), sql: $0.string(1))
      }
      for index in indexes {
        // Made already by another program that opened the file meanwhile.
        let exists =
          try database.scalarInt("SELECT count(*) FROM sqlite_schema WHERE type = 'index' AND name = ?", index.name) > 0
        // Run at every opening, so only what this program puts off: one index's own statement,
        // never a script a file from elsewhere could carry.
        if !exists, LibraryStore.isPutOffIndex(index.name, index.sql) { try database.executeScript(index.sql) }
        try database.execute("DELETE FROM put_off_index WHERE name = ?", index.name)
      }
    }
  }

  /// Whether `sql` makes the index `name`, one this program puts off, and nothing else.
  static func isPutOffIndex(_ name: String, _ sql: String) -> Bool {
    indexesPutOffInBulk.contains(name) && sql.hasPrefix("CREATE INDEX \(name) ON ") && !sql.contains(";")
  }

  /// Whether a bulk write has put indexes off, or was cut before it made them again.
  func hasIndexesPutOff() throws -> Bool {
    try database.scalarInt("SELECT EXISTS (SELECT 1 FROM put_off_index)") == 1
  }
}
