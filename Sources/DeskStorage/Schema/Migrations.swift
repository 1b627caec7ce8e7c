/// The schema, as a list of migrations. Migration N brings a file from `user_version` N-1 to N;
/// all pending ones run in one transaction when the file is opened. Never edit a released
/// migration: add a new one.
enum Migrations {
  static let all: [String] = [
    version1, version2, version3, version4, version5, version6, version7, version8, version9, version10,
    version11, version12, version13, version14, version15, version16, version17, version18, version19,
    version20, version21, version22, version23, version24, version25,
    version26, version27, version28, version29, version30, version31, version32, version33,
    version34,
  ]

  static var latestVersion: Int { all.count }

  /// Tables keep an integer key for joins and a UUID (`uuid`) as the identity that other desks
  /// and the central server know; `deleted` marks a tombstone so that a deletion can be synced.
  /// `sort_key` and `search_text` hold text folded in Swift (SQLite folds ASCII only).
  static let version1 = """
    CREATE TABLE category (
      code TEXT PRIMARY KEY,
      name TEXT NOT NULL,
      loan_days INTEGER NOT NULL CHECK (loan_days BETWEEN 1 AND 3650),
      loan_limit INTEGER NOT NULL CHECK (loan_limit >= 0),
      renewal_limit INTEGER NOT NULL CHECK (renewal_limit >= 0)
    );

    CREATE TABLE setting (
      key TEXT PRIMARY KEY,
      value TEXT NOT NULL
    );

    CREATE TABLE holiday (
      day TEXT PRIMARY KEY,
      name TEXT NOT NULL DEFAULT ''
    );

    CREATE TABLE address (
      id INTEGER PRIMARY KEY,
      uuid TEXT NOT NULL UNIQUE,
      phone TEXT NOT NULL,
      phone_key TEXT NOT NULL,
      postcode TEXT NOT NULL DEFAULT '',
      city TEXT NOT NULL DEFAULT '',
      street TEXT NOT NULL DEFAULT '',
      house TEXT NOT NULL DEFAULT '',
      flat TEXT NOT NULL DEFAULT '',
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      deleted INTEGER NOT NULL DEFAULT 0
    );
    CREATE UNIQUE INDEX address_phone ON address(phone_key) WHERE deleted = 0;

    CREATE TABLE book (
      id INTEGER PRIMARY KEY,
      uuid TEXT NOT NULL UNIQUE,
      inventory TEXT NOT NULL CHECK (length(inventory) > 0),
      isbn TEXT,
      isbn13 TEXT,
      author_surname TEXT NOT NULL DEFAULT '',
      author_initials TEXT NOT NULL DEFAULT '',
      title TEXT NOT NULL CHECK (length(title) > 0),
      publisher TEXT NOT NULL DEFAULT '',
      city TEXT NOT NULL DEFAULT '',
      year INTEGER,
      pages INTEGER,
      price_minor INTEGER,
      bbk TEXT NOT NULL DEFAULT '',
      author_mark TEXT NOT NULL DEFAULT '',
      place TEXT NOT NULL DEFAULT '',
      received TEXT,
      sort_key TEXT NOT NULL,
      search_text TEXT NOT NULL,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      deleted INTEGER NOT NULL DEFAULT 0
    );
    CREATE UNIQUE INDEX book_inventory ON book(inventory) WHERE deleted = 0;
    CREATE INDEX book_sort ON book(sort_key) WHERE deleted = 0;
    CREATE INDEX book_isbn13 ON book(isbn13) WHERE deleted = 0;
    CREATE INDEX book_updated ON book(updated_at);

    CREATE TABLE reader (
      id INTEGER PRIMARY KEY,
      uuid TEXT NOT NULL UNIQUE,
      ticket TEXT NOT NULL CHECK (length(ticket) > 0),
      surname TEXT NOT NULL CHECK (length(surname) > 0),
      first_name TEXT NOT NULL DEFAULT '',
      patronymic TEXT NOT NULL DEFAULT '',
      birth_year INTEGER,
      phone TEXT NOT NULL DEFAULT '',
      email TEXT NOT NULL DEFAULT '',
      category TEXT NOT NULL REFERENCES category(code) ON UPDATE CASCADE,
      registered TEXT NOT NULL,
      address_id INTEGER REFERENCES address(id),
      sort_key TEXT NOT NULL,
      search_text TEXT NOT NULL,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      deleted INTEGER NOT NULL DEFAULT 0
    );
    CREATE UNIQUE INDEX reader_ticket ON reader(ticket) WHERE deleted = 0;
    CREATE INDEX reader_sort ON reader(sort_key) WHERE deleted = 0;
    CREATE INDEX reader_address ON reader(address_id);
    CREATE INDEX reader_updated ON reader(updated_at);

    CREATE TABLE loan (
      id INTEGER PRIMARY KEY,
      uuid TEXT NOT NULL UNIQUE,
      book_id INTEGER NOT NULL REFERENCES book(id),
      reader_id INTEGER NOT NULL REFERENCES reader(id),
      issued_at TEXT NOT NULL,
      due_date TEXT NOT NULL,
      returned_at TEXT,
      renewals INTEGER NOT NULL DEFAULT 0 CHECK (renewals >= 0),
      renewed_at TEXT,
      desk TEXT NOT NULL,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      deleted INTEGER NOT NULL DEFAULT 0
    );
    -- A book is out to one reader at a time, whatever the program that writes.
    CREATE UNIQUE INDEX loan_open_book ON loan(book_id) WHERE returned_at IS NULL AND deleted = 0;
    CREATE INDEX loan_book ON loan(book_id, issued_at);
    CREATE INDEX loan_reader ON loan(reader_id, issued_at);
    CREATE INDEX loan_open_due ON loan(due_date) WHERE returned_at IS NULL AND deleted = 0;
    CREATE INDEX loan_updated ON loan(updated_at);
    """

