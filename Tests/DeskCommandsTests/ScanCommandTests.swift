import DeskTestSupport
import Foundation
import Testing

/// `circdesk scan` and `circdesk label`, run as the real program.
@Suite struct ScanCommandTests {
  let folder = TemporaryFolder()
  var database: String { folder.file("demo.sqlite") }

  init() throws {
    #expect(try runProgram(circdeskPath, ["demo", "--db", folder.file("demo.sqlite")]).status == 0)
  }

  func input(_ bytes: [UInt8]) throws -> String {
    let path = folder.file("input-\(UUID().uuidString).txt")
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return path
  }

  @Test func standardInputWithGoodBadAndBinaryLines() throws {
    var bytes = Array("100001\n  1004 \r\n\n9785170795857\nгарбадж\n".utf8)
    bytes += [0xFF, 0xFE, 0x00, 0x41, 0x0A]  // not UTF-8, with a NUL
    bytes += Array(String(repeating: "7", count: 100_000).utf8) + [0x0A]  // a very long line
    bytes += [0xCA, 0x31, 0x30, 0x30, 0x31, 0x0A]  // "К1001" in Windows-1251
    bytes += Array("100002".utf8)  // no final newline
    let result = try runProgram(circdeskPath, ["scan", "--stdin", "--db", database], input: try input(bytes))
    // Codes on standard output; the problems and the summary on standard error.
    let lines = result.output.split(separator: "\n").map(String.init)
    let problems = result.errors.split(separator: "\n").map(String.init)
    #expect(result.status == 1, "some lines were unusable")
    #expect(
      lines == [
        "line 1: book 100001 «Герой нашего времени» (Лермонтов М. Ю.)",
        "line 2: reader 1004 Петров Алексей Владимирович",
        "line 4: ISBN 978-5-17-079585-7: 100001 «Герой нашего времени»",
        "line 9: book 100002 «Мастер и Маргарита» (Булгаков М. А.)",
      ])
    #expect(problems[0] == "line 5: unknown code «гарбадж»: no book, reader or ISBN has it")
    // A NUL is an error for its line, never dropped; a line over the limit is not read at all.
    #expect(problems[1] == "line 6: a NUL byte in the code: not read; check the scanner")
    #expect(problems[2] == "line 7: longer than 65536 bytes: not read")
    #expect(problems[3] == "line 8: unknown code «К1001»: no book, reader or ISBN has it")
    #expect(problems.last == "8 codes: 2 books, 2 errors, 1 ISBN, 1 reader, 2 unknown")
  }

  @Test func issuesAndReturnsEachBookCode() throws {
    // 1040 has no overdue books; 100005 and 100007 are on the shelf.
    let issued = try runProgram(
      circdeskPath, ["scan", "--stdin", "--issue-to", "1040", "--db", database],
      input: try input(Array("100005\n100007\n100001\n404\n".utf8)))
    let lines = issued.output.split(separator: "\n").map(String.init)
    #expect(issued.status == 1)
    #expect(lines[0].hasPrefix("line 1: issued 100005 «Мёртвые души» to Абрамов Л. М., due "))
    #expect(lines[1].hasPrefix("line 2: issued 100007"))
    // 1040 holds 100001: as at the Desk, the reader is bringing it back.
    #expect(lines[2] == "line 3: returned 100001 «Герой нашего времени» from Абрамов Л. М.")
    #expect(issued.errors.hasPrefix("line 4: unknown code «404»"))
    #expect(issued.errors.hasSuffix("\n4 codes: 2 issued, 1 returned, 1 unknown\n"))

    let returned = try runProgram(
      circdeskPath, ["scan", "--stdin", "--return", "--json", "--db", database],
      input: try input(Array("100005\n100007\n".utf8)))
    #expect(returned.status == 0)
    let json = returned.output.split(separator: "\n").map(String.init)
    #expect(json[0].contains("\"result\": \"returned\""))
    #expect(json[0].contains("\"source\": \"line 1\""))
    #expect(json.last == "{ \"summary\": { \"codes\": 2, \"returned\": 2 } }")
  }

  @Test func imagesAndLabels() throws {
    let labels = folder.file("labels")
    try FileManager.default.createDirectory(atPath: labels, withIntermediateDirectories: true)
    let written = try runProgram(circdeskPath, ["label", "100001", "100101", "-o", labels, "--db", database])
    #expect(written.status == 0)
    #expect(written.output == "Wrote \(labels)/100001.png\nWrote \(labels)/100101.png\n")
    let scanned = try runProgram(
      circdeskPath, ["scan", labels + "/100001.png", folder.file("missing.png"), "--db", database])
    #expect(scanned.status == 1)
    #expect(
      scanned.output
        == "\(labels)/100001.png QR-Code at 22,22: label of book 100001 «Герой нашего времени», in the library\n")
    #expect(
      scanned.errors.split(separator: "\n").map(String.init) == [
        "\(folder.file("missing.png")): no such file; check the name and the folder",
        "2 codes: 1 error, 1 record of a book in the library",
      ])
    let unknownBook = try runProgram(circdeskPath, ["label", "404", "-o", labels, "--db", database])
    #expect(unknownBook.status == 1)
    #expect(unknownBook.errors.hasPrefix("No book has inventory number 404"))
  }

  @Test func theLabelOfABookInTheLibraryIssuesItAsTheDeskDoes() throws {
    let labels = folder.file("labels")
    try FileManager.default.createDirectory(atPath: labels, withIntermediateDirectories: true)
    #expect(try runProgram(circdeskPath, ["label", "100005", "-o", labels, "--db", database]).status == 0)
    let issued = try runProgram(
      circdeskPath, ["scan", labels + "/100005.png", "--issue-to", "1040", "--db", database])
    #expect(issued.status == 0, "\(issued.output)")
    #expect(
      issued.output.hasPrefix(
        "\(labels)/100005.png QR-Code at 22,22: issued 100005 «Мёртвые души» to Абрамов Л. М., due "))
    let renewed = try runProgram(circdeskPath, ["scan", labels + "/100005.png", "--renew", "--db", database])
    #expect(renewed.output.hasPrefix("\(labels)/100005.png QR-Code at 22,22: renewed 100005 «Мёртвые души», due "))
    let returned = try runProgram(circdeskPath, ["scan", labels + "/100005.png", "--return", "--db", database])
    #expect(
      returned.output.hasPrefix("\(labels)/100005.png QR-Code at 22,22: returned 100005 «Мёртвые души» from Абрамов"))
  }

  /// A book's ISBN with its price add-on is one successful scan; JSON names the file, the
  /// symbology, the position and the add-on apart; a QR record's lines not understood are told.
  @Test func anISBNWithItsPriceAddOnAndARecordWithUnknownLines() throws {
    let isbn = folder.file("isbn-price.png")
    let made = try runProgram(
      "/usr/bin/env", ["zint", "-b", "EANX", "--scale", "2", "-d", "9785170795857+90000", "-o", isbn])
    #expect(made.status == 0)
    let scanned = try runProgram(circdeskPath, ["scan", isbn, "--db", database])
    #expect(scanned.status == 0, "\(scanned.errors)")
    #expect(scanned.output.contains("ISBN-13 at "))
    #expect(scanned.output.contains("(add-on 90000)"), "\(scanned.output)")
    let json = try runProgram(circdeskPath, ["scan", isbn, "--json", "--db", database])
    let first = json.output.split(separator: "\n").first.map(String.init) ?? ""
    #expect(first.contains("\"file\": \"\(isbn)\""))
    #expect(first.contains("\"symbology\": \"ISBN-13\""))
    #expect(first.contains("\"position\": { \"left\": "))
    #expect(first.contains("\"add_on\": \"90000\""))
    let record = folder.file("record.png")
    let text = "Название: Новая книга\nАвтор: Гоголь Н. В.\nISBN: 978-5-17-079585-0\nПереплёт: мягкий"
    #expect(try runProgram("/usr/bin/env", ["qrencode", "-s", "6", "-o", record, text]).status == 0)
    let read = try runProgram(circdeskPath, ["scan", record, "--db", database])
    #expect(read.output.contains("lines not understood: «Переплёт: мягкий»"), "\(read.output)")
    #expect(read.output.contains("ISBN 978-5-17-079585-0 has a wrong check digit (expected 7)"))
    // Every JSON line has the same keys in the same order, absent values as null: a code, a
    // record with remarks, a file with no code and a missing file alike.
    let blank = folder.file("blank.png")
    #expect(try runProgram("/usr/bin/env", ["/usr/bin/convert", "-size", "64x64", "xc:white", blank]).status == 0)
    let all = try runProgram(
      circdeskPath, ["scan", isbn, record, blank, folder.file("missing.png"), "--json", "--db", database])
    let lines = all.output.split(separator: "\n").map(String.init).filter { !$0.contains("\"summary\"") }
    #expect(lines.count == 4, "\(all.output)")
    func keys(_ line: String) throws -> [String] {
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
      let order = [
        "source", "file", "symbology", "position", "add_on", "code", "result", "message",
        "lines_not_understood", "isbn_problem", "held_for",
      ]
      #expect(Set(object?.keys.map { $0 } ?? []) == Set(order), "\(line)")
      return order.filter { line.contains("\"\($0)\": ") }
    }
    for line in lines { #expect(try keys(line).count == 11, "\(line)") }
    #expect(lines[2].contains("\"file\": \"\(blank)\"") && lines[2].contains("\"symbology\": null"))
    #expect(lines[1].contains("\"lines_not_understood\": [ \"Переплёт: мягкий\" ]"), "\(lines[1])")
  }

  /// A NUL in a scanned code is an error for that line, never dropped («100␀101» is not book
  /// 100101); a line over --max-line is reported, not read, in bounded memory.
  @Test func aNULOrAnEndlessLineOnStandardInputIsReportedNotRead() throws {
    let long = String(repeating: "7", count: 70_000)
    let result = try runProgram(
      circdeskPath, ["scan", "--stdin", "--return", "--db", database],
      input: try input(Array("100\u{0}101\n\(long)\n".utf8)))
    #expect(result.status == 1)
    #expect(result.errors.contains("line 1: a NUL byte in the code: not read; check the scanner"))
    #expect(result.errors.contains("line 2: longer than 65536 bytes: not read"))
    #expect(!result.output.contains("100101"), "nothing returned")
    let limited = try runProgram(
      circdeskPath, ["scan", "--stdin", "--max-line", "16", "--db", database],
      input: try input(Array("12345678901234567890\n".utf8)))
    #expect(limited.errors.contains("line 1: longer than 16 bytes: not read"))
  }

  @Test func anISBNOfSeveralCopiesIsNeverIssuedAsAnArbitraryOne() throws {
    for inventory in ["200001", "200002"] {
      let added = try runProgram(
        circdeskPath,
        [
          "book", "add", "--inventory", inventory, "--title", "Копия", "--isbn", "978-5-04-089983-8",
          "--db", database,
        ])
      #expect(added.status == 0, "\(added.errors)")
    }
    let refused = try runProgram(
      circdeskPath, ["scan", "--stdin", "--issue-to", "1040", "--db", database],
      input: try input(Array("9785040899838\n200002\n".utf8)))
    let expected =
      "line 1: ISBN 978-5-04-089983-8 is on several copies; scan the inventory number of the one in hand: "
      + "200001; 200002"
    #expect(refused.errors.split(separator: "\n").map(String.init).first == expected)
    #expect(refused.output.hasPrefix("line 2: issued 200002 «Копия» to Абрамов Л. М."))
    // One copy out: the ISBN returns that one.
    let returned = try runProgram(
      circdeskPath, ["scan", "--stdin", "--return", "--db", database], input: try input(Array("9785040899838\n".utf8)))
    #expect(returned.output.hasPrefix("line 1: returned 200002 «Копия» from Абрамов Л. М."))
  }

  @Test func usageErrors() throws {
    #expect(try runProgram(circdeskPath, ["scan", "--db", database]).status == 64)
    #expect(
      try runProgram(circdeskPath, ["scan", "--stdin", "--issue-to", "1", "--return", "--db", database]).status == 64)
    let unknownReader = try runProgram(circdeskPath, ["scan", "--stdin", "--issue-to", "404", "--db", database])
    #expect(unknownReader.status == 1)
    #expect(unknownReader.errors.hasPrefix("No reader has ticket 404"))
  }
}
