import DeskDomain

/// The answer to a search: records its exact code names first, then the records whose words
/// start with the query's words, and — when those are too few — the records a misspelt query
/// most likely meant, with the words it was read as.
public struct SearchAnswer<Listing: Sendable>: Sendable {
  public var exact: [Listing]
  public var matches: [Listing]
  /// Query word → the catalogue word it was taken for ("Did you mean …").
  public var corrections: [(String, String)]
  /// The query as typed on the other keyboard layout, when that is what found the records.
  public var searchedFor: String?

  public init(
    exact: [Listing] = [], matches: [Listing] = [], corrections: [(String, String)] = [], searchedFor: String? = nil
  ) {
    self.exact = exact
    self.matches = matches
    self.corrections = corrections
    self.searchedFor = searchedFor
  }

  /// Everything, in the order to show it: exact codes, then the rest.
  public var all: [Listing] { exact + matches }
}

extension LibraryStore {
  /// Fewer prefix matches than this call in the typo-forgiving search.
  static let fuzzyThreshold = 3
  /// Text matches considered before sorting: a query that matches more is asked to say more.
  public static let searchCap = 200

  /// The condition that keeps the records matching `search`: one or two letters match the start
  /// of the folded sort key (a B-tree range); longer queries match every word's start anywhere
  /// in the record, in any order (the full-text index).
  func searchCondition(_ search: String, table: String, alias: String, capped: Bool) throws(StoreError)
    -> (String, [any DatabaseValueConvertible])?
  {
    let words = TextFolding.words(search)
    guard !words.isEmpty else { return nil }
    if words.count == 1, words[0].count <= 2, !TextFolding.hasCJK(words[0]) {
      return ("\(alias).sort_key >= ? AND \(alias).sort_key < ?", [words[0], words[0] + "\u{10FFFF}"])
    }
    guard let match = try fullTextQuery(words, table: table) else { return ("0", []) }
    let limit = capped ? " LIMIT \(LibraryStore.searchCap + 1)" : ""
    return ("\(alias).id IN (SELECT rowid FROM \(table)_fts WHERE \(table)_fts MATCH ?\(limit))", [match])
  }

  /// Words the vocabulary can spell out as this many words or fewer are asked for by name.
  static let spelledOutPrefix = 8
  /// The longest start of a word the full-text indexes keep as a word of its own (migration 17).
  static let indexedPrefix = 5

  /// The full-text query for words that must each start a word of the record. Up to five
  /// letters, a prefix query (`"мир"*`) reads the prefix index's own list of that start, only as
  /// far as the rows wanted (migrations 15 and 17; 0.07 ms for «мир» at ten million books, against
  /// 0.6 ms for its 15 words named). A longer prefix makes FTS5 merge the lists of every word
  /// with that start before it returns a row; the same words named (`"мира" OR "мирная"`) are
  /// read only as far as the rows wanted. So a word of six letters or more with few
  /// continuations in the vocabulary is spelt out; others stay prefixes (past five letters the
  /// words that continue a start are few and their lists short: at a million books, at most 555
  /// records for any six letters).
  ///
  /// Nil when a word of six letters or more starts no word of the vocabulary, which holds every
  /// word of the index and more: no record can match, and the index is not asked (a misspelt
  /// word's own search, 0.15–0.4 ms at ten million books, each of the index's segments looked
  /// into for nothing).
  func fullTextQuery(_ words: [String], table: String) throws(StoreError) -> String? {
    var terms: [String] = []
    // Looked for once, at the first word long enough to need it.
    var vocabulary: GrowingVocabulary?
    var lookedUp = false
    for word in words {
      // Words hold only letters and digits after folding, so quoting them is all the escaping needed.
      let prefix = "\"\(word)\"*"
      guard word.count > LibraryStore.indexedPrefix else {
        terms.append(prefix)
        continue
      }
      if !lookedUp {
        vocabulary = try self.vocabulary.updatedVocabulary(table)
        lookedUp = true
      }
      guard
        let known = try self.vocabulary.continuations(
          of: word, table: table, limit: LibraryStore.spelledOutPrefix, in: vocabulary)
      else {
        terms.append(prefix)
        continue
      }
      guard !known.isEmpty else {
        if try self.vocabulary.indexReadsAsOneWord(word) { return nil }
        terms.append(prefix)
        continue
      }
      let named = known.map { "\"\($0)\"" }
      terms.append(named.count == 1 ? named[0] : "(" + named.joined(separator: " OR ") + ")")
    }
    // FTS5 takes a bracketed OR beside a phrase only with the AND said.
    return terms.joined(separator: " AND ")
  }

