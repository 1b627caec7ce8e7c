import DeskDomain
import DeskStorage
import DeskTestSupport
import Testing

@testable import DeskUI

/// The desk driven by the bytes real terminals and scanners send.
@Suite struct KeyScenarioTests {
  @Test func homeAndEndOfEveryTerminalMoveInAListAndAForm() throws {
    for (home, end) in [
      ("\u{1B}[1~", "\u{1B}[4~"), ("\u{1B}OH", "\u{1B}OF"), ("\u{1B}[7~", "\u{1B}[8~"), ("\u{1B}[H", "\u{1B}[F"),
    ] {
      let desk = try DeskHarness()
      desk.press(.character("b"))
      desk.send(end)
      #expect(desk.app.top is BookListScreen, "End stays in the list")
      let list = try #require(desk.app.top as? BookListScreen)
      #expect(list.list.selected == list.list.rows.count - 1)
      desk.send(home)
      #expect(list.list.selected == 0)
      desk.press(.character("n"))
      desk.type("100300")
      desk.send(home)
      #expect(desk.app.dialog == nil, "Home in a form asks nothing")
      desk.type("X")
      let form = try #require(desk.app.top as? BookFormScreen)
      #expect(form.editors[.inventoryNumber]?.text == "X100300")
      desk.send(end)
      desk.type("Y")
      #expect(form.editors[.inventoryNumber]?.text == "X100300Y")
    }
  }

  @Test func unknownSequencesAndAltLettersDoNothing() throws {
    let desk = try DeskHarness()
    desk.press(.character("b"))
    desk.send("\u{1B}[99~")  // a key this desk does not know
    desk.send("\u{1B}n")  // Alt-n
    #expect(desk.app.top is BookListScreen, "neither was read as Esc, nor as n")
    desk.send("\u{1B}O")  // Alt-Shift-O: the start of a sequence that never ends
    desk.send("\u{1B}[")  // Alt-[
    #expect(desk.app.top is BookListScreen, "neither is Esc")
    desk.send("\u{1B}")
    #expect(desk.app.top is HomeScreen, "Esc alone goes back")
  }

  @Test func ctrlZUndoesAndNeverSuspends() throws {
    let desk = try DeskHarness()
    desk.press(.character("d"))
    desk.scan("100235")  // no reader: returned
    #expect(desk.shown.contains("Returned 100235"))
    desk.send([0x1A])
    #expect(desk.shown.contains("Undone: the return of 100235"))
  }

  @Test func theRussianLayoutsSlashKeyStartsTheSearch() throws {
    let desk = try DeskHarness()
    desk.press(.character("b"))
    desk.send(".")
    desk.type("austen")
    #expect(desk.shown.contains("Pride and Prejudice"))
    #expect(!desk.shown.contains("Мастер и Маргарита"))
  }

  @Test func wordsTypedIntoAListSearchAndNeverFillAForm() throws {
    let desk = try DeskHarness()
    desk.press(.character("b"))
    desk.type("тол")  // т is the key for a new book under the Russian layout
    #expect(desk.app.top is BookListScreen, "no New book form")
    let list = try #require(desk.app.top as? BookListScreen)
    #expect(list.query.text == "тол")
    desk.press(.escape)  // the search cleared
    desk.type("Ёлкин")  // a letter that is no command starts the search too
    #expect(list.query.text == "Ёлкин")
    #expect(desk.shown.contains("Ёлка и её друзья"))
    // A slower typist: «уха» at half a second a letter; у (e on that layout) would edit the book.
    desk.press(.escape)
    for letter in "уха" {
      desk.now += 300
      desk.press(.character(letter))
    }
    #expect(desk.app.top is BookListScreen, "no Edit form")
    #expect(list.query.text == "уха")
    #expect(try desk.store.books.book(inventory: "100238")?.inventoryNumber == "100238")
  }

  /// `n` is the key the librarian asked for: what they type at once is the new book's inventory
  /// number, even a number that starts with letters, typed within a second.
  @Test func lettersTypedAtOnceIntoANewFormStayThere() throws {
    let desk = try DeskHarness()
    desk.press(.character("b"), .character("n"))
    for character in "KX-12" {
      desk.now += 50
      desk.press(.character(character))
    }
    let form = try #require(desk.app.top as? BookFormScreen)
    #expect(form.editors[.inventoryNumber]?.text == "KX-12")
    let list = try #require(desk.app.stack.first { $0 is BookListScreen } as? BookListScreen)
    #expect(list.query.text.isEmpty, "no search for nKX-12")
  }

