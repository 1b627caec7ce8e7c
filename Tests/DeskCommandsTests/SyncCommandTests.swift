import DeskStorage
import DeskTestSupport
import Foundation
import Testing

/// `central join`, `sync`, `conflicts` and `central leave` through the real program, against a
/// real PostgreSQL server (listening on 127.0.0.1 too) that the suite starts and stops, with the
/// desks' role the README gives.
@Suite(.serialized) struct SyncCommandTests {
  let server: PostgresServer
  let folder = TemporaryFolder()
  let deskURL: String

  init() throws {
    server = try PostgresServer(loopback: true)
    try server.createDatabase("library")
    let initialized = try runProgram(circdeskPath, ["central", "init", "--url", server.url(database: "library")])
    guard initialized.status == 0 else { throw PostgresServer.ServerError.failed(initialized.errors) }
    // The least-privilege role of the README.
    try server.psql(
      """
      CREATE ROLE circdesk_desk LOGIN;
      GRANT CONNECT ON DATABASE library TO circdesk_desk;
      GRANT SELECT ON circdesk_central, change, desk TO circdesk_desk;
      GRANT EXECUTE ON FUNCTION circdesk_join(uuid, text, text), circdesk_push(uuid, jsonb) TO circdesk_desk;
      """, database: "library")
    deskURL = server.url(database: "library", user: "circdesk_desk")
  }

  func run(_ desk: String, _ arguments: [String], environment: [String: String] = [:]) throws -> CommandResult {
    try runProgram(circdeskPath, arguments + ["--db", folder.file("\(desk).sqlite")], environment: environment)
  }

