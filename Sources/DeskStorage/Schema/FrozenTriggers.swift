/// The capture triggers as the migrations that made them wrote them: fixed text, never made again
/// from today's table definitions (`SyncedTables`), so that a file upgraded from any version goes
/// through the very steps a file of that time did. From migration 18 on, the capture triggers of
/// the present schema are made after the migrations (`LibraryStore.settleCaptureTriggers`).
enum FrozenTriggers {
  /// Migration 10: the capture triggers of every table that travelled then, and of settled conflicts.
  static let version10 = """
    CREATE TRIGGER conflict_captured AFTER UPDATE OF resolved_at ON conflict
    WHEN (SELECT capture = 1 AND applying = 0 FROM sync_desk WHERE id = 1) AND NEW.resolved_at IS NOT NULL AND
      NEW.kind NOT IN ('inventory', 'ticket', 'refused_change')
    BEGIN
      INSERT INTO outbox(entity, record_id, hlc, payload)
        VALUES ('conflict', NEW.key, max((SELECT hlc FROM sync_desk WHERE id = 1) + 1, coalesce((SELECT hlc FROM
          outbox ORDER BY seq DESC LIMIT 1), 0) + 1,
      CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER) * 65536), json_object('kind', NEW.kind, 'entity',
        NEW.entity,
          'record_id', NEW.record_id, 'other_id', NEW.other_id, 'details', NEW.details,
          'resolved_at', NEW.resolved_at, 'resolution', NEW.resolution, 'holder', NEW.holder));
    END;
    CREATE TRIGGER category_captured_insert AFTER INSERT ON category WHEN (SELECT capture = 1 AND applying = 0
      FROM sync_desk WHERE id = 1)
    BEGIN
      INSERT INTO outbox(entity, record_id, hlc, payload)
        VALUES ('category', NEW.code, max((SELECT hlc FROM sync_desk WHERE id = 1) + 1, coalesce((SELECT hlc FROM
          outbox ORDER BY seq DESC LIMIT 1), 0) + 1,
      CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER) * 65536), json_object('name', NEW.name,
        'loan_days', NEW.loan_days, 'loan_limit', NEW.loan_limit, 'renewal_limit', NEW.renewal_limit, 'deleted',
        0));
    END;
    CREATE TRIGGER category_captured_update AFTER UPDATE ON category WHEN (SELECT capture = 1 AND applying = 0
      FROM sync_desk WHERE id = 1)
    BEGIN
      INSERT INTO outbox(entity, record_id, hlc, payload)
        SELECT 'category', NEW.code, max((SELECT hlc FROM sync_desk WHERE id = 1) + 1, coalesce((SELECT hlc FROM
          outbox ORDER BY seq DESC LIMIT 1), 0) + 1,
      CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER) * 65536), p.payload
        FROM (SELECT json_group_object(f, v) AS payload FROM (SELECT 'name' AS f, NEW.name AS v WHERE NEW.name IS
          NOT OLD.name UNION ALL SELECT 'loan_days' AS f, NEW.loan_days AS v WHERE NEW.loan_days IS NOT
          OLD.loan_days UNION ALL SELECT 'loan_limit' AS f, NEW.loan_limit AS v WHERE NEW.loan_limit IS NOT
          OLD.loan_limit UNION ALL SELECT 'renewal_limit' AS f, NEW.renewal_limit AS v WHERE NEW.renewal_limit IS
          NOT OLD.renewal_limit)) p WHERE p.payload <> '{}';
    END;
    CREATE TRIGGER category_captured_delete AFTER DELETE ON category WHEN (SELECT capture = 1 AND applying = 0
      FROM sync_desk WHERE id = 1)
    BEGIN
      INSERT INTO outbox(entity, record_id, hlc, payload)
        VALUES ('category', OLD.code, max((SELECT hlc FROM sync_desk WHERE id = 1) + 1, coalesce((SELECT hlc FROM
          outbox ORDER BY seq DESC LIMIT 1), 0) + 1,
      CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER) * 65536), json_object('deleted', 1));
    END;

    CREATE TRIGGER holiday_captured_insert AFTER INSERT ON holiday WHEN (SELECT capture = 1 AND applying = 0 FROM
      sync_desk WHERE id = 1)
    BEGIN
      INSERT INTO outbox(entity, record_id, hlc, payload)
        VALUES ('holiday', NEW.day, max((SELECT hlc FROM sync_desk WHERE id = 1) + 1, coalesce((SELECT hlc FROM
          outbox ORDER BY seq DESC LIMIT 1), 0) + 1,
      CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER) * 65536), json_object('name', NEW.name,
        'deleted', 0));
    END;
    CREATE TRIGGER holiday_captured_update AFTER UPDATE ON holiday WHEN (SELECT capture = 1 AND applying = 0 FROM
      sync_desk WHERE id = 1)
    BEGIN
      INSERT INTO outbox(entity, record_id, hlc, payload)
        SELECT 'holiday', NEW.day, max((SELECT hlc FROM sync_desk WHERE id = 1) + 1, coalesce((SELECT hlc FROM
          outbox ORDER BY seq DESC LIMIT 1), 0) + 1,
      CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER) * 65536), p.payload
        FROM (SELECT json_group_object(f, v) AS payload FROM (SELECT 'name' AS f, NEW.name AS v WHERE NEW.name IS
          NOT OLD.name)) p WHERE p.payload <> '{}';
    END;
    CREATE TRIGGER holiday_captured_delete AFTER DELETE ON holiday WHEN (SELECT capture = 1 AND applying = 0 FROM
      sync_desk WHERE id = 1)
    BEGIN
      INSERT INTO outbox(entity, record_id, hlc, payload)
        VALUES ('holiday', OLD.day, max((SELECT hlc FROM sync_desk WHERE id = 1) + 1, coalesce((SELECT hlc FROM
          outbox ORDER BY seq DESC LIMIT 1), 0) + 1,
      CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER) * 65536), json_object('deleted', 1));
    END;

    CREATE TRIGGER setting_captured_insert AFTER INSERT ON setting WHEN (SELECT capture = 1 AND applying = 0 FROM
      sync_desk WHERE id = 1) AND NEW.key IN ('due_date_mode', 'closed_weekdays', 'block_on_overdue',
      'renewal_base', 'default_category', 'reader_code_prefix', 'book_code_prefix', 'library_name',
      'library_address', 'library_phone', 'library_email', 'hold_pickup_days')
    BEGIN
      INSERT INTO outbox(entity, record_id, hlc, payload)
        VALUES ('setting', NEW.key, max((SELECT hlc FROM sync_desk WHERE id = 1) + 1, coalesce((SELECT hlc FROM
          outbox ORDER BY seq DESC LIMIT 1), 0) + 1,
      CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER) * 65536), json_object('value', NEW.value,
        'deleted', 0));
    END;
    CREATE TRIGGER setting_captured_update AFTER UPDATE ON setting WHEN (SELECT capture = 1 AND applying = 0 FROM
      sync_desk WHERE id = 1) AND NEW.key IN ('due_date_mode', 'closed_weekdays', 'block_on_overdue',
      'renewal_base', 'default_category', 'reader_code_prefix', 'book_code_prefix', 'library_name',
      'library_address', 'library_phone', 'library_email', 'hold_pickup_days')
    BEGIN
      INSERT INTO outbox(entity, record_id, hlc, payload)
        SELECT 'setting', NEW.key, max((SELECT hlc FROM sync_desk WHERE id = 1) + 1, coalesce((SELECT hlc FROM
          outbox ORDER BY seq DESC LIMIT 1), 0) + 1,
      CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER) * 65536), p.payload
        FROM (SELECT json_group_object(f, v) AS payload FROM (SELECT 'value' AS f, NEW.value AS v WHERE NEW.value
          IS NOT OLD.value)) p WHERE p.payload <> '{}';
    END;
    CREATE TRIGGER setting_captured_delete AFTER DELETE ON setting WHEN (SELECT capture = 1 AND applying = 0 FROM
      sync_desk WHERE id = 1) AND OLD.key IN ('due_date_mode', 'closed_weekdays', 'block_on_overdue',
      'renewal_base', 'default_category', 'reader_code_prefix', 'book_code_prefix', 'library_name',
      'library_address', 'library_phone', 'library_email', 'hold_pickup_days')
    BEGIN
      INSERT INTO outbox(entity, record_id, hlc, payload)
        VALUES ('setting', OLD.key, max((SELECT hlc FROM sync_desk WHERE id = 1) + 1, coalesce((SELECT hlc FROM
          outbox ORDER BY seq DESC LIMIT 1), 0) + 1,
      CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER) * 65536), json_object('deleted', 1));
    END;

    CREATE TRIGGER address_captured_insert AFTER INSERT ON address WHEN (SELECT capture = 1 AND applying = 0 FROM
      sync_desk WHERE id = 1)
    BEGIN
      INSERT INTO outbox(entity, record_id, hlc, payload)
        VALUES ('address', NEW.uuid, max((SELECT hlc FROM sync_desk WHERE id = 1) + 1, coalesce((SELECT hlc FROM
          outbox ORDER BY seq DESC LIMIT 1), 0) + 1,
      CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER) * 65536), json_object('phone', NEW.phone,
        'phone_key', NEW.phone_key, 'postcode', NEW.postcode, 'city', NEW.city, 'street', NEW.street, 'house',
        NEW.house, 'flat', NEW.flat, 'created_at', NEW.created_at, 'deleted', NEW.deleted));
    END;
    CREATE TRIGGER address_captured_update AFTER UPDATE ON address WHEN (SELECT capture = 1 AND applying = 0 FROM
      sync_desk WHERE id = 1)
    BEGIN
      INSERT INTO outbox(entity, record_id, hlc, payload)
        SELECT 'address', NEW.uuid, max((SELECT hlc FROM sync_desk WHERE id = 1) + 1, coalesce((SELECT hlc FROM
          outbox ORDER BY seq DESC LIMIT 1), 0) + 1,
      CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER) * 65536), p.payload
        FROM (SELECT json_group_object(f, v) AS payload FROM (SELECT 'phone' AS f, NEW.phone AS v WHERE NEW.phone
          IS NOT OLD.phone UNION ALL SELECT 'phone_key' AS f, NEW.phone_key AS v WHERE NEW.phone_key IS NOT
          OLD.phone_key UNION ALL SELECT 'postcode' AS f, NEW.postcode AS v WHERE NEW.postcode IS NOT OLD.postcode
          UNION ALL SELECT 'city' AS f, NEW.city AS v WHERE NEW.city IS NOT OLD.city UNION ALL SELECT 'street' AS
          f, NEW.street AS v WHERE NEW.street IS NOT OLD.street UNION ALL SELECT 'house' AS f, NEW.house AS v
          WHERE NEW.house IS NOT OLD.house UNION ALL SELECT 'flat' AS f, NEW.flat AS v WHERE NEW.flat IS NOT
          OLD.flat UNION ALL SELECT 'created_at' AS f, NEW.created_at AS v WHERE NEW.created_at IS NOT
          OLD.created_at UNION ALL SELECT 'deleted' AS f, NEW.deleted AS v WHERE NEW.deleted IS NOT OLD.deleted))
          p WHERE p.payload <> '{}';
    END;

    CREATE TRIGGER book_captured_insert AFTER INSERT ON book WHEN (SELECT capture = 1 AND applying = 0 FROM
      sync_desk WHERE id = 1)
    BEGIN
      INSERT INTO outbox(entity, record_id, hlc, payload)
        VALUES ('book', NEW.uuid, max((SELECT hlc FROM sync_desk WHERE id = 1) + 1, coalesce((SELECT hlc FROM
          outbox ORDER BY seq DESC LIMIT 1), 0) + 1,
      CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER) * 65536), json_object('inventory', NEW.inventory,
        'isbn', NEW.isbn, 'isbn13', NEW.isbn13, 'author_surname', NEW.author_surname, 'author_initials',
        NEW.author_initials, 'title', NEW.title, 'publisher', NEW.publisher, 'city', NEW.city, 'year', NEW.year,
        'pages', NEW.pages, 'price_minor', NEW.price_minor, 'bbk', NEW.bbk, 'author_mark', NEW.author_mark,
        'place', NEW.place, 'received', NEW.received, 'created_at', NEW.created_at, 'deleted', NEW.deleted));
    END;
    CREATE TRIGGER book_captured_update AFTER UPDATE ON book WHEN (SELECT capture = 1 AND applying = 0 FROM
      sync_desk WHERE id = 1)
    BEGIN
      INSERT INTO outbox(entity, record_id, hlc, payload)
        SELECT 'book', NEW.uuid, max((SELECT hlc FROM sync_desk WHERE id = 1) + 1, coalesce((SELECT hlc FROM
          outbox ORDER BY seq DESC LIMIT 1), 0) + 1,
      CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER) * 65536), p.payload
        FROM (SELECT json_group_object(f, v) AS payload FROM (SELECT 'inventory' AS f, NEW.inventory AS v WHERE
          NEW.inventory IS NOT OLD.inventory UNION ALL SELECT 'isbn' AS f, NEW.isbn AS v WHERE NEW.isbn IS NOT
          OLD.isbn UNION ALL SELECT 'isbn13' AS f, NEW.isbn13 AS v WHERE NEW.isbn13 IS NOT OLD.isbn13 UNION ALL
          SELECT 'author_surname' AS f, NEW.author_surname AS v WHERE NEW.author_surname IS NOT OLD.author_surname
          UNION ALL SELECT 'author_initials' AS f, NEW.author_initials AS v WHERE NEW.author_initials IS NOT
          OLD.author_initials UNION ALL SELECT 'title' AS f, NEW.title AS v WHERE NEW.title IS NOT OLD.title UNION
          ALL SELECT 'publisher' AS f, NEW.publisher AS v WHERE NEW.publisher IS NOT OLD.publisher UNION ALL
          SELECT 'city' AS f, NEW.city AS v WHERE NEW.city IS NOT OLD.city UNION ALL SELECT 'year' AS f, NEW.year
          AS v WHERE NEW.year IS NOT OLD.year UNION ALL SELECT 'pages' AS f, NEW.pages AS v WHERE NEW.pages IS NOT
          OLD.pages UNION ALL SELECT 'price_minor' AS f, NEW.price_minor AS v WHERE NEW.price_minor IS NOT
          OLD.price_minor UNION ALL SELECT 'bbk' AS f, NEW.bbk AS v WHERE NEW.bbk IS NOT OLD.bbk UNION ALL SELECT
          'author_mark' AS f, NEW.author_mark AS v WHERE NEW.author_mark IS NOT OLD.author_mark UNION ALL SELECT
          'place' AS f, NEW.place AS v WHERE NEW.place IS NOT OLD.place UNION ALL SELECT 'received' AS f,
          NEW.received AS v WHERE NEW.received IS NOT OLD.received UNION ALL SELECT 'created_at' AS f,
          NEW.created_at AS v WHERE NEW.created_at IS NOT OLD.created_at UNION ALL SELECT 'deleted' AS f,
          NEW.deleted AS v WHERE NEW.deleted IS NOT OLD.deleted)) p WHERE p.payload <> '{}';
    END;

    CREATE TRIGGER reader_captured_insert AFTER INSERT ON reader WHEN (SELECT capture = 1 AND applying = 0 FROM
      sync_desk WHERE id = 1)
    BEGIN
      INSERT INTO outbox(entity, record_id, hlc, payload)
        VALUES ('reader', NEW.uuid, max((SELECT hlc FROM sync_desk WHERE id = 1) + 1, coalesce((SELECT hlc FROM
          outbox ORDER BY seq DESC LIMIT 1), 0) + 1,
      CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER) * 65536), json_object('ticket', NEW.ticket,
        'surname', NEW.surname, 'first_name', NEW.first_name, 'patronymic', NEW.patronymic, 'birth_year',
        NEW.birth_year, 'phone', NEW.phone, 'email', NEW.email, 'category', NEW.category, 'registered',
        NEW.registered, 'address', (SELECT uuid FROM address WHERE id = NEW.address_id), 'created_at',
        NEW.created_at, 'deleted', NEW.deleted));
    END;
    CREATE TRIGGER reader_captured_update AFTER UPDATE ON reader WHEN (SELECT capture = 1 AND applying = 0 FROM
      sync_desk WHERE id = 1)
    BEGIN
      INSERT INTO outbox(entity, record_id, hlc, payload)
        SELECT 'reader', NEW.uuid, max((SELECT hlc FROM sync_desk WHERE id = 1) + 1, coalesce((SELECT hlc FROM
          outbox ORDER BY seq DESC LIMIT 1), 0) + 1,
      CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER) * 65536), p.payload
        FROM (SELECT json_group_object(f, v) AS payload FROM (SELECT 'ticket' AS f, NEW.ticket AS v WHERE
          NEW.ticket IS NOT OLD.ticket UNION ALL SELECT 'surname' AS f, NEW.surname AS v WHERE NEW.surname IS NOT
          OLD.surname UNION ALL SELECT 'first_name' AS f, NEW.first_name AS v WHERE NEW.first_name IS NOT
          OLD.first_name UNION ALL SELECT 'patronymic' AS f, NEW.patronymic AS v WHERE NEW.patronymic IS NOT
          OLD.patronymic UNION ALL SELECT 'birth_year' AS f, NEW.birth_year AS v WHERE NEW.birth_year IS NOT
          OLD.birth_year UNION ALL SELECT 'phone' AS f, NEW.phone AS v WHERE NEW.phone IS NOT OLD.phone UNION ALL
          SELECT 'email' AS f, NEW.email AS v WHERE NEW.email IS NOT OLD.email UNION ALL SELECT 'category' AS f,
          NEW.category AS v WHERE NEW.category IS NOT OLD.category UNION ALL SELECT 'registered' AS f,
          NEW.registered AS v WHERE NEW.registered IS NOT OLD.registered UNION ALL SELECT 'address' AS f, (SELECT
          uuid FROM address WHERE id = NEW.address_id) AS v WHERE NEW.address_id IS NOT OLD.address_id UNION ALL
          SELECT 'created_at' AS f, NEW.created_at AS v WHERE NEW.created_at IS NOT OLD.created_at UNION ALL
          SELECT 'deleted' AS f, NEW.deleted AS v WHERE NEW.deleted IS NOT OLD.deleted)) p WHERE p.payload <>
          '{}';
    END;

    CREATE TRIGGER loan_captured_insert AFTER INSERT ON loan WHEN (SELECT capture = 1 AND applying = 0 FROM
      sync_desk WHERE id = 1)
    BEGIN
      INSERT INTO outbox(entity, record_id, hlc, payload)
        VALUES ('loan', NEW.uuid, max((SELECT hlc FROM sync_desk WHERE id = 1) + 1, coalesce((SELECT hlc FROM
          outbox ORDER BY seq DESC LIMIT 1), 0) + 1,
      CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER) * 65536), json_object('book', (SELECT uuid FROM
        book WHERE id = NEW.book_id), 'reader', (SELECT uuid FROM reader WHERE id = NEW.reader_id), 'issued_at',
        NEW.issued_at, 'due_date', NEW.due_date, 'returned_at', NEW.returned_at, 'renewals', NEW.renewals,
        'renewed_at', NEW.renewed_at, 'desk', NEW.desk, 'created_at', NEW.created_at, 'deleted', NEW.deleted));
    END;
    CREATE TRIGGER loan_captured_update AFTER UPDATE ON loan WHEN (SELECT capture = 1 AND applying = 0 FROM
      sync_desk WHERE id = 1)
    BEGIN
      INSERT INTO outbox(entity, record_id, hlc, payload)
        SELECT 'loan', NEW.uuid, max((SELECT hlc FROM sync_desk WHERE id = 1) + 1, coalesce((SELECT hlc FROM
          outbox ORDER BY seq DESC LIMIT 1), 0) + 1,
      CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER) * 65536), p.payload
        FROM (SELECT json_group_object(f, v) AS payload FROM (SELECT 'book' AS f, (SELECT uuid FROM book WHERE id
          = NEW.book_id) AS v WHERE NEW.book_id IS NOT OLD.book_id UNION ALL SELECT 'reader' AS f, (SELECT uuid
          FROM reader WHERE id = NEW.reader_id) AS v WHERE NEW.reader_id IS NOT OLD.reader_id UNION ALL SELECT
          'issued_at' AS f, NEW.issued_at AS v WHERE NEW.issued_at IS NOT OLD.issued_at UNION ALL SELECT
          'due_date' AS f, NEW.due_date AS v WHERE NEW.due_date IS NOT OLD.due_date UNION ALL SELECT 'returned_at'
          AS f, NEW.returned_at AS v WHERE NEW.returned_at IS NOT OLD.returned_at UNION ALL SELECT 'renewals' AS
          f, NEW.renewals AS v WHERE NEW.renewals IS NOT OLD.renewals UNION ALL SELECT 'renewed_at' AS f,
          NEW.renewed_at AS v WHERE NEW.renewed_at IS NOT OLD.renewed_at UNION ALL SELECT 'desk' AS f, NEW.desk AS
          v WHERE NEW.desk IS NOT OLD.desk UNION ALL SELECT 'created_at' AS f, NEW.created_at AS v WHERE
          NEW.created_at IS NOT OLD.created_at UNION ALL SELECT 'deleted' AS f, NEW.deleted AS v WHERE NEW.deleted
          IS NOT OLD.deleted)) p WHERE p.payload <> '{}';
    END;
    """

