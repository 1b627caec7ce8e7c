import DeskDomain
import DeskStorage
import DeskTestSupport
import Foundation
import Testing

/// Readers from IRBIS come back as they came: the worksheet (RDRKODB), the fields the desk does
/// not model, the category as the file wrote it, each loan's own subfields; a loan of a book the
/// library has not got waits with its reader and becomes a loan when the book arrives.
@Suite struct IRBISReaderRecordTests {
  let folder = TemporaryFolder()

  func run(_ arguments: [String], db: String) throws -> CommandResult {
    try runProgram(circdeskPath, arguments + ["--db", db])
  }

  func write(_ text: String, _ name: String) throws -> String {
    let path = folder.file(name)
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  func readers(_ db: String) throws -> String {
    let result = try run(["export", "irbis", "readers", "--all", "--stdout", "--encoding", "utf8"], db: db)
    #expect(result.status == 0, "\(result.errors)")
    return result.output
  }

  static let catalogue = """
    #920: PAZK
    #700: ^AЛермонтов^BМ. Ю.
    #200: ^AГерой нашего времени
    #910: ^A1^B100234
    *****

    """

  /// A reader as a regional library's IRBIS (worksheet RDRKODB) writes one: a record number (1),
  /// place of work and post (31, 33), country and entrance in the address, a department (52),
  /// clubs (599), a flag (666), the history of the record (907), the category in words, and loans
  /// with the catalogue (^G), the copy's barcode (^H), the librarian (^I) and a field of its own
  /// (^U); the second loan's book is not in the library.
  static let readersFile = """
    #920: RDRKODB
    #1: 12345
    #10: Иванова
    #11: Мария
    #12: Петровна
    #21: 1985
    #30: Ч-0042
    #31: Библиотекарь
    #33: ГУК
    #13: ^A190000^BРоссия^CСанкт-Петербург^DНевский пр.^E10^GПодъезд 2^H5
    #17: +7 812 555 1234
    #50: сотрудник
    #51: 20190312
    #52: ^AОтдел обслуживания
    #40: ^A84/Л49-100234^B100234^CЛермонтов М. Ю. Герой нашего времени^D20261101^1101500^E20261115^F******^GIBIS^H4600000100234^IПетрова А. А.^KАб^VАбонемент^Uxx
    #40: ^A84/П12-999999^B999999^CПушкин А. С. Сказки^D20260901^1120000^E20260915^F20260914^2150000^GIBIS^IПетрова А. А.^VАбонемент
    #599: ^AКнижный клуб
    #666: ^A1
    #907: ^CПК^A20190312^BИвановаМП
    *****
    #920: RDR
    #10: Смирнов
    #30: Ч-0043
    #50: учащийся
    *****

    """

  @Test func aReaderComesBackAsTheyCame() throws {
    let db = folder.file("library.sqlite")
    #expect(try run(["import", "irbis", try write(Self.catalogue, "books.txt")], db: db).status == 0)
    // «учащийся» is the library's student category in other systems' files.
    #expect(try run(["policy", "category", "student", "--written-as", "учащийся; уч."], db: db).status == 0)
    let imported = try run(["import", "irbis", try write(Self.readersFile, "readers.txt")], db: db)
    #expect(imported.status == 0, "\(imported.errors)")
    #expect(imported.output.contains("2 readers added") && imported.output.contains("1 loan;"), "\(imported.output)")
    #expect((imported.output + imported.errors).contains("1 loan is of books not in the library"))
    let store = try LibraryStore(path: db, clock: TestClock())
    #expect(try store.readers.reader(ticket: "Ч-0042")?.category == "staff", "«сотрудник»: the Russian name of staff")
    #expect(try store.readers.reader(ticket: "Ч-0043")?.category == "student")
    #expect(try readers(db) == Self.readersFile, "every field as it came")
    // Read again from a file that says less, a reader keeps what it does not say anew.
    let less = try write("#920: RDRKODB\n#10: Иванова\n#30: Ч-0042\n*****\n", "less.txt")
    #expect(try run(["import", "irbis", less, "--update"], db: db).status == 0)
    #expect(try readers(db) == Self.readersFile, "nothing lost")

    // The librarian's changes are written in the fields that hold them; the rest stays.
    #expect(try run(["return", "100234"], db: db).status == 0)
    #expect(try run(["reader", "edit", "Ч-0043", "--category", "staff", "--phone", "123"], db: db).status == 0)
    let changed = try readers(db).split(separator: "\n").map(String.init)
    let before = Self.readersFile.split(separator: "\n").map(String.init)
    #expect(before.filter { !changed.contains($0) }.map { $0.prefix(5) } == ["#40: ", "#50: "], "\(changed)")
    #expect(changed.contains { $0.hasPrefix("#40: ^A84/Л49-100234") && $0.contains("^F20") && $0.contains("^Uxx") })
    #expect(changed.contains("#50: сотрудник") && changed.contains("#17: 123"), "the category as IRBIS names it")
  }

  /// A loan of a book the library has not got yet becomes a loan when the book comes: by an
  /// import of the catalogue, or added at the desk.
  @Test func aLoanWaitsForItsBook() throws {
    let db = folder.file("library.sqlite")
    #expect(try run(["import", "irbis", try write(Self.readersFile, "readers.txt")], db: db).status == 0)
    let store = try LibraryStore(path: db, clock: TestClock())
    let reader = try #require(try store.readers.reader(ticket: "Ч-0042"))
    #expect(try store.circulation.loans(ofReader: reader).isEmpty)
    let shown = try run(["reader", "show", "Ч-0042"], db: db).output
    #expect(shown.contains("Waiting for their books, not in the library yet (2):"), "\(shown)")
    #expect(shown.contains("999999  Пушкин А. С. Сказки  issued 2026-09-01, returned 2026-09-14"), "\(shown)")
    let arrived = try run(["import", "irbis", try write(Self.catalogue, "books.txt")], db: db)
    #expect(arrived.output.contains("1 loan;"), "\(arrived.output)")
    #expect(try store.circulation.loans(ofReader: reader).map(\.inventory) == ["100234"])
    #expect(try store.books.currentLoan(ofBook: try #require(try store.books.book(inventory: "100234"))) != nil)
    #expect(try run(["book", "add", "--inventory", "999999", "--title", "Сказки"], db: db).status == 0)
    let loans = try store.circulation.loans(ofReader: reader)
    #expect(loans.map(\.inventory).sorted() == ["100234", "999999"])
    #expect(loans.first { $0.inventory == "999999" }?.loan.returned != nil, "taken back on 2026-09-14")
    // Every loan is the library's now: the export writes each as it came, once.
    #expect(try readers(db) == Self.readersFile)
  }

  /// A reader file read again with `--update` after the desk took a loan back changes no loan:
  /// a loan is its book, reader and moment of issue, whatever became of it since. A record the
  /// desk would write otherwise (no category, no date of registration, a loan's description as
  /// the file wrote it) comes back as it came.
  @Test func readingAFileAgainDoublesNoLoan() throws {
    let db = folder.file("library.sqlite")
    let one = try write(
      "#920: RDR\n#10: Кузнецов\n#30: K1\n#40: ^B100234^CКнига^D20261201^1101500^E20261215^F******^GIBIS\n*****\n",
      "one.txt")
    #expect(try run(["import", "irbis", try write(Self.catalogue, "books.txt")], db: db).status == 0)
    #expect(try run(["import", "irbis", one], db: db).status == 0)
    #expect(try readers(db) == (try String(contentsOfFile: one, encoding: .utf8)), "as it came")
    #expect(try run(["return", "100234"], db: db).status == 0)
    let again = try run(["import", "irbis", one, "--update"], db: db)
    #expect(again.output.contains("0 loans"), "\(again.output)")
    let store = try LibraryStore(path: db, clock: TestClock())
    let book = try #require(try store.books.book(inventory: "100234"))
    #expect(try store.circulation.loans(ofBook: book).count == 1)
    #expect(try store.books.currentLoan(ofBook: book) == nil, "still taken back")
  }

  /// An address the desk cannot keep (addresses go by home phone: none given here) does not
  /// keep the reader out: they come in without it, the import says so, and the export writes it
  /// back as it came. Readers before the books in one file account for the copies it marks out.
  @Test func anAddressTheDeskCannotKeepStaysWithTheRecord() throws {
    let db = folder.file("library.sqlite")
    let file = """
      #920: RDR
      #10: Петров
      #30: Ч-7
      #13: ^A190000^CСанкт-Петербург^DНевский пр.^E1
      #40: ^B100234^D20261101^E20261115^F******
      *****

      """ + Self.catalogue
    let imported = try run(["import", "irbis", try write(file, "mixed.txt")], db: db)
    #expect(imported.status == 0, "\(imported.errors)")
    #expect(imported.output.contains("1 reader added") && imported.output.contains("1 loan;"), "\(imported.output)")
    let said = imported.output + imported.errors
    #expect(said.contains("reader Ч-7: the address was not taken (An address needs a phone number"), "\(said)")
    #expect(!said.contains("marked out"), "the reader's loan accounts for it: \(said)")
    #expect(try readers(db).contains("#13: ^A190000^CСанкт-Петербург^DНевский пр.^E1\n"))
  }
}
