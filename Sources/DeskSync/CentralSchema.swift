import DeskDomain
import DeskStorage

/// The central's tables, in versioned migrations: `central init` creates them or brings them up
/// to date, once per version, and refuses a schema newer than this program's or a database
/// that holds another program's tables.
public enum CentralSchema {
  /// The channel `circdesk_push` notifies when it stored changes (`LISTEN`), its payload the
  /// sending desk's id.
  public static let changesChannel = "circdesk_changes"

  /// The table that marks a database as a library central: its schema version and library id.
  static let markTable = "circdesk_central"

  static let migrations: [String] = [version1, version2, version3, version4]

  public static var latestVersion: Int { migrations.count }

  /// Version 1: the library's id, the desks, the log of changes every desk pulls "after N"
  /// (numbered by the server), and the records with the uniqueness a desk keeps.
  static let version1 = """
    CREATE TABLE circdesk_central (key text PRIMARY KEY, value text NOT NULL);
    INSERT INTO circdesk_central(key, value) VALUES ('library_id', gen_random_uuid()::text);
    CREATE TABLE desk (
      id uuid PRIMARY KEY, name text NOT NULL, joined_at timestamptz NOT NULL DEFAULT now());
    CREATE TABLE change (
      seq bigserial PRIMARY KEY, id uuid NOT NULL UNIQUE, desk_id uuid NOT NULL REFERENCES desk(id),
      entity text NOT NULL, record_id uuid NOT NULL, hlc text NOT NULL, payload jsonb NOT NULL,
      received_at timestamptz NOT NULL DEFAULT now());
    CREATE INDEX change_record ON change(entity, record_id);
    CREATE TABLE book (
      id uuid PRIMARY KEY, inventory text NOT NULL, deleted boolean NOT NULL DEFAULT false,
      fields jsonb NOT NULL DEFAULT '{}');
    CREATE UNIQUE INDEX book_inventory ON book(inventory) WHERE NOT deleted;
    CREATE TABLE reader (
      id uuid PRIMARY KEY, ticket text NOT NULL, deleted boolean NOT NULL DEFAULT false,
      fields jsonb NOT NULL DEFAULT '{}');
    CREATE UNIQUE INDEX reader_ticket ON reader(ticket) WHERE NOT deleted;
    """

  /// Version 2: records are named by text (a category's code, a holiday's day, as well as UUIDs);
  /// clocks are numbers; the numbers a desk keeps unique live in `record_key`, each with the clock
  /// of its value; `circdesk_push` takes a desk's batch of changes in one call.
  static let version2 = #"""
    ALTER TABLE change ALTER COLUMN hlc TYPE bigint USING hlc::bigint;
    ALTER TABLE change ALTER COLUMN record_id TYPE text;
    DROP TABLE book;
    DROP TABLE reader;
    CREATE TABLE record_key (
      entity text NOT NULL, id uuid NOT NULL, key text NOT NULL,
      key_clock bigint NOT NULL, key_desk text NOT NULL,
      deleted boolean NOT NULL DEFAULT false, deleted_clock bigint NOT NULL DEFAULT 0, deleted_desk text NOT NULL DEFAULT '',
      PRIMARY KEY (entity, id));
    -- An inventory number belongs to one live book, a ticket to one live reader.
    CREATE UNIQUE INDEX record_key_live ON record_key(entity, key) WHERE NOT deleted;

