import DeskDomain
// The scratch folders, child programs and PostgreSQL server the benchmark shares with the tests.
@_exported import DeskScratch
import Foundation

public func bookDraft(
  _ inventory: String, _ title: String, surname: String = "", initials: String = "", isbn: String = ""
) -> BookDraft {
  var draft = BookDraft()
  draft.inventoryNumber = inventory
  draft.title = title
  draft.authorSurname = surname
  draft.authorInitials = initials
  draft.isbn = isbn
  return draft
}

public func readerDraft(
  _ ticket: String, _ surname: String, firstName: String = "", category: String = "", phone: String = ""
) -> ReaderDraft {
  var draft = ReaderDraft()
  draft.ticket = ticket
  draft.surname = surname
  draft.firstName = firstName
  draft.category = category
  draft.phone = phone
  return draft
}

/// A clock the test sets and moves by hand, at UTC.
public final class TestClock: Clock, @unchecked Sendable {
  public var instant: Timestamp
  /// The library's time zone, east of UTC (Moscow's is 3 hours: 10 800 seconds).
  public var utcOffsetSeconds = 0

  public init(_ iso: String = "2026-11-30T10:00:00Z") {
    instant = Timestamp(iso: iso)!
  }

  public func now() -> LocalMoment { LocalMoment(instant: instant, utcOffsetSeconds: utcOffsetSeconds) }
  public func local(_ instant: Timestamp) -> LocalMoment {
    LocalMoment(instant: instant, utcOffsetSeconds: utcOffsetSeconds)
  }

  public func advance(days: Int) {
    instant = instant.adding(milliseconds: Int64(days) * 86_400_000)
  }

  public func advance(seconds: Int) {
    instant = instant.adding(milliseconds: Int64(seconds) * 1000)
  }
}

