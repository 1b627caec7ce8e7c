/// Migration 29: the work diary's daily sums (`diary_day`), kept by triggers in the transaction
/// of every change to the events they count, whatever wrote it (the counter, an undo, an import,
/// a pulled change).
///
/// Reading a year of events with their readers and books took 21 s at a million loans, and a plain
/// GROUP BY of them 4 s: the diary reads these sums instead (a few hundred rows a day, whatever the
/// size of the library). Nothing here is a counter of its own: each event table has a view of
/// what its rows add to the diary (`diary_loan_part`, …), the triggers take away a row's parts
/// before it changes and add them after, and a test recounts the views whole and compares.
///
/// What a part says of the library is asked of the domain through functions each connection
/// defines (`LibraryStore.defineDiaryFunctions`): `diary_day` (a moment's day in the library's
/// time), `diary_group` (a reader's group for the diary on a day) and `diary_branch` (a BBK
/// index's branch of knowledge by the library's mapping, `-` for none).
///
/// Fixed text, as every migration: never made again from today's code.
enum DiarySums {
  static let migration =
    """
    -- Visits and renewals travel (`SyncedTables`): a pulled one is written with the moment it came.
    ALTER TABLE visit ADD COLUMN updated_at TEXT NOT NULL DEFAULT '';
    ALTER TABLE renewal ADD COLUMN updated_at TEXT NOT NULL DEFAULT '';
    CREATE TABLE diary_day (
      figure TEXT NOT NULL,
      day TEXT NOT NULL,
      desk TEXT NOT NULL,
      reader_group TEXT NOT NULL,
      branch TEXT NOT NULL,
      count INTEGER NOT NULL,
      PRIMARY KEY (figure, day, desk, reader_group, branch)
    ) WITHOUT ROWID;
    -- Each reader's first visit of each year, where the diary counts a reader of earlier years again.
    CREATE TABLE diary_first_visit (
      reader_id INTEGER NOT NULL,
      year TEXT NOT NULL,
      day TEXT NOT NULL,
      desk TEXT NOT NULL,
      PRIMARY KEY (reader_id, year)
    ) WITHOUT ROWID;

    CREATE VIEW diary_loan_part AS
      SELECT x.id AS loan_id, x.reader_id AS reader_id, x.book_id AS book_id, 'issues' AS figure,
        coalesce(diary_day(x.issued_at), '') AS day, x.desk AS desk,
        diary_group(r.birth_year, r.category, diary_day(x.issued_at)) AS reader_group, \(branch) AS branch, 1 AS n
      FROM loan x JOIN reader r ON r.id = x.reader_id JOIN book b ON b.id = x.book_id
      WHERE x.deleted = 0
      UNION ALL
      SELECT x.id, x.reader_id, x.book_id, 'returns', coalesce(diary_day(x.returned_at), ''), x.desk,
        diary_group(r.birth_year, r.category, diary_day(x.returned_at)), \(branch), 1
      FROM loan x JOIN reader r ON r.id = x.reader_id JOIN book b ON b.id = x.book_id
      WHERE x.deleted = 0 AND x.returned_at IS NOT NULL
      UNION ALL
      -- Overdue at a day's end from the day after the due date to the day before the return: +1
      -- then, -1 at the return, so a day's overdue is the sum of the days up to it.
      SELECT x.id, x.reader_id, x.book_id, 'overdue', coalesce(date(x.due_date, '+1 day'), ''), x.desk,
        diary_group(r.birth_year, r.category, date(x.due_date, '+1 day')), \(branch), 1
      FROM loan x JOIN reader r ON r.id = x.reader_id JOIN book b ON b.id = x.book_id
      WHERE x.deleted = 0 AND (x.returned_at IS NULL OR diary_day(x.returned_at) > x.due_date)
      UNION ALL
      SELECT x.id, x.reader_id, x.book_id, 'overdue', coalesce(diary_day(x.returned_at), ''), x.desk,
        diary_group(r.birth_year, r.category, date(x.due_date, '+1 day')), \(branch), -1
      FROM loan x JOIN reader r ON r.id = x.reader_id JOIN book b ON b.id = x.book_id
      WHERE x.deleted = 0 AND x.returned_at IS NOT NULL AND diary_day(x.returned_at) > x.due_date;

    CREATE VIEW diary_renewal_part AS
      SELECT n.id AS renewal_id, n.loan_id AS loan_id, x.reader_id AS reader_id, x.book_id AS book_id,
        'renewals' AS figure, coalesce(diary_day(n.renewed_at), '') AS day, n.desk AS desk,
        diary_group(r.birth_year, r.category, diary_day(n.renewed_at)) AS reader_group, \(branch) AS branch, 1 AS n
      FROM renewal n JOIN loan x ON x.id = n.loan_id JOIN reader r ON r.id = x.reader_id
        JOIN book b ON b.id = x.book_id
      WHERE n.deleted = 0 AND x.deleted = 0;

    CREATE VIEW diary_visit_part AS
      SELECT v.id AS visit_id, v.reader_id AS reader_id, 'visits' AS figure, v.day AS day, v.desk AS desk,
        diary_group(r.birth_year, r.category, v.day) AS reader_group, '' AS branch, 1 AS n
      FROM visit v JOIN reader r ON r.id = v.reader_id;

    CREATE VIEW diary_first_visit_part AS
      SELECT f.reader_id AS reader_id, f.year AS year, 'reregistered' AS figure, f.day AS day, f.desk AS desk,
        diary_group(r.birth_year, r.category, f.day) AS reader_group, '' AS branch, 1 AS n
      FROM diary_first_visit f JOIN reader r ON r.id = f.reader_id
      WHERE r.registered < f.year || '-01-01';

    CREATE VIEW diary_hold_part AS
      SELECT h.id AS hold_id, h.reader_id AS reader_id, 'holds_placed' AS figure,
        coalesce(diary_day(h.placed_at), '') AS day, h.desk AS desk,
        diary_group(r.birth_year, r.category, diary_day(h.placed_at)) AS reader_group, '' AS branch, 1 AS n
      FROM hold h JOIN reader r ON r.id = h.reader_id
      UNION ALL
      SELECT h.id, h.reader_id, 'holds_filled', coalesce(diary_day(h.ended_at), ''), h.desk,
        diary_group(r.birth_year, r.category, diary_day(h.ended_at)), '', 1
      FROM hold h JOIN reader r ON r.id = h.reader_id
      WHERE h.state = 'fulfilled' AND h.ended_at IS NOT NULL;

    CREATE VIEW diary_reader_part AS
      SELECT r.id AS reader_id, 'registered' AS figure, r.registered AS day, '' AS desk,
        diary_group(r.birth_year, r.category, r.registered) AS reader_group, '' AS branch, 1 AS n
      FROM reader r WHERE r.deleted = 0;

    -- Every part of every event: what the sums must always equal.
    CREATE VIEW diary_part AS
      SELECT figure, day, desk, reader_group, branch, n FROM diary_loan_part
      UNION ALL SELECT figure, day, desk, reader_group, branch, n FROM diary_renewal_part
      UNION ALL SELECT figure, day, desk, reader_group, branch, n FROM diary_visit_part
      UNION ALL SELECT figure, day, desk, reader_group, branch, n FROM diary_first_visit_part
      UNION ALL SELECT figure, day, desk, reader_group, branch, n FROM diary_hold_part
      UNION ALL SELECT figure, day, desk, reader_group, branch, n FROM diary_reader_part;

    INSERT INTO diary_first_visit(reader_id, year, day, desk)
      SELECT reader_id, substr(day, 1, 4), substr(min(day || ' ' || desk), 1, 10), substr(min(day || ' ' || desk), 12)
      FROM visit GROUP BY reader_id, substr(day, 1, 4);
    \(add("diary_part", where: "true"))

    \(following("loan", columns: loanColumns, parts: [
      ("diary_loan_part", "loan_id", nil), ("diary_renewal_part", "loan_id", changed("deleted, reader_id, book_id")),
    ]))
    \(following("renewal", columns: renewalColumns, parts: [("diary_renewal_part", "renewal_id", nil)]))

    -- A visit is written with INSERT OR IGNORE (once a day a desk): only AFTER INSERT triggers,
    -- which an ignored row does not fire.
    CREATE TRIGGER diary_visit_added AFTER INSERT ON visit
    BEGIN
      \(add("diary_visit_part", where: "visit_id = NEW.id"))
      INSERT INTO diary_first_visit(reader_id, year, day, desk)
        VALUES (NEW.reader_id, substr(NEW.day, 1, 4), NEW.day, NEW.desk)
        ON CONFLICT(reader_id, year) DO UPDATE SET day = excluded.day, desk = excluded.desk
        WHERE (excluded.day, excluded.desk) < (diary_first_visit.day, diary_first_visit.desk);
    END;
    CREATE TRIGGER diary_visit_changing BEFORE UPDATE OF day, desk, reader_id ON visit
    WHEN \(changed("day, desk, reader_id"))
    BEGIN
      \(subtract("diary_visit_part", where: "visit_id = OLD.id"))
    END;
    CREATE TRIGGER diary_visit_changed AFTER UPDATE OF day, desk, reader_id ON visit
    WHEN \(changed("day, desk, reader_id"))
    BEGIN
      \(add("diary_visit_part", where: "visit_id = NEW.id"))
      \(findFirstVisit(reader: "OLD.reader_id", year: "substr(OLD.day, 1, 4)"))
      \(findFirstVisit(reader: "NEW.reader_id", year: "substr(NEW.day, 1, 4)"))
    END;
    CREATE TRIGGER diary_visit_removing BEFORE DELETE ON visit
    BEGIN
      \(subtract("diary_visit_part", where: "visit_id = OLD.id"))
    END;
    CREATE TRIGGER diary_visit_removed AFTER DELETE ON visit
    BEGIN
      \(findFirstVisit(reader: "OLD.reader_id", year: "substr(OLD.day, 1, 4)"))
    END;

    CREATE TRIGGER diary_first_visit_added AFTER INSERT ON diary_first_visit
    BEGIN
      \(add("diary_first_visit_part", where: "reader_id = NEW.reader_id AND year = NEW.year"))
    END;
    CREATE TRIGGER diary_first_visit_changing BEFORE UPDATE ON diary_first_visit
    BEGIN
      \(subtract("diary_first_visit_part", where: "reader_id = OLD.reader_id AND year = OLD.year"))
    END;
    CREATE TRIGGER diary_first_visit_changed AFTER UPDATE ON diary_first_visit
    BEGIN
      \(add("diary_first_visit_part", where: "reader_id = NEW.reader_id AND year = NEW.year"))
    END;
    CREATE TRIGGER diary_first_visit_removed BEFORE DELETE ON diary_first_visit
    BEGIN
      \(subtract("diary_first_visit_part", where: "reader_id = OLD.reader_id AND year = OLD.year"))
    END;

    \(following("hold", columns: holdColumns, parts: [("diary_hold_part", "hold_id", nil)]))

    -- A reader's group (birth year, category) is part of everything of theirs; their registration
    -- date decides whether a first visit of a year counts them again.
    CREATE TRIGGER diary_reader_added AFTER INSERT ON reader
    BEGIN
      \(add("diary_reader_part", where: "reader_id = NEW.id"))
    END;
    CREATE TRIGGER diary_reader_changing BEFORE UPDATE OF \(readerColumns) ON reader
    WHEN \(changed(readerColumns))
    BEGIN
      \(subtract("diary_reader_part", where: "reader_id = OLD.id"))
      \(readerParts.map { subtract($0, where: "reader_id = OLD.id AND \(changed(groupColumns))") }.joined(separator: "\n  "))
      \(subtract("diary_first_visit_part", where: "reader_id = OLD.id AND \(changed(readerColumns))"))
    END;
    CREATE TRIGGER diary_reader_changed AFTER UPDATE OF \(readerColumns) ON reader
    WHEN \(changed(readerColumns))
    BEGIN
      \(add("diary_reader_part", where: "reader_id = NEW.id"))
      \(readerParts.map { add($0, where: "reader_id = NEW.id AND \(changed(groupColumns))") }.joined(separator: "\n  "))
      \(add("diary_first_visit_part", where: "reader_id = NEW.id AND \(changed(readerColumns))"))
    END;
    CREATE TRIGGER diary_reader_removed BEFORE DELETE ON reader
    BEGIN
      \(subtract("diary_reader_part", where: "reader_id = OLD.id"))
    END;

    -- A book's index is part of its loans and renewals.
    CREATE TRIGGER diary_book_changing BEFORE UPDATE OF bbk ON book WHEN OLD.bbk IS NOT NEW.bbk
    BEGIN
      \(subtract("diary_loan_part", where: "book_id = OLD.id"))
      \(subtract("diary_renewal_part", where: "book_id = OLD.id"))
    END;
    CREATE TRIGGER diary_book_changed AFTER UPDATE OF bbk ON book WHEN OLD.bbk IS NOT NEW.bbk
    BEGIN
      \(add("diary_loan_part", where: "book_id = NEW.id"))
      \(add("diary_renewal_part", where: "book_id = NEW.id"))
    END;

    -- The library's mapping of indexes to branches is part of every book's figures: all are counted
    -- again (a rare change, made by a librarian or arriving from the central).
    CREATE TRIGGER diary_branches_added AFTER INSERT ON setting WHEN NEW.key = 'diary_branches'
    BEGIN
      \(recountBranches)
    END;
    CREATE TRIGGER diary_branches_changed AFTER UPDATE ON setting
    WHEN 'diary_branches' IN (OLD.key, NEW.key) AND (OLD.key, OLD.value) IS NOT (NEW.key, NEW.value)
    BEGIN
      \(recountBranches)
    END;
    CREATE TRIGGER diary_branches_removed AFTER DELETE ON setting WHEN OLD.key = 'diary_branches'
    BEGIN
      \(recountBranches)
    END;
    """

