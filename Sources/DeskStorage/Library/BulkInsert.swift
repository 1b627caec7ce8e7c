import DeskDomain

extension LibraryStore {
  /// While books are added or changed in bulk, a book's words as the full-text index has them,
  /// kept the first time they change: the index is brought up to date for all of them at the end,
  /// by one statement each way. Changed one by one, each change of the index flushed what it had
  /// gathered (the statement's savepoint): a sync pulling 10,000 changed titles into a desk of
  /// 100,000 books spent 0.83 of its 1.64 s there, and took 2.2–3.3 s and 72 MiB before against
  /// 1.2–1.6 s and 64 MiB after (the two programs in turns, release build).
  /// Made once a connection (the temporary schema changes then only), and awake only while the
  /// connection's own transaction holds the row of `bulk_write`.
  private static let wordsChanged = """
    CREATE TEMP TABLE IF NOT EXISTS book_words_changed (id INTEGER PRIMARY KEY, old TEXT NOT NULL);
    CREATE TEMP TRIGGER IF NOT EXISTS book_words_kept AFTER UPDATE OF search_text ON main.book
    WHEN OLD.search_text IS NOT NEW.search_text AND EXISTS (SELECT 1 FROM main.bulk_write)
    BEGIN
      INSERT OR IGNORE INTO book_words_changed(id, old) VALUES (OLD.id, OLD.search_text);
    END;
    """

  /// Runs `body`, which adds many books, in one transaction with the work of the books' index and
  /// count triggers put off until the end, where one statement each does it for every new row.
  /// With those triggers each insert writes several tables, which SQLite guards with a statement
  /// journal (a copy of every page it touches): a million inserts then copy gigabytes. The
  /// triggers wait while the transaction holds the row of `bulk_write` (migration 32), which is
  /// gone before it commits; a rollback takes it with everything else.
  /// `indexSlice` is how many books one statement indexes at the end.
  /// Inside a transaction already open (an import's, a sync's group of batches) it is part of it,
  /// without a savepoint (`writeWithin`): a failure rolls back the whole.
  public func addingBooksInBulk<T>(indexSlice: Int = LibraryStore.bulkIndexSlice, _ body: () throws -> T)
    throws(StoreError) -> T
  {
    try writeWithin {
      // Inside another bulk insert: its triggers wait already, and it catches up at its end.
      if bulkBooksFrom != nil { return try body() }
      try database.executeScript(LibraryStore.wordsChanged + "DELETE FROM temp.book_words_changed;")
      try database.executeScript("INSERT INTO bulk_write(id) VALUES (1)")
      try database.execute(LibraryStore.wordsGathered, LibraryStore.bulkWordsGathered)
      let from = try database.scalarInt("SELECT coalesce(max(id), 0) + 1 FROM book")
      bulkBooksFrom = from
      bulkIndexSlice = max(1, indexSlice)
      bulkWordsFromIndex = from == 1
      defer { (bulkBooksFrom, bulkWordsFromIndex) = (nil, false) }
      let result: T
      do {
        result = try body()
        try catchUpBulkBooks()
        try indexChangedWords()
        if bulkWordsFromIndex { try vocabulary.addIndexWords("book") }
      } catch {
        // Normally rolled back with the transaction; undone here too for a caller that goes on.
        try? database.execute(LibraryStore.wordsGathered, LibraryStore.wordsGatheredOtherwise)
        try? database.executeScript("DELETE FROM bulk_write")
        throw error
      }
      try database.execute(LibraryStore.wordsGathered, LibraryStore.wordsGatheredOtherwise)
      try database.executeScript("DELETE FROM bulk_write")
      return result
    }
  }

  /// Inside `addingBooksInBulk`: indexes and counts the books added so far once `waiting` or more
  /// wait. An import calls it between batches, so that the index is made while its reading thread
  /// still reads and checks records, not after it on one core.
  public func indexBooksAddedInBulk(whenWaiting waiting: Int) throws(StoreError) {
    guard let from = bulkBooksFrom else { return }
    try writeWithin {
      let end = try database.scalarInt("SELECT coalesce(max(id), 0) + 1 FROM book")
      if end - from >= waiting { try catchUpBulkBooks() }
    }
  }

  /// Indexes and counts the books added in bulk so far. Runs at the end of the bulk insert, and
  /// before a book is changed inside it, so that the update triggers find the book indexed.
  func catchUpBulkBooks() throws {
    guard let from = bulkBooksFrom else { return }
    let end = try database.scalarInt("SELECT coalesce(max(id), 0) + 1 FROM book")
    // Nothing added since the last catching up (an import updating the books it has, one by one):
    // the words did not change, and no desk need look for news.
    guard end > from else { return }
    // Indexed below with the words they have now, whatever they had before.
    try database.execute("DELETE FROM temp.book_words_changed WHERE id >= ?", from)
    // In slices: the undo record SQLite keeps of one statement (the pages it rewrites as the
    // index merges its segments) stays small, whatever the size of the import.
    for start in stride(from: from, to: end, by: bulkIndexSlice) {
      try database.execute(
        "INSERT INTO book_fts(rowid, search_text) SELECT id, search_text FROM book WHERE id >= ? AND id < ?",
        start, min(end, start + bulkIndexSlice))
      if !bulkWordsFromIndex { try vocabulary.addBulkNews("book", ids: start..<min(end, start + bulkIndexSlice)) }
    }
    try database.execute(
      "UPDATE counter SET value = value + (SELECT count(*) FROM book WHERE id >= ? AND deleted = 0) WHERE name = 'books'",
      from)
    // The words changed: a search reads its vocabulary again.
    try database.execute("UPDATE counter SET value = value + 1 WHERE name = 'book_words'")
    bulkBooksFrom = end
  }

