import DeskDomain

/// The vocabularies of the books and readers: every distinct word of their search texts, which
/// the search that forgives typos corrects against, and which spells out a long word's
/// continuations.
///
/// The words are kept in `<table>_vocabulary` (migration 19), and the search texts written since
/// they were last gathered in `<table>_vocabulary_news`, a row each, by the full-text triggers.
/// Counting them from the index instead (`fts5vocab`) reads every word's list: 2.3 s at ten
/// million books, after every change of a word. A desk reads the stored words once, then only
/// the news. A word of a record deleted stays in the vocabulary: a correction to it finds nothing,
/// and "Did you mean" is offered only for corrections that find something.
extension VocabularyStore {
  /// A table's vocabulary in memory, with the state of the tables it was read at.
  struct LoadedVocabulary {
    var vocabulary: GrowingVocabulary
    /// The `<table>_words` counter, which every change of a search text moves (migration 8).
    var version: String
    /// The `<table>_vocabulary` counter, which every gathering of the news moves.
    var generation: Int
    /// The last row of the news read.
    var newsRead: Int
  }

  /// The tokenizer of the full-text indexes (`Migrations.version17`): the stored words are split
  /// from the texts exactly as the index splits them.
  static let indexTokenizer = "unicode61 remove_diacritics 0"

  /// News rows a desk lets wait before it gathers them into the stored words: a new desk, or a
  /// command, splits what waits when it first reads the vocabulary (about a millisecond for a
  /// thousand texts).
  public static let newsGathered = 1_000

  /// Words a desk adds to its vocabulary in memory before it reads the stored words again, so
  /// that the added words stay a short list.
  static let addedRead = 20_000

  /// The distinct words of the books, as searches correct typos against them.
  public func bookVocabulary() throws(StoreError) -> GrowingVocabulary { try loaded("book") }

  /// Brings the vocabularies of books and readers up to date, gathers the news into the stored
  /// words when many wait: a desk does it while nobody waits for a search.
  public func readVocabularies() throws(StoreError) {
    for table in ["book", "reader"] {
      if try loaded(table).addedCount > VocabularyStore.addedRead {
        store.vocabularies[table] = nil
        _ = try loaded(table)
      }
      if !store.isReadOnly, try newsWaiting(table) >= VocabularyStore.newsGathered { try gatherNews(table) }
    }
  }

  /// Gathers the news of books and readers into their stored words when `waiting` rows or more
  /// wait: after a large import or a desk's catching up with its central.
  public func gatherVocabularyNews(waiting: Int = VocabularyStore.newsGathered) throws(StoreError) {
    for table in ["book", "reader"] where try newsWaiting(table) >= max(1, waiting) {
      try gatherNews(table)
    }
  }

  /// The distinct words of the books or readers, up to date.
  func loaded(_ table: String) throws(StoreError) -> GrowingVocabulary {
    if let updated = try updatedVocabulary(table) { return updated }
    return try read {
      let version = try wordsVersion(table)
      let generation = try self.generation(table)
      // The stored words come in order, one at a time: a large vocabulary is never held twice.
      var builder = Vocabulary.Builder()
      // SQLite counts characters: as many UTF-16 units, but for the rare letter beyond the Basic
      // Multilingual Plane (two units), for which the array grows.
      if let (words, units) = try database.queryFirst(
        "SELECT count(*), coalesce(sum(length(word)), 0) FROM \(table)_vocabulary", read: { ($0.int(0), $0.int(1)) })
      {
        builder.reserveCapacity(words: words, units: units)
      }
      try database.forEachRow("SELECT word FROM \(table)_vocabulary ORDER BY word") { builder.append($0.string(0)) }
      var loaded = LoadedVocabulary(
        vocabulary: GrowingVocabulary(builder.vocabulary()), version: version, generation: generation, newsRead: 0)
      try readNews(table, into: &loaded)
      store.vocabularies[table] = loaded
      return loaded.vocabulary
    }
  }

  /// The vocabulary read before, with the news written since added: nil when none was read, or
  /// when news it had not read were gathered meanwhile (by another program on the file).
  func updatedVocabulary(_ table: String) throws(StoreError) -> GrowingVocabulary? {
    try read {
      guard var loaded = store.vocabularies[table] else { return nil }
      let version = try wordsVersion(table)
      if loaded.version == version { return loaded.vocabulary }
      guard try generation(table) == loaded.generation else { return nil }
      loaded.version = version
      try readNews(table, into: &loaded)
      store.vocabularies[table] = loaded
      return loaded.vocabulary
    }
  }

  /// Adds the words of the news after `loaded.newsRead`.
  private func readNews(_ table: String, into loaded: inout LoadedVocabulary) throws {
    var last = loaded.newsRead
    let words = try words(
      ofTexts: "SELECT search_text, id FROM \(table)_vocabulary_news WHERE id > ? ORDER BY id", loaded.newsRead
    ) { last = $0.int(1) }
    loaded.newsRead = last
    loaded.vocabulary.add(words)
  }