  /// Migration 12: the book triggers with the fields of copies.
  static let version12 = """
    CREATE TRIGGER book_captured_insert AFTER INSERT ON book WHEN (SELECT capture = 1 AND applying = 0 FROM
      sync_desk WHERE id = 1)
    BEGIN
      INSERT INTO outbox(entity, record_id, hlc, payload)
        VALUES ('book', NEW.uuid, max((SELECT hlc FROM sync_desk WHERE id = 1) + 1, coalesce((SELECT hlc FROM
          outbox ORDER BY seq DESC LIMIT 1), 0) + 1,
      CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER) * 65536), json_object('inventory', NEW.inventory,
        'isbn', NEW.isbn, 'isbn13', NEW.isbn13, 'author_surname', NEW.author_surname, 'author_initials',
        NEW.author_initials, 'title', NEW.title, 'publisher', NEW.publisher, 'city', NEW.city, 'year', NEW.year,
        'pages', NEW.pages, 'price_minor', NEW.price_minor, 'bbk', NEW.bbk, 'author_mark', NEW.author_mark,
        'place', NEW.place, 'received', NEW.received, 'created_at', NEW.created_at, 'deleted', NEW.deleted,
        'status', NEW.status, 'source_record', NEW.source_record, 'source_copy', NEW.source_copy, 'record_group',
        NEW.record_group));
    END;
    CREATE TRIGGER book_captured_update AFTER UPDATE ON book WHEN (SELECT capture = 1 AND applying = 0 FROM
      sync_desk WHERE id = 1)
    BEGIN
      INSERT INTO outbox(entity, record_id, hlc, payload)
        SELECT 'book', NEW.uuid, max((SELECT hlc FROM sync_desk WHERE id = 1) + 1, coalesce((SELECT hlc FROM
          outbox ORDER BY seq DESC LIMIT 1), 0) + 1,
      CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER) * 65536), p.payload
        FROM (SELECT json_group_object(f, v) AS payload FROM (SELECT 'inventory' AS f, NEW.inventory AS v WHERE
          NEW.inventory IS NOT OLD.inventory UNION ALL SELECT 'isbn' AS f, NEW.isbn AS v WHERE NEW.isbn IS NOT
          OLD.isbn UNION ALL SELECT 'isbn13' AS f, NEW.isbn13 AS v WHERE NEW.isbn13 IS NOT OLD.isbn13 UNION ALL
          SELECT 'author_surname' AS f, NEW.author_surname AS v WHERE NEW.author_surname IS NOT OLD.author_surname
          UNION ALL SELECT 'author_initials' AS f, NEW.author_initials AS v WHERE NEW.author_initials IS NOT
          OLD.author_initials UNION ALL SELECT 'title' AS f, NEW.title AS v WHERE NEW.title IS NOT OLD.title UNION
          ALL SELECT 'publisher' AS f, NEW.publisher AS v WHERE NEW.publisher IS NOT OLD.publisher UNION ALL
          SELECT 'city' AS f, NEW.city AS v WHERE NEW.city IS NOT OLD.city UNION ALL SELECT 'year' AS f, NEW.year
          AS v WHERE NEW.year IS NOT OLD.year UNION ALL SELECT 'pages' AS f, NEW.pages AS v WHERE NEW.pages IS NOT
          OLD.pages UNION ALL SELECT 'price_minor' AS f, NEW.price_minor AS v WHERE NEW.price_minor IS NOT
          OLD.price_minor UNION ALL SELECT 'bbk' AS f, NEW.bbk AS v WHERE NEW.bbk IS NOT OLD.bbk UNION ALL SELECT
          'author_mark' AS f, NEW.author_mark AS v WHERE NEW.author_mark IS NOT OLD.author_mark UNION ALL SELECT
          'place' AS f, NEW.place AS v WHERE NEW.place IS NOT OLD.place UNION ALL SELECT 'received' AS f,
          NEW.received AS v WHERE NEW.received IS NOT OLD.received UNION ALL SELECT 'created_at' AS f,
          NEW.created_at AS v WHERE NEW.created_at IS NOT OLD.created_at UNION ALL SELECT 'deleted' AS f,
          NEW.deleted AS v WHERE NEW.deleted IS NOT OLD.deleted UNION ALL SELECT 'status' AS f, NEW.status AS v
          WHERE NEW.status IS NOT OLD.status UNION ALL SELECT 'source_record' AS f, NEW.source_record AS v WHERE
          NEW.source_record IS NOT OLD.source_record UNION ALL SELECT 'source_copy' AS f, NEW.source_copy AS v
          WHERE NEW.source_copy IS NOT OLD.source_copy UNION ALL SELECT 'record_group' AS f, NEW.record_group AS v
          WHERE NEW.record_group IS NOT OLD.record_group)) p WHERE p.payload <> '{}';
    END;
    """

