import DeskDomain
import DeskStorage
import DeskTestSupport
import Foundation
import Testing

/// The desk's ISO 2709 exports read by pymarc, the MARC library most other libraries' scripts
/// are written with (installed from PyPI into `.build/python` by `scripts/install-dependencies`),
/// record for record and field for field as yaz-marcdump reads them.
@Suite struct PymarcReadingTests {
  let folder = TemporaryFolder()
  static let python = packageRoot + "/.build/python/bin/python3"
  static let script = packageRoot + "/Tests/DeskExchangeTests/Tools/pymarc_dump.py"

  func run(_ arguments: [String], db: String) throws -> CommandResult {
    try runProgram(circdeskPath, arguments + ["--db", db])
  }

  /// A catalogue of every kind the desk writes: books added at the desk (Cyrillic, a caret in
  /// the data, every status, prices, dates), a Koha file imported with a title and a copy
  /// changed since, and the national library's RUSMARC records.
  func library() throws -> String {
    let db = folder.file("library.sqlite")
    for (number, status) in [("D-1", "available"), ("D-2", "lost"), ("D-3", "processing")] {
      let added = try run(
        [
          "book", "add", "--inventory", number, "--title", "Solving x^2 : Эксмо^Пресс", "--author-surname", "Лермонтов",
          "--author-initials", "М. Ю.", "--status", status, "--price", "254.50", "--received", "2026-03-01",
        ], db: db)
      #expect(added.status == 0, "\(added.errors)")
    }
    #expect(try run(["import", "iso2709", try MARCExchangeTests.kohaFile("utf-8", in: folder)], db: db).status == 0)
    #expect(
      try run(["book", "edit", "K-3001", "--title", "Война и мир : роман", "--status", "lost"], db: db).status == 0)
    #expect(try run(["import", "iso2709", MARCExchangeTests.samples + "TEST1.ISO"], db: db).status == 0)
    return db
  }

  @Test(arguments: ["marc21", "rusmarc"])
  func pymarcReadsTheExportAsYazDoes(format: String) throws {
    #expect(
      FileManager.default.isExecutableFile(atPath: Self.python),
      "pymarc's Python is missing: scripts/install-dependencies makes it")
    let db = try library()
    let file = folder.file("\(format).mrc")
    let written = try run(
      [
        "export", "iso2709", "books", "--all", "--format", format, "--encoding", "utf8", "--branch", "MAIN", "-o", file,
      ],
      db: db)
    #expect(written.status == 0, "\(written.errors)")
    let pymarc = try runProgram(Self.python, [Self.script, file])
    #expect(pymarc.status == 0, "\(pymarc.errors)")
    let yaz = try runProgram(MARCExchangeTests.yaz, ["-f", "UTF-8", "-t", "UTF-8", file])
    #expect(yaz.status == 0, "\(yaz.errors)")
    let records = pymarc.output.components(separatedBy: "\n\n").filter { !$0.isEmpty }
    #expect(records.count == 58, "the desk's 3 books, the Koha file's 3 records, the national library's 52 with copies")
    #expect(pymarc.output == yaz.output)
    #expect(pymarc.output.contains("Solving x^2") && pymarc.output.contains("Эксмо^Пресс"))
  }
}