  /// Puts the matches of a full-text search in order of relevance, when the search found few
  /// enough to rank all of them (ranking every match of a common word would not fit in a
  /// keystroke; a set the cap cut short stays in list order). Records holding the query's words
  /// as whole words come before those that hold only longer words starting with them; within
  /// each, FTS5's bm25 (rarer words, and shorter records holding them, first); ties in list order.
  func rankedByRelevance<Listing>(
    _ matches: [Listing], query: String, table: String, keyColumn: String, limit: Int, key: KeyPath<Listing, String>
  ) throws(StoreError) -> [Listing] {
    let words = TextFolding.words(query)
    // One or two letters are a range of the sort key, not a text search: nothing to rank by.
    guard matches.count > 1, matches.count < limit, words.count > 1 || (words.first?.count ?? 0) > 2 else {
      return matches
    }
    func ranks(_ match: String) throws(StoreError) -> [String: Double]? {
      let found = try read {
        try database.query(
          """
          SELECT t.\(keyColumn), \(table)_fts.rank FROM \(table)_fts JOIN \(table) t ON t.id = \(table)_fts.rowid
          WHERE \(table)_fts MATCH ? AND t.deleted = 0 LIMIT ?
          """, match, LibraryStore.searchCap + 1
        ) { ($0.string(0), $0.double(1)) }
      }
      // More text matches than the cap: a filter (issued, overdue) made the set small, not the words.
      guard found.count <= LibraryStore.searchCap else { return nil }
      return Dictionary(found, uniquingKeysWith: min)
    }
    let wholeWords = words.map { "\"\($0)\"" }.joined(separator: " AND ")
    guard let whole = try ranks(wholeWords), let anyWords = try fullTextQuery(words, table: table),
      let any = try ranks(anyWords)
    else {
      return matches
    }
    func order(_ listing: Listing) -> (Int, Double) {
      let record = listing[keyPath: key]
      if let rank = whole[record] { return (0, rank) }
      return (1, any[record] ?? .infinity)
    }
    return matches.enumerated().sorted { first, second in
      let (a, b) = (order(first.element), order(second.element))
      return a != b ? a < b : first.offset < second.offset
    }.map(\.element)
  }

  /// When the query as typed found too little: the same keys on the other keyboard layout (a
  /// librarian who forgot to switch it), then the query's words in the other script
  /// (transliterated: «Tolstoy» for «Толстой», «Щербаков» for «Shcherbakov»). Their records come
  /// after those found as typed.
  func addAlternatives<Listing>(
    to answer: inout SearchAnswer<Listing>, query: String, table: String, key: KeyPath<Listing, String>,
    search: (String) throws(StoreError) -> [Listing]
  ) throws(StoreError) {
    guard answer.all.count < LibraryStore.fuzzyThreshold else { return }
    var seen = Set(answer.all.map { $0[keyPath: key] })
    if let switched = KeyboardLayout.switched(query), !TextFolding.words(switched).isEmpty {
      var found = false
      for listing in try search(switched) where seen.insert(listing[keyPath: key]).inserted {
        answer.matches.append(listing)
        found = true
      }
      if found { answer.searchedFor = TextFolding.joinedWords(switched) }
    }
    guard answer.all.count < LibraryStore.fuzzyThreshold else { return }
    for alternative in try transliteratedQueries(query, table: table) {
      for listing in try search(alternative) where seen.insert(listing[keyPath: key]).inserted {
        answer.matches.append(listing)
      }
    }
  }

  /// The query with its words in the other script, spelt as the catalogue spells them: for each
  /// word the few spellings the vocabulary knows, the likeliest first; the likeliest of all words
  /// together, then each word's others. Empty when no word has a known spelling.
  func transliteratedQueries(_ query: String, table: String) throws(StoreError) -> [String] {
    let words = TextFolding.words(query)
    guard !words.isEmpty else { return [] }
    // Whether some word starts with a spelling needs the index's words for that start only.
    let vocabulary = try self.vocabulary.updatedVocabulary(table)
    var options: [[String]] = []
    var changed = false
    for word in words {
      let isLatin = word.unicodeScalars.contains { (0x61...0x7A).contains($0.value) }
      let isCyrillic = word.unicodeScalars.contains { (0x400...0x4FF).contains($0.value) }
      guard isLatin != isCyrillic else {
        options.append([word])
        continue
      }
      let spellings = isLatin ? Transliteration.cyrillic(word) : Transliteration.latin(word)
      // A spelling counts when some word of the catalogue starts with it (nil: too many to list).
      var known: [String] = []
      for spelling in spellings where known.count < 3 {
        if try self.vocabulary.continuations(of: spelling, table: table, limit: 1, in: vocabulary) != [] {
          known.append(spelling)
        }
      }
      if known.isEmpty {
        options.append([word])
      } else {
        options.append(Array(known))
        changed = true
      }
    }
    return changed ? LibraryStore.queries(choosingAmong: options) : []
  }