  /// Migration 13: the category triggers with the hold limit.
  static let categoryVersion13 = """
    CREATE TRIGGER category_captured_insert AFTER INSERT ON category WHEN (SELECT capture = 1 AND applying = 0
      FROM sync_desk WHERE id = 1)
    BEGIN
      INSERT INTO outbox(entity, record_id, hlc, payload)
        VALUES ('category', NEW.code, max((SELECT hlc FROM sync_desk WHERE id = 1) + 1, coalesce((SELECT hlc FROM
          outbox ORDER BY seq DESC LIMIT 1), 0) + 1,
      CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER) * 65536), json_object('name', NEW.name,
        'loan_days', NEW.loan_days, 'loan_limit', NEW.loan_limit, 'renewal_limit', NEW.renewal_limit,
        'hold_limit', NEW.hold_limit, 'deleted', 0));
    END;
    CREATE TRIGGER category_captured_update AFTER UPDATE ON category WHEN (SELECT capture = 1 AND applying = 0
      FROM sync_desk WHERE id = 1)
    BEGIN
      INSERT INTO outbox(entity, record_id, hlc, payload)
        SELECT 'category', NEW.code, max((SELECT hlc FROM sync_desk WHERE id = 1) + 1, coalesce((SELECT hlc FROM
          outbox ORDER BY seq DESC LIMIT 1), 0) + 1,
      CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER) * 65536), p.payload
        FROM (SELECT json_group_object(f, v) AS payload FROM (SELECT 'name' AS f, NEW.name AS v WHERE NEW.name IS
          NOT OLD.name UNION ALL SELECT 'loan_days' AS f, NEW.loan_days AS v WHERE NEW.loan_days IS NOT
          OLD.loan_days UNION ALL SELECT 'loan_limit' AS f, NEW.loan_limit AS v WHERE NEW.loan_limit IS NOT
          OLD.loan_limit UNION ALL SELECT 'renewal_limit' AS f, NEW.renewal_limit AS v WHERE NEW.renewal_limit IS
          NOT OLD.renewal_limit UNION ALL SELECT 'hold_limit' AS f, NEW.hold_limit AS v WHERE NEW.hold_limit IS
          NOT OLD.hold_limit)) p WHERE p.payload <> '{}';
    END;
    CREATE TRIGGER category_captured_delete AFTER DELETE ON category WHEN (SELECT capture = 1 AND applying = 0
      FROM sync_desk WHERE id = 1)
    BEGIN
      INSERT INTO outbox(entity, record_id, hlc, payload)
        VALUES ('category', OLD.code, max((SELECT hlc FROM sync_desk WHERE id = 1) + 1, coalesce((SELECT hlc FROM
          outbox ORDER BY seq DESC LIMIT 1), 0) + 1,
      CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER) * 65536), json_object('deleted', 1));
    END;
    """

