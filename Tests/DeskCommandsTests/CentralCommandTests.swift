import DeskTestSupport
import Foundation
import Testing

/// `circdesk central init` against a real PostgreSQL server: the test run's, with databases of
/// each test's own.
@Suite(.serialized) struct CentralCommandTests {
  let server: PostgresServer

  init() throws {
    server = try PostgresServer.shared()
  }

  @Test func createsTheCentralOnceAndThenFindsItUpToDate() throws {
    let libraryDatabase = try server.freshDatabase("library")
    let created = try runProgram(circdeskPath, ["central", "init", "--url", server.url(database: libraryDatabase)])
    #expect(created.status == 0, "\(created.errors)")
    #expect(created.output.hasPrefix("Created the central: schema 8, library "))
    let library = try server.psql(
      "SELECT value FROM circdesk_central WHERE key = 'library_id'", database: libraryDatabase)
    #expect(created.output.contains(library.trimmingCharacters(in: .whitespacesAndNewlines)))
    // The URL may come from the environment too; a second run changes nothing.
    let again = try runProgram(
      circdeskPath, ["central", "init"], environment: ["CIRCDESK_CENTRAL_URL": server.url(database: libraryDatabase)])
    #expect(again.status == 0, "\(again.errors)")
    #expect(
      again.output.hasPrefix(
        "The central is up to date: schema 8, library \(library.trimmingCharacters(in: .whitespacesAndNewlines))"))
    // The central keeps inventory numbers unique, as a desk does.
    #expect(throws: (any Error).self) {
      try server.psql(
        """
        INSERT INTO record_key(entity, id, key, key_clock, key_desk)
        VALUES ('book', gen_random_uuid(), '1', 1, 'a'), ('book', gen_random_uuid(), '1', 2, 'b')
        """, database: libraryDatabase)
    }
  }

  @Test func refusesANewerCentralAndAnotherProgramsDatabase() throws {
    let newerDatabase = try server.freshDatabase("newer")
    #expect(
      try runProgram(circdeskPath, ["central", "init", "--url", server.url(database: newerDatabase)]).status == 0)
    try server.psql("UPDATE circdesk_central SET value = '99' WHERE key = 'schema_version'", database: newerDatabase)
    let newer = try runProgram(circdeskPath, ["central", "init", "--url", server.url(database: newerDatabase)])
    #expect(newer.status == 1)
    #expect(
      newer.errors.hasPrefix("The central was set up by a newer circdesk (schema 99; this version knows up to 8)"))

    let otherDatabase = try server.freshDatabase("other")
    try server.psql("CREATE TABLE invoices (id int)", database: otherDatabase)
    let other = try runProgram(circdeskPath, ["central", "init", "--url", server.url(database: otherDatabase)])
    #expect(other.status == 1)
    #expect(other.errors.contains("holds tables that are not a library central's (invoices)"))
    #expect(
      try server.psql(
        "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'",
        database: otherDatabase
      ).hasPrefix("1"), "left as it was")
  }

  /// An extension's views in `public` (`pg_stat_statements`, which many servers have) are the
  /// extension's: the database is still empty for a central.
  @Test func aDatabaseWithOnlyAnExtensionsViewsBecomesACentral() throws {
    let database = try server.freshDatabase("extension")
    try server.psql("CREATE EXTENSION pg_stat_statements", database: database)
    #expect(try server.psql("SELECT count(*) FROM pg_views WHERE schemaname = 'public'", database: database) != "0\n")
    let initialized = try runProgram(circdeskPath, ["central", "init", "--url", server.url(database: database)])
    #expect(initialized.status == 0, "\(initialized.errors)")
    #expect(initialized.output.hasPrefix("Created the central"), "\(initialized.output)")
  }

  @Test func anUnreachableCentralOrNoURLSaySo() throws {
    let missing = try runProgram(
      circdeskPath, ["central", "init", "--url", "host=\(server.folder.path)/nowhere port=5432 user=circdesk"])
    #expect(missing.status == 1)
    #expect(missing.errors.hasPrefix("Cannot reach the central:"))
    let none = try runProgram(circdeskPath, ["central", "init"])
    #expect(none.status == 1)
    #expect(none.errors.hasPrefix("No central named: give --url, or set CIRCDESK_CENTRAL_URL"))
  }
}
