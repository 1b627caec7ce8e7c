import DeskDomain
import Testing

/// The vocabulary's trie walk finds exactly what comparing the word with every word finds.
@Suite struct VocabularyTests {
  /// Words that share prefixes at every depth, in both scripts, with near neighbours.
  static let words: [String] = {
    var words = [
      "толстой", "толстая", "толстовство", "толпа", "только", "достоевский", "достоинство", "лермонтов",
      "пастернак", "пастер", "маргарита", "мастер", "мастерская", "война", "войны", "воин", "hemingway", "heming",
      "fitzgerald", "gatsby", "great", "greatness", "ёлка", "елка", "мир", "мира", "миры",
    ]
    // A seeded spread of made-up words, so that pruning meets long runs of shared prefixes.
    var state: UInt64 = 7
    let letters = Array("абвгдежзийклмнопрстуфхцчшщыэюяabcdeghilmnorst")
    for _ in 0..<3000 {
      var word = ""
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      let length = 3 + Int((state >> 33) % 9)
      for position in 0..<length {
        let draw = (state >> UInt64(position * 5 % 59)) % UInt64(letters.count)
        word.append(letters[Int(draw)])
      }
      words.append(word)
    }
    return words
  }()

  static func bruteForce(_ query: String, in words: [String] = words) -> [(word: String, distance: Int)] {
    bruteForce(query, in: Set(words).map { ($0, Array($0)) })
  }

  /// The full comparison over words whose letters are split already: splitting a large
  /// vocabulary again for each query was most of these tests' time.
  static func bruteForce(_ query: String, in words: [(word: String, letters: [Character])]) -> [(
    word: String, distance: Int
  )] {
    let query = Array(query)
    guard Fuzzy.allowedDistance(forLength: query.count) > 0 else { return [] }
    return words.compactMap { word, letters -> (word: String, distance: Int)? in
      let allowed = Fuzzy.allowedDistance(from: query, to: letters)
      guard let distance = Fuzzy.distance(query, letters, limit: allowed), distance > 0 else { return nil }
      return (word, distance)
    }.sorted { ($0.distance, $0.word) < ($1.distance, $1.word) }
  }

  /// What the walk finds for `query` in `words`, against the full comparison: the same words at
  /// the same distances, in the same order. Returns what the walk found.
  @discardableResult
  static func expectSameAsFullComparison(_ query: String, in words: [String]) -> [(word: String, distance: Int)] {
    expectSameAsFullComparison(query, in: Vocabulary(words), words: Set(words).map { ($0, Array($0)) })
  }

  @discardableResult
  static func expectSameAsFullComparison(
    _ query: String, in vocabulary: Vocabulary, words: [(word: String, letters: [Character])]
  ) -> [(word: String, distance: Int)] {
    let found = vocabulary.corrections(of: query, limit: words.count)
    let expected = bruteForce(query, in: words)
    #expect(found.map(\.word) == expected.map(\.word), "\(query)")
    #expect(found.map(\.distance) == expected.map(\.distance), "\(query)")
    return found
  }

  @Test(arguments: [
    "толстй", "толсстой", "тлостой", "достоевкий", "достоевксий", "лермантов", "пастернкак", "маргорита", "hemingwya",
    "fitzjerald", "gatsbi", "войнаа", "абвгд", "елкаа", "мирыы", "мастерска", "толстоя",
  ])
  func findsWhatAFullComparisonFinds(query: String) {
    VocabularyTests.expectSameAsFullComparison(query, in: VocabularyTests.words)
  }

