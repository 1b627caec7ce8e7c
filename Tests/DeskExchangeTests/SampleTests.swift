import DeskDomain
import DeskStorage
import DeskTestSupport
import Foundation
import Testing

@testable import DeskExchange

/// The real records in ../shared/samples/irbis, read in place.
@Suite struct SampleTests {
  static let samples = packageRoot + "/../shared/samples/irbis/"

  func records(_ path: String) throws -> ([IRBISRecord], [IRBISReader.Problem]) {
    let lines = try LineReader(path: path)
    var reader = IRBISReader()
    var records: [IRBISRecord] = []
    var problems: [IRBISReader.Problem] = []
    func take(_ item: IRBISReader.Item?) {
      switch item {
      case .record(let record, _, _)?: records.append(record)
      case .problem(let problem)?: problems.append(problem)
      case nil: break
      }
    }
    while let line = lines.next() { take(reader.feed(line.text, problem: line.problem)) }
    take(reader.finish())
    return (records, problems)
  }

  @Test func theThreeRecordsOfRecordsTxt() throws {
    let (records, problems) = try records(SampleTests.samples + "records.txt")
    #expect(problems.isEmpty)
    #expect(records.count == 3)
    #expect(records[0].fields.count == 20)
    #expect(records[0].text(101) == "rus")
    #expect(records[0].first(10)?.subfield("D") == "80")
    #expect(records[0].first(910)?.subfield("B") == "1759089")
    #expect(records[1].fields.count == 23)
    #expect(records[1].text(920) == "ASP")
    #expect(records[1].first(200)?.subfield("A") == "Передовые охотники")
    #expect(records[2].text(920) == "PAZK")
    #expect(records[2].first(700)?.subfield("A") == "Kay")
  }

  @Test func theEightyOneRecordsOfTest1ISO() throws {
    let folder = TemporaryFolder()
    let store = try LibraryStore(path: folder.file("library.sqlite"), clock: TestClock())
    let report = try ISO2709.run(
      path: SampleTests.samples + "TEST1.ISO", encoding: .cp1251, store: store, update: false, dryRun: true)
    #expect(report.records == 81)
    #expect(
      !report.englishProblems.contains { $0.contains("damaged") || $0.contains("ends inside") || $0.contains("leader") }
    )

    guard let file = fopen(SampleTests.samples + "TEST1.ISO", "rb") else {
      Issue.record("TEST1.ISO")
      return
    }
    defer { fclose(file) }
    var leader = [UInt8](repeating: 0, count: 5)
    fread(&leader, 1, 5, file)
    let length = Int(String(decoding: leader, as: UTF8.self)) ?? 0
    var rest = [UInt8](repeating: 0, count: length - 5)
    fread(&rest, 1, rest.count, file)
    let first = try #require(try ISO2709.record(leader + rest, decode: { Windows1251.decode($0) }))
    #expect(first.fields.count == 16)
    #expect(first.first(200)?.subfield("A") == "Вып. 13.")
  }

  @Test func theSampleBookRecordImports() throws {
    let folder = TemporaryFolder()
    let store = try LibraryStore(path: folder.file("library.sqlite"), clock: TestClock())
    let report = try IRBISTextImport.run(
      path: SampleTests.samples + "records.txt", encoding: nil, store: store, update: false, dryRun: false)
    #expect(report.booksAdded == 1)
    #expect(
      report.englishProblems == [
        "record 2 (line 22): not a book (worksheet ASP)",
        "record 3 (line 46): no copy with an inventory number (910 ^B): --assign-inventory START gives it one",
      ])
    let book = try #require(try store.books.book(inventory: "1759089"))
    #expect(book.title == "Собрание сочинений : в 6 кн. Кн. 3. Странные люди", "the set's title with the volume's")
    #expect(book.authorSurname == "Шукшин")
    #expect(book.isbn?.digits == "5861500487")
    #expect(book.price == Money(minorUnits: 8000))
    #expect(book.year == 1998)
    #expect(book.pages == 528)
    #expect(book.place == "Ф104")
  }

  /// Ten real records with copies numbered «б/н», a price «Беспл.» and one number given twice.
  @Test func theManagedReportsSampleImportsWithoutMakingBooksOfNoNumbers() throws {
    let folder = TemporaryFolder()
    let store = try LibraryStore(path: folder.file("library.sqlite"), clock: TestClock())
    let report = try IRBISTextImport.run(
      path: SampleTests.samples + "managed-reports-001.txt", encoding: nil, store: store, update: false, dryRun: false)
    #expect(report.englishProblems.contains("record 5 (line 323): a copy without an inventory number («б/н»)"))
    #expect(try store.books.book(inventory: "б/н") == nil, "no book is called «б/н»")
    #expect(!report.englishProblems.contains { $0.contains("already in the library") }, "\(report.englishProblems)")
    #expect(
      report.englishProblems.contains {
        $0.hasPrefix("record 8 (line 535): copy 2223: the same number is also in record 8")
      })
    #expect(
      report.englishNotes.contains(
        "record 6 (line 399): copy 222: price «Беспл.» is not an amount; imported without it"))
    let free = try #require(try store.books.book(inventory: "222"))
    #expect(free.price == nil)
    // Statuses as IRBIS codes them: 6 written off, 1 on loan and C (BiblioNet) available copies.
    #expect(free.status == .writtenOff)
    #expect(try store.books.book(inventory: "15")?.status == .writtenOff)
    #expect(try store.books.book(inventory: "43")?.status == .available)
    #expect(try store.books.book(inventory: "44442")?.status == .available)
    #expect(try store.books.count(filter: .notForLoan) == 2)
    #expect(try store.books.book(inventory: "556") == nil, "a summary entry (^A U) is no copy")
    #expect(
      report.englishNotes.contains(
        "3 copies are marked out (910 ^A 1) with no loan in this file: on the shelf until the readers' records "
          + "(RDR, field 40) bring their loans"), "\(report.englishNotes)")
  }
}
