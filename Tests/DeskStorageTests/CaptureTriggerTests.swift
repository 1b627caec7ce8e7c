import DeskDomain
import DeskTestSupport
import Foundation
import Testing

@_spi(Connection) @testable import DeskStorage

/// The triggers that capture changes for a central are on a file only while its desk is tied to
/// one (migration 18): every new connection parses every trigger before its first statement.
@Suite struct CaptureTriggerTests {
  private func captureTriggers(_ database: Database) throws -> [String: String] {
    let rows = try database.query(
      "SELECT name, sql FROM sqlite_schema WHERE type = 'trigger' AND name GLOB '*_captured*'"
    ) { ($0.string(0), $0.string(1)) }
    // Compared as SQL, not as layout: the same trigger written from another indentation.
    return Dictionary(
      uniqueKeysWithValues: rows.map { ($0.0, $0.1.split(whereSeparator: \.isWhitespace).joined(separator: " ")) })
  }

  private func tie(_ store: LibraryStore) throws {
    try store.sync.tie(
      central: "postgresql://127.0.0.1/library", libraryID: "L", deskID: RecordID.random().text, deskName: "Desk",
      sendingRecords: true, sendingPolicy: true)
  }

  @Test func onlyATiedDeskHasThemAndTheyAreTheOnesOfTheLastMigrations() throws {
    let folder = TemporaryFolder()
    let store = try LibraryStore(path: folder.file("library.sqlite"), clock: TestClock())
    #expect(try captureTriggers(store.database).isEmpty)
    try store.books.add(bookDraft("1", "Война и мир"))
    #expect(try store.database.scalarInt("SELECT count(*) FROM outbox") == 0)

    // What migrations 1 to 17 left on every file: the triggers a tied desk must have, but the
    // loan's, which carry the field migration 20 added, the reader's and category's, which carry
    // migration 26's, the settings', which list migration 27's, and every one's clock, moved to the
    // central's time since migration 22.
    let older = try Database(path: folder.file("version17.sqlite"))
    for migration in Migrations.all.prefix(17) { try older.executeScript(migration) }
    let expected = try captureTriggers(older)
    #expect(expected.count == 20)

    try tie(store)
    let tied = try captureTriggers(store.database)
    // The work diary's visits and renewals travel since migration 29, checks of the stock since 31.
    let diary = [
      "renewal_captured_insert", "renewal_captured_update", "visit_captured_insert", "visit_captured_update",
      "stocktake_captured_insert", "stocktake_captured_update", "stocktake_part_captured_insert",
      "stocktake_part_captured_update", "stocktake_scan_captured_insert", "stocktake_scan_captured_update",
    ]
    #expect(tied.keys.sorted() == (expected.keys + diary).sorted())
    #expect(tied.values.allSatisfy { $0.contains("clock_offset_ms") })
    let wallClock = "CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)"
    let unmoved = tied.mapValues {
      $0.replacingOccurrences(
        of: "(\(wallClock) + (SELECT clock_offset_ms FROM sync_desk WHERE id = 1)) * 65536",
        with: wallClock + " * 65536")
    }
    let grown = [
      "loan_captured_insert", "loan_captured_update", "reader_captured_insert", "reader_captured_update",
      "category_captured_insert", "category_captured_update", "setting_captured_insert", "setting_captured_update",
      "setting_captured_delete", "book_captured_insert", "book_captured_update",
    ]
    #expect(
      unmoved.filter { !grown.contains($0.key) && !diary.contains($0.key) }
        == expected.filter { !grown.contains($0.key) })
    // The settings that travel gained the work diary's branches (migration 27).
    for (name, field) in zip(
      grown,
      [
        "undone_at", "undone_at", "source_record", "source_record", "written_as", "written_as", "diary_branches",
        "diary_branches", "diary_branches", "last_checked", "last_checked",
      ])
    {
      #expect(tied[name]?.contains(field) == true && expected[name]?.contains(field) == false, "\(name)")
    }
    try store.books.add(bookDraft("2", "Анна Каренина"))
    let captured = try store.database.query(
      "SELECT json_extract(payload, '$.title') FROM outbox WHERE entity = 'book' ORDER BY seq"
    ) { $0.string(0) }
    #expect(captured == ["Война и мир", "Анна Каренина"], "the record it had, then the one added")

    // A desk that leaves goes on recording its changes, to send them if it joins again.
    try store.sync.untie(discarding: true)
    #expect(try captureTriggers(store.database) == tied)
    try store.books.add(bookDraft("3", "Воскресение"))
    #expect(try store.database.scalarInt("SELECT count(*) FROM outbox") == 1)
    // One that forgets the central keeps nothing of it.
    try store.sync.untie(discarding: true, forgetting: true)
    #expect(try captureTriggers(store.database).isEmpty)
    try store.books.add(bookDraft("4", "Хаджи-Мурат"))
    #expect(try store.database.scalarInt("SELECT count(*) FROM outbox") == 0)
    #expect(try store.integrityCheck() == ["ok"])
  }

  @Test func migration18DropsThemOnADeskOnItsOwnAndKeepsThemOnATiedOne() throws {
    let folder = TemporaryFolder()
    for tied in [false, true] {
      let path = folder.file("library-\(tied).sqlite")
      do {
        let store = try LibraryStore(path: path, clock: TestClock())
        if tied { try tie(store) } else { try store.database.executeScript(SyncedTables.currentCaptureTriggers) }
        try store.database.executeScript(librarySchemaBeforeStoredVocabularies + "PRAGMA user_version = 17")
      }
      let store = try LibraryStore(path: path, clock: TestClock())
      #expect(try store.database.scalarInt("PRAGMA user_version") == LibraryStore.schemaVersion)
      #expect(try captureTriggers(store.database).count == (tied ? 30 : 0), "tied: \(tied)")
      try store.books.add(bookDraft("1", "Война и мир"))
      #expect(try store.database.scalarInt("SELECT count(*) FROM outbox WHERE entity = 'book'") == (tied ? 1 : 0))
    }
  }
}