  @Test func homesQAsksAndAWordTypedThereQuitsNothing() throws {
    let desk = try DeskHarness()
    desk.type("толстой")
    #expect(!desk.app.isFinished, "й (q under the Russian layout) asks first")
    #expect(desk.shown.contains("Quit the desk?"))
    desk.press(.character("n"))
    #expect(!desk.app.isFinished)
  }

  @Test func aLongRecordScannedSlowlyStaysOneCode() throws {
    let desk = try DeskHarness()
    desk.press(.character("d"))
    let title = String(repeating: "Очень длинное название ", count: 8)
    let record = "Инвентарный номер: 300778\nНазвание книги: \(title)\nФамилия автора: Пушкин\nАвторский знак: П91"
    // 30 ms a character: within the gap, but several seconds for the whole record.
    let lines = record.split(separator: "\n").map(String.init)
    for (index, line) in lines.enumerated() {
      desk.scan(line, gap: 30, terminator: [0x0D], pause: index == lines.count - 1)
    }
    let form = try #require(desk.app.top as? BookFormScreen)
    #expect(form.editors[.inventoryNumber]?.text == "300778")
    #expect(form.editors[.authorMark]?.text == "П91")
  }

  @Test(arguments: [[0x0D], [0x0A], [0x0D, 0x0A], [0x09]] as [[UInt8]])
  func everyScannerTerminatorEndsTheCode(terminator: [UInt8]) throws {
    let desk = try DeskHarness()
    desk.press(.character("d"))
    desk.scan("100235", terminator: terminator)
    #expect(desk.shown.contains("Returned 100235 «Мастер и Маргарита»"))
    #expect(desk.app.dialog == nil, "one Enter, not two: no Enter left over to answer anything")
    desk.scan("17АБ", terminator: terminator)  // not a code: typed, then applied by its Enter or Tab
    #expect(desk.shown.contains("Unknown code «17АБ»"))
  }

  @Test func aScannerWithAPrefixAndASuffix() throws {
    var wedge = WedgeSettings()
    wedge.prefix = "]E0"
    wedge.suffix = "#"
    let desk = try DeskHarness(wedge: wedge)
    desk.press(.character("b"), .character("n"))
    // Into the form's inventory number: the scanner's prefix and suffix are not part of the code.
    desk.scan("]E0300235#")
    let form = try #require(desk.app.top as? BookFormScreen)
    #expect(form.editors[.inventoryNumber]?.text == "300235")
  }

  @Test func aScannerTypingAMultiLineQRRecordFillsTheNewBookForm() throws {
    let desk = try DeskHarness()
    let record = "Инвентарный номер: 100500\nНазвание книги: Новая книга\nФамилия автора: Пушкин\nГод издания: 1999"
    for terminator in [[0x0D], [0x0A], [0x0D, 0x0A]] as [[UInt8]] {
      desk.press(.character("d"))
      // The scanner sends its configured line end between the lines, as fast as the rest.
      let lines = record.split(separator: "\n").map(String.init)
      for (index, line) in lines.enumerated() {
        desk.scan(line, terminator: index == lines.count - 1 ? terminator : nil, pause: false)
        if index < lines.count - 1 {
          for byte in terminator { desk.sendQuickly([byte]) }
        }
      }
      desk.idle()
      let form = try #require(desk.app.top as? BookFormScreen, "\(terminator)")
      #expect(form.editors[.inventoryNumber]?.text == "100500")
      #expect(form.editors[.title]?.text == "Новая книга")
      #expect(form.editors[.year]?.text == "1999")
      #expect(!desk.shown.contains("Unknown code"))
      desk.press(.escape)
      if desk.app.dialog != nil { desk.press(.character("y")) }
      desk.press(.escape)
    }
  }
}

