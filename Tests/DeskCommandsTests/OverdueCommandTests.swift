import DeskTestSupport
import Foundation
import Testing

/// `circdesk overdue` and `circdesk notices overdue` on the demo library, on a fixed day.
@Suite struct OverdueCommandTests {
  let folder = TemporaryFolder()
  var database: String { folder.file("demo.sqlite") }
  let now = ["CIRCDESK_NOW": "2026-11-30T10:00:00Z"]

  init() throws {
    #expect(try runProgram(circdeskPath, ["demo", "--db", database], environment: now).status == 0)
  }

  func run(_ arguments: [String]) throws -> CommandResult {
    try runProgram(circdeskPath, arguments + ["--db", database], environment: now)
  }

  @Test func theListComesLongestOverdueFirstAsTextJSONAndCSV() throws {
    let text = try run(["overdue"])
    #expect(text.status == 0)
    #expect(try matchesGolden(text.output, "overdue.txt"))
    let csv = try run(["overdue", "--csv"])
    #expect(try matchesGolden(csv.output, "overdue.csv"))
    #expect(csv.output.hasPrefix("ticket,reader,phone,email,inventory,author,title,due,days_overdue\r\n1014,"))
    let json = try run(["overdue", "--json"])
    let parsed = try #require(
      try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: Any]])
    #expect(parsed.map { $0["ticket"] as? String } == ["1014", "1004", "1032", "1008", "1011"])
    #expect(parsed.map { $0["days_overdue"] as? Int } == [46, 16, 11, 3, 2])
    // Once the books are back, nobody is chased.
    #expect(try run(["return", "100058", "100010", "100003", "100143", "100046", "100037"]).status == 0)
    #expect(try run(["overdue"]).output == "No books are overdue.\n")
    #expect(
      try run(["overdue", "--csv"]).output == "ticket,reader,phone,email,inventory,author,title,due,days_overdue\r\n")
    #expect(try run(["overdue", "--json", "--csv"]).status == 64)
  }

  @Test func aReminderLetterPerReaderInEitherLanguage() throws {
    #expect(
      try run([
        "policy", "set", "--library-name", "Городская библиотека № 3", "--library-address",
        "ул. Ленина, 5, Екатеринбург", "--library-phone", "+7 343 200-00-00", "--library-email", "lib3@example.org",
      ]).status == 0)
    let letters = folder.file("letters/december")  // made when missing
    for language in ["en", "ru"] {
      let written = try run(["notices", "overdue", "-o", letters + "-" + language, "--lang", language])
      #expect(written.status == 0, "\(written.errors)")
      #expect(written.output.hasSuffix("5 letters\n"))
      let files = try FileManager.default.contentsOfDirectory(atPath: letters + "-" + language).sorted()
      #expect(files == ["1004.txt", "1008.txt", "1011.txt", "1014.txt", "1032.txt"])
      let letter = try String(contentsOfFile: letters + "-" + language + "/1004.txt", encoding: .utf8)
      #expect(try matchesGolden(letter, "notice-overdue-\(language).txt"))
    }
    #expect(try run(["notices", "overdue", "-o", letters, "--lang", "de"]).status == 64)
  }

  @Test func everyOutputMakesItsFolder() throws {
    let file = folder.file("exports/2026/books.txt")
    #expect(try run(["export", "irbis", "books", "--all", "-o", file]).status == 0)
    #expect(FileManager.default.fileExists(atPath: file))
    let labels = folder.file("labels/new")
    #expect(try run(["label", "100001", "-o", labels]).status == 0)
    #expect(FileManager.default.fileExists(atPath: labels + "/100001.png"))
  }
}