  /// Counts of live books and readers, kept by triggers: `count(*)` over a million rows takes
  /// tens of milliseconds, and the desk shows the counts on its first screen.
  static let version2 = """
    CREATE TABLE counter (
      name TEXT PRIMARY KEY,
      value INTEGER NOT NULL
    );
    INSERT INTO counter(name, value) VALUES
      ('books', (SELECT count(*) FROM book WHERE deleted = 0)),
      ('readers', (SELECT count(*) FROM reader WHERE deleted = 0));

    CREATE TRIGGER book_counted AFTER INSERT ON book WHEN NEW.deleted = 0
    BEGIN UPDATE counter SET value = value + 1 WHERE name = 'books'; END;
    CREATE TRIGGER book_uncounted AFTER DELETE ON book WHEN OLD.deleted = 0
    BEGIN UPDATE counter SET value = value - 1 WHERE name = 'books'; END;
    CREATE TRIGGER book_recounted AFTER UPDATE OF deleted ON book WHEN OLD.deleted <> NEW.deleted
    BEGIN UPDATE counter SET value = value + CASE WHEN NEW.deleted = 0 THEN 1 ELSE -1 END WHERE name = 'books'; END;

    CREATE TRIGGER reader_counted AFTER INSERT ON reader WHEN NEW.deleted = 0
    BEGIN UPDATE counter SET value = value + 1 WHERE name = 'readers'; END;
    CREATE TRIGGER reader_uncounted AFTER DELETE ON reader WHEN OLD.deleted = 0
    BEGIN UPDATE counter SET value = value - 1 WHERE name = 'readers'; END;
    CREATE TRIGGER reader_recounted AFTER UPDATE OF deleted ON reader WHEN OLD.deleted <> NEW.deleted
    BEGIN UPDATE counter SET value = value + CASE WHEN NEW.deleted = 0 THEN 1 ELSE -1 END WHERE name = 'readers'; END;
    """

  /// The number of books out, kept like the other counts: the status line shows it after
  /// every key.
  static let version3 = """
    INSERT INTO counter(name, value) VALUES
      ('open_loans', (SELECT count(*) FROM loan WHERE returned_at IS NULL AND deleted = 0));

    CREATE TRIGGER loan_counted AFTER INSERT ON loan WHEN NEW.returned_at IS NULL AND NEW.deleted = 0
    BEGIN UPDATE counter SET value = value + 1 WHERE name = 'open_loans'; END;
    CREATE TRIGGER loan_uncounted AFTER DELETE ON loan WHEN OLD.returned_at IS NULL AND OLD.deleted = 0
    BEGIN UPDATE counter SET value = value - 1 WHERE name = 'open_loans'; END;
    CREATE TRIGGER loan_recounted AFTER UPDATE OF returned_at, deleted ON loan
    BEGIN
      UPDATE counter SET value = value
        + (NEW.returned_at IS NULL AND NEW.deleted = 0) - (OLD.returned_at IS NULL AND OLD.deleted = 0)
      WHERE name = 'open_loans';
    END;
    """

  /// ISBN look-ups: answers kept so that an ISBN never asks the network twice, the queue of
  /// look-ups waiting for the network, and answers offered as updates to books already saved.
  static let version4 = """
    CREATE TABLE isbn_lookup (
      isbn13 TEXT PRIMARY KEY,
      found INTEGER NOT NULL,
      provider TEXT NOT NULL DEFAULT '',
      title TEXT NOT NULL DEFAULT '',
      subtitle TEXT NOT NULL DEFAULT '',
      authors TEXT NOT NULL DEFAULT '',
      publisher TEXT NOT NULL DEFAULT '',
      city TEXT NOT NULL DEFAULT '',
      year INTEGER,
      pages INTEGER,
      fetched_at TEXT NOT NULL
    );

    CREATE TABLE lookup_queue (
      isbn13 TEXT PRIMARY KEY,
      queued_at TEXT NOT NULL,
      attempts INTEGER NOT NULL DEFAULT 0,
      last_error TEXT NOT NULL DEFAULT ''
    );

    CREATE TABLE lookup_offer (
      book_id INTEGER PRIMARY KEY REFERENCES book(id),
      isbn13 TEXT NOT NULL,
      created_at TEXT NOT NULL
    );
    """

  /// Full-text indexes of the folded search words of books and readers, kept by triggers, and
  /// their vocabularies (every distinct word) for the search that forgives typos. Diacritics are
  /// not removed by the tokenizer: й stays й (the words are folded in Swift already).
  static let version5 = """
    CREATE VIRTUAL TABLE book_fts USING fts5(
      search_text, content='book', content_rowid='id', tokenize='unicode61 remove_diacritics 0');
    INSERT INTO book_fts(book_fts) VALUES ('rebuild');
    CREATE TRIGGER book_fts_insert AFTER INSERT ON book
    BEGIN INSERT INTO book_fts(rowid, search_text) VALUES (NEW.id, NEW.search_text); END;
    CREATE TRIGGER book_fts_delete AFTER DELETE ON book
    BEGIN INSERT INTO book_fts(book_fts, rowid, search_text) VALUES ('delete', OLD.id, OLD.search_text); END;
    CREATE TRIGGER book_fts_update AFTER UPDATE OF search_text ON book
    BEGIN
      INSERT INTO book_fts(book_fts, rowid, search_text) VALUES ('delete', OLD.id, OLD.search_text);
      INSERT INTO book_fts(rowid, search_text) VALUES (NEW.id, NEW.search_text);
    END;
    CREATE VIRTUAL TABLE book_words USING fts5vocab(book_fts, 'row');

    CREATE VIRTUAL TABLE reader_fts USING fts5(
      search_text, content='reader', content_rowid='id', tokenize='unicode61 remove_diacritics 0');
    INSERT INTO reader_fts(reader_fts) VALUES ('rebuild');
    CREATE TRIGGER reader_fts_insert AFTER INSERT ON reader
    BEGIN INSERT INTO reader_fts(rowid, search_text) VALUES (NEW.id, NEW.search_text); END;
    CREATE TRIGGER reader_fts_delete AFTER DELETE ON reader
    BEGIN INSERT INTO reader_fts(reader_fts, rowid, search_text) VALUES ('delete', OLD.id, OLD.search_text); END;
    CREATE TRIGGER reader_fts_update AFTER UPDATE OF search_text ON reader
    BEGIN
      INSERT INTO reader_fts(reader_fts, rowid, search_text) VALUES ('delete', OLD.id, OLD.search_text);
      INSERT INTO reader_fts(rowid, search_text) VALUES (NEW.id, NEW.search_text);
    END;
    CREATE VIRTUAL TABLE reader_words USING fts5vocab(reader_fts, 'row');
    """

