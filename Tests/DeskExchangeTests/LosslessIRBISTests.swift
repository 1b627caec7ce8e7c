import DeskDomain
import DeskStorage
import DeskTestSupport
import Foundation
import Testing

/// IRBIS text through the real program without loss: real records written back as they came,
/// what the librarian changed written anew, readers' loans as the file has them.
@Suite struct LosslessIRBISTests {
  let folder = TemporaryFolder()
  static let samples = packageRoot + "/../shared/samples/irbis/"

  func run(_ arguments: [String], db: String) throws -> CommandResult {
    try runProgram(circdeskPath, arguments + ["--db", db])
  }

  func exported(_ what: [String], db: String, encoding: String = "utf8") throws -> String {
    let result = try run(["export", "irbis"] + what + ["--stdout", "--encoding", encoding], db: db)
    #expect(result.status == 0, "\(result.errors)")
    return result.output
  }

  func write(_ text: String) throws -> String {
    let path = folder.file("input-\(UUID().uuidString).txt")
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  /// A real record with seven copies and many fields the desk does not model (692, 907, 951…),
  /// UTF-8 with a byte-order mark and CR LF: the export gives every field back, in its order.
  @Test func aRealRecordWithManyFieldsAndCopiesComesBackAsItCame() throws {
    let db = folder.file("library.sqlite")
    let path = LosslessIRBISTests.samples + "managed-record.txt"
    let imported = try run(["import", "irbis", path], db: db)
    #expect(imported.status == 0)
    #expect(imported.output.contains("5 books added"), "\(imported.output)")
    #expect(
      (imported.output + imported.errors).contains("summary entry «556» of 12 copies (910 ^A U): kept with the record"))
    var original = try String(contentsOfFile: path, encoding: .utf8).replacingOccurrences(of: "\r\n", with: "\n")
    if original.hasPrefix("\u{FEFF}") { original.removeFirst() }
    let books = try exported(["books", "--all"], db: db)
    #expect(books == original, "one record, as it came")
    #expect(books.components(separatedBy: "#910:").count - 1 == 7)
  }

