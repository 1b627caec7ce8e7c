import DeskDomain
import DeskStorage
import DeskTestSupport
import Foundation
import Testing

/// MARC 21 records come back from the desk as they came: byte for byte while the librarian
/// changes nothing (files yaz-marcdump wrote, and pymarc's), and with only what was changed
/// written anew otherwise, as yaz-marcdump reads the export.
@Suite struct MARC21RoundTripTests {
  let folder = TemporaryFolder()
  static let pymarc = packageRoot + "/Tests/DeskExchangeTests/Fixtures/pymarc/"

  func run(_ arguments: [String], db: String) throws -> CommandResult {
    try runProgram(circdeskPath, arguments + ["--db", db])
  }

  func records(_ path: String) throws -> [[UInt8]] {
    try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))).split(separator: 0x1D).map(Array.init)
  }

  /// yaz-marcdump's lines of a file (UTF-8 or MARC-8 read to UTF-8).
  func dump(_ path: String, from charset: String = "UTF-8") throws -> [String] {
    let result = try runProgram(MARCExchangeTests.yaz, ["-f", charset, "-t", "UTF-8", path])
    #expect(result.status == 0, "\(result.errors)")
    return result.output.split(separator: "\n").map(String.init)
  }

  /// A file's records each with one Koha item (952 $p barcode, $y type) added at the end, the
  /// leader's lengths and the directory made again by hand: the files pymarc keeps hold no items.
  func withItems(_ source: String, to path: String) throws -> Int {
    var out: [UInt8] = []
    let all = try records(source).filter { $0.count > 24 }
    for (index, record) in all.enumerated() {
      let base = Int(String(decoding: record[12..<17], as: UTF8.self)) ?? 0
      let directory = Array(record[24..<(base - 1)])
      let body = Array(record[base...])
      let item = Array("  \u{1F}pB-\(index + 1)\u{1F}yBK\u{1E}".utf8)
      let entry = Array(String(format: "952%04d%05d", item.count, body.count).utf8)
      let newBase = 24 + directory.count + entry.count + 1
      let total = newBase + body.count + item.count + 1
      out += Array(String(format: "%05d", total).utf8) + record[5..<12] + Array(String(format: "%05d", newBase).utf8)
      out += record[17..<24] + directory + entry + [0x1E] + body + item + [0x1D]
    }
    try Data(out).write(to: URL(fileURLWithPath: path))
    return all.count
  }

  /// A Koha-like file yaz wrote (items in 952, a holding in 852 with its 876, ISBD punctuation),
  /// and pymarc's MARC-8 and UTF-8 files given items: every record written back byte for byte.
  @Test(arguments: ["koha", "test.dat", "utf8_with_leader_flag.dat", "one.dat"])
  func untouchedRecordsComeBackByteForByte(file: String) throws {
    let source: String
    if file == "koha" {
      source = try MARCExchangeTests.kohaFile("utf-8", in: folder)
    } else {
      source = folder.file("items.mrc")
      #expect(try withItems(Self.pymarc + file, to: source) > 0)
    }
    let db = folder.file("library.sqlite")
    let imported = try run(["import", "iso2709", source], db: db)
    #expect(imported.status == 0, "\(imported.errors)")
    let exported = folder.file("out.mrc")
    let written = try run(["export", "iso2709", "books", "--all", "--format", "marc21", "-o", exported], db: db)
    #expect(written.status == 0, "\(written.errors)")
    let originals = try records(source)
    let again = try records(exported)
    #expect(again.count == originals.count)
    // The export goes in the catalogue's order: each record is one of the file's, and all are there.
    #expect(Set(again) == Set(originals), "\(file)")
    // Koha would refuse them for want of a branch, and the export says so.
    #expect(written.output.contains("952 $a"), "\(written.output)")
  }

  /// What the librarian changes is written anew in the field that holds it, with ISBD's marks
  /// where the record has them (245 «a :$b … /$c», 260/264's «:», «,», «.»), the item's flags,
  /// barcode and location in its 952, 008's date with the year; a new BBK index or author mark
  /// adds 084 and 090; a deleted copy's item goes; everything else stays as it came.
  @Test func aChangeIsWrittenInTheFieldThatHoldsIt() throws {
    let db = folder.file("library.sqlite")
    let source = try MARCExchangeTests.kohaFile("utf-8", in: folder)
    #expect(try run(["import", "iso2709", source], db: db).status == 0)
    #expect(
      try run(
        [
          "book", "edit", "K-3001", "--title", "Война и мир : роман", "--year", "2005", "--publisher", "Эксмо",
          "--city", "Москва", "--status", "lost", "--place", "Зал 2", "--inventory", "K-3001A", "--bbk",
          "84(2Рос=Рус)1",
        ], db: db
      ).status == 0)
    #expect(try run(["book", "delete", "K-1006"], db: db).status == 0)
    let exported = folder.file("out.mrc")
    #expect(try run(["export", "iso2709", "books", "--all", "--format", "marc21", "-o", exported], db: db).status == 0)
    let before = try dump(source)
    let after = try dump(exported)
    func isLeader(_ line: String) -> Bool { line.count == 24 && line.prefix(5).allSatisfy(\.isNumber) }
    let removed = before.filter { !after.contains($0) }
    let added = after.filter { !before.contains($0) }
    #expect(
      removed.filter { !isLeader($0) } == [
        "952    $p K-1006 $7 -1", "245 10 $a Война и мир", "952    $p K-3001",
      ], "\(removed)")
    // The desk's export read again takes every copy once, none skipped.
    let again = try run(["import", "iso2709", exported], db: folder.file("again.sqlite"))
    #expect(again.output.contains("0 skipped"), "\(again.output) \(again.errors)")
    #expect(
      added.filter { !isLeader($0) } == [
        "084    $a 84(2Рос=Рус)1 $2 rubbk", "245 10 $a Война и мир : $b роман.",
        "260    $a Москва : $b Эксмо, $c 2005.", "952    $p K-3001A $1 1 $c Зал 2",
      ], "\(added)")
  }

  /// Windows-1251 MARC 21 (pymarc's 1251.dat: holdings in 852 without numbers) read with
  /// `--assign-inventory`: each record is written in UTF-8 with every field as yaz reads the
  /// file, its 852 as it came, and a Koha item with the number the desk gave and the call number.
  @Test func holdingsStayAndNumberedCopiesGetAnItem() throws {
    let db = folder.file("library.sqlite")
    // Without numbers, each record is refused naming where MARC 21 keeps them.
    let tried = try run(["import", "iso2709", Self.pymarc + "1251.dat", "--dry-run"], db: db)
    #expect(tried.output.contains("no copy with an inventory number (952 $p, 876 $p or 852 $p)"), "\(tried.output)")
    let imported = try run(["import", "iso2709", Self.pymarc + "1251.dat", "--assign-inventory", "1"], db: db)
    #expect(imported.status == 0, "\(imported.errors)")
    let exported = folder.file("out.mrc")
    #expect(try run(["export", "iso2709", "books", "--all", "--format", "marc21", "-o", exported], db: db).status == 0)
    let before = try dump(Self.pymarc + "1251.dat", from: "cp1251")
    let after = try dump(exported)
    #expect(
      before.filter { !after.contains($0) }.allSatisfy { $0.count == 24 && $0.prefix(5).allSatisfy(\.isNumber) },
      "only the leaders differ")
    let items = after.filter { $0.hasPrefix("952") }
    #expect(items.count == 6, "\(items)")
    #expect(items.first == "952    $y BK $p 1 $o И46", "\(items)")
    #expect(!items.contains { $0.contains("$o /") }, "no IRBIS shelf code made up for a call number")
  }

  /// Every ISBN of a record finds its book at a scan (pymarc's multi_isbn.dat: three 020s, the
  /// first the book's own), in either form; a library kept before the index was made gets it
  /// when next opened.
  @Test func theOtherISBNsOfARecordFindItsBook() throws {
    let db = folder.file("library.sqlite")
    let imported = try run(["import", "iso2709", Self.pymarc + "multi_isbn.dat", "--assign-inventory", "1"], db: db)
    #expect(imported.status == 0, "\(imported.errors)")
    let codes = folder.file("codes.txt")
    try "0914378287\n0914378295\n9780914378266\n0000000000\n".write(toFile: codes, atomically: true, encoding: .utf8)
    func scanned() throws -> String {
      try runProgram(circdeskPath, ["scan", "--stdin", "--db", db], input: codes).output
    }
    let found = try scanned()
    #expect(found.components(separatedBy: ": 1 «The town scold»").count == 4, "\(found)")
    let shown = try run(["book", "show", "1"], db: db).output
    #expect(shown.contains("Other ISBNs       0-914378-29-5, 0-914378-26-0"), "\(shown)")
    // As a library file written before the index: the index empty, the schema one version back.
    let old = try runProgram("/usr/bin/sqlite3", [db, librarySchemaBeforeOtherISBNs + "PRAGMA user_version = 24;"])
    #expect(old.status == 0, "\(old.errors)")
    #expect(try scanned() == found)
  }

  /// A cleared value takes its field with it (no 100 without a name, no 264 without place,
  /// publisher or year), and the desk's 952 beside a changed holding in 852/876 is read back as
  /// that one copy.
  @Test func aClearedValueTakesItsField() throws {
    let db = folder.file("library.sqlite")
    #expect(try run(["import", "iso2709", try MARCExchangeTests.kohaFile("utf-8", in: folder)], db: db).status == 0)
    #expect(
      try run(
        ["book", "edit", "K-2001", "--author-surname", "", "--author-initials", "", "--status", "lost"], db: db
      ).status == 0)
    let exported = folder.file("out.mrc")
    #expect(
      try run(["export", "iso2709", "books", "K-2001", "--format", "marc21", "-o", exported], db: db).status == 0)
    let lines = try dump(exported)
    #expect(!lines.contains { $0.hasPrefix("100") }, "\(lines)")
    #expect(
      lines.contains("852    $b MAIN $h 823 $i BRO")
        && lines.contains { $0.hasPrefix("952") && $0.contains("$p K-2001") })
    let againDB = folder.file("again.sqlite")
    let again = try run(["import", "iso2709", exported], db: againDB)
    #expect(again.output.contains("1 book added") && again.output.contains("0 skipped"), "\(again.output)")
    // And out again: the holding stays beside its item.
    let second = folder.file("second.mrc")
    #expect(
      try run(["export", "iso2709", "books", "--all", "--format", "marc21", "-o", second], db: againDB).status == 0)
    #expect(try dump(second).filter { $0.hasPrefix("852") || $0.hasPrefix("876") || $0.hasPrefix("952") }.count == 3)
    // One copy of an untouched record named alone is that record's, its control number and all.
    #expect(try run(["export", "iso2709", "books", "K-1002", "--format", "marc21", "-o", second], db: db).status == 0)
    let one = try dump(second)
    #expect(one.contains("001 1") && one.filter { $0.hasPrefix("952") } == ["952    $p K-1002 $1 1"], "\(one)")
  }

  /// A classification the import read from 080 (no 084 in the record) is changed and cleared
  /// there, not beside it; a record flagged MARC-8 whose bytes are UTF-8 is read as UTF-8.
  @Test func aClassificationFrom080IsChangedThere() throws {
    let xml = folder.file("udc.xml")
    try """
    <?xml version="1.0" encoding="UTF-8"?>
    <collection xmlns="http://www.loc.gov/MARC21/slim"><record>
    <leader>00000nam  2200000 a 4500</leader>
    <datafield tag="080" ind1=" " ind2=" "><subfield code="a">821.161.1</subfield></datafield>
    <datafield tag="245" ind1="1" ind2="0"><subfield code="a">Война и мир</subfield></datafield>
    <datafield tag="952" ind1=" " ind2=" "><subfield code="p">U-1</subfield></datafield>
    </record></collection>
    """.write(toFile: xml, atomically: true, encoding: .utf8)
    let source = folder.file("udc.mrc")
    // UTF-8 with position 9 left blank, as some systems write it.
    let made = try runProgram(
      "/bin/sh",
      ["-c", "\"$0\" -i marcxml -o marc -f utf-8 -t utf-8 \"$1\" > \"$2\"", MARCExchangeTests.yaz, xml, source])
    #expect(made.status == 0, "\(made.errors)")
    let db = folder.file("library.sqlite")
    #expect(try run(["import", "iso2709", source], db: db).status == 0)
    let store = try LibraryStore(path: db, clock: TestClock())
    #expect(try store.books.book(inventory: "U-1")?.title == "Война и мир")
    #expect(try store.books.book(inventory: "U-1")?.bbk == "821.161.1")
    #expect(try run(["book", "edit", "U-1", "--bbk", "821.161.1-31"], db: db).status == 0)
    let exported = folder.file("out.mrc")
    #expect(try run(["export", "iso2709", "books", "--all", "--format", "marc21", "-o", exported], db: db).status == 0)
    #expect(try dump(exported).filter { $0.hasPrefix("08") } == ["080    $a 821.161.1-31"])
    #expect(try run(["book", "edit", "U-1", "--bbk", ""], db: db).status == 0)
    #expect(try run(["export", "iso2709", "books", "--all", "--format", "marc21", "-o", exported], db: db).status == 0)
    #expect(try dump(exported).filter { $0.hasPrefix("08") }.isEmpty)
  }

  /// Data before a field's first subfield (pymarc's regression45.dat has «\» so in 752) is written
  /// back where it stood, not made a subfield $a.
  @Test func dataBeforeTheFirstSubfieldStaysThere() throws {
    var fields: [(String, [UInt8])] = [
      ("245", Array("10\u{1F}aA title\u{1E}".utf8)), ("752", Array("  \\\u{1F}aRussian Federation\u{1E}".utf8)),
      ("952", Array("  \u{1F}pX-1\u{1F}yBK\u{1E}".utf8)),
    ]
    var directory: [UInt8] = []
    var data: [UInt8] = []
    for (tag, bytes) in fields {
      directory += Array(String(format: "%@%04d%05d", tag, bytes.count, data.count).utf8)
      data += bytes
    }
    fields.removeAll()
    let base = 24 + directory.count + 1
    let record =
      Array(String(format: "%05dnam a22%05d   4500", base + data.count + 1, base).utf8) + directory + [0x1E] + data
      + [0x1D]
    let source = folder.file("in.mrc")
    try Data(record).write(to: URL(fileURLWithPath: source))
    let db = folder.file("library.sqlite")
    #expect(try run(["import", "iso2709", source], db: db).status == 0)
    let exported = folder.file("out.mrc")
    #expect(try run(["export", "iso2709", "books", "--all", "--format", "marc21", "-o", exported], db: db).status == 0)
    #expect(try records(exported) == (try records(source)))
  }
}
