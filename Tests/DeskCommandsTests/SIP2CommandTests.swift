import DeskTestSupport
import Foundation
import Testing

/// `circdesk sip2 account …` as a script runs it: the password from the environment, never on
/// the command line or in the file as text.
@Suite struct SIP2CommandTests {
  let folder = TemporaryFolder()
  var db: [String] { ["--db", folder.file("library.sqlite")] }

  func run(_ arguments: [String], environment: [String: String] = [:]) throws -> CommandResult {
    try runProgram(circdeskPath, arguments + db, environment: environment)
  }

  @Test func accountsAreAddedListedAndRemoved() throws {
    #expect(try run(["demo"]).status == 0)
    let added = try run(
      ["sip2", "account", "add", "kiosk1", "--location", "MAIN", "--encoding", "cp1251", "--password-env", "KP"],
      environment: ["KP": "s3cret"])
    #expect(added.status == 0 && added.output == "Kiosk account «kiosk1» added.\n", "\(added.errors)")
    let again = try run(
      ["sip2", "account", "add", "kiosk1", "--location", "MAIN", "--password-env", "KP"], environment: ["KP": "x"])
    #expect(again.status == 1 && again.errors.contains("exists already"))
    #expect(try run(["sip2", "account", "add", "k2", "--location", "MAIN", "--password-env", "NONE"]).status == 64)
    // No terminal to ask on: said, and nothing added.
    let asked = try run(["sip2", "account", "add", "k3", "--location", "MAIN"])
    #expect(asked.status == 64 && asked.errors.contains("--password-env"))
    #expect(try run(["sip2", "account", "add", "k4"]).status == 64, "--location is required")
    let listed = try run(["sip2", "account", "list"]).output
    #expect(listed == "kiosk1  location MAIN  cp1251  cr  checksums optional  en\n")
    let stored = try runProgram(
      "/usr/bin/sqlite3", [folder.file("library.sqlite"), "SELECT password_hash FROM kiosk_account"]
    ).output
    #expect(stored.hasPrefix("$argon2id$") && !stored.contains("s3cret"))
    #expect(try run(["sip2", "account", "remove", "kiosk1"]).status == 0)
    #expect(try run(["sip2", "account", "remove", "kiosk1"]).status == 1)
    #expect(try run(["sip2", "account", "list"]).output == "No kiosk account.\n")
    #expect(try run(["sip2", "account", "frob"]).status == 64)
    #expect(try run(["sip2", "serve", "--listen", "nowhere"]).status == 64)
    #expect(try run(["sip2", "serve", "--tls-cert", "x.pem"]).status == 64)
  }
}