  /// The books and readers the librarian opened last, for the lists to offer first.
  static let version6 = """
    CREATE TABLE recent (
      kind TEXT NOT NULL,
      record_uuid TEXT NOT NULL,
      opened_at TEXT NOT NULL,
      PRIMARY KEY (kind, record_uuid)
    );
    CREATE INDEX recent_opened ON recent(kind, opened_at);
    """

  /// The book list reads its rows from this index alone (a covering index, in list order): a
  /// page of forty books is a few consecutive index pages, not forty rows scattered over the
  /// file, which a catalogue of a million books does not keep in memory. `deleted` is among the
  /// columns so that SQLite sees the index covers the list's condition.
  static let version7 = """
    DROP INDEX book_sort;
    CREATE INDEX book_list ON book(sort_key, inventory, author_surname, author_initials, title, year, deleted)
      WHERE deleted = 0;
    """

  /// A count of changes to the words of books and readers, bumped by the full-text triggers:
  /// the search's vocabulary is read again exactly when it moves. (The newest `updated_at` is not
  /// enough: two edits in one millisecond, or a desk whose clock is behind, leave it standing.)
  static let version8 = """
    INSERT INTO counter(name, value) VALUES ('book_words', 0), ('reader_words', 0);

    DROP TRIGGER book_fts_insert;
    DROP TRIGGER book_fts_delete;
    DROP TRIGGER book_fts_update;
    CREATE TRIGGER book_fts_insert AFTER INSERT ON book
    BEGIN
      INSERT INTO book_fts(rowid, search_text) VALUES (NEW.id, NEW.search_text);
      UPDATE counter SET value = value + 1 WHERE name = 'book_words';
    END;
    CREATE TRIGGER book_fts_delete AFTER DELETE ON book
    BEGIN
      INSERT INTO book_fts(book_fts, rowid, search_text) VALUES ('delete', OLD.id, OLD.search_text);
      UPDATE counter SET value = value + 1 WHERE name = 'book_words';
    END;
    CREATE TRIGGER book_fts_update AFTER UPDATE OF search_text ON book
    BEGIN
      INSERT INTO book_fts(book_fts, rowid, search_text) VALUES ('delete', OLD.id, OLD.search_text);
      INSERT INTO book_fts(rowid, search_text) VALUES (NEW.id, NEW.search_text);
      UPDATE counter SET value = value + 1 WHERE name = 'book_words';
    END;

    DROP TRIGGER reader_fts_insert;
    DROP TRIGGER reader_fts_delete;
    DROP TRIGGER reader_fts_update;
    CREATE TRIGGER reader_fts_insert AFTER INSERT ON reader
    BEGIN
      INSERT INTO reader_fts(rowid, search_text) VALUES (NEW.id, NEW.search_text);
      UPDATE counter SET value = value + 1 WHERE name = 'reader_words';
    END;
    CREATE TRIGGER reader_fts_delete AFTER DELETE ON reader
    BEGIN
      INSERT INTO reader_fts(reader_fts, rowid, search_text) VALUES ('delete', OLD.id, OLD.search_text);
      UPDATE counter SET value = value + 1 WHERE name = 'reader_words';
    END;
    CREATE TRIGGER reader_fts_update AFTER UPDATE OF search_text ON reader
    BEGIN
      INSERT INTO reader_fts(reader_fts, rowid, search_text) VALUES ('delete', OLD.id, OLD.search_text);
      INSERT INTO reader_fts(rowid, search_text) VALUES (NEW.id, NEW.search_text);
      UPDATE counter SET value = value + 1 WHERE name = 'reader_words';
    END;
    """

  /// Chinese and Japanese text is indexed a character a word: the records holding it get their
  /// search text again (`LibraryStore.respaceCJK`, run after this script).
  static let version9 = "SELECT 1;"

  /// A desk of a library shared through a central: its tie to the central and its hybrid clock
  /// (`sync_desk`), the outbox its triggers write in the same transaction as each change, the clock
  /// of each field's value (per-field last-writer-wins), the other desks' names, the deletions
  /// seen in the central's order, and the conflicts to settle. A book or reader whose number
  /// clashes with another desk's keeps it, marked (`clash` = its own row id, so the unique index
  /// lets it be); two open loans of one book exist only in a conflict (`conflict`).
  static let version10 = """
    CREATE TABLE sync_desk (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      desk_id TEXT, desk_name TEXT, central TEXT, library_id TEXT,
      capture INTEGER NOT NULL DEFAULT 0, applying INTEGER NOT NULL DEFAULT 0,
      hlc INTEGER NOT NULL DEFAULT 0, cursor INTEGER NOT NULL DEFAULT 0,
      last_sync TEXT, last_attempt TEXT, last_error TEXT NOT NULL DEFAULT ''
    );
    INSERT INTO sync_desk(id) VALUES (1);

    CREATE TABLE outbox (
      seq INTEGER PRIMARY KEY,
      id TEXT NOT NULL DEFAULT (lower(hex(randomblob(4))) || '-' || lower(hex(randomblob(2))) || '-4'
        || substr(lower(hex(randomblob(2))), 2) || '-' || substr('89ab', 1 + abs(random()) % 4, 1)
        || substr(lower(hex(randomblob(2))), 2) || '-' || lower(hex(randomblob(6)))),
      entity TEXT NOT NULL,
      record_id TEXT NOT NULL,
      hlc INTEGER NOT NULL,
      payload TEXT NOT NULL,
      held INTEGER NOT NULL DEFAULT 0
    );
    -- No index of records: a change writes one row, nothing more (a pull reads what waits into a
    -- table of its own, see `LibraryStore.apply`).
    CREATE INDEX outbox_held ON outbox(held) WHERE held <> 0;

    CREATE TABLE field_clock (
      entity TEXT NOT NULL, record_id TEXT NOT NULL, field TEXT NOT NULL,
      hlc INTEGER NOT NULL, desk TEXT NOT NULL,
      PRIMARY KEY (entity, record_id, field)
    ) WITHOUT ROWID;

    CREATE TABLE sync_peer (desk_id TEXT PRIMARY KEY, name TEXT NOT NULL);

    CREATE TABLE sync_tombstone (
      entity TEXT NOT NULL, record_id TEXT NOT NULL, desk_id TEXT NOT NULL,
      PRIMARY KEY (entity, record_id)
    ) WITHOUT ROWID;

    CREATE TABLE conflict (
      id INTEGER PRIMARY KEY,
      key TEXT NOT NULL UNIQUE,
      kind TEXT NOT NULL,
      entity TEXT NOT NULL,
      record_id TEXT NOT NULL,
      other_id TEXT NOT NULL DEFAULT '',
      details TEXT NOT NULL DEFAULT '{}',
      raised_at TEXT NOT NULL,
      resolved_at TEXT,
      resolution TEXT NOT NULL DEFAULT '',
      holder TEXT NOT NULL DEFAULT ''
    );

    -- What this desk sent whole when it joined with records of its own: those records' fields
    -- hold values as of that clock reading, so that older changes pulled afterwards (a desk that
    -- joins again, a copy of another desk's file) leave them alone. A row a table.
    CREATE TABLE sync_snapshot (
      entity TEXT PRIMARY KEY, last_row INTEGER NOT NULL, hlc INTEGER NOT NULL
    );
    CREATE INDEX conflict_open ON conflict(entity, record_id) WHERE resolved_at IS NULL;

    ALTER TABLE book ADD COLUMN clash INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE reader ADD COLUMN clash INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE loan ADD COLUMN conflict INTEGER NOT NULL DEFAULT 0;
    DROP INDEX book_inventory;
    CREATE UNIQUE INDEX book_inventory ON book(inventory, clash) WHERE deleted = 0;
    DROP INDEX reader_ticket;
    CREATE UNIQUE INDEX reader_ticket ON reader(ticket, clash) WHERE deleted = 0;
    DROP INDEX loan_open_book;
    -- A book is out to one reader at a time, whatever the program that writes; two desks that
    -- issued it offline leave two loans, both marked with their conflict until it is settled.
    CREATE UNIQUE INDEX loan_open_book ON loan(book_id, conflict) WHERE returned_at IS NULL AND deleted = 0;

    \(FrozenTriggers.version10)
    """

