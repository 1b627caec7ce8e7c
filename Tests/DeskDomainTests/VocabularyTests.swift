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
    let allowed = Fuzzy.allowedDistance(forLength: query.count)
    guard allowed > 0 else { return [] }
    return Set(words).compactMap { word -> (word: String, distance: Int)? in
      guard let distance = Fuzzy.distance(Array(query), Array(word), limit: allowed), distance > 0 else { return nil }
      return (word, distance)
    }.sorted { ($0.distance, $0.word) < ($1.distance, $1.word) }
  }

  @Test(arguments: [
    "толстй", "толсстой", "тлостой", "достоевкий", "достоевксий", "лермантов", "пастернкак", "маргорита", "hemingwya",
    "fitzjerald", "gatsbi", "войнаа", "абвгд", "елкаа", "мирыы", "мастерска", "толстоя",
  ])
  func findsWhatAFullComparisonFinds(query: String) {
    let vocabulary = Vocabulary(VocabularyTests.words)
    let found = vocabulary.corrections(of: query, limit: 1000)
    let expected = VocabularyTests.bruteForce(query)
    #expect(found.map(\.word) == expected.map(\.word))
    #expect(found.map(\.distance) == expected.map(\.distance))
  }

  @Test func findsEveryGeneratedWordWithOneLetterChanged() {
    let vocabulary = Vocabulary(VocabularyTests.words)
    for word in VocabularyTests.words.suffix(300) where word.count >= 5 {
      var letters = Array(word)
      letters[letters.count / 2] = letters[letters.count / 2] == "ж" ? "з" : "ж"
      let query = String(letters)
      #expect(
        vocabulary.corrections(of: query, limit: 1000).map(\.word) == VocabularyTests.bruteForce(query).map(\.word),
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
    let vocabulary = Vocabulary(words)
    let expected = VocabularyTests.bruteForce(query, in: words)
    let found = vocabulary.corrections(of: query, limit: 10_000)
    #expect(found.map(\.word) == expected.map(\.word))
    #expect(found.map(\.distance) == expected.map(\.distance))
    #expect(!found.isEmpty)
  }

  /// A vocabulary large enough to be walked in parts at once (words of nine letters or more, which
  /// are allowed two edits): the parts' bounds cut through runs of words with one start, and what
  /// the parts find together is what the full comparison finds. Shorter words, walked whole, too.
  @Test(arguments: ["жжжжабвгд", "мамаабвгде", "пастернкак", "абабзжзжз", "жжжжабвг", "мастрер", "толстй"])
  func aVocabularyWalkedInPartsFindsWhatAFullComparisonFinds(query: String) {
    let words = VocabularyTests.wordsWalkedInParts
    let vocabulary = Vocabulary(words)
    #expect(vocabulary.count >= Vocabulary.wordsWalkedInParts)
    let expected = VocabularyTests.bruteForce(query, in: words)
    let found = vocabulary.corrections(of: query, limit: 100_000)
    #expect(found.map(\.word) == expected.map(\.word))
    #expect(found.map(\.distance) == expected.map(\.distance))
    #expect(!found.isEmpty)
  }

  /// The first and the last word of every part are walked: each is found for itself with a letter
  /// more (words of eight letters or more, so that with it they are walked in parts).
  @Test func everyPartIsWalkedToItsBounds() {
    let words = VocabularyTests.wordsWalkedInParts
    let vocabulary = Vocabulary(words)
    let sorted = Set(words).map { Array($0.unicodeScalars.map(\.value)) }.sorted { $0.lexicographicallyPrecedes($1) }
      .map { String(String.UnicodeScalarView($0.compactMap(Unicode.Scalar.init))) }
    #expect(sorted.count == vocabulary.count)
    let parts = Vocabulary.walkParts
    var checked = 0
    for part in 0..<parts {
      for index in [part * sorted.count / parts, (part + 1) * sorted.count / parts - 1] where sorted[index].count >= 8 {
        let word = sorted[index]
        #expect(vocabulary.corrections(of: word + "я", limit: 100_000).contains { $0.word == word }, "\(word)")
        checked += 1
      }
    }
    #expect(checked > parts)
  }

  static let wordsWalkedInParts: [String] = {
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
    while words.count < Vocabulary.wordsWalkedInParts + 5000 {
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
}
