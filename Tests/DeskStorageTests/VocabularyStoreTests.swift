import DeskDomain
import DeskTestSupport
import Testing

@_spi(Connection) @testable import DeskStorage

/// The vocabularies kept beside the full-text indexes hold the index's words, split as the index
/// splits them, however the words came: a form, an edit, a bulk insert, a migration, another
/// program on the file.
@Suite struct VocabularyStoreTests {
  let folder = TemporaryFolder()
  let clock = TestClock()
  let store: LibraryStore

  init() throws {
    store = try LibraryStore(path: folder.file("library.sqlite"), clock: clock)
  }

  /// Every word of the index, as SQLite's `fts5vocab` lists it.
  private func indexWords(_ table: String = "book", in store: LibraryStore? = nil) throws -> [String] {
    try (store ?? self.store).database.query("SELECT term FROM \(table)_words ORDER BY term") { $0.string(0) }
  }

  private func vocabularyWords(_ table: String = "book", in store: LibraryStore? = nil) throws -> [String] {
    try (store ?? self.store).vocabulary.loaded(table).words(startingWith: "", limit: .max) ?? []
  }

  /// Titles with what a tokenizer must get right: punctuation, digits, diacritics, capitals, ё,
  /// Chinese, a hyphen, an apostrophe, letters of several scripts.
  private static let pieces = [
    "Война", "и", "мир", "Ёлка", "ёж", "Léon", "Müller", "O'Brien", "Салтыков-Щедрин", "東京奇譚集", "1869",
    "т.", "XX", "века", "«Пушкин»", "Ψυχή", "naïve", "L’Étranger", "č", "ʻOkina", "ß", "Straße", "İstanbul",
    "a1b2", "Ⅻ", "²", "dž", "١٢٣", "שלום",
  ]

  private func randomTitle(_ generator: inout some RandomNumberGenerator) -> String {
    (0..<Int.random(in: 1...5, using: &generator)).map { _ in Self.pieces.randomElement(using: &generator) ?? "" }
      .joined(separator: Bool.random(using: &generator) ? " " : ", ")
  }

  @Test func holdsTheIndexsWordsAsTheyComeAndGo() throws {
    var generator = SplitMix64(seed: 19)
    // Read first, so that what follows comes as news.
    #expect(try vocabularyWords() == indexWords())
    for inventory in 1...60 {
      try store.books.add(bookDraft("\(inventory)", randomTitle(&generator), surname: randomTitle(&generator)))
    }
    #expect(try vocabularyWords() == indexWords(), "the words added, split as the index splits them")
    for round in 0..<40 {
      let inventory = "\(Int.random(in: 1...60, using: &generator))"
      if round % 7 == 0 {
        try? store.books.delete(inventory: inventory)
      } else {
        _ = try? store.books.update(inventory: inventory) { $0.title = randomTitle(&generator) }
      }
    }
    // Words of records changed or deleted may stay; every word of the index is there.
    let held = try vocabularyWords()
    #expect(Set(try indexWords()).isSubset(of: held))
    // Another desk on the file reads the stored words and the news: the same words.
    let other = try LibraryStore(path: folder.file("library.sqlite"), clock: clock)
    #expect(try vocabularyWords(in: other) == held)
  }

  @Test func aTypoPutRightInARecordIsCorrectedAgain() throws {
    try store.books.add(bookDraft("1", "Война и мир", surname: "Толстой"))
    try store.books.add(bookDraft("2", "Анна Каренина", surname: "Толстй"))
    _ = try vocabularyWords()
    _ = try store.books.update(inventory: "2") { $0.authorSurname = "Толстой" }
    #expect(try vocabularyWords().contains("толстй"), "a word stays in the vocabulary")
    let answer = try store.books.searchRows("толстй")
    #expect(answer.corrections.map(\.1) == ["толстой"])
    #expect(Set(answer.matches.map(\.book.inventoryNumber)) == ["1", "2"])
    // Nor is a word gone offered: «толсттй» is one letter from «толстй», which sorts first, and
    // from «толстой».
    #expect(try store.books.searchRows("толсттй").corrections.map(\.1) == ["толстой"])
  }

  @Test func aTextWrittenAgainUnchangedIsNoNews() throws {
    try store.books.add(bookDraft("1", "Война и мир", surname: "Толстой"))
    let news = "SELECT count(*) FROM book_vocabulary_news"
    let changes = "SELECT value FROM counter WHERE name = 'book_words'"
    let (newsBefore, changesBefore) = (try store.database.scalarInt(news), try store.database.scalarInt(changes))
    // As an import with --update writes a record that did not change.
    try store.database.execute("UPDATE book SET search_text = search_text, title = title")
    #expect(try store.database.scalarInt(news) == newsBefore)
    #expect(try store.database.scalarInt(changes) == changesBefore)
    _ = try store.books.update(inventory: "1") { $0.title = "Анна Каренина" }
    #expect(try store.database.scalarInt(news) == newsBefore + 1)
    #expect(try store.database.scalarInt(changes) == changesBefore + 1)
    #expect(try store.books.page(search: "каренина").map(\.book.inventoryNumber) == ["1"])
    #expect(try store.books.page(search: "война").isEmpty)
    #expect(try vocabularyWords() == Set(try indexWords()).union(["война", "и", "мир"]).sorted())
    // Nor is an import that updates the books it has with what they hold: it catches up with its
    // bulk insert before each update, with nothing added.
    let (newsNow, changesNow) = (try store.database.scalarInt(news), try store.database.scalarInt(changes))
    try store.addingBooksInBulk {
      for _ in 0..<3 { _ = try store.books.update(inventory: "1") { _ in } }
    }
    #expect(try store.database.scalarInt(news) == newsNow)
    #expect(try store.database.scalarInt(changes) == changesNow)
  }

