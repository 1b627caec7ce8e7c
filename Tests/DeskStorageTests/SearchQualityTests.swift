import DeskDomain
import DeskTestSupport
import Testing

@_spi(Connection) @testable import DeskStorage

/// Search quality: misspelt Cyrillic and Latin names find the record meant, first.
@Suite struct SearchQualityTests {
  let folder = TemporaryFolder()
  let store: LibraryStore

  init() throws {
    store = try LibraryStore(path: folder.file("library.sqlite"), clock: TestClock())
    let books: [(String, String, String, String)] = [
      ("1", "Достоевский", "Ф. М.", "Преступление и наказание"),
      ("2", "Лермонтов", "М. Ю.", "Герой нашего времени"),
      ("3", "Пушкин", "А. С.", "Капитанская дочка"),
      ("4", "Салтыков-Щедрин", "М. Е.", "История одного города"),
      ("5", "Ёлкин", "Ф. И.", "Ёлка"),
      ("6", "Hemingway", "E.", "The Old Man and the Sea"),
      ("7", "Fitzgerald", "F. S.", "The Great Gatsby"),
      ("8", "Шолохов", "М. А.", "Тихий Дон"),
      ("9", "Толстой", "Л. Н.", "Война и мир"),
      ("10", "Толстая", "Т. Н.", "Кысь"),
    ]
    for (inventory, surname, initials, title) in books {
      try store.books.add(bookDraft(inventory, title, surname: surname, initials: initials))
    }
    try store.readers.add(readerDraft("17", "Иванова", firstName: "Мария"))
    try store.readers.add(readerDraft("18", "Müller", firstName: "Anna"))
  }

  /// A word added is known to the next search at once: the stored words are read once, and
  /// after a change only the news written since, never the index's whole vocabulary.
  @Test func aWordAddedIsKnownWithoutReadingTheVocabularyAgain() throws {
    let storedWords = "SELECT word FROM book_vocabulary ORDER BY word"
    let news = "SELECT search_text, id FROM book_vocabulary_news WHERE id > ? ORDER BY id"
    // Before any typo, a long word's continuations come from the index, for its start alone.
    let (spelled, first) = try store.database.recordingStatements {
      try store.fullTextQuery(["толсто"], table: "book")
    }
    #expect(spelled == #""толстой""#)
    #expect(first.contains { $0.hasPrefix("SELECT term FROM book_words WHERE term >= ?") })
    #expect(!first.contains(storedWords))
    // The first search that corrects typos reads the stored words, once; the next ones do not.
    let (_, typo) = try store.database.recordingStatements { try store.books.searchRows("толстй") }
    #expect(typo.filter { $0 == storedWords }.count == 1)
    let (_, again) = try store.database.recordingStatements { try store.books.searchRows("лермантов") }
    #expect(!again.contains(storedWords))
    for inventory in ["11", "12", "13"] {
      try store.books.add(bookDraft(inventory, "Толстовство и его критики", surname: "Бирюков"))
    }
    let (answer, statements) = try store.database.recordingStatements { try store.books.searchRows("толстов") }
    #expect(answer.matches.map(\.book.inventoryNumber) == ["11", "12", "13"], "the word added a moment ago")
    #expect(statements.contains(news))
    #expect(!statements.contains(storedWords))
    #expect(!statements.contains { $0.contains("FROM book_words") }, "nor the index's words")
    #expect(try store.fullTextQuery(["толсто"], table: "book") == #"("толстовство" OR "толстой")"#)
    #expect(try store.transliteratedQueries("tolstov", table: "book").first?.hasPrefix("толстов") == true)
    // A typo of a word added a moment ago is corrected from the news too.
    try store.books.add(bookDraft("14", "Толстовцы", surname: "Бирюков"))
    let (corrected, read) = try store.database.recordingStatements { try store.books.searchRows("толстовци") }
    #expect(read.contains(news))
    #expect(!read.contains(storedWords))
    #expect(corrected.matches.map(\.book.inventoryNumber).contains("14"))
    #expect(corrected.corrections.map(\.1) == ["толстовцы"])
  }

