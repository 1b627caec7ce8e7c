import DeskDomain
import DeskTestSupport
import Testing

@testable import DeskStorage

@Suite struct CodeResolutionTests {
  let folder = TemporaryFolder()
  let store: LibraryStore

  init() throws {
    store = try LibraryStore(path: folder.file("library.sqlite"), clock: TestClock())
    try store.books.add(bookDraft("100234", "Герой нашего времени", isbn: "978-5-17-079585-7"))
    try store.books.add(bookDraft("100235", "Герой нашего времени", isbn: "5-17-079585-8"))
    try store.books.add(bookDraft("R1001", "Книга с буквой"))
    try store.books.add(bookDraft("555", "Общий номер"))
    try store.readers.add(readerDraft("1001", "Иванова"))
    try store.readers.add(readerDraft("555", "Петров"))
  }

  @Test func resolvesEachKindOfCode() throws {
    guard case .isbn(let isbn, let copies) = try store.resolve("9785170795857") else {
      Issue.record("an ISBN")
      return
    }
    #expect(isbn.digits == "9785170795857")
    #expect(copies.map(\.inventoryNumber).sorted() == ["100234", "100235"], "both the ISBN-13 and the ISBN-10 copy")
    #expect(try store.resolve("978-0-14-143951-8") == .isbn(try ISBN("9780141439518"), copies: []))
    #expect(try store.resolve(" 100234\n") == .book(try #require(try store.books.book(inventory: "100234"))))
    #expect(try store.resolve("1001") == .reader(try #require(try store.readers.reader(ticket: "1001"))))
    #expect(try store.resolve("404") == .unknown("404"))
    #expect(try store.resolve("") == .unknown(""))
  }

  @Test func bookRecordsAreNewBooksUnlessTheNumberIsTaken() throws {
    guard case .newBook(let draft) = try store.resolve("Инвентарный номер: 200001\nНазвание книги: Мцыри") else {
      Issue.record("a new book")
      return
    }
    #expect(draft.title == "Мцыри")
    guard
      case .recordOfExistingBook(_, let book) = try store.resolve("Инвентарный номер: 100234\nНазвание книги: Мцыри")
    else {
      Issue.record("an existing book's number")
      return
    }
    #expect(book.title == "Герой нашего времени")
  }

  @Test func anAmbiguousCodeFollowsThePreference() throws {
    #expect(try store.resolve("555", prefer: .book) == .book(try #require(try store.books.book(inventory: "555"))))
    #expect(try store.resolve("555", prefer: .reader) == .reader(try #require(try store.readers.reader(ticket: "555"))))
  }

  @Test func prefixesTellCardsFromLabels() throws {
    var policy = try store.policy.current()
    policy.readerCodePrefix = "R"
    policy.bookCodePrefix = "B"
    try store.policy.setCurrent(policy)
    #expect(try store.resolve("R1001") == .reader(try #require(try store.readers.reader(ticket: "1001"))))
    #expect(try store.resolve("B555") == .book(try #require(try store.books.book(inventory: "555"))))
    #expect(try store.resolve("R9999") == .unknown("R9999"))
    #expect(try store.policy.current().readerCodePrefix == "R")
  }

  @Test func aRussianLayoutIsReadAsLatinWhenThatMatches() throws {
    #expect(try store.resolve("К1001") == .book(try #require(try store.books.book(inventory: "R1001"))))
    #expect(try store.resolve("Ж1001") == .unknown("Ж1001"))
  }
}
