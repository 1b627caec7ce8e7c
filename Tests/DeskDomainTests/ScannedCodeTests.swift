import Testing

@testable import DeskDomain

@Suite struct ScannedCodeTests {
  @Test func trimsWhatScannersLeaveAround() {
    #expect(ScannedCode(" 26002315") == .number("26002315"))
    #expect(ScannedCode("\n\t26002315\n") == .number("26002315"))
    #expect(ScannedCode("\u{02}26002315\u{03}") == .number("26002315"))
    #expect(ScannedCode("  \t ") == .empty)
  }

  @Test func knowsISBNsByTheirCheckDigits() throws {
    #expect(ScannedCode("9785170795857") == .isbn(try ISBN("9785170795857")))
    #expect(ScannedCode("978-5-17-079585-7") == .isbn(try ISBN("9785170795857")))
    #expect(ScannedCode("5170795858") == .isbn(try ISBN("5170795858")))
    #expect(ScannedCode("080442957X") == .isbn(try ISBN("080442957X")))
    // A wrong check digit, or an EAN-13 that is not Bookland, is just a number.
    #expect(ScannedCode("9785170795850") == .number("9785170795850"))
    #expect(ScannedCode("4006381333931") == .number("4006381333931"))
    #expect(ScannedCode("100234") == .number("100234"))
  }

  @Test func readsBookRecordsInRussianAndEnglish() {
    guard
      case .bookRecord(let russian) = ScannedCode(
        "Инвентарный номер: 100234\nНазвание книги: Герой нашего времени\nЦена: 254")
    else {
      Issue.record("a Russian record")
      return
    }
    #expect(russian.inventoryNumber == "100234")
    #expect(russian.title == "Герой нашего времени")
    #expect(russian.price == "254")
    guard case .bookRecord(let english) = ScannedCode("Title: War and Peace\r\nAuthor surname: Tolstoy\r\nYear: 1869")
    else {
      Issue.record("an English record")
      return
    }
    #expect(english.authorSurname == "Tolstoy")
    #expect(english.year == "1869")
    // One recognised line, or no title and no ISBN, is not a record.
    #expect(ScannedCode("Title: War and Peace") == .number("Title: War and Peace"))
    #expect(BookRecordLabel.parse("Цена: 254\nГод издания: 2018") == nil)
  }

  /// The labels a librarian writes besides the original app's, and what a record says that fills
  /// nothing: lines not understood, an ISBN with a wrong check digit.
  @Test func readsLabelVariantsAndSaysWhatItDidNotUnderstand() throws {
    let text = """
      Автор: Лермонтов М. Ю.
      Название: Герой нашего времени
      Год: 1840
      Издательство: Азбука
      Город: Москва
      Страниц: 224
      ISBN: 978-5-17-079585-0
      Переплёт: твёрдый
      просто строка
      """
    let draft = try #require(BookRecordLabel.parse(text))
    #expect(draft.authorSurname == "Лермонтов" && draft.authorInitials == "М. Ю.")
    #expect(draft.title == "Герой нашего времени" && draft.year == "1840" && draft.pages == "224")
    #expect(draft.publisher == "Азбука" && draft.city == "Москва")
    let remarks = BookRecordLabel.remarks(text)
    #expect(remarks.unknownLines == ["Переплёт: твёрдый", "просто строка"])
    #expect(remarks.isbnProblem?.description == "ISBN 978-5-17-079585-0 has a wrong check digit (expected 7)")
    let english = try #require(BookRecordLabel.parse("Author: Leo Tolstoy\nTitle: War and Peace\nPages: 1225"))
    #expect(english.authorSurname == "Tolstoy" && english.authorInitials == "L." && english.pages == "1225")
    #expect(BookRecordLabel.remarks("Title: War and Peace\nYear: 1869").isEmpty)
  }

  @Test func mapsARussianKeyboardLayoutBackToLatin() {
    #expect(ScannedCode.latinLayout("К1001") == "R1001")
    #expect(ScannedCode.latinLayout("ИЩЩЛ-42") == "BOOK-42")
    #expect(ScannedCode.latinLayout("100234") == nil)
  }

  @Test func writesALabelOfEveryFilledField() throws {
    var draft = BookDraft()
    draft.inventoryNumber = "100234"
    draft.title = "Герой нашего\nвремени"
    draft.authorSurname = "Лермонтов"
    let now = Timestamp(iso: "2026-11-30T10:00:00Z")!
    let book = try draft.validated(base: nil, today: now.utcDate, now: now)
    #expect(
      BookRecordLabel.text(of: book)
        == "Инвентарный номер: 100234\nФамилия автора: Лермонтов\nНазвание книги: Герой нашего времени")
  }

  @Test func decodesWindows1251() {
    let bytes: [UInt8] = [0xC3, 0xE5, 0xF0, 0xEE, 0xE9, 0x20, 0xB8, 0xA8, 0xB9]
    #expect(Windows1251.decode(bytes) == "Герой ёЁ№")
    #expect(Windows1251.encode("Герой ёЁ№") == bytes)
    #expect(Windows1251.encode("漢") == nil)
    #expect(Windows1251.decodeUTF8OrWindows1251(Array("Ёж".utf8)) == ("Ёж", true))
    #expect(Windows1251.decodeUTF8OrWindows1251([0xC4, 0xE0]) == ("Да", false))
  }
}