  @Test func fartherCorrectionsAreNotReadOnceTheNearestFillTheList() throws {
    try store.books.add(bookDraft("21", "Мцыри", surname: "Лермонтов"))
    try store.books.add(bookDraft("23", "Шотландия", surname: "Лермонт"))
    // «лермонтоф» is one letter from «лермонтов» (two books) and two from «лермонт».
    func searched(limit: Int) throws -> (found: Set<String>, searches: Int) {
      let (answer, statements) = try store.database.recordingStatements {
        try store.books.searchRows("лермонтоф", limit: limit)
      }
      #expect(answer.corrections.map(\.1) == ["лермонтов"])
      let searches = statements.filter { $0.hasPrefix("SELECT b.sort_key") && $0.contains("MATCH ?") }
      return (Set(answer.matches.map(\.book.inventoryNumber)), searches.count)
    }
    let all = try searched(limit: LibraryStore.searchCap)
    #expect(all.found == ["2", "21", "23"])
    let shown = try searched(limit: 2)
    #expect(shown.found == ["2", "21"])
    #expect(shown.searches == all.searches - 1, "the farther correction not searched")
  }

  /// Only the correction offered is looked up in the index (that some record has it); the
  /// farther ones are searched as they are, and one that no record has any more finds nothing.
  @Test func onlyTheCorrectionOfferedIsLookedUpInTheIndex() throws {
    try store.books.add(bookDraft("21", "Мцыри", surname: "Лермонтов"))
    try store.books.add(bookDraft("23", "Шотландия", surname: "Лермонт"))
    try store.books.add(bookDraft("24", "Стихи", surname: "Лермонтоф"))
    _ = try store.books.update(inventory: "24") { $0.authorSurname = "Лермонтова" }
    // «лермонтоа» is one letter from «лермонтов», «лермонтова» and «лермонтоф» (no record has
    // that any more), two from «лермонт».
    let (answer, statements) = try store.database.recordingStatements { try store.books.searchRows("лермонтоа") }
    #expect(answer.corrections.map(\.1) == ["лермонтов"])
    #expect(Set(answer.matches.map(\.book.inventoryNumber)).isSuperset(of: ["2", "21", "24"]))
    let lookUps = statements.filter { $0.contains("MATCH ? LIMIT 1") }
    #expect(lookUps.count == 1, "«лермонтов» alone")
  }

  /// A misspelt word's own search is answered by the vocabulary alone: no word starts with it, so
  /// the index is not asked; the search of the word it was read as is.
  @Test func aWordThatStartsNoWordIsNotLookedForInTheIndex() throws {
    let (answer, statements) = try store.database.recordingStatements { try store.books.searchRows("достоевкий") }
    #expect(answer.matches.map(\.book.inventoryNumber) == ["1"])
    let searches = statements.filter { $0.hasPrefix("SELECT b.sort_key") }
    #expect(searches.filter { $0.contains("MATCH ?") }.count == 1, "only «достоевский»")
    #expect(searches.contains { !$0.contains("MATCH") }, "«достоевкий» itself, matching nothing")
    #expect(try store.books.page(search: "неттакого").isEmpty)
    // A word the index's tokenizer splits where folding does not (it takes the vowel signs of
    // Devanagari for separators) is still looked for in the index, by its parts.
    try store.books.add(bookDraft("31", "विश्वविद्यालय व्याकरण", surname: "Guru"))
    #expect(try store.vocabulary.indexReadsAsOneWord("достоевкий"))
    #expect(try !store.vocabulary.indexReadsAsOneWord("विश्वविद्यालय"))
    #expect(try store.books.page(search: "विश्वविद्यालय").map(\.book.inventoryNumber) == ["31"])
  }

  @Test func wordsWithFewContinuationsAreAskedForByName() throws {
    // «толсто» continues only as толстой: named, so the index is read lazily. Five letters or
    // fewer read the prefix index's own list: «вой» stays a prefix.
    #expect(try store.fullTextQuery(["толсто", "вой"], table: "book") == #""толстой" AND "вой"*"#)
    // Short words stay prefixes.
    #expect(try store.fullTextQuery(["толст", "то", "198"], table: "book") == #""толст"* AND "то"* AND "198"*"#)
    // A longer word that starts no word of the vocabulary: no record can match.
    #expect(try store.fullTextQuery(["толст", "неттакого"], table: "book") == nil)
    // Results are those of the prefixes.
    #expect(try store.books.page(search: "толст вой").map(\.book.inventoryNumber) == ["9"])
    #expect(try store.books.page(search: "толст").map(\.book.inventoryNumber) == ["10", "9"])
    // A word added since the vocabulary was read is found too: the vocabulary is read again.
    try store.books.add(bookDraft("11", "Толстовство", surname: "Бирюков"))
    #expect(try store.fullTextQuery(["толсто"], table: "book") == #"("толстовство" OR "толстой")"#)
    #expect(try store.books.page(search: "толсто").map(\.book.inventoryNumber) == ["11", "9"])
    #expect(try store.books.page(search: "толст").map(\.book.inventoryNumber) == ["11", "10", "9"])
  }