  /// A book issued at two desks while they were apart has two open loans, each marked with
  /// `conflict`: this index finds them at once (none, nearly always), so that the count of books
  /// out counts such a book once. A deletion remembers its change, which names the conflict with
  /// a later edit whichever of the two reaches the central first.
  static let version11 = """
    CREATE INDEX loan_conflicted ON loan(book_id) WHERE conflict <> 0 AND returned_at IS NULL AND deleted = 0;
    ALTER TABLE sync_tombstone ADD COLUMN change_id TEXT NOT NULL DEFAULT '';
    """

  /// A copy has a status (`CopyStatus`: lost, written off… only `available` is issued), and keeps
  /// what an import read but the desk does not model, so that an export gives it back: the
  /// catalogue record as it came (`source_record`, IRBIS lines), the copy's own field as it came
  /// (`source_copy`), and the copies of one record share `record_group`. The list's covering index
  /// takes the status; the few copies not for loan have an index of their own. Book triggers are
  /// made again for the new fields.
  static let version12 = """
    ALTER TABLE book ADD COLUMN status TEXT NOT NULL DEFAULT 'available';
    ALTER TABLE book ADD COLUMN source_record TEXT NOT NULL DEFAULT '';
    ALTER TABLE book ADD COLUMN source_copy TEXT NOT NULL DEFAULT '';
    ALTER TABLE book ADD COLUMN record_group TEXT NOT NULL DEFAULT '';
    DROP INDEX book_list;
    CREATE INDEX book_list ON book(sort_key, inventory, author_surname, author_initials, title, year, status, deleted)
      WHERE deleted = 0;
    CREATE INDEX book_not_for_loan ON book(status) WHERE status <> 'available' AND deleted = 0;
    CREATE INDEX book_record_group ON book(record_group) WHERE record_group <> '' AND deleted = 0;
    DROP TRIGGER book_captured_insert;
    DROP TRIGGER book_captured_update;
    \(FrozenTriggers.version12)
    """

  /// Holds: a reader's place in the queue for a title (`title_key`: the ISBN, or the author,
  /// title and year) or for one copy (`book_id`). The queue is read in the order placed, from
  /// an index of the queued holds only; a copy put aside for a hold is `trapped_book_id` of a
  /// waiting hold, found by its own index; the waiting holds are counted by theirs, in time
  /// that does not grow with the library. A category limits its readers' holds (`hold_limit`).
  static let version13 = """
    ALTER TABLE category ADD COLUMN hold_limit INTEGER NOT NULL DEFAULT 5;
    UPDATE category SET hold_limit = 3 WHERE code = 'child';
    UPDATE category SET hold_limit = 10 WHERE code = 'staff';
    CREATE TABLE hold (
      id INTEGER PRIMARY KEY,
      uuid TEXT NOT NULL UNIQUE,
      reader_id INTEGER NOT NULL REFERENCES reader(id),
      title_key TEXT NOT NULL,
      book_id INTEGER REFERENCES book(id),
      label TEXT NOT NULL,
      placed_at TEXT NOT NULL,
      not_wanted_after TEXT,
      suspended_until TEXT,
      state TEXT NOT NULL DEFAULT 'queued',
      trapped_book_id INTEGER REFERENCES book(id),
      waiting_since TEXT,
      pickup_by TEXT,
      ended_at TEXT,
      desk TEXT NOT NULL DEFAULT '',
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    );
    CREATE INDEX hold_queue ON hold(title_key, placed_at) WHERE state = 'queued';
    CREATE INDEX hold_copy ON hold(book_id, placed_at) WHERE state = 'queued' AND book_id IS NOT NULL;
    CREATE INDEX hold_trapped ON hold(trapped_book_id) WHERE state = 'waiting';
    CREATE INDEX hold_waiting ON hold(pickup_by, state) WHERE state = 'waiting';
    CREATE INDEX hold_reader ON hold(reader_id, state);
    DROP TRIGGER category_captured_insert;
    DROP TRIGGER category_captured_update;
    DROP TRIGGER category_captured_delete;
    \(FrozenTriggers.categoryVersion13)
    DROP TRIGGER setting_captured_insert;
    DROP TRIGGER setting_captured_update;
    DROP TRIGGER setting_captured_delete;
    \(FrozenTriggers.settingVersion13)
    """

