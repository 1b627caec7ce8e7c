import DeskDomain
import DeskStorage
import DeskTestSupport
import Foundation
import Testing

/// Imports that never corrupt: the encoding told from the whole file, NUL bytes and endless
/// lines refused with where they are, and an exit status a script can trust.
@Suite struct ImportSafetyTests {
  let folder = TemporaryFolder()

  func run(_ arguments: [String], db: String) throws -> CommandResult {
    try runProgram(circdeskPath, arguments + ["--db", db])
  }

  func file(_ bytes: [UInt8]) throws -> String {
    let path = folder.file("input-\(UUID().uuidString).txt")
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return path
  }

  func record(_ inventory: String, _ title: String) -> [UInt8] {
    Array("#920: PAZK\n#200: ^A\(title)\n#910: ^A0^B\(inventory)\n*****\n".utf8)
  }

  /// A UTF-8 file with one bad byte near its start was read whole as Windows-1251, every
  /// Cyrillic value garbled, with exit status 0.
  @Test func aUTF8FileWithABadByteAtItsStartIsRefusedWhole() throws {
    let db = folder.file("library.sqlite")
    var bytes: [UInt8] = Array("#920: PAZK\n#200: ^AКнига".utf8) + [0xFF] + Array("\n#910: ^A0^B1\n*****\n".utf8)
    for number in 2...50 { bytes += record(String(number), "Книга номер \(number)") }
    let path = try file(bytes)
    let refused = try run(["import", "irbis", path], db: db)
    #expect(refused.status == 1)
    #expect(refused.errors.contains("is UTF-8 but for line 2, whose byte 0xFF is not: nothing was imported"))
    let store = try LibraryStore(path: db, clock: TestClock())
    #expect(try store.books.count() == 0)
    // Said to be UTF-8, the record with the bad byte is refused and the others come in right.
    let taken = try run(["import", "irbis", path, "--encoding", "utf8"], db: db)
    #expect(taken.status == 0, "\(taken.errors)")
    #expect(taken.output.contains("skipped: record 1, line 2: bytes that are not valid in the file's encoding"))
    #expect(try store.books.count() == 49)
    #expect(try store.books.book(inventory: "2")?.title == "Книга номер 2")
  }

  @Test func aWindows1251FileIsStillToldFromItsBytes() throws {
    let db = folder.file("library.sqlite")
    let text = "#920: PAZK\n#700: ^AЛермонтов^BМ. Ю.\n#200: ^AГерой нашего времени\n#910: ^A0^B1\n*****\n"
    let path = try file(Windows1251.encodeLossy(text).bytes)
    let result = try run(["import", "irbis", path], db: db)
    #expect(result.status == 0, "\(result.errors)")
    #expect(try LibraryStore(path: db, clock: TestClock()).books.book(inventory: "1")?.title == "Герой нашего времени")
  }

  /// A NUL cut a value short, and with --update a record could overwrite another book.
  @Test func aNULInAValueRefusesItsRecordWithItsLine() throws {
    let db = folder.file("library.sqlite")
    #expect(try run(["import", "irbis", try file(record("7", "Обломов") + record("8", "Обрыв"))], db: db).status == 0)
    var bytes = Array("#920: PAZK\n#200: ^AНовое\n#910: ^A0^B7".utf8) + [0] + Array("8\n*****\n".utf8)
    bytes += record("9", "Фрегат «Паллада»")
    let result = try run(["import", "irbis", try file(bytes), "--update"], db: db)
    #expect(result.status == 0, "\(result.errors)")
    #expect(result.output.contains("skipped: record 1, line 3: a NUL byte in a value"))
    let store = try LibraryStore(path: db, clock: TestClock())
    #expect(try store.books.book(inventory: "7")?.title == "Обломов", "no book is overwritten")
    #expect(try store.books.book(inventory: "8")?.title == "Обрыв")
    #expect(try store.books.book(inventory: "9")?.title == "Фрегат «Паллада»")
  }

  @Test func aLineOverTheLimitRefusesItsRecord() throws {
    let db = folder.file("library.sqlite")
    let long =
      Array("#920: PAZK\n#330: ^A".utf8) + [UInt8](repeating: 0x41, count: 2 << 20)
      + Array("\n#200: ^AОблако\n#910: ^A0^B1\n*****\n".utf8)
    let result = try run(["import", "irbis", try file(long + record("2", "Обрыв"))], db: db)
    #expect(result.status == 0, "\(result.errors)")
    #expect(result.output.contains("skipped: record 1, line 2: a line of 2097160 bytes, over the limit of 1048576"))
    #expect(try LibraryStore(path: db, clock: TestClock()).books.count() == 1)
    // The limit is a setting of the import.
    let wider = try run(["import", "irbis", try file(long), "--max-line", "4194304"], db: db)
    #expect(wider.status == 0, "\(wider.output) \(wider.errors)")
    #expect(try LibraryStore(path: db, clock: TestClock()).books.count() == 2)
  }

  /// Two seconds of /dev/zero took over 4 GB: input with no line break ends with an error, in
  /// bounded memory (a gigabyte of address space is more than the desk needs, and far less than
  /// an unbounded line would take).
  @Test func inputWithNoLineBreakEndsInBoundedMemory() throws {
    let db = folder.file("library.sqlite")
    let result = try runProgram(
      "/bin/sh", ["-c", "ulimit -v 1048576; exec \(quotedForShell(circdeskPath)) import irbis /dev/zero --db \(db)"])
    #expect(result.status == 1, "\(result.errors)")
    #expect(result.output.contains("skipped: line 1: no line break within 16 MiB: not a text file"))
    #expect(result.output.contains("0 books added"))
  }

  @Test func nothingTakenAndSomethingRefusedIsAFailure() throws {
    let db = folder.file("library.sqlite")
    let result = try run(
      ["import", "irbis", try file(Array("#920: PAZK\n#200 ^AБез двоеточия\n*****\n".utf8))], db: db)
    #expect(result.status == 1)
    #expect(result.output.contains("Imported from 1 record: 0 books added"), "the record not read is counted")
    #expect(result.output.contains("1 skipped"))
  }

  func quotedForShell(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }
}