  /// Exported → imported → exported gives the same file, for every real sample.
  @Test func exportedImportedExportedIsTheSameFile() throws {
    for sample in ["managed-record.txt", "managed-reports-001.txt", "records.txt"] {
      let first = folder.file("first-\(sample).sqlite")
      let second = folder.file("second-\(sample).sqlite")
      _ = try run(["import", "irbis", LosslessIRBISTests.samples + sample], db: first)
      for encoding in ["utf8", "cp1251"] {
        let once = folder.file("once-\(encoding)-\(sample)")
        #expect(
          try run(["export", "irbis", "books", "--all", "-o", once, "--encoding", encoding], db: first).status == 0)
        _ = try run(["import", "irbis", once], db: second + encoding)
        let twice = folder.file("twice-\(encoding)-\(sample)")
        #expect(
          try run(["export", "irbis", "books", "--all", "-o", twice, "--encoding", encoding], db: second + encoding)
            .status == 0)
        #expect(
          FileManager.default.contentsEqual(atPath: once, andPath: twice), "\(sample) in \(encoding)")
      }
    }
  }

  /// What the librarian changes is written anew where it stands; every other subfield stays.
  @Test func changesAreWrittenIntoTheKeptFields() throws {
    let db = folder.file("library.sqlite")
    _ = try run(["import", "irbis", LosslessIRBISTests.samples + "records.txt"], db: db)
    let edited = try run(
      ["book", "edit", "1759089", "--title", "Странные люди : рассказы", "--status", "damaged", "--place", "Ф105"],
      db: db)
    #expect(edited.status == 0, "\(edited.errors)")
    let lines = try exported(["books", "1759089"], db: db).split(separator: "\n").map(String.init)
    #expect(lines.first == "#920: SPEC", "the worksheet as it came")
    #expect(lines.contains("#200: ^AСтранные люди^Eрассказы"))
    #expect(lines.contains("#910: ^A3^B1759089^DФ105^U2018/45^Y45^C20180607"), "status 3, place; ^U ^Y kept")
    #expect(lines.contains("#903: -051259089"), "the shelf mark as written")
    #expect(
      lines.contains(
        "#461: ^CСобрание сочинений : в 6 кн.^FВ. М. Шукшин^GНадежда-1^H1998^Z1998^XШукшин, Василий Макарович^DМосква^U1"
      ))
    #expect(lines.contains("#919: ^Arus^N02  ^KPSBO^Gca"), "two spaces, as written")
    #expect(lines.count == 21)
  }

  /// A record's copies go out as one record while they share its description; a copy whose
  /// description changed goes out on its own, and a copy written off says so in ^A.
  @Test func theCopiesOfARecordGoOutTogether() throws {
    let db = folder.file("library.sqlite")
    let path = try write(
      """
      #920: PAZK
      #101: rus
      #700: ^AЛермонтов^BМ. Ю.
      #200: ^AГерой нашего времени
      #606: ^AРусская литература
      #910: ^A0^B11^C20200101^DАб
      #910: ^A0^Bб/н^DХР
      #910: ^A6^B12^C20200101^DХР^Zнота
      *****

      """)
    let imported = try run(["import", "irbis", path], db: db)
    #expect(imported.output.contains("2 books added"))
    let store = try LibraryStore(path: db, clock: TestClock())
    #expect(try store.books.book(inventory: "12")?.status == .writtenOff)
    let original = try String(contentsOfFile: path, encoding: .utf8)
    #expect(try exported(["books", "--all"], db: db) == original.trimmingCharacters(in: .newlines) + "\n")
    _ = try run(["book", "edit", "12", "--title", "Герой нашего времени : роман"], db: db)
    let apart = try exported(["books", "--all"], db: db)
    #expect(apart.components(separatedBy: "*****").count - 1 == 2)
    #expect(apart.contains("#200: ^AГерой нашего времени^Eроман"))
    // The «б/н» entry stays with the record it came in, not with the copy that left it.
    #expect(apart.components(separatedBy: "^Bб/н").count - 1 == 1, "\(apart)")
    #expect(
      apart.components(separatedBy: "#606: ^AРусская литература").count - 1 == 2, "the description goes with both")
  }

  /// Any worksheet with a ticket is a reader; two loans of one book on one day are two loans;
  /// renewals in 40 ^L are read and written back; no time of day is made up.
  @Test func readersAndTheirLoansAsTheFileHasThem() throws {
    let db = folder.file("library.sqlite")
    let books = try write(
      """
      #920: PAZK
      #200: ^AАзбука
      #910: ^A0^B501
      *****

      """)
    let readers = try write(
      """
      #920: READER
      #10: Петрова
      #30: Ч-77
      #40: ^B501^D20261102^E20261103^F20261102
      #40: ^B501^D20261102^E20261103^F20261102
      #40: ^B501^D20261104^1113000^E20261118^F******^L20261110^41
      *****

      """)
    _ = try run(["import", "irbis", books], db: db)
    let imported = try run(["import", "irbis", readers], db: db)
    #expect(imported.output.contains("1 reader added"), "\(imported.output) \(imported.errors)")
    #expect(imported.output.contains("3 loans"), "\(imported.output) \(imported.errors)")
    let store = try LibraryStore(path: db, clock: TestClock())
    let reader = try #require(try store.readers.reader(ticket: "Ч-77"))
    let loans = try store.circulation.loans(ofReader: reader)
    #expect(loans.count == 3)
    #expect(loans.first?.loan.renewals == 1 && loans.first?.loan.lastRenewed != nil)
    let fields = try exported(["readers", "Ч-77"], db: db).split(separator: "\n").filter { $0.hasPrefix("#40:") }
    #expect(fields.count == 3)
    // As the file wrote them: a worksheet of another name keeps its record, loans and all.
    #expect(fields.contains("#40: ^B501^D20261104^1113000^E20261118^F******^L20261110^41"), "\(fields)")
    #expect(fields.filter { $0 == "#40: ^B501^D20261102^E20261103^F20261102" }.count == 2, "no time made up: \(fields)")
    // Read back again: nothing doubled.
    let again = try run(["import", "irbis", readers, "--update"], db: db)
    #expect(again.output.contains("0 loans"), "\(again.output) \(again.errors)")
  }

  /// `--update` replaces what was kept of a record with what the new file's record holds: another
  /// field kept instead, the same again (the row left as it is), or the record without it.
  @Test func anUpdateReplacesWhatWasKeptOfTheRecord() throws {
    let db = folder.file("library.sqlite")
    func record(_ extra: String) throws -> String {
      try write("#920: PAZK\n#200: ^AКнига\n\(extra)#910: ^A0^B1\n*****\n")
    }
    #expect(try run(["import", "irbis", try record("#300: Первое примечание\n")], db: db).status == 0)
    func kept() throws -> String? { try LibraryStore(path: db, clock: TestClock()).books.kept(forBook: "1")?.record }
    #expect(try kept()?.contains("#300: Первое примечание") == true)
    let second = try record("#300: Второе примечание\n")
    #expect(try run(["import", "irbis", second, "--update"], db: db).status == 0)
    #expect(try kept()?.contains("#300: Второе примечание") == true)
    #expect(try kept()?.contains("Первое") == false)
    #expect(try run(["import", "irbis", second, "--update"], db: db).status == 0)
    #expect(try kept()?.contains("#300: Второе примечание") == true, "the same again")
    #expect(try run(["import", "irbis", try record(""), "--update"], db: db).status == 0)
    #expect(try kept()?.contains("примечание") == false, "the note gone with the record that had it")
    #expect(!(try exported(["books", "--all"], db: db)).contains("примечание"))
  }

  /// Control characters from another system's file (C0 and C1) are never written raw.
  @Test func controlCharactersAreNeverWrittenRaw() throws {
    let db = folder.file("library.sqlite")
    let path = try write(
      "#920: PAZK\n#200: ^AКнига\n#300: Примечание\u{1B}[31m и \u{9B}31m\u{85}конец\rещё\u{7F}\n#910: ^A0^B1\n*****\n")
    let imported = try run(["import", "irbis", path], db: db)
    #expect(imported.status == 0, "\(imported.errors)")
    for encoding in ["utf8", "cp1251"] {
      let out = folder.file("out-\(encoding).txt")
      #expect(try run(["export", "irbis", "books", "--all", "-o", out, "--encoding", encoding], db: db).status == 0)
      let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: out)))
      #expect(!bytes.contains { $0 < 0x20 && $0 != 0x0A && $0 != 0x0D }, "\(encoding)")
      if encoding == "utf8" {
        #expect(!zip(bytes, bytes.dropFirst()).contains { $0 == 0xC2 && (0x80...0x9F).contains($1) }, "no C1")
        #expect(try String(contentsOfFile: out, encoding: .utf8).contains("#300: Примечание [31m и  31m конец ещё \n"))
        #expect(!bytes.contains(0x7F))
      } else {
        // In Windows-1251, 0x80–0x9F are letters (Ђ, Ѓ…): the C1 characters become spaces before.
        let text = Windows1251.decode(bytes)
        #expect(text.contains("#300: Примечание [31m и  31m конец ещё \r\n"), "\(text)")
      }
    }
  }

  /// A copy the file marks out (910 ^A 1) with no reader's record to say to whom stays marked
  /// out on export while the desk lends it none; lent and taken back here, it goes out on the shelf.
  @Test func aCopyMarkedOutStaysSoUntilTheDeskLendsIt() throws {
    let db = folder.file("library.sqlite")
    let path = try write("#920: PAZK\n#200: ^AАзбука\n#910: ^A1^B7^C20240105\n*****\n")
    #expect(try run(["import", "irbis", path], db: db).status == 0)
    #expect(try exported(["books", "--all"], db: db).contains("#910: ^A1^B7^C20240105"))
    #expect(try run(["reader", "add", "--ticket", "17", "--surname", "Иванова"], db: db).status == 0)
    #expect(try run(["issue", "17", "7"], db: db).status == 0)
    #expect(try exported(["books", "--all"], db: db).contains("#910: ^A1^B7"), "out, now to a reader of the desk")
    #expect(try run(["return", "7"], db: db).status == 0)
    #expect(try exported(["books", "--all"], db: db).contains("#910: ^A0^B7^C20240105"), "on the shelf")
  }

  /// A volume of a set (records.txt's first record: 461 ^C the set, 200 ^V «Кн. 3», ^A its own
  /// title) is shown by the set's title, the volume and its own; a changed title is written in
  /// the volume's own ^A while it still begins with the set's and the volume's, not whole.
  @Test func aVolumesNewTitleGoesInItsOwnSubfield() throws {
    let db = folder.file("library.sqlite")
    _ = try run(["import", "irbis", LosslessIRBISTests.samples + "records.txt"], db: db)
    let store = try LibraryStore(path: db, clock: TestClock())
    #expect(try store.books.book(inventory: "1759089")?.title == "Собрание сочинений : в 6 кн. Кн. 3. Странные люди")
    func title(_ new: String) throws -> String {
      #expect(try run(["book", "edit", "1759089", "--title", new], db: db).status == 0)
      return try exported(["books", "1759089"], db: db).split(separator: "\n").first { $0.hasPrefix("#200:") }.map(
        String.init) ?? ""
    }
    #expect(
      try title("Собрание сочинений : в 6 кн. Кн. 3. Странные люди : рассказы")
        == "#200: ^VКн. 3^AСтранные люди^Eрассказы")
    #expect(try title("Собрание сочинений : в 6 кн. Том 3") == "#200: ^AТом 3")
    #expect(try title("Рассказы") == "#200: ^AРассказы")
  }

  /// `--assign-inventory` numbers the copies a record lists without a number («б/н») beside
  /// its numbered ones, as it numbers a record's only copies, and never with a number the file
  /// gives a copy of its own further on.
  @Test func assignedNumbersGoToEveryUnnumberedCopy() throws {
    let db = folder.file("library.sqlite")
    let file = try write(
      "#920: PAZK\n#200: ^AАзбука\n#910: ^A0^B501\n#910: ^A0^Bб/н\n#910: ^A0\n*****\n"
        + "#920: PAZK\n#200: ^AБукварь\n#910: ^A0^B9000\n*****\n")
    let imported = try run(["import", "irbis", file, "--assign-inventory", "9000"], db: db)
    #expect(imported.output.contains("4 books added") && imported.output.contains("0 skipped"), "\(imported.output)")
    let store = try LibraryStore(path: db, clock: TestClock())
    #expect(try ["501", "9001", "9002"].allSatisfy { try store.books.book(inventory: $0)?.title == "Азбука" })
    #expect(try store.books.book(inventory: "9000")?.title == "Букварь")
  }

  /// A note about a copy `--assign-inventory` numbers (its status, its price) speaks of the copy
  /// to be numbered, whose number the next note gives: never of the mark that stands for it.
  @Test func aNoteOnACopyToBeNumberedNamesNoMark() throws {
    let db = folder.file("library.sqlite")
    let file = try write("#920: PAZK\n#200: ^AАзбука\n#910: ^A7^Bб/н^EБеспл.\n*****\n")
    let imported = try run(["import", "irbis", file, "--assign-inventory", "9000"], db: db)
    #expect(imported.status == 0, "\(imported.errors)")
    #expect(
      imported.output.contains("record 1 (line 1): the copy to be numbered: status «7» is not an IRBIS copy status"),
      "\(imported.output)")
    #expect(imported.output.contains("the copy to be numbered: price «Беспл.» is not an amount"), "\(imported.output)")
    #expect(imported.output.contains("record 1 (line 1): a copy numbered 9000"), "\(imported.output)")
    #expect(!imported.output.unicodeScalars.contains("\u{FFFF}"))
  }

  /// A value the librarian clears takes its field with it in the IRBIS export (no empty 210 or
  /// 621), and a cleared author takes the full given names (700 ^G) too.
  @Test func aClearedValueTakesItsFieldInIRBISText() throws {
    let db = folder.file("library.sqlite")
    let file = try write(
      "#920: PAZK\n#700: ^AБулгаков^BМ. А.^GМихаил Афанасьевич\n#200: ^AМастер и Маргарита\n"
        + "#210: ^AМосква^CАСТ^D2019\n#621: 84(2Рос=Рус)6\n#606: ^AРОМАНЫ\n#910: ^A0^B5001\n*****\n")
    #expect(try run(["import", "irbis", file], db: db).status == 0)
    let cleared = try run(
      [
        "book", "edit", "5001", "--author-surname", "", "--author-initials", "", "--publisher", "", "--city", "",
        "--year", "", "--bbk", "",
      ], db: db)
    #expect(cleared.status == 0, "\(cleared.errors)")
    let text = try exported(["books", "5001"], db: db)
    // The shelf code follows the index: the desk's own, of the inventory number alone.
    #expect(
      text == "#920: PAZK\n#200: ^AМастер и Маргарита\n#606: ^AРОМАНЫ\n#903: 5001\n#910: ^A0^B5001\n*****\n", "\(text)")
  }
}