  /// Holds travel between desks. A desk joined to a central sends the holds it has as records
  /// made now, at one clock reading; from then on each event of a hold is captured like a loan's.
  static let version14 = FrozenTriggers.version14

  /// What the first paint and a keystroke read stays the same at any size of the library:
  ///
  /// - The open loans are counted by due date (`loan_due`, kept by triggers): the overdue count is
  ///   a sum over the days before today, not a count of the loans (12 ms at ten million books).
  /// - The full-text indexes keep every word's first one, two and three letters as words of their
  ///   own (FTS5 `prefix`): «тол» reads the list of «тол», instead of merging the lists of every
  ///   word that starts with it; measured at a million books, 3.7 ms became 0.3 ms, and «война м»
  ///   43 ms became 0.5 ms. The index is three times the size (23 MB to 70 MB at a million books).
  static let version15 = """
    CREATE TABLE loan_due (due_date TEXT PRIMARY KEY, open INTEGER NOT NULL) WITHOUT ROWID;
    INSERT INTO loan_due(due_date, open)
      SELECT due_date, count(*) FROM loan WHERE returned_at IS NULL AND deleted = 0 GROUP BY due_date;
    CREATE TRIGGER loan_due_counted AFTER INSERT ON loan WHEN NEW.returned_at IS NULL AND NEW.deleted = 0
    BEGIN
      INSERT INTO loan_due(due_date, open) VALUES (NEW.due_date, 1)
        ON CONFLICT(due_date) DO UPDATE SET open = open + 1;
    END;
    CREATE TRIGGER loan_due_uncounted AFTER DELETE ON loan WHEN OLD.returned_at IS NULL AND OLD.deleted = 0
    BEGIN
      UPDATE loan_due SET open = open - 1 WHERE due_date = OLD.due_date;
      DELETE FROM loan_due WHERE due_date = OLD.due_date AND open = 0;
    END;
    CREATE TRIGGER loan_due_recounted AFTER UPDATE OF returned_at, deleted, due_date ON loan
    WHEN (OLD.returned_at IS NULL AND OLD.deleted = 0) OR (NEW.returned_at IS NULL AND NEW.deleted = 0)
    BEGIN
      UPDATE loan_due SET open = open - 1 WHERE due_date = OLD.due_date AND OLD.returned_at IS NULL AND OLD.deleted = 0;
      DELETE FROM loan_due WHERE due_date = OLD.due_date AND open = 0;
      INSERT INTO loan_due(due_date, open) SELECT NEW.due_date, 1 WHERE NEW.returned_at IS NULL AND NEW.deleted = 0
        ON CONFLICT(due_date) DO UPDATE SET open = open + 1;
    END;

    DROP TABLE book_words;
    DROP TABLE book_fts;
    CREATE VIRTUAL TABLE book_fts USING fts5(
      search_text, content='book', content_rowid='id', tokenize='unicode61 remove_diacritics 0', prefix='1 2 3');
    INSERT INTO book_fts(book_fts) VALUES ('rebuild');
    CREATE VIRTUAL TABLE book_words USING fts5vocab(book_fts, 'row');
    DROP TABLE reader_words;
    DROP TABLE reader_fts;
    CREATE VIRTUAL TABLE reader_fts USING fts5(
      search_text, content='reader', content_rowid='id', tokenize='unicode61 remove_diacritics 0', prefix='1 2 3');
    INSERT INTO reader_fts(reader_fts) VALUES ('rebuild');
    CREATE VIRTUAL TABLE reader_words USING fts5vocab(reader_fts, 'row');
    UPDATE counter SET value = value + 1 WHERE name IN ('book_words', 'reader_words');
    """

  /// A copy put aside for a hold waits on the hold shelf of the desk that put it aside
  /// (`pickup_desk`, that desk's name; empty at a desk on its own): only that desk lists it,
  /// counts it, passes it on when its hold ends, and moves it when it waited too long. The shelf's
  /// index leads with the desk. The copies already put aside are this desk's.
  static let version16 = """
    ALTER TABLE hold ADD COLUMN pickup_desk TEXT NOT NULL DEFAULT '';
    DROP INDEX hold_waiting;
    CREATE INDEX hold_waiting ON hold(pickup_desk, pickup_by, state) WHERE state = 'waiting';
    DROP TRIGGER hold_captured_insert;
    DROP TRIGGER hold_captured_update;
    \(FrozenTriggers.holdVersion16)
    UPDATE hold SET pickup_desk = coalesce((SELECT value FROM setting WHERE key = 'desk_name'), '')
      WHERE trapped_book_id IS NOT NULL;
    """

  /// The full-text indexes keep the first four and five letters of every word too, and are
  /// merged into one segment. A prefix of four or five letters that hundreds of words continue
  /// («прес», «маст») made FTS5 merge all their lists before the first row: 14 ms at ten million
  /// books, against 1.6 ms reading the prefix's own list (measured at a million books: 2.3 ms
  /// and 1.0–1.6). Longer prefixes are continued by few words with short lists. The index grows
  /// by half (68 MB to 99 MB at a million books). One segment instead of the dozen a rebuild
  /// leaves saves each word's look-up in every segment (0.4 ms of «война м» at a million books);
  /// the index's own merging keeps the segments few as the catalogue changes.
  static let version17 = """
    DROP TABLE book_words;
    DROP TABLE book_fts;
    CREATE VIRTUAL TABLE book_fts USING fts5(
      search_text, content='book', content_rowid='id', tokenize='unicode61 remove_diacritics 0',
      prefix='1 2 3 4 5');
    INSERT INTO book_fts(book_fts) VALUES ('rebuild');
    INSERT INTO book_fts(book_fts) VALUES ('optimize');
    CREATE VIRTUAL TABLE book_words USING fts5vocab(book_fts, 'row');
    DROP TABLE reader_words;
    DROP TABLE reader_fts;
    CREATE VIRTUAL TABLE reader_fts USING fts5(
      search_text, content='reader', content_rowid='id', tokenize='unicode61 remove_diacritics 0',
      prefix='1 2 3 4 5');
    INSERT INTO reader_fts(reader_fts) VALUES ('rebuild');
    INSERT INTO reader_fts(reader_fts) VALUES ('optimize');
    CREATE VIRTUAL TABLE reader_words USING fts5vocab(reader_fts, 'row');
    UPDATE counter SET value = value + 1 WHERE name IN ('book_words', 'reader_words');
    """