  @Test func fewMatchesComeInOrderOfRelevance() throws {
    try store.books.add(bookDraft("m1", "Мир", surname: "Ахматова"))
    try store.books.add(bookDraft("m2", "Записки о путешествиях по морям и землям мира", surname: "Абрамов"))
    try store.books.add(bookDraft("m3", "Мир, мир и снова мир", surname: "Борисов"))
    // In list order (by author) they would come m2, m1, m3; «Война и мир» is among them too.
    let found = try store.books.search("мир").all.map(\.book.inventoryNumber)
    #expect(found.first == "m3", "the word three times in a short title")
    #expect(found.last == "m2", "not the word itself, only «мира»")
    #expect(Set(found) == ["m1", "m2", "m3", "9"])
  }

  @Test(arguments: ["толст", "толстй", "война мир", "л", "2", "достоевкий", "капитан дочка", "hemingwya", "нет такого"])
  func theListsSearchFindsWhatTheWholeRecordSearchFinds(query: String) throws {
    let rows = try store.books.searchRows(query)
    let records = try store.books.search(query)
    #expect(rows.all.map(\.inventoryNumber) == records.all.map(\.inventoryNumber))
    #expect(rows.corrections.map(\.1) == records.corrections.map(\.1))
    #expect(rows.all.map(\.book.title) == records.all.map(\.book.title))
  }

  @Test func wordsWithDigitsAreFoundByTheirStartButNeverOfferedForATypo() throws {
    try store.books.add(bookDraft("d1", "Iphone15: руководство"))
    try store.books.add(bookDraft("d2", "Iphone для всех"))
    #expect(try store.fullTextQuery(["iphone"], table: "book") == #"("iphone" OR "iphone15")"#)
    #expect(Set(try store.books.page(search: "iphone").map(\.book.inventoryNumber)) == ["d1", "d2"])
    // «iphone16» is one letter from «iphone15», but a number is not misspelt.
    #expect(try store.books.search("iphone16").corrections.isEmpty)
  }

  @Test func aWordChangedInTheSameMillisecondIsFoundToo() throws {
    // The clock stands still: the newest change time cannot tell that the words changed.
    #expect(try store.fullTextQuery(["тихоне"], table: "book") == nil, "nothing continues «тихоне» yet")
    try store.books.update(inventory: "2") { $0.title = "Тихонечко" }
    #expect(try store.fullTextQuery(["тихоне"], table: "book") == #""тихонечко""#)
    #expect(try store.books.page(search: "тихоне").map(\.book.inventoryNumber) == ["2"])
    #expect(try store.books.page(search: "тих").map(\.book.inventoryNumber) == ["2", "8"])
  }

  @Test func manyContinuationsStayAPrefix() throws {
    for index in 0...LibraryStore.spelledOutPrefix {
      try store.books.add(bookDraft("m\(index)", "Миролюб\(String(repeating: "а", count: index + 1))"))
    }
    #expect(try store.fullTextQuery(["миролю"], table: "book") == #""миролю"*"#)
    #expect(try store.books.page(search: "миролю").count == LibraryStore.spelledOutPrefix + 1)
    // Three letters always read the prefix index's own list.
    #expect(try store.fullTextQuery(["мир"], table: "book") == #""мир"*"#)
    #expect(try store.books.page(search: "мир").count == LibraryStore.spelledOutPrefix + 2, "with «Война и мир»")
  }