/// What the desk does while its window is too small, and when it grows.
@Suite struct WindowSizeTests {
  @Test func aTooSmallWindowHoldsScansAndIgnoresKeysUntilItGrows() throws {
    let desk = try DeskHarness()
    desk.resize(rows: 24, columns: 80)
    desk.press(.character("d"))
    desk.resize(rows: 8, columns: 30)
    desk.scan("100235")  // out to Иванова: would be returned
    desk.press(.escape, .escape)  // would leave the Desk
    #expect(desk.app.top is DeskCirculationScreen, "keys are not applied to a hidden screen")
    #expect(try desk.store.books.count(filter: .issued) == 2, "the scan waits")
    #expect(desk.text(rows: 8, columns: 30).contains("1 scan waits"))
    desk.resize(rows: 24, columns: 80)
    #expect(desk.shown.contains("Returned 100235 «Мастер и Маргарита» from Иванова М."))
    #expect(try desk.store.books.count(filter: .issued) == 1)
  }

  @Test func aGrowingWindowFillsTheListAndShowsEveryFieldOfAForm() throws {
    let desk = try DeskHarness(seed: { store in
      try store.addingBooksInBulk {
        for number in 1...120 {
          try store.books.add(bookDraft("B\(1000 + number)", "Книга \(number)", surname: "Автор"))
        }
      }
    })
    desk.resize(rows: 24, columns: 80)
    desk.press(.character("b"))
    _ = desk.screen(rows: 24, columns: 80)
    desk.resize(rows: 70, columns: 100)
    let rows = desk.text(rows: 70, columns: 100).split(separator: "\n").filter { $0.contains("Книга") }.count
    #expect(rows >= 60, "the new rows are filled at once (\(rows) shown)")
    // The window grows while a book is open over the list: back in the list, it is full.
    desk.resize(rows: 24, columns: 100)
    desk.press(.enter)
    #expect(desk.app.top is BookDetailScreen)
    desk.resize(rows: 70, columns: 100)
    desk.press(.escape)
    let after = desk.text(rows: 70, columns: 100).split(separator: "\n").filter { $0.contains("Книга") }.count
    #expect(after >= 60, "\(after) rows shown")
    // A form scrolled down in a small window shows every field again once it fits.
    desk.resize(rows: 16, columns: 80)
    desk.press(.character("n"))
    for _ in 0..<12 { desk.press(.tab) }
    #expect(!desk.text(rows: 16, columns: 80).contains("Inventory number"), "scrolled past the first field")
    desk.resize(rows: 40, columns: 80)
    #expect(desk.text(rows: 40, columns: 80).contains("Inventory number"))
  }
}

/// Long values at the sizes terminals have: nothing that matters is cut.
@Suite struct LongValueTests {
  @Test func aBookTallerThanTheWindowScrolls() throws {
    let desk = try DeskHarness()
    // Every field filled: a small window shows only filled fields, and these are all of them.
    _ = try desk.store.books.update(inventory: "100235") { book in
      for (field, value) in [
        (Field.publisher, "АСТ"), (.city, "Москва"), (.year, "2019"), (.pages, "480"), (.price, "350.00"),
        (.bbk, "84(2Рос=Рус)6"), (.authorMark, "Б90"), (.place, "Зал 1"),
      ] {
        book[field] = value
      }
    }
    desk.press(.character("b"), .down, .down, .enter)  // Булгаков, out to Иванова
    #expect(desk.app.top is BookDetailScreen)
    #expect(!desk.text(rows: 16, columns: 60).contains("Loan history"), "below the window at first")
    desk.press(.end)
    let end = desk.text(rows: 16, columns: 60)
    #expect(end.contains("Loan history (1)"))
    #expect(end.contains("Иванова М. (17)"))
    desk.press(.home)
    #expect(desk.text(rows: 16, columns: 60).contains("Inventory number"))
  }

  @Test func aLongTitleWrapsInTheDetailAndLoanLinesKeepTheirDates() throws {
    let desk = try DeskHarness()
    try desk.store.circulation.issue(ticket: "17", inventories: ["100237"])
    desk.press(.character("b"), .character("/"))
    desk.type("ёлка")
    desk.press(.enter, .enter)
    #expect(desk.app.top is BookDetailScreen)
    let detail = desk.text(rows: 24, columns: 60)
    #expect(detail.contains("которое"), "the title's end is on the next line")
    #expect(detail.contains("поместится"))
    desk.press(.escape, .escape, .escape, .character("r"), .enter)  // Иванова
    let reader = desk.text(rows: 24, columns: 60)
    let line = try #require(reader.split(separator: "\n").first { $0.contains("100237") })
    #expect(line.contains("due 2026-12-14"), "the due date is whole: \(line)")
    #expect(line.contains("…"), "the title gave way")
  }
}