  /// The triggers that capture changes for a central are kept only on a desk tied to one
  /// (`LibraryStore.settleCaptureTriggers`, run after this step): a desk on its own dropped them.
  /// Their SQL was two thirds of the schema a new connection parses before its first statement:
  /// 1.13 ms of a first paint's 2.0 at ten million books went to parsing, 0.5 ms without them.
  /// From here on, a migration that changes a capture trigger drops it `IF EXISTS` and leaves the
  /// creating to `settleCaptureTriggers`.
  static let version18 = "SELECT 1;"

  /// The vocabularies of books and readers are kept as tables (`<table>_vocabulary`), and the
  /// search texts written since they were last gathered as rows of news, by the full-text
  /// triggers (`LibraryStore.vocabulary`). Reading the words from the index (`fts5vocab`) counts
  /// every word's list: 2.3 s at ten million books, again after each change of a word. The update
  /// triggers fire only when the text changed: a record written again as it was (an import with
  /// `--update` of records that did not change) is neither taken out of the index and put back nor
  /// written as news.
  static let version19 = """
    CREATE TABLE book_vocabulary (word TEXT PRIMARY KEY) WITHOUT ROWID;
    INSERT INTO book_vocabulary(word) SELECT term FROM book_words;
    CREATE TABLE book_vocabulary_news (id INTEGER PRIMARY KEY AUTOINCREMENT, search_text TEXT NOT NULL);
    CREATE TABLE reader_vocabulary (word TEXT PRIMARY KEY) WITHOUT ROWID;
    INSERT INTO reader_vocabulary(word) SELECT term FROM reader_words;
    CREATE TABLE reader_vocabulary_news (id INTEGER PRIMARY KEY AUTOINCREMENT, search_text TEXT NOT NULL);
    INSERT INTO counter(name, value) VALUES ('book_vocabulary', 0), ('reader_vocabulary', 0);

    DROP TRIGGER book_fts_insert;
    DROP TRIGGER book_fts_update;
    CREATE TRIGGER book_fts_insert AFTER INSERT ON book
    BEGIN
      INSERT INTO book_fts(rowid, search_text) VALUES (NEW.id, NEW.search_text);
      INSERT INTO book_vocabulary_news(search_text) VALUES (NEW.search_text);
      UPDATE counter SET value = value + 1 WHERE name = 'book_words';
    END;
    CREATE TRIGGER book_fts_update AFTER UPDATE OF search_text ON book
    WHEN OLD.search_text IS NOT NEW.search_text
    BEGIN
      INSERT INTO book_fts(book_fts, rowid, search_text) VALUES ('delete', OLD.id, OLD.search_text);
      INSERT INTO book_fts(rowid, search_text) VALUES (NEW.id, NEW.search_text);
      INSERT INTO book_vocabulary_news(search_text) VALUES (NEW.search_text);
      UPDATE counter SET value = value + 1 WHERE name = 'book_words';
    END;
    DROP TRIGGER reader_fts_insert;
    DROP TRIGGER reader_fts_update;
    CREATE TRIGGER reader_fts_insert AFTER INSERT ON reader
    BEGIN
      INSERT INTO reader_fts(rowid, search_text) VALUES (NEW.id, NEW.search_text);
      INSERT INTO reader_vocabulary_news(search_text) VALUES (NEW.search_text);
      UPDATE counter SET value = value + 1 WHERE name = 'reader_words';
    END;
    CREATE TRIGGER reader_fts_update AFTER UPDATE OF search_text ON reader
    WHEN OLD.search_text IS NOT NEW.search_text
    BEGIN
      INSERT INTO reader_fts(reader_fts, rowid, search_text) VALUES ('delete', OLD.id, OLD.search_text);
      INSERT INTO reader_fts(rowid, search_text) VALUES (NEW.id, NEW.search_text);
      INSERT INTO reader_vocabulary_news(search_text) VALUES (NEW.search_text);
      UPDATE counter SET value = value + 1 WHERE name = 'reader_words';
    END;
    """

  /// An issue taken back at the counter (undo) keeps its loan as a tombstone (`deleted`) that
  /// says when it was undone: the history shows it as issued and undone, while every count, rule
  /// and export still sees no loan. The field travels to the other desks (`SyncedTables.loan`);
  /// the capture triggers are made again by `settleCaptureTriggers`.
  static let version20 = """
    ALTER TABLE loan ADD COLUMN undone_at TEXT;
    """

  /// A desk that leaves its central keeps who it was (`LibraryStore.untie`): its id and library
  /// with the central's address moved here, so that joining again it is the same desk.
  static let version21 = """
    ALTER TABLE sync_desk ADD COLUMN left_central TEXT;
    """

  /// The desk's clock against its central's, measured at each sync (`LibraryStore.correctClock`):
  /// milliseconds added to the desk's clock when it clocks a change (`SyncedTables.nextClock`),
  /// and the central's time then, tied to the machine's uptime (`ClockAnchor`). The capture
  /// triggers are made again by `settleCaptureTriggers`.
  static let version22 = """
    ALTER TABLE sync_desk ADD COLUMN clock_offset_ms INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE sync_desk ADD COLUMN clock_anchor_central_ms INTEGER;
    ALTER TABLE sync_desk ADD COLUMN clock_anchor_boot TEXT;
    ALTER TABLE sync_desk ADD COLUMN clock_anchor_uptime_ms INTEGER;
    """

  /// The indexes a bulk write has dropped to make again at its end (`LibraryStore.puttingOffIndexes`),
  /// kept with their SQL in the transaction that drops them: a write cut by a crash or a kill has
  /// them made again when the file is next opened.
  static let version23 = """
    CREATE TABLE put_off_index (name TEXT PRIMARY KEY, sql TEXT NOT NULL) WITHOUT ROWID;
    """

  /// The transactions of other systems' circulation files (Koha's offline files) this desk has
  /// replayed, by what each says (its time, kind, reader and book): the same file replayed again
  /// changes nothing. The desk's own; not synced.
  static let version24 = """
    CREATE TABLE replayed_transaction (key TEXT PRIMARY KEY, replayed_at TEXT NOT NULL) WITHOUT ROWID;
    """

