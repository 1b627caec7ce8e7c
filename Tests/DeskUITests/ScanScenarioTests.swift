import DeskDomain
import DeskStorage
import DeskTestSupport
import Foundation
import Testing

@testable import DeskUI

/// The wedge scanner typing into the running desk, and Scan image.
@Suite struct ScanScenarioTests {
  @Test func scansDriveTheDesk() throws {
    let desk = try DeskHarness()
    desk.press(.character("d"))
    desk.scan("17")
    #expect(desk.shown.contains("Reader 17: Иванова Мария (Adult)"))
    desk.scan("100234")
    #expect(desk.shown.contains("Issued 100234 «Герой нашего времени» to Иванова М., due 2026-12-14"))
    // The book's ISBN barcode works too: the copy on the shelf is issued.
    desk.scan("9780141439518")
    #expect(desk.shown.contains("Issued 100238 «Pride and Prejudice» to Иванова М."))
    desk.press(.escape)
    desk.scan("100234", terminator: nil)
    #expect(desk.shown.contains("Returned 100234 «Герой нашего времени» from Иванова М."))
  }

  @Test func aScanFillsACodeFieldAndNeverSavesTheForm() throws {
    let desk = try DeskHarness()
    desk.press(.character("b"), .character("n"))
    desk.scan("200001")
    let form = try #require(desk.app.top as? BookFormScreen)
    #expect(form.editors[.inventoryNumber]?.text == "200001", "the inventory field took the scan")
    // The scanner's Enter moved on to the ISBN: the next scan fills it, and keeps the first.
    #expect(form.focusedField == .isbn)
    desk.scan("9785170795857")
    #expect(form.editors[.isbn]?.text == "9785170795857")
    #expect(form.editors[.inventoryNumber]?.text == "200001")
    #expect(desk.app.top === form, "the scanner's Enter did not save or leave the form")
    #expect(try desk.store.books.count() == 6)
    // A scan ended by a pause, not Enter, stays in its field.
    desk.press(.backTab, .backTab)
    desk.scan("200003", terminator: nil)
    #expect(form.editors[.inventoryNumber]?.text == "200003" && form.focusedField == .inventoryNumber)
    // Ctrl-Z takes the scan back: the field holds what it held.
    desk.press(.control("z"))
    #expect(form.editors[.inventoryNumber]?.text == "200001")
    // In a field that is not a code, a scan opens what it names over the form.
    desk.press(.tab, .tab)
    desk.scan("100234")
    #expect(desk.app.top is BookDetailScreen)
    desk.press(.escape)
    #expect(desk.app.top === form)
    #expect(form.editors[.authorSurname]?.text == "", "nothing was typed into the unrelated field")
  }

  @Test func aQRRecordOpensAFilledNewBookForm() throws {
    let desk = try DeskHarness()
    desk.press(.character("b"))
    desk.scan("Инвентарный номер: 200002\nФамилия автора: Лермонтов\nНазвание книги: Мцыри\nГод издания: 2019")
    let form = try #require(desk.app.top as? BookFormScreen)
    #expect(form.editors[.title]?.text == "Мцыри")
    #expect(form.editors[.year]?.text == "2019")
    #expect(desk.shown.contains("Filled from the scanned label: check and save with F2"))
    desk.press(.function(2))
    #expect(try desk.store.books.book(inventory: "200002")?.title == "Мцыри")
  }

  /// What a label says that fills no field is told on the form, never dropped in silence: in an
  /// alert over it, whole at 80 columns, where a status line would cut it.
  @Test func aQRRecordsLinesNotUnderstoodAreTold() throws {
    let desk = try DeskHarness()
    desk.press(.character("b"))
    desk.scan("Название: Мцыри\nАвтор: Лермонтов М. Ю.\nПереплёт: мягкий\nISBN: 978-5-17-079585-0")
    let form = try #require(desk.app.top as? BookFormScreen)
    #expect(form.editors[.authorSurname]?.text == "Лермонтов" && form.editors[.authorInitials]?.text == "М. Ю.")
    let screen = desk.text(rows: 24, columns: 80)
    #expect(screen.contains("Lines not understood (nothing was filled from them):"), "\(screen)")
    #expect(screen.contains("«Переплёт: мягкий»"), "\(screen)")
    #expect(screen.contains("ISBN 978-5-17-079585-0 has a wrong check digit (expected 7)"), "\(screen)")
    desk.press(.enter)
    #expect(desk.app.top === form, "Enter closes the alert; the form stays, filled")
    #expect(!desk.text(rows: 24, columns: 80).contains("Lines not understood"))
    #expect(form.editors[.title]?.text == "Мцыри")
  }

