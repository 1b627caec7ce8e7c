import DeskStorage
import DeskTestSupport
import DeskWords
import Foundation
import Testing

@testable import DeskDomain
@testable import DeskExchange

/// ISO 2709 files other systems wrote (pymarc's test files: MARC 21 in MARC-8, UTF-8 and
/// Windows-1251, UNIMARC in UTF-8, Aleph's alphanumeric tags, lying leaders), read record by record
/// and compared field by field with an independent reader: yaz-marcdump, as Debian packages it.
@Suite struct ForeignMARCFileTests {
  static let folder = packageRoot + "/Tests/DeskExchangeTests/Fixtures/pymarc/"

  /// A field as yaz-marcdump's MARCXML gives it: tag and subfields (code, value) in order.
  struct Field: Equatable, CustomStringConvertible {
    var tag: String
    var subfields: [String]
    var description: String { "\(tag) \(subfields.joined(separator: " "))" }
  }

  /// The records of a file as yaz-marcdump reads them, converting `from` (its name of the
  /// file's character set) to UTF-8.
  func yaz(_ file: String, from charset: String) throws -> [[Field]] {
    let result = try runProgram(
      "/usr/bin/yaz-marcdump", ["-o", "marcxml", "-f", charset, "-t", "UTF-8", Self.folder + file])
    var records: [[Field]] = []
    func unescaped(_ text: Substring) -> String {
      String(text).replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
        .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
        .replacingOccurrences(of: "&amp;", with: "&")
    }
    for line in result.output.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) }) {
      if line == "<record>" { records.append([]) }
      if line.hasPrefix("<controlfield tag=\""), let end = line.range(of: "\">") {
        let tag = line.dropFirst(19).prefix(3)
        let value = line[end.upperBound...].dropLast("</controlfield>".count)
        records[records.count - 1].append(Field(tag: String(tag), subfields: [unescaped(value)]))
      } else if line.hasPrefix("<datafield tag=\"") {
        records[records.count - 1].append(Field(tag: String(line.dropFirst(16).prefix(3)), subfields: []))
      } else if line.hasPrefix("<subfield code=\"") {
        let code = line.dropFirst(16).prefix(1)
        let value = line.dropFirst(19).dropLast("</subfield>".count)
        records[records.count - 1][records[records.count - 1].count - 1].subfields.append(code + unescaped(value))
      }
    }
    return records
  }

  /// The records of a file as the import reads them: each record's fields, in the character set
  /// the record says or shows.
  func ours(_ file: String, said: MARCCharacterSet? = nil) throws -> [[Field]] {
    let records = ISO2709Records(file: try ByteReader(path: Self.folder + file))
    var result: [[Field]] = []
    while let found = records.next() {
      let bytes = found.bytes
      let isMARC21 = MARC21Books.isMARC21(tags: ISO2709.tags(bytes))
      let charset = MARCCharacterSet.of(bytes, isMARC21: isMARC21, said: said, fileDefault: said ?? .windows1251)
      let record = try #require(try ISO2709.record(bytes, utf8: charset == .utf8, decode: charset.decode))
      result.append(
        record.fields.map { field in
          field.tag < 10
            ? Field(tag: String(format: "%03d", field.tag), subfields: [field.value])
            : Field(
              tag: String(format: "%03d", field.tag),
              subfields: field.value.split(separator: "^", omittingEmptySubsequences: false).dropFirst().map {
                String($0).replacingDataCarets(with: "^")
              })
        })
    }
    return result
  }

  /// Every record and every numbered field of each file reads as yaz-marcdump reads it, a `^` in
  /// the data as data (alphatag.dat's «(OCoLC)00000697^»); the alphanumeric tags the desk passes
  /// over are not compared.
  @Test(arguments: [
    ("test.dat", "MARC-8"), ("marc8.dat", "MARC-8"), ("diacritic.dat", "MARC-8"), ("one.dat", "MARC-8"),
    ("multi_isbn.dat", "MARC-8"), ("regression45.dat", "MARC-8"), ("alphatag.dat", "MARC-8"),
    ("utf8_with_leader_flag.dat", "UTF-8"), ("testunimarc.dat", "UTF-8"), ("1251.dat", "CP1251"),
  ])
  func everyRecordReadsAsYazReadsIt(file: String, charset: String) throws {
    let theirs = try yaz(file, from: charset)
    let mine = try ours(file)
    #expect(mine.count == theirs.count, "\(file): records")
    for (index, (record, expected)) in zip(mine, theirs).enumerated() {
      let numbered = expected.filter { $0.tag.allSatisfy(\.isNumber) }
      #expect(record.count == numbered.count, "\(file) record \(index + 1): fields")
      for (read, field) in zip(record, numbered) {
        // UNIMARC's non-sorting marks go: yaz keeps them, the C1 controls U+0088 and U+0089.
        let cleaned = Field(
          tag: field.tag, subfields: field.subfields.map { $0.filter { !"\u{88}\u{89}".contains($0) } })
        #expect(read == cleaned, "\(file) record \(index + 1)")
      }
    }
  }

  /// The Cyrillic of MARC-8 (ESC ( N in G0, ESC ) N in G1) reads as yaz-iconv reads it, every
  /// character of the set.
  @Test func marc8CyrillicReadsAsYazIconvReadsIt() throws {
    let graphic = Array(UInt8(0x21)...UInt8(0x7E))
    let folder = TemporaryFolder()
    let sets: [([UInt8], [UInt8])] = [([0x1B, 0x28, 0x4E], graphic), ([0x1B, 0x29, 0x4E], graphic.map { $0 | 0x80 })]
    for (escape, bytes) in sets {
      let path = folder.file("cyrillic.bin")
      try Data(escape + bytes).write(to: URL(fileURLWithPath: path))
      let expected = try runProgram("/usr/bin/yaz-iconv", ["-f", "MARC8", "-t", "UTF-8", path]).output
      #expect(MARC8.decode(escape + bytes) == expected)
    }
    // Back to ASCII with ESC ( B; a set the import does not read (Greek, ESC ( S) refuses the field.
    #expect(MARC8.decode([0x1B, 0x28, 0x4E, 0x41, 0x1B, 0x28, 0x42, 0x41]) == "аA")
    #expect(MARC8.decode([0x1B, 0x28, 0x53, 0x41]) == nil)
  }

  /// A leader whose length lies costs its record only: the records after it are read, and the
  /// summary counts every record of the file. A record flagged UTF-8 that is not is refused with
  /// the byte, and the rest goes on.
  @Test func aLyingLeaderOrBadUTF8CostsItsRecordOnly() throws {
    let folder = TemporaryFolder()
    func record(_ title: String, number: String, length: String? = nil, utf8: Bool = true, corrupt: Bool = false)
      throws -> [UInt8]
    {
      var record = ISO2709Record.marc21(fields: [
        .init(tag: 245, indicators: "00", subfields: [(Character("a"), title)]),
        .init(tag: 952, subfields: [(Character("p"), number)]),
      ])
      if !utf8 { record.leaderHead = "nam  " }
      var skipped = 0
      var bytes = try record.bytes(encode: { Array($0.utf8) }, skipped: &skipped)
      if let length { bytes.replaceSubrange(0..<5, with: Array(length.utf8)) }
      if corrupt, let at = bytes.firstIndex(of: UInt8(ascii: "X")) { bytes[at] = 0xFF }
      return bytes
    }
    var file = try record("First", number: "1")
    let lying = [("00999", "500 bytes too long"), ("00010", "under a leader"), ("99999", "the most ISO 2709 says")]
    for (index, (length, _)) in lying.enumerated() {
      file += try record("Lying \(index)", number: "9\(index)", length: length)
    }
    let badStart = file.count
    file += try record("Pride and PrejudiceX", number: "2", corrupt: true)
    file += try record("Last", number: "3")
    let path = folder.file("lying.mrc")
    try Data(file).write(to: URL(fileURLWithPath: path))
    let store = try LibraryStore(path: folder.file("library.sqlite"), clock: TestClock())
    let report = try ISO2709.run(path: path, encoding: nil, store: store, update: false, dryRun: false)
    #expect(report.records == 6, "every record of the file is counted")
    #expect(try store.books.page().map(\.book.title).sorted() == ["First", "Last"])
    let problems = report.englishProblems
    #expect(problems.count == 4, "\(problems)")
    #expect(problems.filter { $0.contains("the leader says the record takes") }.count == 3)
    let badByte = badStart + (try record("Pride and PrejudiceX", number: "2")).firstIndex(of: UInt8(ascii: "X"))!
    #expect(problems.contains { $0.contains("byte \(badByte) of the file (0xFF) is not UTF-8") }, "\(problems)")
    // The librarian who knows better says so: --encoding wins over the leader.
    let said = try ISO2709.run(path: path, encoding: .cp1251, store: store, update: false, dryRun: true)
    #expect(!said.englishProblems.contains { $0.contains("is not UTF-8") }, "\(said.englishProblems)")
  }

  /// What pymarc's files hold arrives as the books they describe: UNIMARC in UTF-8 (its 100 $a
  /// says so) without its non-sorting marks, a Russian library's MARC 21 in Windows-1251, Aleph's
  /// record with alphanumeric tags, and no message naming the number `--assign-inventory` gives.
  @Test func theBooksOfOtherSystemsFilesArriveAsTheyAre() throws {
    let folder = TemporaryFolder()
    func imported(_ file: String) throws -> (LibraryStore, ImportReport) {
      let store = try LibraryStore(path: folder.file("\(file).sqlite"), clock: TestClock())
      let report = try ISO2709.run(
        path: Self.folder + file, encoding: nil, store: store, update: false, dryRun: false, assignInventory: "1")
      return (store, report)
    }
    let (unimarc, _) = try imported("testunimarc.dat")
    #expect(try unimarc.books.book(inventory: "1")?.title == "L'altra faccia della spirale")
    // UNIMARC's 700 $b holds the given name after a comma: the book has its initial.
    #expect(try unimarc.books.book(inventory: "1").map { [$0.authorSurname, $0.authorInitials] } == ["Asimov", "I."])
    let (russian, russianReport) = try imported("1251.dat")
    #expect(russianReport.records == 6)
    // Its items have no barcode: those copies are the ones numbered, not skipped beside new ones.
    #expect(russianReport.problems.isEmpty, "\(russianReport.englishProblems)")
    let titles = try russian.books.page().map(\.book.title)
    #expect(titles.count == 6)
    #expect(titles.contains("Психологический тренинг с подростками"), "\(titles)")
    let (aleph, _) = try imported("alphatag.dat")
    #expect(try aleph.books.book(inventory: "1")?.title == "Chemistry experiments for children")
    // Every ISBN of a record stays with it; the first is the book's.
    let (several, _) = try imported("multi_isbn.dat")
    let book = try #require(try several.books.book(inventory: "1"))
    #expect(book.isbn?.digits == "0914378287")
    let kept = try #require(try several.books.kept(forBook: "1"))
    let isbns = kept.elements.compactMap(\.field).filter { $0.tag == 10 }.map { $0.subfield("A") }
    #expect(isbns == ["0914378287", "0914378295", "0914378260"], "\(isbns)")
    let (_, bad) = try imported("bad_records.mrc")
    #expect(bad.records == 8)
    let lines = bad.englishProblems + bad.englishNotes
    #expect(!lines.contains { $0.unicodeScalars.contains("\u{FFFF}") }, "\(lines)")
    #expect(lines.contains("record 3 (byte 254): a new copy: Title is required"), "\(lines)")
  }

  /// A MARC-8 record whose 880 repeats its title in a script the import does not read (CJK,
  /// behind ESC $ 1) is read without that field, not refused.
  @Test func an880InAScriptNotReadCostsThatFieldOnly() throws {
    let folder = TemporaryFolder()
    var record = ISO2709Record.marc21(fields: [
      .init(tag: 245, indicators: "00", subfields: [(Character("a"), "Rashomon")]),
      .init(tag: 880, indicators: "00", subfields: [(Character("a"), "\u{1B}$1!0!!1!\u{1B}(B")]),
      .init(tag: 952, subfields: [(Character("p"), "J-1")]),
    ])
    record.leaderHead = "nam  "
    var skipped = 0
    let path = folder.file("cjk.mrc")
    try Data(try record.bytes(encode: { Array($0.utf8) }, skipped: &skipped)).write(to: URL(fileURLWithPath: path))
    let store = try LibraryStore(path: folder.file("library.sqlite"), clock: TestClock())
    let report = try ISO2709.run(path: path, encoding: nil, store: store, update: false, dryRun: false)
    #expect(report.problems.isEmpty, "\(report.englishProblems)")
    #expect(try store.books.book(inventory: "J-1")?.title == "Rashomon")
  }
}