  /// The other ISBNs of a book's kept record (a record's 010/020 after the first: another
  /// binding, the set), where a scan finds the book (`LibraryStore.indexOtherISBNs`). Made from
  /// the kept record by each desk; not synced. Filled for the records kept before it by
  /// `indexAllOtherISBNs`.
  static let version25 = """
    CREATE TABLE book_isbn (
      isbn13 TEXT NOT NULL,
      book_id INTEGER NOT NULL REFERENCES book(id) ON DELETE CASCADE,
      PRIMARY KEY (isbn13, book_id)
    ) WITHOUT ROWID;
    CREATE INDEX book_isbn_book ON book_isbn(book_id);
    """

  /// A reader imported from another system keeps the record they came in (`source_record`, IRBIS
  /// lines, as a book keeps its: the worksheet, fields the desk does not model, the category as
  /// written, each loan's own subfields); a category says what other systems' files write for it
  /// (`written_as`, one name a line). Both travel (`SyncedTables`). A loan of a book the library
  /// has not got yet waits with its reader (`pending_loan`, the desk's own) until the book
  /// arrives.
  static let version26 = """
    ALTER TABLE reader ADD COLUMN source_record TEXT NOT NULL DEFAULT '';
    ALTER TABLE category ADD COLUMN written_as TEXT NOT NULL DEFAULT '';
    CREATE TABLE pending_loan (
      inventory TEXT NOT NULL,
      reader_id INTEGER NOT NULL REFERENCES reader(id) ON DELETE CASCADE,
      loan TEXT NOT NULL,
      PRIMARY KEY (inventory, reader_id, loan)
    ) WITHOUT ROWID;
    CREATE INDEX pending_loan_reader ON pending_loan(reader_id);
    """

  /// The work diary's events that no other record keeps: a reader at a counter (`visit`, once a
  /// day a desk, the day in the library's own time), and each renewal (`renewal`; a loan keeps
  /// only its count and its latest; an undone one is marked `deleted`). Circulation by date is
  /// read through indexes of the moments (`loan_issued`, `loan_returned`, `hold_placed`,
  /// `hold_ended`, `reader_registered`). The desk's own for now; not synced.
  static let version27 = """
    CREATE TABLE visit (
      id INTEGER PRIMARY KEY,
      uuid TEXT NOT NULL UNIQUE,
      reader_id INTEGER NOT NULL REFERENCES reader(id),
      day TEXT NOT NULL,
      at TEXT NOT NULL,
      desk TEXT NOT NULL,
      created_at TEXT NOT NULL
    );
    CREATE UNIQUE INDEX visit_once ON visit(day, reader_id, desk);
    CREATE TABLE renewal (
      id INTEGER PRIMARY KEY,
      uuid TEXT NOT NULL UNIQUE,
      loan_id INTEGER NOT NULL REFERENCES loan(id),
      renewed_at TEXT NOT NULL,
      desk TEXT NOT NULL,
      deleted INTEGER NOT NULL DEFAULT 0,
      created_at TEXT NOT NULL
    );
    CREATE INDEX renewal_at ON renewal(renewed_at) WHERE deleted = 0;
    CREATE INDEX renewal_loan ON renewal(loan_id, renewed_at);
    CREATE INDEX loan_issued ON loan(issued_at) WHERE deleted = 0;
    CREATE INDEX loan_returned ON loan(returned_at) WHERE returned_at IS NOT NULL AND deleted = 0;
    CREATE INDEX hold_placed ON hold(placed_at);
    CREATE INDEX hold_ended ON hold(ended_at) WHERE ended_at IS NOT NULL;
    CREATE INDEX reader_registered ON reader(registered) WHERE deleted = 0;
    """

  /// A reader's visits in order, where the work diary looks for a reader's first visit of the year.
  static let version28 = """
    CREATE INDEX visit_reader ON visit(reader_id, day);
    """

  /// The work diary's daily sums, kept by triggers (`DiarySums`).
  static let version29 = DiarySums.migration

  /// Stocktaking: a check (`stocktake`) over a part of the stock, the copies it expects frozen when
  /// it opens (`stocktake_expected`), and each scan with where it was made and how it was sorted
  /// (`stocktake_scan`). Migration 31 makes them travel.
  static let version30 = """
    CREATE TABLE stocktake (
      id INTEGER PRIMARY KEY,
      uuid TEXT NOT NULL UNIQUE,
      name TEXT NOT NULL CHECK (length(name) > 0),
      scope TEXT NOT NULL,
      started_at TEXT NOT NULL,
      closed_at TEXT,
      desk TEXT NOT NULL
    );
    CREATE TABLE stocktake_expected (
      stocktake_id INTEGER NOT NULL REFERENCES stocktake(id),
      book_id INTEGER NOT NULL REFERENCES book(id),
      PRIMARY KEY (stocktake_id, book_id)
    ) WITHOUT ROWID;
    CREATE TABLE stocktake_scan (
      id INTEGER PRIMARY KEY,
      uuid TEXT NOT NULL UNIQUE,
      stocktake_id INTEGER NOT NULL REFERENCES stocktake(id),
      code TEXT NOT NULL,
      book_id INTEGER REFERENCES book(id),
      place TEXT NOT NULL DEFAULT '',
      finding TEXT NOT NULL,
      scanned_at TEXT NOT NULL,
      desk TEXT NOT NULL
    );
    CREATE INDEX stocktake_scan_book ON stocktake_scan(stocktake_id, book_id);
    """

