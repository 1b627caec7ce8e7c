import DeskDomain
import DeskStorage
import DeskTestSupport
import Foundation
import Testing

@testable import DeskExchange

/// ISO 2709 files as other tools write them: records apart by line breaks, Unicode records.
@Suite struct ISO2709FileTests {
  let folder = TemporaryFolder()

  /// A RUSMARC record: a title in 200 $a, a copy in 910 ($b inventory), with leader position 9
  /// as given (`a`: Unicode).
  static func record(title: [UInt8], inventory: String, unicode: Bool) -> [UInt8] {
    let fields: [(String, [UInt8])] = [
      ("200", Array("1 ".utf8) + [0x1F] + Array("a".utf8) + title + [0x1E]),
      ("910", Array("  ".utf8) + [0x1F] + Array("a0".utf8) + [0x1F] + Array("b\(inventory)".utf8) + [0x1E]),
    ]
    var directory: [UInt8] = []
    var data: [UInt8] = []
    for (tag, body) in fields {
      directory += Array(tag.utf8) + Array(String(format: "%04d%05d", body.count, data.count).utf8)
      data += body
    }
    directory.append(0x1E)
    let base = 24 + directory.count
    let length = base + data.count + 1
    // Positions 5–8 status, type, level, control; 9 the character coding; 12–16 the base.
    let leader =
      String(format: "%05d", length) + "nam " + (unicode ? "a" : " ") + "22" + String(format: "%05d", base)
      + "   450 "
    return Array(leader.utf8) + directory + data + [0x1D]
  }

  func importing(_ bytes: [UInt8], encoding: FileEncoding = .cp1251) throws -> (ImportReport, LibraryStore) {
    let path = folder.file("records-\(UUID().uuidString).iso")
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    let store = try LibraryStore(path: folder.file("library-\(UUID().uuidString).sqlite"), clock: TestClock())
    let report = try ISO2709.run(path: path, encoding: encoding, store: store, update: false, dryRun: false)
    return (report, store)
  }

  @Test(arguments: [[0x0A], [0x0D], [0x0D, 0x0A]] as [[UInt8]])
  func recordsApartByAnyLineBreakAreRead(separator: [UInt8]) throws {
    let one = ISO2709FileTests.record(title: Windows1251.encodeLossy("Обломов").bytes, inventory: "1", unicode: false)
    let two = ISO2709FileTests.record(title: Windows1251.encodeLossy("Обрыв").bytes, inventory: "2", unicode: false)
    let (report, store) = try importing(one + separator + two + separator)
    #expect(report.problems.isEmpty, "\(report.problems)")
    #expect(try store.books.book(inventory: "1")?.title == "Обломов")
    #expect(try store.books.book(inventory: "2")?.title == "Обрыв")
  }

  @Test func aRecordWhoseLeaderSaysUnicodeIsReadAsUTF8() throws {
    let unicode = ISO2709FileTests.record(title: Array("Фрегат «Паллада»".utf8), inventory: "3", unicode: true)
    let windows = ISO2709FileTests.record(title: Windows1251.encodeLossy("Обрыв").bytes, inventory: "4", unicode: false)
    let (report, store) = try importing(unicode + windows)
    #expect(report.problems.isEmpty, "\(report.problems)")
    #expect(try store.books.book(inventory: "3")?.title == "Фрегат «Паллада»")
    #expect(try store.books.book(inventory: "4")?.title == "Обрыв")
  }
}