  @Test func findsEveryGeneratedWordWithOneLetterChanged() {
    let vocabulary = Vocabulary(VocabularyTests.words)
    let split = Set(VocabularyTests.words).map { ($0, Array($0)) }
    for word in VocabularyTests.words.suffix(300) where word.count >= 5 {
      var letters = Array(word)
      letters[letters.count / 2] = letters[letters.count / 2] == "ж" ? "з" : "ж"
      let query = String(letters)
      #expect(
        vocabulary.corrections(of: query, limit: 1000).map(\.word)
          == VocabularyTests.bruteForce(query, in: split).map(\.word),
        "\(query)")
    }
  }

  /// Long runs of words with one start, which the walk steps over at once when the start is
  /// too far from the query, and words either side of them that it must still visit.
  @Test(arguments: ["мастрер", "заабв", "зазбв", "жжабвг", "мастерска", "ааабвгд"])
  func stepsOverLongRunsOfOneStart(query: String) {
    let letters = Array("абвгдежз")
    var words = ["мастер", "мастерская", "заабвг", "ааабвг", "яяя"]
    for first in letters {
      for second in letters {
        for third in letters { words.append("жж\(first)\(second)\(third)") }
        words.append("за\(first)\(second)")
      }
    }
    #expect(!VocabularyTests.expectSameAsFullComparison(query, in: words).isEmpty)
  }

  /// A large vocabulary of long words (allowed two edits), with long runs of one start: what
  /// the walk finds is what the full comparison finds. Shorter words too.
  @Test(arguments: ["жжжжабвгд", "мамаабвгде", "пастернкак", "абабзжзжз", "жжжжабвг", "мастрер", "толстй"])
  func aLargeVocabularyFindsWhatAFullComparisonFinds(query: String) {
    #expect(
      !VocabularyTests.expectSameAsFullComparison(
        query, in: VocabularyTests.manyVocabulary, words: VocabularyTests.manyWordsSplit
      ).isEmpty)
  }

  static let manyVocabulary = Vocabulary(manyWords)
  static let manyWordsSplit = Set(manyWords).map { ($0, Array($0)) }

  /// A word allowed two edits is allowed them only among the words that start with its letter:
  /// the first and the last word of that block are found two edits away, the words either side
  /// of the block one edit away, and not two.
  @Test func twoEditsOnlyAmongTheWordsThatStartWithTheQuerysLetter() {
    let words = [
      "каюиринтов", "кабиринтов", "лабиринта", "лабиринты", "ляюиринтов", "мабиринтов", "мабиринтав", "яблоко",
    ]
    let query = "лабиринтов"
    #expect(Fuzzy.allowedDistance(forLength: query.count) == 2)
    #expect(Fuzzy.distance(Array(query), Array("каюиринтов"), limit: 2) == 2, "two edits, one at the first letter")
    let found = Vocabulary(words).corrections(of: query, limit: 100)
    #expect(found.map(\.word) == ["кабиринтов", "мабиринтов", "лабиринта", "лабиринты", "ляюиринтов"])
    #expect(found.map(\.distance) == [1, 1, 2, 2, 2])
    #expect(found.map(\.word) == VocabularyTests.bruteForce(query, in: words).map(\.word))
  }

  static let manyWords: [String] = {
    let letters = Array("абвгдежз")
    var words = VocabularyTests.words
    for first in letters {
      for second in letters {
        for third in letters {
          for fourth in letters {
            words.append("жжжж\(first)\(second)\(third)\(fourth)")
            words.append("абаб\(first)\(second)\(third)\(fourth)")
            words.append("мама\(first)\(second)\(third)\(fourth)")
          }
          words.append("пастерна\(first)\(second)\(third)")
        }
      }
    }
    var state: UInt64 = 11
    while words.count < 55_000 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      let length = 8 + Int((state >> 33) % 5)
      words.append(String((0..<length).map { letters[Int((state >> UInt64(7 + $0 * 3)) % 8)] }))
    }
    return words
  }()

  @Test func listsTheWordsOfAPrefix() {
    let vocabulary = Vocabulary(["мир", "мира", "мирный", "миф", "мир", "толстой"])
    #expect(vocabulary.count == 5, "a word given twice is kept once")
    #expect(vocabulary.words(startingWith: "мир", limit: 5) == ["мир", "мира", "мирный"])
    #expect(vocabulary.words(startingWith: "мир", limit: 2) == nil, "more than the limit")
    #expect(vocabulary.words(startingWith: "яблоко", limit: 5) == [])
  }

  /// Letters are held as UTF-16 units: a letter beyond the Basic Multilingual Plane is two, and
  /// comes back whole in every answer.
  @Test func wordsWithLettersBeyondTwoBytesComeBackWhole() {
    let vocabulary = Vocabulary(["𝔄𝔅ℭ", "𝔄𝔅𝔇", "ﬀixing", "zebra", "𐐷ord", "𝔄𝔅ℭdef"])
    #expect(vocabulary.count == 6)
    #expect(vocabulary.contains("𝔄𝔅ℭ") && vocabulary.contains("𐐷ord") && !vocabulary.contains("𝔄𝔅"))
    #expect(vocabulary.words(startingWith: "𝔄𝔅", limit: 5) == ["𝔄𝔅ℭ", "𝔄𝔅ℭdef", "𝔄𝔅𝔇"])
    #expect(vocabulary.words(startingWith: "𐐷", limit: 5) == ["𐐷ord"])
    #expect(vocabulary.corrections(of: "zebrra").map(\.word) == ["zebra"])
    #expect(vocabulary.corrections(of: "ﬀixng").map(\.word) == ["ﬀixing"])
    #expect(vocabulary.corrections(of: "𝔄𝔅ℭdeg").map(\.word) == ["𝔄𝔅ℭdef"])
    // Stored and added words come in one order, by UTF-16 unit: beyond the plane before U+E000.
    var growing = GrowingVocabulary(Vocabulary(["x\u{E000}", "x𐐷"]))
    growing.add(["x\u{F900}", "x𝔄"])
    #expect(growing.words(startingWith: "x", limit: 5) == ["x𐐷", "x𝔄", "x\u{E000}", "x\u{F900}"])
  }

  /// A library whose words all came after its vocabulary was read (a new desk: every reader is
  /// news) answers "too many" from the added words as from the stored ones: a transliterated
  /// search asks whether a spelling starts any word at all, and an empty answer found nothing.
  @Test func tooManyAddedWordsAreTooManyNotNone() {
    var vocabulary = GrowingVocabulary(Vocabulary([]))
    vocabulary.add(["петров", "петрович", "петровна", "иванов"])
    #expect(vocabulary.words(startingWith: "петров", limit: 1) == nil)
    #expect(vocabulary.words(startingWith: "петров", limit: 3) == ["петров", "петрович", "петровна"])
    #expect(vocabulary.words(startingWith: "иван", limit: 1) == ["иванов"])
    #expect(vocabulary.words(startingWith: "сидоров", limit: 1) == [])
    var mixed = GrowingVocabulary(Vocabulary(["петр"]))
    mixed.add(["петров", "петрович"])
    #expect(mixed.words(startingWith: "петр", limit: 2) == nil, "one stored and two added")
  }
}
