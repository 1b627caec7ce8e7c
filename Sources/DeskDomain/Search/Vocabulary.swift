/// The distinct words of a catalogue, sorted, for the words a prefix or a misspelt word stands
/// for. Held as one array of Unicode scalars: a million-book catalogue has a few hundred thousand
/// words, and this stays a few megabytes.
public struct Vocabulary: Sendable {
  private let scalars: [UInt32]
  /// Word `i` is `scalars[starts[i]..<starts[i + 1]]`.
  private let starts: [Int]
  private let longest: Int

  public init<Words: Sequence>(_ words: Words) where Words.Element == String {
    var builder = Builder()
    for word in words { builder.append(word) }
    self = builder.vocabulary()
  }

  private init(scalars: [UInt32], starts: [Int], longest: Int) {
    self.scalars = scalars
    self.starts = starts
    self.longest = longest
  }

  /// Gathers words one at a time, so that a large vocabulary is never held twice: the full-text
  /// index hands its words over already sorted, and they go straight into place.
  public struct Builder {
    private var scalars: [UInt32] = []
    private var starts = [0]
    private var longest = 0
    private var sorted = true

    public init() {}

    public mutating func append(_ word: String) {
      append(scalars: word.unicodeScalars.lazy.map(\.value))
    }

    private mutating func append<Scalars: Sequence<UInt32>>(scalars word: Scalars) {
      let start = scalars.count
      scalars.append(contentsOf: word)
      let previous = starts.count >= 2 ? scalars[starts[starts.count - 2]..<start] : []
      let added = scalars[start...]
      if starts.count >= 2, sorted {
        if added.elementsEqual(previous) {
          // The same word again: kept once.
          scalars.removeSubrange(start...)
          return
        }
        sorted = previous.lexicographicallyPrecedes(added)
      }
      starts.append(scalars.count)
      longest = max(longest, scalars.count - start)
    }

    public func vocabulary() -> Vocabulary {
      guard !sorted else { return Vocabulary(scalars: scalars, starts: starts, longest: longest) }
      // Words given out of order: gathered again in order, which drops the duplicates.
      let words = (0..<(starts.count - 1)).map { scalars[starts[$0]..<starts[$0 + 1]] }
      var again = Builder()
      for word in words.sorted(by: { $0.lexicographicallyPrecedes($1) }) { again.append(scalars: word) }
      return again.vocabulary()
    }
  }

  public var count: Int { starts.count - 1 }

  private func word(_ index: Int) -> ArraySlice<UInt32> {
    scalars[starts[index]..<starts[index + 1]]
  }

  private func text(_ index: Int) -> String {
    var result = ""
    for value in word(index) {
      if let scalar = Unicode.Scalar(value) { result.unicodeScalars.append(scalar) }
    }
    return result
  }

  /// The first word from `from` on that does not start with `prefix`, when the word before
  /// `from` does (such words stand together in sorted order).
  private func end(of prefix: ArraySlice<UInt32>, from: Int) -> Int {
    var low = from
    var high = count
    while low < high {
      let middle = (low + high) / 2
      if word(middle).starts(with: prefix) { low = middle + 1 } else { high = middle }
    }
    return low
  }

  /// The first word not sorted before `prefix`.
  private func start(of prefix: [UInt32]) -> Int {
    var low = 0
    var high = count
    while low < high {
      let middle = (low + high) / 2
      if word(middle).lexicographicallyPrecedes(prefix) { low = middle + 1 } else { high = middle }
    }
    return low
  }

  /// True when the catalogue has this very word.
  public func contains(_ word: String) -> Bool {
    let wanted = word.unicodeScalars.map(\.value)
    let index = start(of: wanted)
    return index < count && Array(self.word(index)) == wanted
  }

  /// The words that start with `prefix`, in order; nil when there are more than `limit`.
  public func words(startingWith prefix: String, limit: Int) -> [String]? {
    let wanted = prefix.unicodeScalars.map(\.value)
    var found: [String] = []
    var index = start(of: wanted)
    while index < count, word(index).starts(with: wanted) {
      guard found.count < limit else { return nil }
      found.append(text(index))
      index += 1
    }
    return found
  }

  /// The words within the allowed distance of `word` (see `Fuzzy`), nearest first, ties in
  /// alphabetical order. Words with digits are never offered: typos are forgiven in words, not
  /// in numbers.
  ///
  /// Walks the sorted words as a trie: a word shares the rows of the edit-distance table of the
  /// prefix it has in common with the word before it, and when every entry of a row is over the
  /// limit, no word with that prefix can come within it, so all of them are stepped over at once.
  public func corrections(of word: String, limit: Int = 5) -> [(word: String, distance: Int)] {
    let query = word.unicodeScalars.map(\.value)
    let width = query.count + 1
    let allowed = Fuzzy.allowedDistance(forLength: query.count)
    guard allowed > 0, count > 0 else { return [] }
    // Row i: the distances from the query's prefixes to the candidate's first i letters.
    var rows = [Int](repeating: 0, count: (longest + 1) * width)
    var minima = [Int](repeating: 0, count: longest + 1)
    for column in 0..<width { rows[column] = column }
    var valid = 0  // rows 1...valid hold the prefix of `previous`
    var previous: ArraySlice<UInt32> = []
    var found: [(index: Int, distance: Int)] = []
    var index = 0
    while index < count {
      let candidate = self.word(index)
      let letters = Array(candidate)
      var shared = 0
      let reusable = min(valid, letters.count, previous.count)
      while shared < reusable, letters[shared] == previous[previous.startIndex + shared] { shared += 1 }
      var pruned: Int?
      var row = shared + 1
      while row <= letters.count {
        let letter = letters[row - 1]
        let here = row * width
        let above = here - width
        rows[here] = row
        var minimum = row
        for column in 1..<width {
          let cost = query[column - 1] == letter ? 0 : 1
          var value = min(rows[above + column] + 1, rows[here + column - 1] + 1, rows[above + column - 1] + cost)
          if row > 1, column > 1, query[column - 1] == letters[row - 2], query[column - 2] == letter {
            value = min(value, rows[above - width + column - 2] + 1)
          }
          rows[here + column] = value
          minimum = min(minimum, value)
        }
        minima[row] = minimum
        // Over the limit here, and at the limit or over one row up (a swap reaches back two
        // rows): every longer word with this prefix is over it too.
        if minimum > allowed && minima[row - 1] >= allowed {
          pruned = row
          break
        }
        row += 1
      }
      previous = candidate
      if let pruned {
        valid = pruned
        index = end(of: candidate.prefix(pruned), from: index + 1)
        continue
      }
      valid = letters.count
      let distance = rows[letters.count * width + query.count]
      if distance <= allowed, distance > 0, !letters.contains(where: { (0x30...0x39).contains($0) }) {
        found.append((index, distance))
      }
      index += 1
    }
    return Array(
      found.map { (word: text($0.index), distance: $0.distance) }.sorted {
        ($0.distance, $0.word) < ($1.distance, $1.word)
      }
      .prefix(limit))
  }
}