  /// Queries of one choice per word. Every combination would be too many: the first choice of
  /// each word together, then each word's other choices alone.
  static func queries(choosingAmong options: [[String]]) -> [String] {
    var queries = [options.map { $0[0] }.joined(separator: " ")]
    for (index, choices) in options.enumerated() {
      for choice in choices.dropFirst() {
        var chosen = options.map { $0[0] }
        chosen[index] = choice
        queries.append(chosen.joined(separator: " "))
      }
    }
    return queries
  }

  /// When the prefixes found too little, adds the records of the query read with its misspelt
  /// words corrected; "Did you mean" only when the corrections found something new. The nearest
  /// correction's records come first: once they fill the `limit` the list shows ("type more"),
  /// the farther ones are not read (two searches of 200 records, 0.5 ms at ten million books).
  func addCorrections<Listing>(
    to answer: inout SearchAnswer<Listing>, query: String, table: String, limit: Int,
    key: KeyPath<Listing, String>, search: (String) throws(StoreError) -> [Listing]
  ) throws(StoreError) {
    guard answer.all.count < LibraryStore.fuzzyThreshold else { return }
    let (corrected, corrections) = try correctedQueries(query, table: table)
    let before = answer.all.count
    var seen = Set(answer.all.map { $0[keyPath: key] })
    for alternative in corrected where answer.all.count < limit {
      for listing in try search(alternative) where seen.insert(listing[keyPath: key]).inserted {
        answer.matches.append(listing)
      }
    }
    if answer.all.count > before { answer.corrections = corrections }
  }

  /// The nearest words a misspelt word is read as, at most.
  static let correctionsOffered = 3
  /// Corrections looked at beyond those offered, for words of the vocabulary no record has.
  static let goneCorrections = 3

  /// Whether some record has `word` as a word: the first row of its list, however long.
  func indexHas(_ word: String, table: String) throws(StoreError) -> Bool {
    try read {
      try database.queryFirst(
        "SELECT rowid FROM \(table)_fts WHERE \(table)_fts MATCH ? LIMIT 1", "\"\(word)\""
      ) { _ in true } ?? false
    }
  }

  /// Queries with misspelt words replaced by the catalogue's nearest words, nearest first.
  func correctedQueries(_ query: String, table: String) throws(StoreError) -> ([String], [(String, String)]) {
    let words = TextFolding.words(query)
    let vocabulary = try self.vocabulary.loaded(table)
    var options: [[String]] = []
    var corrections: [(String, String)] = []
    var changed = false
    for word in words {
      // A word the catalogue has is what was meant: never "corrected" into another. The
      // vocabulary keeps the words of records changed or deleted since (`VocabularyStore`): a
      // typo put right in a record stays in it, and neither it nor another word gone is offered.
      let nearest: [String]
      if vocabulary.contains(word), try indexHas(word, table: table) {
        nearest = []
      } else {
        // The first that some record has is the one offered ("Did you mean"); the others after
        // it are only searched, where a word no record has finds nothing, so they are not looked
        // up (each look-up probes every segment of the index: 0.05–0.16 ms at ten million books).
        var found: [String] = []
        let limit = LibraryStore.correctionsOffered + LibraryStore.goneCorrections
        for near in vocabulary.corrections(of: word, limit: limit) where found.count < LibraryStore.correctionsOffered {
          let searchable = found.isEmpty ? try indexHas(near.word, table: table) : true
          if searchable { found.append(near.word) }
        }
        nearest = found
      }
      if nearest.isEmpty {
        options.append([word])
      } else {
        options.append(nearest)
        corrections.append((word, nearest[0]))
        changed = true
      }
    }
    guard changed else { return ([], []) }
    return (LibraryStore.queries(choosingAmong: options), corrections)
  }
}

/// Searching the catalogue.
extension BookStore {
  /// Searches the catalogue, answering with whole records (the command line, exports).
  public func search(_ query: String, filter: BookFilter = .all, limit: Int = LibraryStore.searchCap) throws(StoreError)
    -> SearchAnswer<BookWithLoan>
  {
    try search(
      query, limit: limit, exact: { BookWithLoan(book: $0, loan: $1) },
      page: { search throws(StoreError) in try page(filter: filter, search: search, limit: limit) })
  }