  /// Migration 13: the setting triggers with the settings of holds.
  static let settingVersion13 = """
    CREATE TRIGGER setting_captured_insert AFTER INSERT ON setting WHEN (SELECT capture = 1 AND applying = 0 FROM
      sync_desk WHERE id = 1) AND NEW.key IN ('due_date_mode', 'closed_weekdays', 'block_on_overdue',
      'renewal_base', 'default_category', 'reader_code_prefix', 'book_code_prefix', 'library_name',
      'library_address', 'library_phone', 'library_email', 'hold_pickup_days')
    BEGIN
      INSERT INTO outbox(entity, record_id, hlc, payload)
        VALUES ('setting', NEW.key, max((SELECT hlc FROM sync_desk WHERE id = 1) + 1, coalesce((SELECT hlc FROM
          outbox ORDER BY seq DESC LIMIT 1), 0) + 1,
      CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER) * 65536), json_object('value', NEW.value,
        'deleted', 0));
    END;
    CREATE TRIGGER setting_captured_update AFTER UPDATE ON setting WHEN (SELECT capture = 1 AND applying = 0 FROM
      sync_desk WHERE id = 1) AND NEW.key IN ('due_date_mode', 'closed_weekdays', 'block_on_overdue',
      'renewal_base', 'default_category', 'reader_code_prefix', 'book_code_prefix', 'library_name',
      'library_address', 'library_phone', 'library_email', 'hold_pickup_days')
    BEGIN
      INSERT INTO outbox(entity, record_id, hlc, payload)
        SELECT 'setting', NEW.key, max((SELECT hlc FROM sync_desk WHERE id = 1) + 1, coalesce((SELECT hlc FROM
          outbox ORDER BY seq DESC LIMIT 1), 0) + 1,
      CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER) * 65536), p.payload
        FROM (SELECT json_group_object(f, v) AS payload FROM (SELECT 'value' AS f, NEW.value AS v WHERE NEW.value
          IS NOT OLD.value)) p WHERE p.payload <> '{}';
    END;
    CREATE TRIGGER setting_captured_delete AFTER DELETE ON setting WHEN (SELECT capture = 1 AND applying = 0 FROM
      sync_desk WHERE id = 1) AND OLD.key IN ('due_date_mode', 'closed_weekdays', 'block_on_overdue',
      'renewal_base', 'default_category', 'reader_code_prefix', 'book_code_prefix', 'library_name',
      'library_address', 'library_phone', 'library_email', 'hold_pickup_days')
    BEGIN
      INSERT INTO outbox(entity, record_id, hlc, payload)
        VALUES ('setting', OLD.key, max((SELECT hlc FROM sync_desk WHERE id = 1) + 1, coalesce((SELECT hlc FROM
          outbox ORDER BY seq DESC LIMIT 1), 0) + 1,
      CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER) * 65536), json_object('deleted', 1));
    END;
    """