    -- Takes a desk's batch of changes (a JSON array, oldest first) in the caller's transaction and
    -- says what became of each: 'accepted' (or taken before: a retry applies nothing twice),
    -- 'clash' (the number belongs to another record; detail: its id and desk) or 'held' (it
    -- depends on a record refused in this batch; detail: that record). A change that is
    -- malformed or refers to a record the central does not know fails the whole batch.
    -- It runs with its owner's rights (SECURITY DEFINER): a desk's role needs no right to write
    -- the log or the numbers itself, only to call this function.
    CREATE FUNCTION circdesk_push(p_desk uuid, p_batch jsonb)
    RETURNS TABLE (change_id uuid, outcome text, detail text)
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
    DECLARE
      c record;
      cur record_key%ROWTYPE;
      known boolean;
      number_field text;
      key_wins boolean;
      deleted_wins boolean;
      new_key text;
      new_deleted boolean;
      other_id uuid;
      other_desk text;
      refused text[] := '{}';
    BEGIN
      -- One batch at a time: sequence numbers then become visible in the order they are given,
      -- so a desk that pulls "after N" never passes over a change still being committed.
      PERFORM pg_advisory_xact_lock(7316);
      IF NOT EXISTS (SELECT 1 FROM desk WHERE id = p_desk) THEN
        RAISE EXCEPTION 'desk % has not joined this central: run circdesk central join', p_desk;
      END IF;
      IF NOT EXISTS (SELECT 1 FROM desk WHERE id = p_desk AND role = session_user) THEN
        RAISE EXCEPTION 'desk % joined as another role: connect as that role', p_desk;
      END IF;
      IF jsonb_typeof(p_batch) IS DISTINCT FROM 'array' THEN
        RAISE EXCEPTION 'a batch of changes must be a JSON array';
      END IF;
      FOR c IN SELECT * FROM jsonb_to_recordset(p_batch)
          AS x(id uuid, entity text, record_id text, hlc bigint, payload jsonb) LOOP
        change_id := c.id;
        detail := NULL;
        IF c.id IS NULL OR c.entity IS NULL OR c.record_id IS NULL OR c.hlc IS NULL
            OR jsonb_typeof(c.payload) IS DISTINCT FROM 'object' THEN
          RAISE EXCEPTION 'change % is incomplete: it needs an id, a kind of record, a record, a clock and fields',
            coalesce(c.id::text, '(no id)');
        END IF;
        IF c.entity NOT IN ('category', 'holiday', 'setting', 'address', 'book', 'reader', 'loan', 'conflict') THEN
          RAISE EXCEPTION 'change %: no record is of the kind %', c.id, c.entity;
        END IF;
        IF EXISTS (SELECT 1 FROM change WHERE id = c.id) THEN
          outcome := 'accepted';
          RETURN NEXT;
          CONTINUE;
        END IF;
        IF c.record_id = ANY (refused) THEN
          outcome := 'held';
          detail := c.record_id;
          RETURN NEXT;
          CONTINUE;
        END IF;
        IF c.entity = 'loan' AND (c.payload->>'book' = ANY (refused) OR c.payload->>'reader' = ANY (refused)) THEN
          -- The loan's later changes wait with it.
          refused := refused || c.record_id;
          outcome := 'held';
          detail := CASE WHEN c.payload->>'book' = ANY (refused) THEN c.payload->>'book' ELSE c.payload->>'reader' END;
          RETURN NEXT;
          CONTINUE;
        END IF;
        IF c.entity IN ('book', 'reader') THEN
          number_field := CASE c.entity WHEN 'book' THEN 'inventory' ELSE 'ticket' END;
          SELECT * INTO cur FROM record_key WHERE entity = c.entity AND id = c.record_id::uuid;
          known := FOUND;
          IF NOT known AND NOT (c.payload ? number_field) THEN
            RAISE EXCEPTION 'change % is about % %, which the central does not know', c.id, c.entity, c.record_id;
          END IF;
          key_wins := c.payload ? number_field AND (NOT known OR (c.hlc, p_desk::text) > (cur.key_clock, cur.key_desk));
          deleted_wins := c.payload ? 'deleted'
            AND (NOT known OR (c.hlc, p_desk::text) > (cur.deleted_clock, cur.deleted_desk));
          new_key := CASE WHEN key_wins THEN c.payload->>number_field ELSE cur.key END;
          new_deleted := CASE WHEN deleted_wins THEN (c.payload->>'deleted')::int <> 0 ELSE coalesce(cur.deleted, false) END;
          IF new_key IS NULL OR new_key = '' THEN
            RAISE EXCEPTION 'change % leaves % % without its %', c.id, c.entity, c.record_id, number_field;
          END IF;
          IF NOT new_deleted THEN
            SELECT r.id, coalesce(d.name, r.key_desk) INTO other_id, other_desk
            FROM record_key r LEFT JOIN desk d ON d.id::text = r.key_desk
            WHERE r.entity = c.entity AND r.key = new_key AND NOT r.deleted AND r.id <> c.record_id::uuid;
            IF FOUND THEN
              refused := refused || c.record_id;
              outcome := 'clash';
              detail := other_id::text || ' ' || other_desk;
              RETURN NEXT;
              CONTINUE;
            END IF;
          END IF;
          IF known THEN
            UPDATE record_key SET key = new_key,
              key_clock = CASE WHEN key_wins THEN c.hlc ELSE key_clock END,
              key_desk = CASE WHEN key_wins THEN p_desk::text ELSE key_desk END,
              deleted = new_deleted,
              deleted_clock = CASE WHEN deleted_wins THEN c.hlc ELSE deleted_clock END,
              deleted_desk = CASE WHEN deleted_wins THEN p_desk::text ELSE deleted_desk END
            WHERE entity = c.entity AND id = c.record_id::uuid;
          ELSE
            INSERT INTO record_key(entity, id, key, key_clock, key_desk, deleted, deleted_clock, deleted_desk)
            VALUES (c.entity, c.record_id::uuid, new_key, c.hlc, p_desk::text, new_deleted,
              CASE WHEN deleted_wins THEN c.hlc ELSE 0 END, CASE WHEN deleted_wins THEN p_desk::text ELSE '' END);
          END IF;
        ELSIF c.entity IN ('loan', 'address') AND NOT c.payload ? 'created_at'
            AND NOT EXISTS (SELECT 1 FROM change WHERE entity = c.entity AND record_id = c.record_id) THEN
          -- A change of a loan or address the central never saw made would stop every other desk.
          RAISE EXCEPTION 'change % is about % %, which the central does not know', c.id, c.entity, c.record_id;
        END IF;
        IF c.entity = 'loan' THEN
          IF c.payload ? 'book' AND NOT EXISTS (
              SELECT 1 FROM record_key WHERE entity = 'book' AND id = (c.payload->>'book')::uuid) THEN
            RAISE EXCEPTION 'change % issues book %, which the central does not know', c.id, c.payload->>'book';
          END IF;
          IF c.payload ? 'reader' AND NOT EXISTS (
              SELECT 1 FROM record_key WHERE entity = 'reader' AND id = (c.payload->>'reader')::uuid) THEN
            RAISE EXCEPTION 'change % issues a book to reader %, whom the central does not know', c.id,
              c.payload->>'reader';
          END IF;
        END IF;
        INSERT INTO change(id, desk_id, entity, record_id, hlc, payload)
        VALUES (c.id, p_desk, c.entity, c.record_id, c.hlc, c.payload);
        outcome := 'accepted';
        RETURN NEXT;
      END LOOP;
    END
    $$;
    REVOKE ALL ON FUNCTION circdesk_push(uuid, jsonb) FROM PUBLIC;