  /// Brings the full-text index up to date for the books whose words changed in bulk: their old
  /// words out, their words now in, as the update trigger does a book at a time.
  /// In slices of `changedWordsSlice` books: each statement keeps an undo copy of every page it
  /// rewrites, in memory during a bulk write. One statement for 10,000 changed titles in a desk of
  /// a million books took the sync from 47 to 75 MiB.
  private func indexChangedWords() throws {
    let changed = try database.query("SELECT id FROM temp.book_words_changed ORDER BY id") { $0.int64(0) }
    guard !changed.isEmpty else { return }
    for start in stride(from: 0, to: changed.count, by: LibraryStore.changedWordsSlice) {
      let (first, last) = (changed[start], changed[min(changed.count, start + LibraryStore.changedWordsSlice) - 1])
      try database.execute(
        """
        INSERT INTO book_fts(book_fts, rowid, search_text)
          SELECT 'delete', id, old FROM temp.book_words_changed WHERE id BETWEEN ? AND ?
        """, first, last)
      try database.execute(
        """
        INSERT INTO book_fts(rowid, search_text)
          SELECT b.id, b.search_text FROM temp.book_words_changed c JOIN book b ON b.id = c.id
          WHERE c.id BETWEEN ? AND ?
        """, first, last)
    }
    try vocabulary.addBulkNews(
      "book", ofTexts: "SELECT b.search_text FROM temp.book_words_changed c JOIN book b ON b.id = c.id")
    try database.execute("UPDATE counter SET value = value + 1 WHERE name = 'book_words'")
    try database.execute("DELETE FROM temp.book_words_changed")
  }

  /// Changed books whose words one statement takes out of the full-text index, and puts back.
  static let changedWordsSlice = 1_000

  /// Sets how many bytes of words the books' full-text index gathers in memory before it writes
  /// them as a segment of its own (FTS5's `hashsize`, kept in `book_fts_config`).
  private static let wordsGathered = "INSERT INTO book_fts(book_fts, rank) VALUES ('hashsize', ?)"

  /// The words a bulk insert gathers before writing them: fewer, larger segments to merge.
  /// Measured indexing 1,000,000 books in slices of 20,000, one transaction, the bulk cache:
  /// FTS5's 1 MiB 7.8 s and 167 MiB (the merges of many small segments, each page they rewrote
  /// kept in the statement's undo record in memory); 4 MiB 6.9 s and 84 MiB; 16 MiB 7.3 s, 87 MiB.
  static let bulkWordsGathered = 4 << 20

  /// FTS5's own, for the few words of a change at the desk (written at its commit anyway).
  static let wordsGatheredOtherwise = 1 << 20

  /// Books indexed by one statement when a bulk insert catches up.
  public static let bulkIndexSlice = 20_000

  /// Runs `body`, which writes much in a few transactions (an import, a desk catching up with a
  /// central), with a bigger page cache: SQLite then does not spill pages to the log before the
  /// commit. Still bounded (64 MiB), whatever the size of the file. (Statement journals are in
  /// memory on every connection that writes: see `init`.)
  /// The words of what was written are gathered into the stored vocabularies at the end when
  /// many wait (`gatherVocabularyNews`).
  public func withBulkCache<T>(kibibytes: Int = LibraryStore.bulkCacheKiB, _ body: () throws -> T) rethrows -> T {
    try? database.executeScript("PRAGMA cache_size = -\(max(2000, kibibytes))")
    defer { try? database.executeScript("PRAGMA cache_size = -2000") }
    let result = try body()
    // Not gathered now, the news wait for the next desk that reads the vocabulary.
    if database.isAutocommit { try? vocabulary.gatherVocabularyNews() }
    return result
  }

  /// Runs `body`, which applies what other desks did (a desk catching up with its central), with
  /// commits that do not wait for the disk and the log not checkpointed meanwhile (`checkpoint`
  /// does it after a long catching up). What this writes is at the central already: a power cut
  /// loses at most the last batches, which the next sync pulls again (the desk's cursor moves in
  /// the same transactions). Changes made at this desk meanwhile, on its other connections, are
  /// as durable as ever.
  /// `cacheKiB`: the bulk cache it takes throughout (`withBulkCache`), if any.
  public func catchingUp<T>(cacheKiB: Int? = LibraryStore.bulkCacheKiB, _ body: () throws -> T) rethrows -> T {
    try? database.executeScript("PRAGMA wal_autocheckpoint = 0")
    defer { try? database.executeScript("PRAGMA wal_autocheckpoint = 1000") }
    guard let cacheKiB else { return try notWaitingForTheDisk(body) }
    return try notWaitingForTheDisk { try withBulkCache(kibibytes: cacheKiB, body) }
  }

  /// Copies what the log holds into the file, as far as readers allow, without waiting for them:
  /// after a long catching up, so that the next write at the desk (an issue) does not do it.
  public func checkpoint() {
    try? database.executeScript("PRAGMA wal_checkpoint(PASSIVE)")
  }

  /// The page cache of a bulk write: an import, a desk's first join.
  public static let bulkCacheKiB = 65536

  /// The page cache of a bulk write with its indexes of random keys put off (`puttingOffIndexes`):
  /// the indexes left (the records' UUIDs and numbers) need less of it. Measured at a million
  /// books: an empty desk's first join 122.6 s and 85 MiB with 16 MiB, 116.7 s and 105 MiB with
  /// 32, 119.5 s and 139 MiB with 64; an import into an empty file 37.2–38.5 s and 97–100 MiB
  /// with 32, 38.5–39.6 s and 128–130 MiB with 64.
  public static let putOffCacheKiB = 32768
}
