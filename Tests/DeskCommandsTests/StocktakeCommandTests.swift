import DeskTestSupport
import Foundation
import Testing

/// `circdesk stocktake`, as a librarian runs it on the demo library: a check of the store room,
/// the codes a wedge scanner types at the shelves (a shelf label among them), the report and its
/// CSV.
@Suite struct StocktakeCommandTests {
  let folder = TemporaryFolder()
  var db: String { folder.file("library.sqlite") }

  func circdesk(_ arguments: [String], input: String? = nil, environment: [String: String] = [:]) throws
    -> CommandResult
  {
    if let input {
      let file = folder.file("codes.txt")
      try input.write(toFile: file, atomically: true, encoding: .utf8)
      return try runProgram(circdeskPath, arguments + ["--db", db], environment: environment, input: file)
    }
    return try runProgram(circdeskPath, arguments + ["--db", db], environment: environment)
  }

  /// The lending hall of the demo library checked on 1 and 2 December 2026 and closed, its act for
  /// the commission in English and Russian, and its missing copies as CSV, against expected files;
  /// the act as a PDF where Debian's paps and ps2pdf are installed.
  @Test func theActAndTheCSVOfAClosedCheck() throws {
    let first = ["CIRCDESK_NOW": "2026-12-01T09:00:00Z", "LANG": "C.UTF-8"]
    let second = ["CIRCDESK_NOW": "2026-12-02T15:00:00Z", "LANG": "C.UTF-8"]
    #expect(try circdesk(["demo"], environment: first).status == 0)
    let named = try circdesk(
      ["policy", "set", "--library-name", "Городская библиотека № 3", "--library-address", "ул. Ленина, 1"],
      environment: first)
    #expect(named.status == 0, "\(named.errors)")
    #expect(
      try circdesk(["stocktake", "start", "--name", "Абонемент, 2026", "--place", "Абонемент"], environment: first)
        .status == 0)
    // Every copy the check lists missing before a scan on its shelf but the last three; the
    // 41st is found in the children's room, with one of that room's own and an unknown number.
    let expected = try circdesk(["stocktake", "report", "--csv"], environment: first).output
      .components(separatedBy: "\r\n").dropFirst().compactMap { $0.split(separator: ",").first.map(String.init) }
    // 77 expected, of which 15 out on loan or on the hold shelf are present without a scan.
    #expect(expected.count == 62)
    let present = expected.dropLast(3)
    let codes =
      ["PLACE:Абонемент"] + present.prefix(40) + ["PLACE:Детский отдел", present[40], "100080", "999999"]
      + ["PLACE:Абонемент"] + present.dropFirst(41)
    let scanned = try circdesk(
      ["stocktake", "scan", "--stdin"], input: codes.joined(separator: "\n") + "\n", environment: first)
    #expect(scanned.status == 0, "\(scanned.errors)")
    #expect(try circdesk(["stocktake", "close"], environment: second).status == 0)
    let again = try circdesk(["stocktake", "close"], environment: second)
    #expect(again.status == 1)
    #expect(again.errors.contains("Check 1 «Абонемент, 2026» is closed already"), "\(again.errors)")
    let english = try circdesk(["stocktake", "act"], environment: second)
    #expect(english.status == 0, "\(english.errors)")
    #expect(try matchesGolden(english.output, "stocktake-act-en.txt"))
    let russian = try circdesk(["stocktake", "act", "--lang", "ru"], environment: second)
    #expect(try matchesGolden(russian.output, "stocktake-act-ru.txt"))
    // The locale's language when none is asked for.
    #expect(
      try circdesk(["stocktake", "act"], environment: second.merging(["LANG": "ru_RU.UTF-8"]) { $1 }).output
        == russian.output)
    let csv = try circdesk(["stocktake", "report", "--csv"], environment: second)
    #expect(try matchesGolden(csv.output, "stocktake-missing.csv"))
    guard ["paps", "ps2pdf"].allSatisfy({ FileManager.default.isExecutableFile(atPath: "/usr/bin/\($0)") }) else {
      print("stocktake act --pdf not tried: paps and ps2pdf are not installed (scripts/install-dependencies)")
      return
    }
    let pdf = folder.file("act.pdf")
    let made = try circdesk(["stocktake", "act", "--pdf", pdf], environment: second)
    #expect(made.status == 0, "\(made.errors)")
    let bytes = try Data(contentsOf: URL(fileURLWithPath: pdf))
    #expect(bytes.starts(with: Array("%PDF-".utf8)))
    // Ghostscript reads it back: one page for the act's text.
    let pages = try runProgram(
      "/usr/bin/gs", ["-q", "-dNODISPLAY", "-dNOSAFER", "-c", "(\(pdf)) (r) file runpdfbegin pdfpagecount = quit"])
    #expect(pages.output.trimmingCharacters(in: .whitespacesAndNewlines) == "1", "\(pages.output) \(pages.errors)")
    // Without the tools, the librarian is told what to install.
    let bare = try circdesk(
      ["stocktake", "act", "--pdf", pdf], environment: second.merging(["PATH": "/nonexistent"]) { $1 })
    #expect(bare.status == 1)
    #expect(
      bare.errors.contains("making a PDF needs paps and ps2pdf: apt-get install paps ghostscript"), "\(bare.errors)")
  }

  @Test func aCheckOfTheStoreRoomFromStartToReport() throws {
    #expect(try circdesk(["demo"]).status == 0)
    let started = try circdesk(["stocktake", "start", "--name", "Хранение, 2026", "--place", "хранение"])
    #expect(started.output == "Check 1 «Хранение, 2026» is open: 2 copies expected.\n", "\(started.errors)")
    // 100055 on its shelf; 100101 from another hall, out on loan; the shelf label moves the place;
    // 100059 found there; an unknown number; 100055 again.
    let scanned = try circdesk(
      ["stocktake", "scan", "--stdin", "--place", "Хранение"],
      input: "100055\n100101\nPLACE:Абонемент\n100059\n999999\n100055\n")
    #expect(scanned.status == 0, "\(scanned.errors)")
    let lines = scanned.output.split(separator: "\n").map(String.init)
    #expect(lines.count == 7, "\(scanned.output)")
    #expect(lines[0] == "Check 1 «Хранение, 2026»:")
    #expect(lines[1].hasPrefix("100055 «") && lines[1].hasSuffix(": found"))
    #expect(lines[2].hasSuffix(": not part of this check"))
    #expect(lines[3] == "Place: Абонемент")
    #expect(lines[4].hasSuffix(": misplaced, its record says Хранение, found in Абонемент"))
    #expect(lines[5] == "999999: no copy with this number in the library")
    #expect(lines[6].hasSuffix(": scanned before (counted once)"))
    let report = try circdesk(["stocktake", "report"])
    #expect(report.output.contains("Expected 2, present 2, missing 0."), "\(report.output)")
    #expect(
      report.output.contains(
        "Scans: found 1, misplaced 1, on-loan 0, not-in-stock 0, outside-check 1, unknown 1, scanned-again 1."))
    // The tallies by place and by shelf-code section.
    let tallies = report.output.split(separator: "\n").map { $0.split(separator: " ").joined(separator: " ") }
    #expect(tallies.contains("By place:") && tallies.contains("Хранение 2 0"), "\(report.output)")
    #expect(tallies.contains("By shelf-code section:"))
    #expect(try circdesk(["stocktake", "close"]).output == "Check 1 «Хранение, 2026» is closed.\n")
    let closed = try circdesk(["stocktake", "scan", "--stdin"], input: "100055\n")
    #expect(closed.status == 1)
    #expect(closed.errors.contains("No check is open: start one with circdesk stocktake start"))
  }

  @Test func theMissingCopiesAsCSV() throws {
    #expect(try circdesk(["demo"]).status == 0)
    #expect(try circdesk(["stocktake", "start", "--place", "Хранение"]).status == 0)
    _ = try circdesk(["stocktake", "scan", "--stdin"], input: "100055\n")
    let csv = try circdesk(["stocktake", "report", "--csv"])
    let rows = csv.output.components(separatedBy: "\r\n")
    #expect(rows.first == "inventory,author,title,place,shelf code,status")
    #expect(rows.count == 3 && rows[2] == "", "\(rows)")
    #expect(rows[1].hasPrefix("100059,") && rows[1].contains(",Хранение,") && rows[1].hasSuffix(",available"))
    // Closed with the commission's word: the copy missing is lost from now.
    let closed = try circdesk(["stocktake", "close", "--mark-missing-lost"])
    #expect(closed.output.hasSuffix("1 missing copy is now recorded as lost.\n"), "\(closed.output)")
    #expect(try circdesk(["book", "show", "100059"]).output.contains("lost"))
    // A second check open beside the first is said; a check covering nothing is not opened.
    #expect(try circdesk(["stocktake", "start", "--place", "Хранение"]).status == 0)
    let second = try circdesk(["stocktake", "start", "--place", "Детский"])
    #expect(second.errors.contains("Check 2 «Check of "), "\(second.errors)")
    #expect(second.errors.contains("is open too: scans go into the latest unless --check says"))
    let nothing = try circdesk(["stocktake", "start", "--shelf-code", "63..75"])
    #expect(nothing.status == 1)
    #expect(nothing.errors.contains("No copy is covered by this check"))
    #expect(try circdesk(["stocktake", "list"]).output.split(separator: "\n").count == 3)
    #expect(try circdesk(["stocktake", "start", "--place", ""]).status == 64)
    let wrong = try circdesk(["stocktake", "start", "--shelf-code", "84"])
    #expect(wrong.status == 64)
    #expect(wrong.errors.contains("--shelf-code is FROM..TO (84..84, 63..75, 75..), not «84»"))
  }
}
