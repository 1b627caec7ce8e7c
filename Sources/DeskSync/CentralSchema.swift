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

  static let migrations: [String] = [
    version1, version2, version3, version4, version5, version6, version7, version8,
  ]

  /// Version 8: checks of the stock travel (`stocktake`, `stocktake_part`, `stocktake_scan`), and a
  /// book's last check (`last_checked`). The rules `central init` writes list them, and a desk
  /// waits for a central that has them.
  static let version8 = "SELECT 1;"

  /// Version 7: the work diary's visits and renewals travel (`visit`, `renewal`). The rules `central
  /// init` writes list them, and a desk waits for a central that has them.
  static let version7 = "SELECT 1;"

  /// Version 6: the work diary's branches of knowledge (`diary_branches`) are a library-wide
  /// setting that travels. The rules `central init` writes list it, and a desk waits for a central
  /// that has them.
  static let version6 = "SELECT 1;"

  /// Version 5: a reader keeps the record an import read them from, and a category what other
  /// systems' files write for it; both travel. The rules `central init` writes say so, and a
  /// desk waits for a central that has them.
  static let version5 = "SELECT 1;"

  /// Version 3 made holds travel: it changed `circdesk_push` alone, which the functions script
  /// makes now.
  static let version3 = "SELECT 1;"

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
  /// of its value; desks have a name of their own and a role. (It also made `circdesk_push` and
  /// `circdesk_join`, which the functions script, `functions`, makes now: a versioned step changes
  /// tables only.)
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

    -- A desk's name is its own in the library, whatever its case, accents and spaces (the key is
    -- folded by the desk: the server's collation may fold only ASCII). A desk belongs to the role
    -- that joined it: desks with roles of their own cannot speak for one another.
    ALTER TABLE desk ADD COLUMN name_key text;
    ALTER TABLE desk ADD COLUMN role text NOT NULL DEFAULT '';
    CREATE UNIQUE INDEX desk_name ON desk (name_key);
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
      try central.executeScript(CentralRuleCheck.function(for: LibraryStore.travellingFields))
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
  /// and no mark is another program's. What an extension put there (`pg_stat_statements`' views)
  /// belongs to the extension, not to a program: it is left out.
  static func currentVersion(_ central: CentralConnection) throws(CentralError) -> Int {
    let tables = try central.execute(
      """
      SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND c.relkind IN ('r', 'v', 'm', 'p', 'f')
        AND NOT EXISTS (SELECT 1 FROM pg_depend d
          WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid AND d.deptype = 'e')
      ORDER BY c.relname
      """
    ).compactMap { $0.first ?? nil }
    guard tables.contains(markTable) else {
      guard tables.isEmpty else { throw .notACentral(tables: tables) }
      return 0
    }
    let rows = try central.execute("SELECT value FROM circdesk_central WHERE key = 'schema_version'")
    return (rows.first?.first ?? nil).flatMap { Int($0) } ?? 0
  }
}
