import DeskTestSupport
import Foundation
import Testing

/// `circdesk target …` and `circdesk lookup --title` as a librarian's script runs them, against
/// YAZ's own test server.
@Suite struct TargetCommandTests {
  let folder = TemporaryFolder()
  var db: [String] { ["--db", folder.file("library.sqlite")] }

  func run(_ arguments: [String], environment: [String: String] = [:]) throws -> CommandResult {
    try runProgram(circdeskPath, arguments + db, environment: environment)
  }

  @Test func targetsAreAddedListedOrderedAndRemoved() throws {
    #expect(try run(["demo"]).status == 0)
    let added = try run(["target", "add", "rsl", "--z3950", "aleph.rsl.ru:9909/rsl01", "--syntax", "rusmarc"])
    #expect(added.status == 0, "\(added.errors)")
    #expect(added.output.hasPrefix("Target «rsl» added: aleph.rsl.ru:9909/rsl01, rusmarc.\n"))
    #expect(added.output.contains("circdesk policy set --lookup-order google,openlibrary,rsl"))
    let again = try run(["target", "add", "RSL", "--z3950", "x:1/y", "--syntax", "marc21"])
    #expect(again.status == 1 && again.errors.contains("a target named «RSL» exists"))
    #expect(
      try run([
        "target", "add", "loc", "--sru", "http://lx2.loc.gov:210/LCDB", "--syntax", "marc21", "--encoding", "marc-8",
      ])
      .status == 0)
    // What is wrong is said, and nothing is added.
    let badAddress = try run(["target", "add", "x", "--z3950", "aleph.rsl.ru/rsl01", "--syntax", "rusmarc"])
    #expect(badAddress.status == 64 && badAddress.errors.contains("write host:port/database"))
    #expect(try run(["target", "add", "x", "--syntax", "rusmarc"]).status == 64, "an address is needed")
    #expect(
      try run(["target", "add", "x", "--z3950", "a:1/b", "--syntax", "marc21", "--schema", "MARC21-xml"]).errors
        .contains("SRU targets only"))
    #expect(
      try run([
        "target", "add", "dnb", "--sru", "https://services.dnb.de/sru/dnb", "--syntax", "marc21", "--schema",
        "MARC21-xml",
      ])
      .status == 0)
    #expect(try run(["target", "add", "x", "--z3950", "a:1/b"]).status == 64, "--syntax is required")
    #expect(
      try run(["target", "add", "google", "--z3950", "a:1/b", "--syntax", "rusmarc"]).errors.contains("web catalogue"))
    #expect(
      try run(["policy", "set", "--lookup-order", "rsl,google,openlibrary", "--lookup-timeout", "3"]).status == 0)
    let refused = try run(["policy", "set", "--lookup-order", "rsl,nowhere"])
    #expect(refused.status == 64 && refused.errors.contains("google, openlibrary and the targets (dnb, loc, rsl)"))
    let listed = try run(["target", "list"]).output
    #expect(try run(["lookup", "target", "list"]).output == listed, "the look-up's spelling of the group")
    #expect(
      listed == """
        dnb  SRU https://services.dnb.de/sru/dnb  marc21  schema MARC21-xml  (ISBNs: not in the order)
        loc  SRU http://lx2.loc.gov:210/LCDB  marc21  marc-8  (ISBNs: not in the order)
        rsl  Z39.50 aleph.rsl.ru:9909/rsl01  rusmarc  (ISBNs: in the order)

        """)
    #expect(
      try run(["policy", "show"]).output.contains(
        "ISBN look-up         rsl (Z39.50 aleph.rsl.ru:9909/rsl01), then Google Books"))
    #expect(try run(["target", "remove", "rsl"]).status == 0)
    #expect(try run(["target", "remove", "rsl"]).errors.contains("no target is named «rsl»"))
  }

  @Test func aSearchByTitleListsTheRecordsAndWaitsWithoutNetwork() throws {
    let server = try YazTestServer(folder: folder)
    #expect(try run(["demo"]).status == 0)
    #expect(try run(["target", "add", "ztest", "--z3950", server.z3950Address, "--syntax", "marc21"]).status == 0)
    let found = try run(["lookup", "--title", "computer", "--author", "Collins"])
    #expect(found.status == 0, "\(found.errors)")
    #expect(found.output.contains("[ztest]"))
    let json = try run(["lookup", "--title", "computer", "--json"])
    #expect(json.output.contains("\"target\": \"ztest\""), "\(json.output)")
    #expect(json.output.contains("\"cached\": false"))
    server.stop()
    // Asked again with the server gone: the library remembers the answer.
    let remembered = try run(["lookup", "--title", "computer", "--json"])
    #expect(remembered.output.contains("\"cached\": true"))
    // A new search with no target reachable waits for --pending.
    let waiting = try run(["lookup", "--title", "война и мир"])
    #expect(waiting.status == 1)
    #expect(waiting.output.contains("No target could answer: the search waits for 'circdesk lookup --pending'"))
    let stillWaiting = try run(["lookup", "--pending"])
    #expect(stillWaiting.status == 1)
    #expect(
      stillWaiting.output.contains("1 search of the targets: 0 answered, 1 still waiting"), "\(stillWaiting.output)")
    #expect(try run(["lookup", "--year", "2013"]).status == 64, "a year alone is no search")
    #expect(try run(["lookup", "9785389049345", "--title", "x"]).status == 64)
  }

  /// A target that answers with a web page, and one whose search is too wide to list whole: what
  /// is wrong is said in words, on the standard output only (YAZ's own log stays silent).
  @Test func aWebPageForAnAnswerAndASearchTooWideAreSaid() throws {
    let record = SRUAnswer.record(
      leader: "00000nam  2200000   450 ",
      dataFields: [("200", "1 ", [("a", "Война и мир")]), ("700", " 1", [("a", "Толстой")])])
    let http = try LocalHTTPServer { target in
      if target.hasPrefix("/page") {
        return .init(bytes: Array("<html>Not here</html>".utf8), contentType: "text/html")
      }
      return .init(bytes: Array(SRUAnswer.searchRetrieve([record], held: 23).utf8), contentType: "text/xml")
    }
    #expect(try run(["demo"]).status == 0)
    #expect(try run(["target", "add", "page", "--sru", http.baseURL + "/page", "--syntax", "rusmarc"]).status == 0)
    #expect(try run(["target", "add", "wide", "--sru", http.baseURL + "/wide", "--syntax", "rusmarc"]).status == 0)
    let found = try run(["lookup", "--title", "война"])
    #expect(found.status == 0)
    #expect(found.errors == "", "nothing from YAZ on the standard error: \(found.errors)")
    #expect(found.output.contains("[wide]"))
    #expect(found.output.contains("page: what it answered is no SRU answer"), "\(found.output)")
    #expect(
      found.output.contains("The catalogues hold more than they sent: narrow the search with --author or --year."))
    let json = try run(["lookup", "--title", "мир", "--json"])
    #expect(json.output.contains("\"target\": \"page\""), "a failure names its target: \(json.output)")
    // A login needs both halves; a removed target leaves the look-up order.
    #expect(try run(["target", "add", "x", "--z3950", "a:1/b", "--syntax", "marc21", "--user", "desk"]).status == 64)
    #expect(try run(["policy", "set", "--lookup-order", "WIDE,google"]).status == 0)
    #expect(try run(["policy", "set", "--lookup-order", "wide,google,wide"]).errors.contains("names «wide» twice"))
    #expect(try run(["policy", "set", "--lookup-order", "wide,nosuch"]).errors.contains("«nosuch» is none of them"))
    let removed = try run(["target", "remove", "wide"])
    #expect(
      removed.output == "Target «wide» removed, with the 2 answers it gave; the ISBN look-up order is now google.\n",
      "\(removed.output)")
    #expect(try run(["policy", "show"]).output.contains("Look-up time-out"))
  }
}