  private static let branch = "diary_branch(b.bbk, (SELECT value FROM setting WHERE key = 'diary_branches'))"
  private static let loanColumns = "issued_at, returned_at, due_date, deleted, reader_id, book_id, desk"
  private static let renewalColumns = "renewed_at, deleted, desk, loan_id"
  private static let holdColumns = "placed_at, ended_at, state, desk, reader_id"
  private static let readerColumns = "registered, deleted, birth_year, category"
  private static let groupColumns = "birth_year, category"
  private static let readerParts = ["diary_loan_part", "diary_renewal_part", "diary_visit_part", "diary_hold_part"]

  /// The four triggers that keep the sums of a table's rows: a row's `parts` (a view, the column
  /// naming the row in it, and for an update a condition it must also meet) added after an
  /// insert, taken away before an update of `columns` and added after it, taken away before a
  /// delete.
  private static func following(_ table: String, columns: String, parts: [(String, String, String?)]) -> String {
    func each(_ sign: String, _ row: String, updating: Bool) -> String {
      parts.map { view, key, condition in
        sum(view, "\(key) = \(row).id" + (updating ? condition.map { " AND \($0)" } ?? "" : ""), sign)
      }.joined(separator: "\n  ")
    }
    return """
      CREATE TRIGGER diary_\(table)_added AFTER INSERT ON \(table)
        BEGIN
          \(each("", "NEW", updating: false))
        END;
        CREATE TRIGGER diary_\(table)_changing BEFORE UPDATE OF \(columns) ON \(table)
        WHEN \(changed(columns))
        BEGIN
          \(each("-", "OLD", updating: true))
        END;
        CREATE TRIGGER diary_\(table)_changed AFTER UPDATE OF \(columns) ON \(table)
        WHEN \(changed(columns))
        BEGIN
          \(each("", "NEW", updating: true))
        END;
        CREATE TRIGGER diary_\(table)_removed BEFORE DELETE ON \(table)
        BEGIN
          \(each("-", "OLD", updating: false))
        END;
      """
  }