  @Test func twoDesksShareALibraryThroughTheDesksRole() throws {
    #expect(try run("a", ["book", "add", "--inventory", "1", "--title", "Война и мир"]).status == 0)
    #expect(try run("a", ["reader", "add", "--ticket", "1001", "--surname", "Смирнова"]).status == 0)
    #expect(try run("a", ["reader", "add", "--ticket", "1002", "--surname", "Иванов"]).status == 0)
    let joined = try run("a", ["central", "join", "--url", deskURL, "--desk", "Lending"])
    #expect(joined.status == 0, "\(joined.errors)")
    #expect(joined.output.hasPrefix("Joined the central as desk «Lending».\nSent this library's"))
    let second = try run(
      "b", ["central", "join", "--desk", "Reading room"], environment: ["CIRCDESK_CENTRAL_URL": deskURL])
    #expect(second.status == 0, "\(second.errors)")
    #expect(try run("b", ["book", "list"]).output.contains("Война и мир"))

    // A change not yet sent is shown as such.
    #expect(try run("b", ["book", "edit", "1", "--year", "1869"]).status == 0)
    let shown = try run("b", ["book", "show", "1"])
    #expect(shown.output.contains("Not yet at the central: 1 change made here"))
    let status = try run("b", ["sync", "--status", "--json"])
    #expect(status.output.contains(#""desk": "Reading room""#))
    #expect(status.output.contains(#""waiting": 1"#))
    #expect(!status.output.contains("circdesk_desk' password"), "no password is kept")
    let synced = try run("b", ["sync"])
    #expect(synced.status == 0, "\(synced.errors)")
    #expect(synced.output.hasPrefix("Sent 1 change, received"))
    #expect(try run("a", ["sync"]).status == 0)
    #expect(try run("a", ["book", "show", "1"]).output.contains("1869"))
    #expect(!(try run("b", ["book", "show", "1"]).output.contains("Not yet at the central")))

    // The book issued at both desks while apart.
    #expect(try run("a", ["issue", "1001", "1"]).status == 0)
    #expect(try run("b", ["issue", "1002", "1"]).status == 0)
    #expect(try run("a", ["sync"]).status == 0)
    let raised = try run("b", ["sync"])
    #expect(raised.output.contains("1 new conflict to settle: circdesk conflicts list."))
    let listed = try run("b", ["conflicts", "list"])
    #expect(listed.output.hasPrefix("1  issued twice: «Война и мир» (1) was issued to 2 readers at once"))
    let shownConflict = try run("b", ["conflicts", "show", "1"])
    #expect(shownConflict.output.contains("(ticket 1001) at desk «Lending»"))
    #expect(shownConflict.output.contains("(ticket 1002) at desk «Reading room»"))
    #expect(shownConflict.output.contains("conflicts resolve 1 --holder TICKET"))
    #expect(try run("b", ["book", "show", "1"]).output.contains("Conflict 1 (issued twice)"))
    // A scan of the book at the counter does nothing with it before the conflict is settled.
    let codes = folder.file("codes.txt")
    try Data("1\n".utf8).write(to: URL(fileURLWithPath: codes))
    let scanned = try runProgram(
      circdeskPath, ["scan", "--stdin", "--return", "--db", folder.file("b.sqlite")], input: codes)
    #expect(scanned.status == 1, "\(scanned.errors)")
    #expect(scanned.output.contains("conflict 1 (issued twice): «Война и мир» (1) was issued to 2 readers at once"))
    #expect(scanned.output.contains("conflicts resolve 1 --holder TICKET"))
    #expect(try run("b", ["conflicts", "resolve", "1"]).status == 64)
    let wrong = try run("b", ["conflicts", "resolve", "1", "--holder", "9999"])
    #expect(wrong.status == 1)
    #expect(wrong.errors.contains("no open loan of the book is to ticket 9999"))
    let settled = try run("b", ["conflicts", "resolve", "1", "--holder", "1002"])
    #expect(settled.status == 0, "\(settled.errors)")
    #expect(try run("b", ["sync"]).status == 0)
    #expect(try run("a", ["sync"]).status == 0)
    #expect(try run("a", ["conflicts", "list"]).output == "No open conflicts.\n")
    #expect(try run("a", ["book", "show", "1"]).output.contains("issued to Иванов"))

    // Leaving with changes waiting is refused unless they are discarded.
    #expect(try run("a", ["book", "edit", "1", "--year", "1870"]).status == 0)
    let refused = try run("a", ["central", "leave"])
    #expect(refused.status == 1)
    #expect(refused.errors.hasPrefix("1 change made here has not reached the central"))
    #expect(try run("a", ["sync"]).status == 0)
    let left = try run("a", ["central", "leave"])
    #expect(left.status == 0)
    #expect(left.output.contains("Changes made here are kept: joined again, the desk «Lending» sends them"))
    #expect(try run("a", ["sync", "--status"]).output.hasPrefix("This library is a desk on its own"))
    #expect(try run("a", ["sync"]).errors.hasPrefix("This library has not joined a central"))

    // Alone, «Lending» changes the year; meanwhile «Reading room» changes the title. Lending joins
    // again under its own name: both changes stand at both desks, nothing sent whole.
    #expect(try run("a", ["book", "edit", "1", "--year", "1871"]).status == 0)
    #expect(
      try run("a", ["sync", "--status"]).output.contains(
        "as desk «Lending»: 1 change made since wait for it to join again."))
    #expect(try run("b", ["book", "edit", "1", "--title", "Война и мир (том 1)"]).status == 0)
    #expect(try run("b", ["sync"]).status == 0)
    let again = try run("a", ["central", "join", "--url", deskURL, "--desk", "Lending"])
    #expect(again.status == 0, "\(again.errors)")
    #expect(!again.output.contains("Sent this library's"))
    #expect(try run("b", ["sync"]).status == 0)
    for desk in ["a", "b"] {
      let shown = try run(desk, ["book", "show", "1"]).output
      #expect(shown.contains("Война и мир (том 1)") && shown.contains("1871"), "\(desk): \(shown)")
    }
  }

  @Test func theDesksRoleWritesOnlyThroughTheFunctionsAndADeskBelongsToItsRole() throws {
    #expect(try run("a", ["central", "join", "--url", deskURL, "--desk", "Читальный зал"]).status == 0)
    let same = try run("b", ["central", "join", "--url", deskURL, "--desk", "ЧИТАЛЬНЫЙ  ЗАЛ "])
    #expect(same.status == 1)
    #expect(same.errors.hasPrefix("Another desk of this library is called «Читальный зал»"))
    #expect(!FileManager.default.fileExists(atPath: folder.file("b.sqlite")), "a refused join leaves no file")
    for statement in [
      "UPDATE desk SET name = 'x'", "DELETE FROM change", "INSERT INTO desk(id, name) VALUES (gen_random_uuid(), 'x')",
    ] {
      #expect(throws: (any Error).self) { try server.psql(statement, database: "library", user: "circdesk_desk") }
    }
    // Another role with the same grants cannot rename the desk, nor send changes in its name.
    try server.psql(
      """
      CREATE ROLE other_desk LOGIN;
      GRANT CONNECT ON DATABASE library TO other_desk;
      GRANT SELECT ON circdesk_central, change, desk TO other_desk;
      GRANT EXECUTE ON FUNCTION circdesk_join(uuid, text, text), circdesk_push(uuid, jsonb) TO other_desk;
      """, database: "library")
    let desk = try server.psql("SELECT id FROM desk", database: "library").trimmingCharacters(
      in: .whitespacesAndNewlines)
    #expect(throws: (any Error).self) {
      try server.psql(
        "SELECT circdesk_join('\(desk)', 'Hijacked', 'hijacked')", database: "library", user: "other_desk")
    }
    #expect(throws: (any Error).self) {
      try server.psql("SELECT * FROM circdesk_push('\(desk)', '[]')", database: "library", user: "other_desk")
    }
    #expect(try server.psql("SELECT name FROM desk", database: "library").hasPrefix("Читальный зал"))
  }

  @Test func aWrongPasswordOrARefusedTLSSaySoAndChangeNothing() throws {
    try server.psql(
      """
      CREATE ROLE guarded LOGIN PASSWORD 'right';
      GRANT CONNECT ON DATABASE library TO guarded;
      """, database: "library")
    try server.requirePassword(role: "guarded")
    #expect(try run("a", ["book", "add", "--inventory", "1", "--title", "Книга"]).status == 0)
    let before = try Data(contentsOf: URL(fileURLWithPath: folder.file("a.sqlite")))
    let guarded = server.loopbackURL(database: "library", user: "guarded")
    let wrong = try run(
      "a", ["central", "join", "--url", guarded, "--desk", "A"], environment: ["PGPASSWORD": "wrong"])
    #expect(wrong.status == 1)
    #expect(wrong.errors.hasPrefix("Cannot reach the central:"))
    #expect(wrong.errors.contains("password authentication failed"))
    let none = try run("a", ["central", "join", "--url", guarded, "--desk", "A"])
    #expect(none.status == 1)
    #expect(none.errors.contains("no password supplied"))
    let tls = try run(
      "a", ["central", "join", "--url", server.loopbackURL(database: "library") + " sslmode=require", "--desk", "A"])
    #expect(tls.status == 1)
    #expect(tls.errors.contains("SSL"))
    #expect(try Data(contentsOf: URL(fileURLWithPath: folder.file("a.sqlite"))) == before, "the library as it was")
    // The password from the environment gets in, and is kept nowhere.
    try server.psql(
      """
      GRANT SELECT ON circdesk_central, change, desk TO guarded;
      GRANT EXECUTE ON FUNCTION circdesk_join(uuid, text, text), circdesk_push(uuid, jsonb) TO guarded;
      """, database: "library")
    let url = "postgresql://guarded:right@127.0.0.1:\(server.tcpPort ?? 0)/library"
    let joined = try run("a", ["central", "join", "--url", url, "--desk", "A"])
    #expect(joined.status == 0, "\(joined.errors)")
    let file = try Data(contentsOf: URL(fileURLWithPath: folder.file("a.sqlite")))
    #expect(file.range(of: Data("right".utf8)) == nil)
    let again = try run("a", ["sync"], environment: ["PGPASSWORD": "right"])
    #expect(again.status == 0, "\(again.errors)")
    let without = try run("a", ["sync"])
    #expect(without.status == 1)
    #expect(try run("a", ["sync", "--status"]).output.contains("failed: Cannot reach the central"))
  }
}