  /// Searches the catalogue, answering with what the full-screen list shows of each book: the
  /// desk's search as you type, which reads a few columns of each record instead of all.
  public func searchRows(_ query: String, filter: BookFilter = .all, limit: Int = LibraryStore.searchCap)
    throws(StoreError) -> SearchAnswer<BookListRow>
  {
    try search(
      query, limit: limit, exact: { BookListRow(book: BriefRecord($0), loan: $1) },
      page: { search throws(StoreError) in try listRows(filter: filter, search: search, limit: limit) })
  }

  /// One read of one snapshot: the stages of a search see the same library, and the search
  /// pays for one transaction instead of one per stage.
  private func search<Listing: InventoryNumbered>(
    _ query: String, limit: Int, exact: (Book, CurrentLoan?) -> Listing,
    page: (String) throws(StoreError) -> [Listing]
  ) throws(StoreError) -> SearchAnswer<Listing> {
    try read { () throws(StoreError) in
      try searchInRead(query, limit: limit, exact: exact, page: page)
    }
  }

  private func searchInRead<Listing: InventoryNumbered>(
    _ query: String, limit: Int, exact: (Book, CurrentLoan?) -> Listing,
    page: (String) throws(StoreError) -> [Listing]
  ) throws(StoreError) -> SearchAnswer<Listing> {
    var answer = SearchAnswer<Listing>()
    let code = query.trimmingWhitespace()
    var exactBooks: [Book] = []
    if let isbn = try? ISBN(code) { exactBooks += try copies(isbn: isbn) }
    if let book = try book(inventory: code) { exactBooks.append(book) }
    for book in exactBooks where !answer.exact.contains(where: { $0.inventoryNumber == book.inventoryNumber }) {
      answer.exact.append(exact(book, try currentLoan(ofBook: book)))
    }
    answer.matches = try page(query).filter { listing in
      !answer.exact.contains { $0.inventoryNumber == listing.inventoryNumber }
    }
    answer.matches = try store.rankedByRelevance(
      answer.matches, query: query, table: "book", keyColumn: "inventory", limit: limit, key: \.inventoryNumber)
    try store.addAlternatives(to: &answer, query: query, table: "book", key: \.inventoryNumber, search: page)
    try store.addCorrections(
      to: &answer, query: query, table: "book", limit: limit, key: \.inventoryNumber, search: page)
    return answer
  }
}

/// Searching the readers.
extension ReaderStore {
  public func search(_ query: String, filter: ReaderFilter = .all, limit: Int = LibraryStore.searchCap)
    throws(StoreError)
    -> SearchAnswer<ReaderListing>
  {
    var answer = SearchAnswer<ReaderListing>()
    let code = query.identifierForm
    let phone = Address.phoneKey(code)
    let exact = try read {
      try database.query(
        """
        SELECT \(ReaderStore.readerColumns),
          (SELECT count(*) FROM loan l WHERE l.reader_id = r.id AND l.returned_at IS NULL AND l.deleted = 0),
          (SELECT count(*) FROM loan l WHERE l.reader_id = r.id AND l.returned_at IS NULL AND l.deleted = 0
             AND l.due_date < ?1)
        FROM \(ReaderStore.readerFrom)
        WHERE r.deleted = 0 AND (r.ticket = ?2 OR (length(?2) >= 5 AND a.phone_key = ?3))
          \(filter == .overdue ? "AND " + ReaderStore.holdsOverdue : "")
        """, today.iso, code, phone
      ) { row in
        ReaderListing(
          reader: try ReaderStore.decodeReader(row), booksOut: row.int(ReaderStore.readerColumnCount),
          overdue: row.int(ReaderStore.readerColumnCount + 1))
      }
    }
    answer.exact = exact
    answer.matches = try page(filter: filter, search: query, limit: limit).filter { listing in
      !exact.contains { $0.reader.id == listing.reader.id }
    }
    answer.matches = try store.rankedByRelevance(
      answer.matches, query: query, table: "reader", keyColumn: "uuid", limit: limit, key: \.reader.id.text)
    try store.addAlternatives(to: &answer, query: query, table: "reader", key: \.reader.id.text) {
      alternative throws(StoreError) in
      try page(filter: filter, search: alternative, limit: limit)
    }
    try store.addCorrections(to: &answer, query: query, table: "reader", limit: limit, key: \.reader.id.text) {
      alternative throws(StoreError) in
      try page(filter: filter, search: alternative, limit: limit)
    }
    return answer
  }
}