  /// Migration 14: the hold triggers, and the holds a joined desk had, put in the outbox.
  static let version14 = """
    CREATE TRIGGER hold_captured_insert AFTER INSERT ON hold WHEN (SELECT capture = 1 AND applying = 0 FROM
      sync_desk WHERE id = 1)
    BEGIN
      INSERT INTO outbox(entity, record_id, hlc, payload)
        VALUES ('hold', NEW.uuid, max((SELECT hlc FROM sync_desk WHERE id = 1) + 1, coalesce((SELECT hlc FROM
          outbox ORDER BY seq DESC LIMIT 1), 0) + 1,
      CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER) * 65536), json_object('reader', (SELECT uuid FROM
        reader WHERE id = NEW.reader_id), 'title_key', NEW.title_key, 'book', (SELECT uuid FROM book WHERE id =
        NEW.book_id), 'label', NEW.label, 'placed_at', NEW.placed_at, 'not_wanted_after', NEW.not_wanted_after,
        'suspended_until', NEW.suspended_until, 'state', NEW.state, 'trapped_book', (SELECT uuid FROM book WHERE
        id = NEW.trapped_book_id), 'waiting_since', NEW.waiting_since, 'pickup_by', NEW.pickup_by, 'ended_at',
        NEW.ended_at, 'desk', NEW.desk, 'created_at', NEW.created_at));
    END;
    CREATE TRIGGER hold_captured_update AFTER UPDATE ON hold WHEN (SELECT capture = 1 AND applying = 0 FROM
      sync_desk WHERE id = 1)
    BEGIN
      INSERT INTO outbox(entity, record_id, hlc, payload)
        SELECT 'hold', NEW.uuid, max((SELECT hlc FROM sync_desk WHERE id = 1) + 1, coalesce((SELECT hlc FROM
          outbox ORDER BY seq DESC LIMIT 1), 0) + 1,
      CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER) * 65536), p.payload
        FROM (SELECT json_group_object(f, v) AS payload FROM (SELECT 'reader' AS f, (SELECT uuid FROM reader WHERE
          id = NEW.reader_id) AS v WHERE NEW.reader_id IS NOT OLD.reader_id UNION ALL SELECT 'title_key' AS f,
          NEW.title_key AS v WHERE NEW.title_key IS NOT OLD.title_key UNION ALL SELECT 'book' AS f, (SELECT uuid
          FROM book WHERE id = NEW.book_id) AS v WHERE NEW.book_id IS NOT OLD.book_id UNION ALL SELECT 'label' AS
          f, NEW.label AS v WHERE NEW.label IS NOT OLD.label UNION ALL SELECT 'placed_at' AS f, NEW.placed_at AS v
          WHERE NEW.placed_at IS NOT OLD.placed_at UNION ALL SELECT 'not_wanted_after' AS f, NEW.not_wanted_after
          AS v WHERE NEW.not_wanted_after IS NOT OLD.not_wanted_after UNION ALL SELECT 'suspended_until' AS f,
          NEW.suspended_until AS v WHERE NEW.suspended_until IS NOT OLD.suspended_until UNION ALL SELECT 'state'
          AS f, NEW.state AS v WHERE NEW.state IS NOT OLD.state UNION ALL SELECT 'trapped_book' AS f, (SELECT uuid
          FROM book WHERE id = NEW.trapped_book_id) AS v WHERE NEW.trapped_book_id IS NOT OLD.trapped_book_id
          UNION ALL SELECT 'waiting_since' AS f, NEW.waiting_since AS v WHERE NEW.waiting_since IS NOT
          OLD.waiting_since UNION ALL SELECT 'pickup_by' AS f, NEW.pickup_by AS v WHERE NEW.pickup_by IS NOT
          OLD.pickup_by UNION ALL SELECT 'ended_at' AS f, NEW.ended_at AS v WHERE NEW.ended_at IS NOT OLD.ended_at
          UNION ALL SELECT 'desk' AS f, NEW.desk AS v WHERE NEW.desk IS NOT OLD.desk UNION ALL SELECT 'created_at'
          AS f, NEW.created_at AS v WHERE NEW.created_at IS NOT OLD.created_at)) p WHERE p.payload <> '{}';
    END;

    INSERT INTO outbox(entity, record_id, hlc, payload)
      SELECT 'hold', h.uuid, (SELECT max((SELECT hlc FROM sync_desk WHERE id = 1) + 1, coalesce((SELECT hlc FROM
        outbox ORDER BY seq DESC LIMIT 1), 0) + 1,
      CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER) * 65536)), json_object('reader', (SELECT uuid
        FROM reader WHERE id = h.reader_id), 'title_key', h.title_key, 'book', (SELECT uuid FROM book WHERE id =
        h.book_id), 'label', h.label, 'placed_at', h.placed_at, 'not_wanted_after', h.not_wanted_after,
        'suspended_until', h.suspended_until, 'state', h.state, 'trapped_book', (SELECT uuid FROM book WHERE id =
        h.trapped_book_id), 'waiting_since', h.waiting_since, 'pickup_by', h.pickup_by, 'ended_at', h.ended_at,
        'desk', h.desk, 'created_at', h.created_at)
      FROM hold h WHERE (SELECT capture = 1 AND applying = 0 FROM sync_desk WHERE id = 1) ORDER BY h.id;
    """

