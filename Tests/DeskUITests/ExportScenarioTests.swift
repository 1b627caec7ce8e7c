import DeskDomain
import DeskTestSupport
import Foundation
import Testing

@testable import DeskUI

/// Export from the desk: the list as filtered, a record, or everything, to a named file.
@Suite struct ExportScenarioTests {
  func records(in path: String) throws -> Int {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    return data.split(separator: 0x0A).filter { $0.starts(with: Array("*****".utf8)) }.count
  }

  @Test func theListAsFilteredARecordAndEverything() throws {
    let desk = try DeskHarness()
    let folder = TemporaryFolder()
    desk.press(.character("b"), .character("f"))  // issued: two books
    desk.press(.function(6))
    #expect(desk.shown.contains("File to write the IRBIS records to"))
    desk.press(.control("u"))
    desk.type(folder.file("issued.txt"))
    desk.press(.enter)
    #expect(desk.shown.contains("Wrote 2 records to \(folder.file("issued.txt"))"))
    #expect(try records(in: folder.file("issued.txt")) == 2)

    desk.press(.enter, .function(6), .control("u"))
    desk.type(folder.file("one.txt"))
    desk.press(.enter)
    #expect(try records(in: folder.file("one.txt")) == 1)

    desk.press(.escape, .escape, .escape, .character("x"), .control("u"))
    desk.type(folder.file("all.txt"))
    desk.press(.enter)
    #expect(desk.shown.contains("Wrote 8 records to"), "six books and two readers")
    let bytes = try Data(contentsOf: URL(fileURLWithPath: folder.file("all.txt")))
    #expect(Windows1251.decode(bytes).contains("#920: RDR\r\n#10: Иванова"))
  }

  @Test func aFileThatCannotBeWrittenSaysSo() throws {
    let desk = try DeskHarness()
    desk.press(.character("x"), .control("u"))
    desk.type("/no/such/folder/out.txt")
    desk.press(.enter)
    #expect(desk.shown.contains("Cannot write /no/such/folder/out.txt: No such file or directory"))
  }
}