  /// A start of up to five letters reads the prefix index's own list (its terms begin with their
  /// length: «4прес»), not the lists of every word it starts (the words' own terms begin with 0),
  /// which FTS5 would merge whole before the first row (migration 17).
  @Test(arguments: ["пре", "прес", "прест"])
  func aStartOfUpToFiveLettersReadsItsOwnList(query: String) throws {
    for (index, ending) in ["тупник", "са", "тиж", "ный", "ка", "сия", "совать", "тол", "ло", "тарый"].enumerated() {
      try store.books.add(bookDraft("p\(index)", "Прес\(ending)"))
    }
    let (found, statements) = try store.database.profilingStatements { try store.books.page(search: query) }
    let lookups = statements.map(\.sql).filter { $0.contains("book_fts_idx") }
    let term = "term<=x'3\(query.count)" + query.utf8.map { String($0, radix: 16) }.joined()
    #expect(!lookups.isEmpty)
    #expect(lookups.allSatisfy { $0.contains(term) }, "\(lookups.joined(separator: "\n"))")
    let expected =
      query == "прест"
      ? ["1", "p0", "p2", "p7", "p9"] : ["1", "p0", "p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8", "p9"]
    #expect(found.map(\.book.inventoryNumber).sorted() == expected)
  }

  func first(_ query: String) throws -> String? {
    try store.books.search(query).all.first?.book.inventoryNumber
  }

  @Test(arguments: [
    ("достоевкий", "1"),  // a missing letter
    ("достоевксий", "1"),  // two letters swapped
    ("досттоевский", "1"),  // a doubled letter
    ("дастаевский", "1"),  // two wrong letters, in a word of 11
    ("лермантов", "2"),  // a wrong letter
    ("ЛЕРМОНТОВ", "2"),  // wrong case
    ("елкин", "5"),  // е for ё
    ("пушkин", "3"),  // a Latin look-alike in a Cyrillic word
    ("hemmingway", "6"),  // a doubled letter, Latin
    ("fitzgerlad", "7"),  // swapped, Latin
    ("шолохв", "8"),  // missing letter, 6 letters
  ])
  func misspeltNamesFindTheRecordFirst(query: String, expected: String) throws {
    #expect(try first(query) == expected, "«\(query)»")
  }

  @Test func prefixesInAnyOrder() throws {
    #expect(try store.books.search("врем лерм").all.map(\.book.inventoryNumber) == ["2"])
    #expect(try store.books.search("лерм врем").all.map(\.book.inventoryNumber) == ["2"])
    #expect(try store.books.search("щедрин история").all.map(\.book.inventoryNumber) == ["4"])
    // One or two letters: the start of the author (a B-tree range on the sort key).
    #expect(try store.books.search("то").all.map(\.book.inventoryNumber) == ["10", "9"])
  }

  @Test func exactCodesComeFirst() throws {
    try store.books.add(bookDraft("100", "Сто лет одиночества", isbn: "978-5-17-079585-7"))
    #expect(try store.books.search("9785170795857").exact.map(\.book.inventoryNumber) == ["100"])
    #expect(try store.books.search("5-17-079585-8").exact.map(\.book.inventoryNumber) == ["100"])
    #expect(try store.books.search("10").exact.map(\.book.inventoryNumber) == ["10"])
    #expect(try store.readers.search("17").exact.map(\.reader.ticket) == ["17"])
  }

  @Test func didYouMeanOnlyWhenTheCorrectionFoundSomething() throws {
    #expect(try store.books.search("лермантов").corrections.map(\.1) == ["лермонтов"])
    #expect(try store.books.search("лермонтов").corrections.isEmpty)
    #expect(try store.books.search("зюзюзюзю").all.isEmpty)
    #expect(try store.readers.search("иваноав").all.map(\.reader.ticket) == ["17"])
    #expect(try store.readers.search("muler").all.map(\.reader.ticket) == ["18"])
  }

  @Test func theVocabularyFollowsNewRecords() throws {
    #expect(try first("чехов").map { _ in true } == nil)
    try store.books.add(bookDraft("11", "Каштанка", surname: "Чехов", initials: "А. П."))
    #expect(try first("чеххов") == "11")
  }

  @Test func distancesAreComputedWithAnEarlyStop() {
    #expect(Fuzzy.distance(Array("лермонтов"), Array("лермантов"), limit: 2) == 1)
    #expect(Fuzzy.distance(Array("abcd"), Array("badc"), limit: 2) == 2)
    #expect(Fuzzy.distance(Array("ab"), Array("ba"), limit: 1) == 1, "a swap is one edit")
    #expect(Fuzzy.distance(Array("достоевский"), Array("толстой"), limit: 2) == nil)
  }
}
