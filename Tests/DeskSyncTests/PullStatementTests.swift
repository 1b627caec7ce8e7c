import DeskDomain
import DeskSync
import DeskTestSupport
import Testing

@_spi(Connection) @testable import DeskStorage

/// What applying another desk's change asks of the desk's file, statement by statement.
extension SyncTests {
  /// A pulled title change rewrites the book's row once, its sort key and search words in the
  /// same statement (at a million books, three writes of one row were a tenth of a 10,000-title
  /// pull); a pulled change of the year writes neither, since the full-text trigger fires on
  /// any write of the search words.
  @Test func aPulledChangeWritesTheBookOnceAndItsWordsOnlyWhenTheyChange() throws {
    let (a, b, _) = try twoDesks(books: [("7", "Мастер и Маргарита")])
    try sync(b)
    try a.books.update(inventory: "7") { $0.title = "Мастер и Маргарита (роман)" }
    try sync(a)
    let (_, titled) = try b.database.recordingStatements { try sync(b) }
    let titleWrites = titled.filter { $0.hasPrefix("UPDATE book ") }
    #expect(titleWrites.count == 1, "\(titleWrites)")
    #expect(titleWrites.allSatisfy { $0.contains("sort_key = ?") && $0.contains("search_text = ?") }, "\(titleWrites)")
    #expect(try b.books.search("роман").all.map(\.book.inventoryNumber) == ["7"])
    #expect(try b.books.book(inventory: "7")?.sortKey == (try a.books.book(inventory: "7")?.sortKey))

    try a.books.update(inventory: "7") { $0.year = "1967" }
    try sync(a)
    let (_, dated) = try b.database.recordingStatements { try sync(b) }
    let yearWrites = dated.filter { $0.hasPrefix("UPDATE book ") }
    #expect(yearWrites.count == 1, "\(yearWrites)")
    #expect(yearWrites.allSatisfy { !$0.contains("sort_key") && !$0.contains("search_text") }, "\(yearWrites)")
    #expect(try b.books.book(inventory: "7")?.year == 1967)
    #expect(try b.sync.canonicalDump() == (try a.sync.canonicalDump()))
  }

  /// A desk in step pulls a few changes in a short transaction, with the file's own cache and no
  /// checkpoint, and changes no schema (which every connection then reads again, preparing each
  /// statement anew); a desk far behind takes the bulk cache for each group of full batches, and
  /// checkpoints once after them. The note of the sync does not wait for the disk.
  @Test func aDeskInStepPullsWithoutTheBulkCacheAndADeskBehindTakesItForItsGroups() throws {
    let (a, b, _) = try twoDesks(books: [("7", "Мастер и Маргарита")])
    try sync(b)
    try a.books.update(inventory: "7") { $0.year = "1967" }
    try sync(a)
    let (_, inStep) = try b.database.recordingStatements { try sync(b) }
    #expect(
      !inStep.contains { $0.contains("temp_store") || $0.contains("cache_size") || $0.contains("wal_checkpoint") },
      "\(inStep)")
    let schema = try b.database.scalarInt("PRAGMA schema_version")
    // The notes of the desk's state (its clock's correction, the sync's time) do not wait for
    // the disk: the last word on `synchronous` before each is NORMAL.
    for note in ["UPDATE sync_desk SET clock_offset_ms", "UPDATE sync_desk SET last_attempt"] {
      let at = try #require(inStep.firstIndex { $0.hasPrefix(note) }, "\(note)")
      #expect(inStep[..<at].last { $0.contains("PRAGMA synchronous") }?.contains("NORMAL") == true, "\(note)")
    }
    #expect(try b.books.book(inventory: "7")?.year == 1967)

    for number in 1...30 { try a.books.add(bookDraft("\(100 + number)", "Книга \(number)")) }
    try sync(a)
    let behind = try Synchronizer(store: b)
    behind.pullBatch = 10
    let (_, caughtUp) = try b.database.recordingStatements { try behind.sync() }
    #expect(
      caughtUp.filter { $0.hasPrefix("PRAGMA cache_size = -") && !$0.hasSuffix("-2000") }.count == 1,
      "one group of full batches: \(caughtUp.filter { $0.contains("cache_size") })")
    #expect(!caughtUp.contains { $0.contains("DROP TRIGGER") || $0.contains("CREATE TRIGGER") })
    #expect(try b.database.scalarInt("PRAGMA schema_version") == schema)
    #expect(caughtUp.contains { $0.contains("wal_checkpoint") })
    #expect(try b.books.count() == 31)
    #expect(try b.sync.canonicalDump() == (try a.sync.canonicalDump()))
  }
}
