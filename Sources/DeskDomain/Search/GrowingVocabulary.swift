/// A vocabulary as it was read, and the words the catalogue gained since, searched as one: a
/// new word does not make the whole vocabulary be built again (a second or more at ten million
/// books), only the small list of the words added.
public struct GrowingVocabulary: Sendable {
  public let base: Vocabulary
  /// The words added, sorted, none of them in `base`.
  private var addedWords: [String] = []
  private var added = Vocabulary([])

  public init(_ base: Vocabulary) {
    self.base = base
  }

  /// How many words have been added since `base` was read.
  public var addedCount: Int { addedWords.count }

  public var count: Int { base.count + addedWords.count }

  public mutating func add<Words: Sequence>(_ words: Words) where Words.Element == String {
    let new = Set(words.filter { !base.contains($0) }).subtracting(addedWords)
    guard !new.isEmpty else { return }
    // Sorted as the vocabulary sorts: by UTF-16 unit (`Vocabulary.precedes`).
    addedWords = (addedWords + new).sorted(by: Vocabulary.precedes)
    added = Vocabulary(addedWords)
  }

  /// True when the catalogue has this very word.
  public func contains(_ word: String) -> Bool {
    base.contains(word) || added.contains(word)
  }

  /// The words that start with `prefix`, in order; nil when there are more than `limit`.
  public func words(startingWith prefix: String, limit: Int) -> [String]? {
    // Too many in either part is too many in all: a part's nil is never read as none.
    guard let old = base.words(startingWith: prefix, limit: limit),
      let new = added.words(startingWith: prefix, limit: limit)
    else { return nil }
    guard !new.isEmpty else { return old }
    guard old.count + new.count <= limit else { return nil }
    return (old + new).sorted(by: Vocabulary.precedes)
  }

  /// The words within the allowed distance of `word`, nearest first, ties in alphabetical order
  /// (`Vocabulary.corrections(of:limit:)`).
  public func corrections(of word: String, limit: Int = 5) -> [(word: String, distance: Int)] {
    let new = added.corrections(of: word, limit: limit)
    let old = base.corrections(of: word, limit: limit)
    guard !new.isEmpty else { return old }
    return Array((old + new).sorted { ($0.distance, $0.word) < ($1.distance, $1.word) }.prefix(limit))
  }
}