/// The package's root folder, found from this file's place in it.
public let packageRoot: String = {
  var url = URL(fileURLWithPath: #filePath)
  for _ in 0..<3 { url.deleteLastPathComponent() }
  return url.path
}()

/// The `circdesk` program SwiftPM built beside the test bundle.
public let circdeskPath: String = {
  let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    .appendingPathComponent("circdesk").path
  if FileManager.default.isExecutableFile(atPath: beside) { return beside }
  return packageRoot + "/.build/debug/circdesk"
}()

/// Compares `text` with the golden file `Tests/<folder>/Golden/<name>`. With
/// `CIRCDESK_UPDATE_GOLDEN=1` in the environment the file is written instead.
public func matchesGolden(_ text: String, _ name: String, folder: String) throws -> Bool {
  let path = packageRoot + "/Tests/\(folder)/Golden/" + name
  if ProcessInfo.processInfo.environment["CIRCDESK_UPDATE_GOLDEN"] == "1" {
    try FileManager.default.createDirectory(
      atPath: packageRoot + "/Tests/\(folder)/Golden", withIntermediateDirectories: true)
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return true
  }
  let expected = try String(contentsOfFile: path, encoding: .utf8)
  if expected != text {
    print("--- expected \(name)\n\(expected)\n--- got\n\(text)\n---")
  }
  return expected == text
}

/// Takes a library file back to what versions before 34 wrote: no copy cataloguing.
public let librarySchemaBeforeCopyCataloguing = """
  DROP TABLE catalogue_target;
  DROP TABLE copy_answer;
  DROP TABLE copy_query_queue;

  """

/// Takes a library file back to what versions before 33 wrote: no kiosk accounts.
public let librarySchemaBeforeKioskAccounts = librarySchemaBeforeCopyCataloguing + "DROP TABLE kiosk_account;\n"

/// Takes a library file back to what versions before 32 wrote: the books' index and count triggers
/// look for no row of `bulk_write` (a bulk write dropped them and made them again).
public let librarySchemaBeforeBulkWriteRow =
  librarySchemaBeforeKioskAccounts + """
    DROP TABLE bulk_write;
    DROP TRIGGER book_counted;
    CREATE TRIGGER book_counted AFTER INSERT ON book WHEN NEW.deleted = 0
    BEGIN UPDATE counter SET value = value + 1 WHERE name = 'books'; END;
    DROP TRIGGER book_fts_insert;
    CREATE TRIGGER book_fts_insert AFTER INSERT ON book
    BEGIN
      INSERT INTO book_fts(rowid, search_text) VALUES (NEW.id, NEW.search_text);
      INSERT INTO book_vocabulary_news(search_text) VALUES (NEW.search_text);
      UPDATE counter SET value = value + 1 WHERE name = 'book_words';
    END;
    DROP TRIGGER book_fts_update;
    CREATE TRIGGER book_fts_update AFTER UPDATE OF search_text ON book
    WHEN OLD.search_text IS NOT NEW.search_text
    BEGIN
      INSERT INTO book_fts(book_fts, rowid, search_text) VALUES ('delete', OLD.id, OLD.search_text);
      INSERT INTO book_fts(rowid, search_text) VALUES (NEW.id, NEW.search_text);
      INSERT INTO book_vocabulary_news(search_text) VALUES (NEW.search_text);
      UPDATE counter SET value = value + 1 WHERE name = 'book_words';
    END;

    """

/// Takes a library file back to what versions before 31 wrote: checks of the stock stay at their
/// desk, and no copy keeps its last check. The capture triggers go first (a tied desk's name the
/// column); opening the file makes them again, as after any upgrade.
public let librarySchemaBeforeTravellingChecks =
  librarySchemaBeforeBulkWriteRow + captureTriggersDropped + """
    DROP TABLE stocktake_part; ALTER TABLE book DROP COLUMN last_checked;
    ALTER TABLE stocktake DROP COLUMN created_at; ALTER TABLE stocktake DROP COLUMN updated_at;
    ALTER TABLE stocktake_scan DROP COLUMN created_at; ALTER TABLE stocktake_scan DROP COLUMN updated_at;

    """

/// The checks' tables gone, as before version 30.
private let stocktakeTablesDropped =
  librarySchemaBeforeBulkWriteRow + captureTriggersDropped + """
    DROP TABLE stocktake_part; DROP TABLE stocktake_scan; DROP TABLE stocktake_expected; DROP TABLE stocktake;

    """

/// Takes a library file back to what versions before 30 wrote: no stocktaking.
public let librarySchemaBeforeStocktaking = stocktakeTablesDropped + "ALTER TABLE book DROP COLUMN last_checked;\n"

/// Takes a library file back to what versions before 29 wrote: no daily sums of the work diary.
public let librarySchemaBeforeDiarySums =
  stocktakeTablesDropped + """
    DROP TRIGGER diary_loan_added; DROP TRIGGER diary_loan_changing; DROP TRIGGER diary_loan_changed;
    DROP TRIGGER diary_loan_removed; DROP TRIGGER diary_renewal_added; DROP TRIGGER diary_renewal_changing;
    DROP TRIGGER diary_renewal_changed; DROP TRIGGER diary_renewal_removed; DROP TRIGGER diary_visit_added;
    DROP TRIGGER diary_visit_changing; DROP TRIGGER diary_visit_changed; DROP TRIGGER diary_visit_removing;
    DROP TRIGGER diary_visit_removed; DROP TRIGGER diary_hold_added; DROP TRIGGER diary_hold_changing;
    DROP TRIGGER diary_hold_changed; DROP TRIGGER diary_hold_removed; DROP TRIGGER diary_reader_added;
    DROP TRIGGER diary_reader_changing; DROP TRIGGER diary_reader_changed; DROP TRIGGER diary_reader_removed;
    DROP TRIGGER diary_book_changing; DROP TRIGGER diary_book_changed; DROP TRIGGER diary_branches_added;
    DROP TRIGGER diary_branches_changed; DROP TRIGGER diary_branches_removed; DROP VIEW diary_part;
    DROP VIEW diary_loan_part; DROP VIEW diary_renewal_part; DROP VIEW diary_visit_part;
    DROP VIEW diary_first_visit_part; DROP VIEW diary_hold_part; DROP VIEW diary_reader_part;
    DROP TABLE diary_day; DROP TABLE diary_first_visit;
    ALTER TABLE visit DROP COLUMN updated_at; ALTER TABLE renewal DROP COLUMN updated_at;
    ALTER TABLE book DROP COLUMN last_checked;

    """

/// Takes a library file back to what versions before 27 wrote: no visits or renewals of the work
/// diary, no indexes of circulation by date.
public let librarySchemaBeforeDiary =
  librarySchemaBeforeDiarySums + """
    DROP INDEX visit_reader; DROP TABLE visit; DROP TABLE renewal; DROP INDEX loan_issued; DROP INDEX loan_returned;
    DROP INDEX hold_placed; DROP INDEX hold_ended; DROP INDEX reader_registered;

    """

/// Takes a library file back to what versions before 26 wrote: readers keep no record, categories
/// no names of other systems, no loans wait for their books.
public let librarySchemaBeforeReaderRecords =
  librarySchemaBeforeDiary + captureTriggersDropped
  + "DROP TABLE pending_loan;\nALTER TABLE reader DROP COLUMN source_record;\n"
  + "ALTER TABLE category DROP COLUMN written_as;\n"

/// Takes a library file back to what versions before 25 wrote: no index of a record's other ISBNs.
public let librarySchemaBeforeOtherISBNs = librarySchemaBeforeReaderRecords + "DROP TABLE book_isbn;\n"

/// Takes a library file back to what versions before 24 wrote: no transactions of other
/// systems' files remembered.
public let librarySchemaBeforeReplayedTransactions =
  librarySchemaBeforeOtherISBNs + "DROP TABLE replayed_transaction;\n"

/// Takes a library file back to what versions before 23 wrote: no indexes put off.
public let librarySchemaBeforeIndexesPutOff = librarySchemaBeforeReplayedTransactions + "DROP TABLE put_off_index;\n"

/// Takes a library file back to what versions before 22 wrote: the desk's clock is not checked.
/// The capture triggers of a tied desk go too (they read the offset): opening the file makes
/// them again, as after any upgrade.
public let librarySchemaBeforeClockOffset =
  librarySchemaBeforeIndexesPutOff + captureTriggersDropped
  + ["clock_offset_ms", "clock_anchor_central_ms", "clock_anchor_boot", "clock_anchor_uptime_ms"]
  .map { "ALTER TABLE sync_desk DROP COLUMN \($0);\n" }.joined()

private let captureTriggersDropped =
  [
    "category", "holiday", "setting", "address", "book", "reader", "loan", "hold", "visit", "renewal", "stocktake",
    "stocktake_part", "stocktake_scan",
  ].flatMap { table in
    ["insert", "update", "delete"].map { "DROP TRIGGER IF EXISTS \(table)_captured_\($0);\n" }
  }.joined() + "DROP TRIGGER IF EXISTS conflict_captured;\n"

/// Takes a library file back to what versions before 21 wrote: a desk that left keeps nothing.
public let librarySchemaBeforeKeptDeskIdentity =
  librarySchemaBeforeClockOffset + "ALTER TABLE sync_desk DROP COLUMN left_central;\n"

/// Takes a library file back to what versions before 20 wrote: loans undone leave no trace.
public let librarySchemaBeforeUndoneLoans = librarySchemaBeforeKeptDeskIdentity + undoneLoansDropped

private let undoneLoansDropped = """
  DROP TRIGGER IF EXISTS loan_captured_insert; DROP TRIGGER IF EXISTS loan_captured_update;
  ALTER TABLE loan DROP COLUMN undone_at;

  """

/// Takes a library file back to what versions before 19 wrote: no stored vocabularies, and the
/// full-text triggers as migration 8 made them. Run it with `PRAGMA user_version` set.
public let librarySchemaBeforeStoredVocabularies = librarySchemaBeforeUndoneLoans + storedVocabulariesDropped

private let storedVocabulariesDropped = ["book", "reader"].map { table in
  """
  DROP TABLE \(table)_vocabulary; DROP TABLE \(table)_vocabulary_news;
  DELETE FROM counter WHERE name = '\(table)_vocabulary';
  DROP TRIGGER \(table)_fts_insert; DROP TRIGGER \(table)_fts_update;
  CREATE TRIGGER \(table)_fts_insert AFTER INSERT ON \(table)
  BEGIN
    INSERT INTO \(table)_fts(rowid, search_text) VALUES (NEW.id, NEW.search_text);
    UPDATE counter SET value = value + 1 WHERE name = '\(table)_words';
  END;
  CREATE TRIGGER \(table)_fts_update AFTER UPDATE OF search_text ON \(table)
  BEGIN
    INSERT INTO \(table)_fts(\(table)_fts, rowid, search_text) VALUES ('delete', OLD.id, OLD.search_text);
    INSERT INTO \(table)_fts(rowid, search_text) VALUES (NEW.id, NEW.search_text);
    UPDATE counter SET value = value + 1 WHERE name = '\(table)_words';
  END;

  """
}.joined()

/// Takes a library file back to what versions before 10 wrote (no sync tables, triggers,
/// columns or indexes), for tests that open a file of an older version. Run it with `PRAGMA user_version`
/// set to the version the test wants.
public let librarySchemaBeforeSync =
  librarySchemaBeforeKeptDeskIdentity + """
    DROP TABLE sync_desk; DROP TABLE outbox; DROP TABLE field_clock; DROP TABLE sync_peer;
    DROP TABLE sync_tombstone; DROP TABLE conflict; DROP TABLE sync_snapshot;
    DROP INDEX book_inventory; DROP INDEX reader_ticket; DROP INDEX loan_open_book; DROP INDEX loan_conflicted;
    ALTER TABLE book DROP COLUMN clash; ALTER TABLE reader DROP COLUMN clash; ALTER TABLE loan DROP COLUMN conflict;
    CREATE UNIQUE INDEX book_inventory ON book(inventory) WHERE deleted = 0;
    CREATE UNIQUE INDEX reader_ticket ON reader(ticket) WHERE deleted = 0;
    CREATE UNIQUE INDEX loan_open_book ON loan(book_id) WHERE returned_at IS NULL AND deleted = 0;
    DROP INDEX book_list; DROP INDEX book_not_for_loan; DROP INDEX book_record_group;
    ALTER TABLE book DROP COLUMN status; ALTER TABLE book DROP COLUMN source_record;
    ALTER TABLE book DROP COLUMN source_copy; ALTER TABLE book DROP COLUMN record_group;
    CREATE INDEX book_list ON book(sort_key, inventory, author_surname, author_initials, title, year, deleted)
      WHERE deleted = 0;
    DROP TABLE hold; ALTER TABLE category DROP COLUMN hold_limit;
    DROP TRIGGER loan_due_counted; DROP TRIGGER loan_due_uncounted; DROP TRIGGER loan_due_recounted;
    DROP TABLE loan_due;
    """ + undoneLoansDropped + storedVocabulariesDropped