  /// Checks travel (`SyncedTables`), so a check is scanned at several desks at once: a check and
  /// its scans as records, its expected list in parts of up to `StocktakeStore.partSize` copies
  /// (one change a part, never a change a copy), which a trigger spreads into
  /// `stocktake_expected` wherever a part is written. A copy keeps the day a closed check last
  /// found it (IRBIS 910 ^S), which travels with the book.
  static let version31 = """
    ALTER TABLE book ADD COLUMN last_checked TEXT;
    ALTER TABLE stocktake ADD COLUMN created_at TEXT NOT NULL DEFAULT '';
    ALTER TABLE stocktake ADD COLUMN updated_at TEXT NOT NULL DEFAULT '';
    UPDATE stocktake SET created_at = started_at;
    ALTER TABLE stocktake_scan ADD COLUMN created_at TEXT NOT NULL DEFAULT '';
    ALTER TABLE stocktake_scan ADD COLUMN updated_at TEXT NOT NULL DEFAULT '';
    UPDATE stocktake_scan SET created_at = scanned_at;
    CREATE TABLE stocktake_part (
      id INTEGER PRIMARY KEY,
      uuid TEXT NOT NULL UNIQUE,
      stocktake_id INTEGER NOT NULL REFERENCES stocktake(id),
      books TEXT NOT NULL,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL DEFAULT ''
    );
    CREATE TRIGGER stocktake_part_expects AFTER INSERT ON stocktake_part BEGIN
      INSERT OR IGNORE INTO stocktake_expected(stocktake_id, book_id)
        SELECT NEW.stocktake_id, b.id FROM json_each(NEW.books) j JOIN book b ON b.uuid = j.value;
    END;
    -- The checks opened before: their expected lists as parts, to travel when the desk joins.
    INSERT INTO stocktake_part(uuid, stocktake_id, books, created_at)
      SELECT lower(hex(randomblob(4))) || '-' || lower(hex(randomblob(2))) || '-4'
          || substr(lower(hex(randomblob(2))), 2) || '-' || substr('89ab', 1 + abs(random()) % 4, 1)
          || substr(lower(hex(randomblob(2))), 2) || '-' || lower(hex(randomblob(6))),
        stocktake_id, json_group_array(uuid), (SELECT started_at FROM stocktake WHERE id = stocktake_id)
      FROM (
        SELECT e.stocktake_id, b.uuid, (row_number() OVER (PARTITION BY e.stocktake_id ORDER BY b.id) - 1) / 1000 AS part
        FROM stocktake_expected e JOIN book b ON b.id = e.book_id
      )
      GROUP BY stocktake_id, part;
    """

  /// A bulk write (an import, a desk catching up) puts off the books' full-text index and count
  /// until its end by a row in `bulk_write`, inside its own transaction, which the triggers look
  /// for: never seen by another connection, gone with a rollback or a crash. They were dropped and
  /// made again before, each time a change of the schema, which made every connection to the file
  /// prepare each of its statements again: parsing was a tenth of a desk's work among fifty
  /// syncing, whose pulls of 200 changes and more went that way.
  static let version32 = """
    CREATE TABLE bulk_write (id INTEGER PRIMARY KEY CHECK (id = 1));

    DROP TRIGGER book_counted;
    CREATE TRIGGER book_counted AFTER INSERT ON book
    WHEN NEW.deleted = 0 AND NOT EXISTS (SELECT 1 FROM bulk_write)
    BEGIN UPDATE counter SET value = value + 1 WHERE name = 'books'; END;

    DROP TRIGGER book_fts_insert;
    CREATE TRIGGER book_fts_insert AFTER INSERT ON book
    WHEN NOT EXISTS (SELECT 1 FROM bulk_write)
    BEGIN
      INSERT INTO book_fts(rowid, search_text) VALUES (NEW.id, NEW.search_text);
      INSERT INTO book_vocabulary_news(search_text) VALUES (NEW.search_text);
      UPDATE counter SET value = value + 1 WHERE name = 'book_words';
    END;

    DROP TRIGGER book_fts_update;
    CREATE TRIGGER book_fts_update AFTER UPDATE OF search_text ON book
    WHEN OLD.search_text IS NOT NEW.search_text AND NOT EXISTS (SELECT 1 FROM bulk_write)
    BEGIN
      INSERT INTO book_fts(book_fts, rowid, search_text) VALUES ('delete', OLD.id, OLD.search_text);
      INSERT INTO book_fts(rowid, search_text) VALUES (NEW.id, NEW.search_text);
      INSERT INTO book_vocabulary_news(search_text) VALUES (NEW.search_text);
      UPDATE counter SET value = value + 1 WHERE name = 'book_words';
    END;
    """

  /// The accounts of the self-check kiosks that log in to this file's SIP2 server (`circdesk sip2
  /// serve`), as Koha's SIPconfig has its logins: the kiosk's settings and its password's Argon2
  /// hash, never the password. Kept by the file that serves them, never synced: each server has
  /// its own kiosks.
  static let version33 = """
    CREATE TABLE kiosk_account (
      name TEXT PRIMARY KEY,
      password_hash TEXT NOT NULL,
      location TEXT NOT NULL DEFAULT '',
      encoding TEXT NOT NULL DEFAULT 'utf8',
      terminator TEXT NOT NULL DEFAULT 'cr',
      checksums TEXT NOT NULL DEFAULT 'optional',
      language TEXT NOT NULL DEFAULT 'en',
      created_at TEXT NOT NULL
    ) WITHOUT ROWID;
    """

  /// Copy cataloguing: the catalogues of other libraries a desk asks (Z39.50 and SRU targets),
  /// what each answered to a query (the records as ISO 2709 bytes, each ended by 0x1D; empty when
  /// it had none: a query asks a target once), and the searches by words that waited for the
  /// network. Kept at the desk that asked, as the ISBN look-up's answers are.
  static let version34 = """
    CREATE TABLE catalogue_target (
      name TEXT PRIMARY KEY,
      kind TEXT NOT NULL CHECK (kind IN ('z3950', 'sru')),
      address TEXT NOT NULL,
      syntax TEXT NOT NULL,
      encoding TEXT NOT NULL DEFAULT '',
      user TEXT NOT NULL DEFAULT '',
      password_variable TEXT NOT NULL DEFAULT '',
      schema TEXT NOT NULL DEFAULT '',
      created_at TEXT NOT NULL
    ) WITHOUT ROWID;
    CREATE TABLE copy_answer (
      target TEXT NOT NULL,
      query TEXT NOT NULL,
      records BLOB NOT NULL,
      from_xml INTEGER NOT NULL DEFAULT 0,
      hits INTEGER NOT NULL DEFAULT 0,
      fetched_at TEXT NOT NULL,
      PRIMARY KEY (target, query)
    ) WITHOUT ROWID;
    CREATE TABLE copy_query_queue (
      query TEXT PRIMARY KEY,
      title TEXT NOT NULL,
      author TEXT NOT NULL,
      year INTEGER,
      queued_at TEXT NOT NULL,
      attempts INTEGER NOT NULL DEFAULT 1,
      last_error TEXT NOT NULL DEFAULT ''
    ) WITHOUT ROWID;
    """
}