  @Test func newsAreGatheredWhenManyWaitAndOtherDesksReadTheWordsAgain() throws {
    let other = try LibraryStore(path: folder.file("library.sqlite"), clock: clock)
    _ = try vocabularyWords(in: other)
    for inventory in 1...VocabularyStore.newsGathered {
      try store.books.add(bookDraft("\(inventory)", "Слово\(inventory) и ещё", surname: "Автор"))
    }
    _ = try vocabularyWords()
    let stored = "SELECT word FROM book_vocabulary ORDER BY word"
    let (_, read) = try store.database.recordingStatements { try store.vocabulary.readVocabularies() }
    #expect(try store.database.scalarInt("SELECT count(*) FROM book_vocabulary_news") == 0)
    #expect(try store.database.scalarInt("SELECT count(*) FROM book_vocabulary") == indexWords().count)
    #expect(!read.contains(stored), "this desk had read what it gathered")
    #expect(try vocabularyWords() == indexWords())
    // The other desk had not read the news that were gathered: it reads the stored words again
    // at the next change.
    try store.books.add(bookDraft("x", "Последнее", surname: "Автор"))
    let (words, again) = try other.database.recordingStatements { try vocabularyWords(in: other) }
    #expect(again.contains(stored))
    #expect(words == (try indexWords()))
  }

  @Test func aBulkInsertWritesItsWordsAsNews() throws {
    var generator = SplitMix64(seed: 7)
    try store.books.add(bookDraft("0", "Книга до", surname: "Первый"))
    _ = try vocabularyWords()
    try store.addingBooksInBulk(indexSlice: 7) {
      for inventory in 1...50 {
        let moment = clock.now()
        let draft = bookDraft("\(inventory)", randomTitle(&generator), surname: randomTitle(&generator))
        try store.books.add(BookRow(try draft.validated(base: nil, today: moment.date, now: moment.instant)))
      }
    }
    // A row of news a slice, not a row a book (and the first book's own row).
    #expect(try store.database.scalarInt("SELECT count(*) FROM book_vocabulary_news") == 1 + 8)
    #expect(try vocabularyWords() == indexWords())
    let other = try LibraryStore(path: folder.file("library.sqlite"), clock: clock)
    #expect(try vocabularyWords(in: other) == indexWords())
  }

  /// A library's first books in bulk (a first import, a desk's first join): the words are the
  /// index's, read from it once at the end, not split from each text again as news.
  @Test func aBulkInsertIntoAnEmptyLibraryStoresTheIndexsWords() throws {
    var generator = SplitMix64(seed: 11)
    let other = try LibraryStore(path: folder.file("library.sqlite"), clock: clock)
    #expect(try vocabularyWords(in: other).isEmpty)
    let (_, run) = try store.database.recordingStatements {
      try store.addingBooksInBulk(indexSlice: 7) {
        for inventory in 1...50 {
          let moment = clock.now()
          let draft = bookDraft("\(inventory)", randomTitle(&generator), surname: randomTitle(&generator))
          try store.books.add(BookRow(try draft.validated(base: nil, today: moment.date, now: moment.instant)))
        }
      }
    }
    #expect(run.contains("INSERT OR IGNORE INTO book_vocabulary(word) SELECT term FROM book_words"))
    #expect(try store.database.scalarInt("SELECT count(*) FROM book_vocabulary_news") == 0)
    let stored = try store.database.query("SELECT word FROM book_vocabulary ORDER BY word") { $0.string(0) }
    #expect(stored == (try indexWords()))
    #expect(try vocabularyWords() == indexWords())
    // A desk that held the empty vocabulary reads the stored words again.
    #expect(try vocabularyWords(in: other) == indexWords())
    // Books added after it are news again.
    try store.addingBooksInBulk {
      let moment = clock.now()
      try store.books.add(
        BookRow(try bookDraft("51", "Пятьдесят первая").validated(base: nil, today: moment.date, now: moment.instant)))
    }
    #expect(try store.database.scalarInt("SELECT count(*) FROM book_vocabulary_news") == 1)
    #expect(try vocabularyWords(in: other) == indexWords())
  }

  @Test func anOlderLibraryGetsItsWordsStoredOnOpening() throws {
    var generator = SplitMix64(seed: 3)
    for inventory in 1...30 {
      try store.books.add(bookDraft("\(inventory)", randomTitle(&generator)))
      try store.readers.add(readerDraft("\(inventory)", randomTitle(&generator)))
    }
    try store.database.executeScript(librarySchemaBeforeStoredVocabularies + "PRAGMA user_version = 18")
    let reopened = try LibraryStore(path: folder.file("library.sqlite"), clock: clock)
    for table in ["book", "reader"] {
      let stored = try reopened.database.query("SELECT word FROM \(table)_vocabulary ORDER BY word") { $0.string(0) }
      #expect(stored == (try indexWords(table, in: reopened)))
      #expect(try vocabularyWords(table, in: reopened) == indexWords(table, in: reopened))
    }
    try reopened.books.add(bookDraft("new", "Новое слово"))
    #expect(try vocabularyWords(in: reopened) == indexWords(in: reopened))
  }
}