  /// True when one of `columns` differs between the row before and after.
  private static func changed(_ columns: String) -> String {
    let names = columns.split(separator: ",").map { $0.drop { $0 == " " } }
    return
      "(\(names.map { "OLD.\($0)" }.joined(separator: ", "))) IS NOT (\(names.map { "NEW.\($0)" }.joined(separator: ", ")))"
  }

  private static func add(_ view: String, where condition: String) -> String { sum(view, condition, "") }
  private static func subtract(_ view: String, where condition: String) -> String { sum(view, condition, "-") }

  private static func sum(_ view: String, _ condition: String, _ sign: String) -> String {
    """
    INSERT INTO diary_day(figure, day, desk, reader_group, branch, count)
        SELECT figure, day, desk, reader_group, branch, \(sign)sum(n) FROM \(view) WHERE \(condition)
        GROUP BY figure, day, desk, reader_group, branch
        ON CONFLICT DO UPDATE SET count = diary_day.count + excluded.count;
    """
  }

  /// The reader's first visit of the year found again among their visits (none: no row).
  private static func findFirstVisit(reader: String, year: String) -> String {
    """
    DELETE FROM diary_first_visit WHERE reader_id = \(reader) AND year = \(year) AND NOT EXISTS (
          SELECT 1 FROM visit WHERE reader_id = \(reader) AND day BETWEEN \(year) || '-01-01' AND \(year) || '-12-31');
      INSERT INTO diary_first_visit(reader_id, year, day, desk)
        SELECT \(reader), \(year), substr(first, 1, 10), substr(first, 12) FROM (
          SELECT min(day || ' ' || desk) AS first FROM visit
          WHERE reader_id = \(reader) AND day BETWEEN \(year) || '-01-01' AND \(year) || '-12-31')
        WHERE first IS NOT NULL
        ON CONFLICT(reader_id, year) DO UPDATE SET day = excluded.day, desk = excluded.desk
        WHERE (excluded.day, excluded.desk) IS NOT (diary_first_visit.day, diary_first_visit.desk);
    """
  }

  private static let recountBranches = """
    DELETE FROM diary_day WHERE branch <> '';
      INSERT INTO diary_day(figure, day, desk, reader_group, branch, count)
        SELECT figure, day, desk, reader_group, branch, sum(n) FROM (
          SELECT figure, day, desk, reader_group, branch, n FROM diary_loan_part
          UNION ALL SELECT figure, day, desk, reader_group, branch, n FROM diary_renewal_part)
        GROUP BY figure, day, desk, reader_group, branch;
    """
}