  /// The words of the index that start with `word`, in order; nil when there are more than
  /// `limit`. From `vocabulary` when one is read; without one, from the index, for this start
  /// alone (0.1–9 ms at ten million books): a search for a long word, or a spelling in the other
  /// script, need not wait for the whole vocabulary to be read.
  func continuations(of word: String, table: String, limit: Int, in vocabulary: GrowingVocabulary?)
    throws(StoreError) -> [String]?
  {
    if let vocabulary { return vocabulary.words(startingWith: word, limit: limit) }
    // Every word that starts with `word` sorts before it followed by the last code point.
    let found = try read {
      try database.query(
        "SELECT term FROM \(table)_words WHERE term >= ? AND term < ? ORDER BY term LIMIT ?", word,
        word + "\u{10FFFF}", limit + 1
      ) { $0.string(0) }
    }
    return found.count > limit ? nil : found
  }

  /// How often the words of the books or readers have changed: the full-text triggers count
  /// every change (migration 8).
  private func wordsVersion(_ table: String) throws -> String {
    try database.queryFirst("SELECT value FROM counter WHERE name = ?", "\(table)_words") { $0.string(0) } ?? ""
  }

  /// How often the news of the books or readers were gathered.
  private func generation(_ table: String) throws -> Int {
    try database.queryFirst("SELECT value FROM counter WHERE name = ?", "\(table)_vocabulary") { $0.int(0) } ?? 0
  }

  private func newsWaiting(_ table: String) throws(StoreError) -> Int {
    try read { try database.scalarInt("SELECT count(*) FROM \(table)_vocabulary_news") }
  }

  /// Moves the words of the news into the stored words, in one transaction.
  private func gatherNews(_ table: String) throws(StoreError) {
    let gathered = try write { () throws -> (generation: Int, last: Int)? in
      let last = try database.scalarInt("SELECT coalesce(max(id), 0) FROM \(table)_vocabulary_news")
      guard last > 0 else { return nil }
      for word in try words(ofTexts: "SELECT search_text FROM \(table)_vocabulary_news WHERE id <= ?", last) {
        try database.execute("INSERT OR IGNORE INTO \(table)_vocabulary(word) VALUES (?)", word)
      }
      try database.execute("DELETE FROM \(table)_vocabulary_news WHERE id <= ?", last)
      try database.execute("UPDATE counter SET value = value + 1 WHERE name = ?", "\(table)_vocabulary")
      return (try generation(table), last)
    }
    // What this desk holds is still the whole vocabulary if it had read every text gathered.
    if let gathered, var loaded = store.vocabularies[table], loaded.generation == gathered.generation - 1,
      loaded.newsRead >= gathered.last
    {
      loaded.generation = gathered.generation
      store.vocabularies[table] = loaded
    }
  }

  /// Writes the distinct words of the books with ids in `ids` as one row of news: a bulk insert
  /// indexes its books without the triggers, which would write a row for each.
  func addBulkNews(_ table: String, ids: Range<Int>) throws {
    try addBulkNews(
      table, ofTexts: "SELECT search_text FROM \(table) WHERE id >= ? AND id < ?", ids.lowerBound, ids.upperBound)
  }

  /// Writes the distinct words of the texts a query reads as one row of news.
  func addBulkNews(_ table: String, ofTexts sql: String, _ arguments: any DatabaseValueConvertible...) throws {
    let words = try words(ofTexts: sql, arguments)
    guard !words.isEmpty else { return }
    try database.execute(
      "INSERT INTO \(table)_vocabulary_news(search_text) VALUES (?)", words.sorted().joined(separator: " "))
  }

  /// Adds every word of the index to the stored words, and tells the desks that hold the
  /// vocabulary to read it again: after a bulk insert into a table that had no rows. Reading the
  /// index's words is cheaper than splitting every new text once more: a million books' 175,876
  /// words in 0.19 s, where the news of their texts took 2.3 s of the import's writing thread.
  func addIndexWords(_ table: String) throws {
    try database.execute("INSERT OR IGNORE INTO \(table)_vocabulary(word) SELECT term FROM \(table)_words")
    try database.execute("UPDATE counter SET value = value + 1 WHERE name = ?", "\(table)_vocabulary")
  }

  /// Whether the full-text index takes `word` for one word, the same: its tokenizer may split what
  /// folding keeps together, and the parts may each start a word of the index.
  func indexReadsAsOneWord(_ word: String) throws(StoreError) -> Bool {
    var read: [String] = []
    do {
      try indexTokenizer().forEachWord(in: word) { read.append($0) }
    } catch {
      throw .database(error)
    }
    return read == [word]
  }

  /// A tokenizer that splits texts into the words the full-text indexes store.
  private func indexTokenizer() throws(DatabaseError) -> FullTextTokenizer {
    try FullTextTokenizer(database, tokenize: VocabularyStore.indexTokenizer)
  }

  /// The distinct words of the texts in the first column of a query's rows, split as the
  /// full-text index splits them; `row` sees each row after its text.
  private func words(
    ofTexts sql: String, _ arguments: any DatabaseValueConvertible..., row: (Row) -> Void = { _ in }
  ) throws -> Set<String> {
    try words(ofTexts: sql, arguments, row: row)
  }

  private func words(
    ofTexts sql: String, _ arguments: [any DatabaseValueConvertible], row: (Row) -> Void = { _ in }
  ) throws -> Set<String> {
    let tokenizer = try indexTokenizer()
    var words: Set<String> = []
    try database.forEachRow(sql, arguments: arguments) {
      tokenizer.forEachWord(in: $0.string(0)) { words.insert($0) }
      row($0)
    }
    return words
  }
}