  @Test func anUnknownISBNOpensANewBookWithIt() throws {
    let desk = try DeskHarness()
    desk.scan("9780140449136")
    let form = try #require(desk.app.top as? BookFormScreen)
    #expect(form.editors[.isbn]?.text == "978-0-14-044913-6")
    #expect(form.focusedField == .inventoryNumber)
  }

  @Test func aMisScanIsALoudErrorAndNeverAnswersADialog() throws {
    let desk = try DeskHarness()
    desk.press(.character("b"))
    desk.scan("Q9Q9Q9Q9")
    // Nothing answers to it: an error, and the scanner's Enter did not open the selected book.
    #expect(desk.app.top is BookListScreen)
    #expect(desk.shown.contains("Unknown code «Q9Q9Q9Q9»"))
    #expect(try desk.store.books.count() == 6)
    desk.press(.enter, .character("n"), .function(2))
    #expect(desk.app.dialog != nil)
    desk.scan("200234")
    #expect(desk.app.dialog != nil, "the scan did not close the alert")
    #expect(desk.shown.contains("Scanned 200234: it acts when this message closes"))
    // Kept, not lost: once the alert is closed it fills the field the alert pointed to.
    desk.press(.enter)
    let form = try #require(desk.app.top as? BookFormScreen)
    #expect(form.editors[.inventoryNumber]?.text == "200234")
    #expect(form.focusedField == .isbn)
  }

  @Test func scanImageFindsSeveralCodesAndOpensTheChosenOne() throws {
    let desk = try DeskHarness()
    let folder = TemporaryFolder()
    let a = folder.file("a.png")
    let b = folder.file("b.png")
    let photo = folder.file("shelf-photo.png")
    #expect(
      try runProgram("/usr/bin/env", ["zint", "-b", "EANX", "--scale", "2", "-d", "9785170795857", "-o", a]).status == 0
    )
    #expect(try runProgram("/usr/bin/env", ["qrencode", "-s", "6", "-o", b, "17"]).status == 0)
    #expect(
      try runProgram("/usr/bin/env", ["/usr/bin/convert", a, b, "-background", "white", "+append", photo]).status == 0)
    desk.press(.character("s"))
    desk.type(folder.file("shelf-"))
    desk.press(.tab)
    #expect(desk.shown.contains(photo), "Tab completed the name")
    desk.press(.enter)
    #expect(desk.shown.contains("2 codes in \(photo): choose one"))
    desk.press(.down, .enter)
    #expect(desk.app.top is ReaderDetailScreen, "the QR code of ticket 17")
    desk.press(.escape, .up, .enter)
    #expect(desk.app.top is BookDetailScreen, "the ISBN of the book the library has")
    desk.press(.escape, .escape)
    desk.type(folder.file("missing.png"))
    desk.press(.enter)
    #expect(desk.shown.contains("missing.png: no such file"))
  }
  /// Two file names pasted at once into the scan prompt: the first is scanned and opens its
  /// record; the second, which arrived with it, never acts as keys on the screen it opened (its
  /// «r» would return a book). A message that the first raised is not answered by it either.
  @Test func keysPastedWithTheEnterThatOpensAScreenAreNotApplied() throws {
    let desk = try DeskHarness()
    let folder = TemporaryFolder()
    let ticket = folder.file("ticket.png")
    #expect(try runProgram("/usr/bin/env", ["qrencode", "-s", "6", "-o", ticket, "17"]).status == 0)
    desk.press(.character("s"))
    let scanning = desk.app.top
    let outBefore = try desk.store.books.count(filter: .issued)
    desk.sendQuickly(Array("\(ticket)\n\(folder.file("tree-return.png"))\n".utf8))
    desk.idle()
    #expect(desk.app.top is ReaderDetailScreen, "the first name's code opened the reader")
    #expect(desk.app.dialog == nil)
    #expect(desk.shown.contains("not applied to this screen"), "\(desk.shown)")
    #expect(try desk.store.books.count(filter: .issued) == outBefore, "nothing returned or issued")
    desk.press(.escape)
    #expect(desk.app.top === scanning)
    desk.sendQuickly(Array("\(folder.file("missing.png"))\n\(ticket)\n".utf8))
    desk.idle()
    #expect(desk.app.dialog != nil, "the alert about the missing file waits to be read")
    #expect(desk.app.top === scanning)
  }
}
