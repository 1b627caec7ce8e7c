import DeskDomain
import DeskTestSupport
import Testing

@_spi(Connection) @testable import DeskStorage

/// Search that forgives the keyboard and the script: the wrong layout, Latin spellings of
/// Russian names and back, Chinese and Japanese titles by any part.
@Suite struct SearchAlternativesTests {
  let folder = TemporaryFolder()
  let store: LibraryStore

  init() throws {
    store = try LibraryStore(path: folder.file("library.sqlite"), clock: TestClock())
    let books: [(String, String, String)] = [
      ("1", "Достоевский", "Преступление и наказание"),
      ("2", "Толстой", "Война и мир"),
      ("3", "Shcherbakov", "Northern Lights"),
      ("4", "Иванов", "Преображенская площадь"),
      ("5", "Murakami", "東京奇譚集"),
      ("6", "Natsume", "こころ"),
      ("7", "Tolstoy", "War and Peace"),
      ("8", "Соловьёв", "Три разговора"),
    ]
    for (inventory, surname, title) in books {
      try store.books.add(bookDraft(inventory, title, surname: surname))
    }
    try store.readers.add(readerDraft("17", "Иванов", firstName: "Пётр"))
    try store.readers.add(readerDraft("18", "Щербакова", firstName: "Анна"))
  }

  func found(_ query: String) throws -> [String] {
    try store.books.search(query).all.map(\.book.inventoryNumber)
  }

  @Test func aQueryTypedOnTheWrongLayoutIsTriedOnTheOther() throws {
    let answer = try store.books.search("Ljcnjtdcrbq")
    #expect(answer.all.map(\.book.inventoryNumber) == ["1"])
    #expect(answer.searchedFor == "достоевский")
    let square = try store.books.search("ghtj,hf;tycrfz")
    #expect(square.all.map(\.book.inventoryNumber) == ["4"])
    #expect(square.searchedFor == "преображенская")
    #expect(try store.books.search("Достоевский").searchedFor == nil, "found as typed: nothing to switch")
  }

  @Test func latinSpellingsFindCyrillicNamesAndBack() throws {
    #expect(try found("Ivanov") == ["4"])
    // «Tolstoy» is also a Latin author here: found as typed first, the Cyrillic one after.
    #expect(try found("Tolstoy") == ["7", "2"])
    // Spelt as no catalogue word is: the transliteration first, then the Latin word one typo away.
    #expect(try found("Tolstoi") == ["2", "7"])
    #expect(try found("Tolstoj") == ["2", "7"])
    #expect(try found("Щербаков") == ["3"])
    #expect(try found("Dostoevsky").contains("1"))
    for spelling in ["Solovyov", "Soloviev", "Solovjov", "Solovyev"] {
      #expect(try found(spelling) == ["8"], "\(spelling)")
    }
    #expect(try store.readers.search("Shcherbakova").all.map(\.reader.ticket) == ["18"])
    #expect(try store.readers.search("Ivanov").all.map(\.reader.ticket) == ["17"])
  }

  @Test func chineseAndJapaneseTitlesAreFoundByAnyPart() throws {
    #expect(try found("東京") == ["5"])
    #expect(try found("奇譚") == ["5"])
    #expect(try found("譚") == ["5"])
    #expect(try found("ころ") == ["6"])
    #expect(try store.integrityCheck() == ["ok"])
  }

  @Test func didYouMeanIsNeverOfferedForAWordTheCatalogueHas() throws {
    // «война» is in the catalogue; «вайна» is not.
    #expect(try store.correctedQueries("война", table: "book").1.isEmpty)
    #expect(try store.correctedQueries("вайна", table: "book").1.map(\.1) == ["война"])
  }

  @Test func anOlderLibraryIndexesItsChineseTitlesAgainOnOpening() throws {
    // As version 8 wrote it: the whole run of characters one word.
    try store.database.executeScript("UPDATE book SET search_text = 'murakami 東京奇譚集' WHERE inventory = '5'")
    #expect(try found("奇譚").isEmpty)
    try store.database.executeScript(librarySchemaBeforeSync + "PRAGMA user_version = 8;")
    let reopened = try LibraryStore(path: folder.file("library.sqlite"), clock: TestClock())
    #expect(try reopened.books.search("奇譚").all.map(\.book.inventoryNumber) == ["5"])
  }
}