    -- A desk's name is its own in the library, whatever its case, accents and spaces (the key is
    -- folded by the desk: the server's collation may fold only ASCII). A desk belongs to the role
    -- that joined it: desks with roles of their own cannot speak for one another.
    ALTER TABLE desk ADD COLUMN name_key text;
    ALTER TABLE desk ADD COLUMN role text NOT NULL DEFAULT '';
    CREATE UNIQUE INDEX desk_name ON desk (name_key);
    -- Registers a desk, or renames it; a desk's role needs no right on the table itself.
    CREATE FUNCTION circdesk_join(p_desk uuid, p_name text, p_key text) RETURNS void
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
    DECLARE
      owner text;
    BEGIN
      IF btrim(coalesce(p_name, '')) = '' OR coalesce(p_key, '') = '' THEN
        RAISE EXCEPTION 'a desk needs a name';
      END IF;
      SELECT role INTO owner FROM desk WHERE id = p_desk;
      IF FOUND AND owner <> session_user THEN
        RAISE EXCEPTION 'this desk joined as role %: connect as that role', owner;
      END IF;
      INSERT INTO desk(id, name, name_key, role) VALUES (p_desk, btrim(p_name), p_key, session_user)
      ON CONFLICT (id) DO UPDATE SET name = excluded.name, name_key = excluded.name_key;
    END
    $$;
    REVOKE ALL ON FUNCTION circdesk_join(uuid, text, text) FROM PUBLIC;
    """#

  public struct Outcome: Equatable, Sendable {
    public var from: Int
    public var to: Int
    public var libraryID: String
  }

  /// Creates the central's tables or brings them up to date, in one transaction that holds the
  /// central's lock, so that two desks initialising at once do it once.
  public static func initialize(_ central: CentralConnection) throws(CentralError) -> Outcome {
    try central.transaction { () throws(CentralError) in
      // One lock for the whole database: the first to come migrates, the others then find it done.
      try central.execute("SELECT pg_advisory_xact_lock(7315)")
      let version = try currentVersion(central)
      guard version <= latestVersion else { throw .newerSchema(found: version, supported: latestVersion) }
      for migration in migrations[version...] {
        try central.executeScript(migration)
      }
      // The functions and the rules as this program has them, whatever the schema's version.
      try central.executeScript(functions)
      try writeFieldRules(central)
      try central.execute(
        """
        INSERT INTO circdesk_central(key, value) VALUES ('schema_version', $1)
        ON CONFLICT (key) DO UPDATE SET value = excluded.value
        """, [String(latestVersion)])
      let library = try central.execute("SELECT value FROM circdesk_central WHERE key = 'library_id'")
      return Outcome(from: version, to: latestVersion, libraryID: (library.first?.first ?? nil) ?? "")
    }
  }

  /// Writes the rules of the fields that travel afresh (`LibraryStore.travellingFields`).
  static func writeFieldRules(_ central: CentralConnection) throws(CentralError) {
    try central.execute("DELETE FROM field_rule")
    for row in LibraryStore.travellingFields {
      var kind = ""
      var minimum: String?
      var maximum: String?
      var target = ""
      switch row.rule.kind {
      case .text(let least, let most): (kind, minimum, maximum) = ("text", String(least), String(most))
      case .identifier: kind = "identifier"
      case .integer(let range):
        (kind, minimum, maximum) = ("integer", String(range.lowerBound), String(range.upperBound))
      case .flag: (kind, minimum, maximum) = ("flag", "0", "1")
      case .date: kind = "date"
      case .moment: kind = "moment"
      case .reference(let entity): (kind, target) = ("reference", entity)
      case .choice(let words): (kind, target) = ("choice", words.joined(separator: "|"))
      case .uuid: kind = "uuid"
      }
      try central.execute(
        """
        INSERT INTO field_rule(entity, field, kind, minimum, maximum, target, nullable, needed)
        VALUES ($1, $2, $3, $4::numeric, $5::numeric, $6, $7::boolean, $8::boolean)
        """,
        [
          row.entity, row.field, kind, minimum, maximum, target, row.rule.nullable ? "true" : "false",
          row.neededToCreate ? "true" : "false",
        ])
    }
  }

  /// The central's schema version; 0 for an empty database. A database with tables of its own
  /// and no mark is another program's.
  static func currentVersion(_ central: CentralConnection) throws(CentralError) -> Int {
    let tables = try central.execute(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name"
    ).compactMap { $0.first ?? nil }
    guard tables.contains(markTable) else {
      guard tables.isEmpty else { throw .notACentral(tables: tables) }
      return 0
    }
    let rows = try central.execute("SELECT value FROM circdesk_central WHERE key = 'schema_version'")
    return (rows.first?.first ?? nil).flatMap { Int($0) } ?? 0
  }
}
