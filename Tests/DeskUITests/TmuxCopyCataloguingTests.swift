import DeskTestSupport
import Foundation
import Testing

extension TmuxTests {
  /// Copy cataloguing in a real terminal: two targets made with `circdesk target add` (yaz-ztest
  /// over Z39.50, and an SRU server of the test's own in Windows-1251), the title typed on the New
  /// Book form, F5, the records listed with their source, one chosen, the form filled, the book
  /// saved; its export carries the whole record.
  @Test(arguments: ["xterm-256color", "tmux-256color"])
  func aRecordCopiedFromAnotherLibraryFillsTheNewBookForm(term: String) throws {
    let session = try Session()
    let ztest = try YazTestServer(folder: session.folder)
    let record = SRUAnswer.record(
      leader: "00000nam  2200000   450 ",
      dataFields: [
        ("010", "  ", [("a", "978-5-389-04934-5")]),
        ("200", "1 ", [("a", "Война и мир"), ("e", "роман")]),
        ("210", "  ", [("a", "Москва"), ("c", "АСТ"), ("d", "2013")]),
        ("606", "1 ", [("a", "Художественная литература")]),
        ("700", " 1", [("a", "Толстой"), ("b", "Л. Н.")]),
      ])
    let bytes = try #require(SRUAnswer.searchRetrieve([record], encoding: "windows-1251").data(using: .windowsCP1251))
    let sru = try LocalHTTPServer { _ in .init(bytes: Array(bytes), contentType: "text/xml") }
    for arguments in [
      ["target", "add", "nlr", "--sru", sru.baseURL + "/nlr", "--syntax", "rusmarc"],
      ["target", "add", "ztest", "--z3950", ztest.z3950Address, "--syntax", "marc21"],
    ] {
      let added = try runProgram(circdeskPath, arguments + ["--db", session.database])
      #expect(added.status == 0, "\(added.errors)")
    }
    try session.start(environment: "TERM=\(term)")
    try session.waitFor("Circulation Desk — Home")
    try session.keys("b")
    try session.waitFor("Books: all")
    try session.keys("n")
    try session.waitFor("New book")
    try session.keys("Tab", "Tab", "Tab", "Tab")
    try session.type("Война и мир")
    // A person's pause before the key: a burst and F5 at once would read as a scan.
    Thread.sleep(forTimeInterval: 0.3)
    try session.keys("F5")
    let list = try session.waitFor("Found in libraries' catalogues")
    #expect(list.contains("> [nlr] Толстой Л. Н. Война и мир : роман"), "\(list)")
    #expect(list.contains("[ztest] Collins J. How to program a computer"), "\(list)")
    try session.keys("Enter")
    let form = try session.waitFor("Filled from nlr")
    #expect(form.contains("Толстой"))
    #expect(form.contains("978-5-389-04934-5"))
    try session.type("В-200")
    Thread.sleep(forTimeInterval: 0.3)
    try session.keys("F2")
    try session.waitFor("Saved: В-200")
    try session.keys("F10")
    try session.waitFor("EXIT:0")
    let exported = try runProgram(
      circdeskPath, ["export", "irbis", "books", "В-200", "-o", session.folder.file("out.txt"), "--db", session.database])
    #expect(exported.status == 0, "\(exported.errors)")
    // IRBIS reads its exchange files in Windows-1251.
    let text = try String(contentsOfFile: session.folder.file("out.txt"), encoding: .windowsCP1251)
    #expect(text.contains("#606: ^aХудожественная литература"), "\(text)")
  }
}
