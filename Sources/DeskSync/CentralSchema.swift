import DeskDomain

/// The central's tables, in versioned migrations: `central init` creates them or brings them up
/// to date, once per version, and refuses a schema newer than this program's or a database
/// that holds another program's tables.
public enum CentralSchema {
  /// The table that marks a database as a library central: its schema version and library id.
  static let markTable = "circdesk_central"

  static let migrations: [String] = [version1]

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
        for statement in migration.split(separator: ";").map({ String($0).trimmingWhitespace() })
        where !statement.isEmpty {
          try central.execute(statement)
        }
      }
      try central.execute(
        """
        INSERT INTO circdesk_central(key, value) VALUES ('schema_version', $1)
        ON CONFLICT (key) DO UPDATE SET value = excluded.value
        """, [String(latestVersion)])
      let library = try central.execute("SELECT value FROM circdesk_central WHERE key = 'library_id'")
      return Outcome(from: version, to: latestVersion, libraryID: (library.first?.first ?? nil) ?? "")
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