  /// Migration 16: the hold triggers with the pickup desk.
  static let holdVersion16 = """
    CREATE TRIGGER hold_captured_insert AFTER INSERT ON hold WHEN (SELECT capture = 1 AND applying = 0 FROM
      sync_desk WHERE id = 1)
    BEGIN
      INSERT INTO outbox(entity, record_id, hlc, payload)
        VALUES ('hold', NEW.uuid, max((SELECT hlc FROM sync_desk WHERE id = 1) + 1, coalesce((SELECT hlc FROM
          outbox ORDER BY seq DESC LIMIT 1), 0) + 1,
      CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER) * 65536), json_object('reader', (SELECT uuid FROM
        reader WHERE id = NEW.reader_id), 'title_key', NEW.title_key, 'book', (SELECT uuid FROM book WHERE id =
        NEW.book_id), 'label', NEW.label, 'placed_at', NEW.placed_at, 'not_wanted_after', NEW.not_wanted_after,
        'suspended_until', NEW.suspended_until, 'state', NEW.state, 'trapped_book', (SELECT uuid FROM book WHERE
        id = NEW.trapped_book_id), 'waiting_since', NEW.waiting_since, 'pickup_by', NEW.pickup_by, 'ended_at',
        NEW.ended_at, 'desk', NEW.desk, 'created_at', NEW.created_at, 'pickup_desk', NEW.pickup_desk));
    END;
    CREATE TRIGGER hold_captured_update AFTER UPDATE ON hold WHEN (SELECT capture = 1 AND applying = 0 FROM
      sync_desk WHERE id = 1)
    BEGIN
      INSERT INTO outbox(entity, record_id, hlc, payload)
        SELECT 'hold', NEW.uuid, max((SELECT hlc FROM sync_desk WHERE id = 1) + 1, coalesce((SELECT hlc FROM
          outbox ORDER BY seq DESC LIMIT 1), 0) + 1,
      CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER) * 65536), p.payload
        FROM (SELECT json_group_object(f, v) AS payload FROM (SELECT 'reader' AS f, (SELECT uuid FROM reader WHERE
          id = NEW.reader_id) AS v WHERE NEW.reader_id IS NOT OLD.reader_id UNION ALL SELECT 'title_key' AS f,
          NEW.title_key AS v WHERE NEW.title_key IS NOT OLD.title_key UNION ALL SELECT 'book' AS f, (SELECT uuid
          FROM book WHERE id = NEW.book_id) AS v WHERE NEW.book_id IS NOT OLD.book_id UNION ALL SELECT 'label' AS
          f, NEW.label AS v WHERE NEW.label IS NOT OLD.label UNION ALL SELECT 'placed_at' AS f, NEW.placed_at AS v
          WHERE NEW.placed_at IS NOT OLD.placed_at UNION ALL SELECT 'not_wanted_after' AS f, NEW.not_wanted_after
          AS v WHERE NEW.not_wanted_after IS NOT OLD.not_wanted_after UNION ALL SELECT 'suspended_until' AS f,
          NEW.suspended_until AS v WHERE NEW.suspended_until IS NOT OLD.suspended_until UNION ALL SELECT 'state'
          AS f, NEW.state AS v WHERE NEW.state IS NOT OLD.state UNION ALL SELECT 'trapped_book' AS f, (SELECT uuid
          FROM book WHERE id = NEW.trapped_book_id) AS v WHERE NEW.trapped_book_id IS NOT OLD.trapped_book_id
          UNION ALL SELECT 'waiting_since' AS f, NEW.waiting_since AS v WHERE NEW.waiting_since IS NOT
          OLD.waiting_since UNION ALL SELECT 'pickup_by' AS f, NEW.pickup_by AS v WHERE NEW.pickup_by IS NOT
          OLD.pickup_by UNION ALL SELECT 'ended_at' AS f, NEW.ended_at AS v WHERE NEW.ended_at IS NOT OLD.ended_at
          UNION ALL SELECT 'desk' AS f, NEW.desk AS v WHERE NEW.desk IS NOT OLD.desk UNION ALL SELECT 'created_at'
          AS f, NEW.created_at AS v WHERE NEW.created_at IS NOT OLD.created_at UNION ALL SELECT 'pickup_desk' AS
          f, NEW.pickup_desk AS v WHERE NEW.pickup_desk IS NOT OLD.pickup_desk)) p WHERE p.payload <> '{}';
    END;
    """
}
