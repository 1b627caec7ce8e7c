/// The distinct words of a catalogue, sorted, for the words a prefix or a misspelt word stands
/// for. Held as one array of UTF-16 code units: a million-book catalogue has a few hundred
/// thousand words, and this stays a few megabytes. (As Unicode scalars, four bytes a letter, the
/// words of a million books and 200,000 readers took 7.8 MB and their starts 1.8 MB as `Int`,
/// where the letters of Cyrillic and Latin words, and of nearly every word a library writes, fit
/// in two; a letter beyond the Basic Multilingual Plane is two units, and a typo in it two edits.)
public struct Vocabulary: Sendable {
  private let units: [UInt16]
  /// Word `i` is `units[starts[i]..<starts[i + 1]]`.
  private let starts: [UInt32]
  private let longest: Int
  /// `shared[i]`: how many first letters word `i` has in common with word `i - 1` (at most 255).
  /// The typo walk reads where a word's own letters start, and where the words that continue a
  /// prefix end, from these bytes instead of comparing letters.
  private let shared: [UInt8]
  /// `skip[i]`: the first word after word `i` that shares fewer first letters with the word
  /// before it than word `i` does (`count` when none). Every word between shares at least as
  /// many: the walk steps over the words that continue a pruned prefix by a few of these jumps.
  private let skip: [UInt32]

  public init<Words: Sequence>(_ words: Words) where Words.Element == String {
    var builder = Builder()
    for word in words { builder.append(word) }
    self = builder.vocabulary()
  }

  private init(units: [UInt16], starts: [UInt32], longest: Int) {
    self.units = units
    self.starts = starts
    self.longest = longest
    var shared = [UInt8](repeating: 0, count: max(0, starts.count - 1))
    for index in shared.indices.dropFirst() {
      let (before, word) = (Int(starts[index - 1])..<Int(starts[index]), Int(starts[index])..<Int(starts[index + 1]))
      var common = 0
      while common < min(before.count, word.count, 255),
        units[before.lowerBound + common] == units[word.lowerBound + common]
      {
        common += 1
      }
      shared[index] = UInt8(common)
    }
    self.shared = shared
    // The next smaller value of each entry, from the end, with the entries still waiting for one.
    var skip = [UInt32](repeating: UInt32(shared.count), count: shared.count)
    var waiting: [Int] = []
    for index in shared.indices.reversed() {
      while let last = waiting.last, shared[last] >= shared[index] { waiting.removeLast() }
      if let last = waiting.last { skip[index] = UInt32(last) }
      waiting.append(index)
    }
    self.skip = skip
  }

  /// Whether `a` sorts before `b` in a vocabulary: by UTF-16 unit, which is code point order but
  /// for letters beyond the Basic Multilingual Plane, sorted before U+E000–U+FFFF.
  public static func precedes(_ a: String, _ b: String) -> Bool {
    a.utf16.lexicographicallyPrecedes(b.utf16)
  }

  /// Gathers words one at a time, so that a large vocabulary is never held twice: the full-text
  /// index hands its words over already sorted (by code point: a vocabulary with letters both
  /// beyond the Basic Multilingual Plane and in U+E000–U+FFFF at one place is sorted again), and
  /// they go straight into place.
  public struct Builder {
    private var units: [UInt16] = []
    private var starts: [UInt32] = [0]
    private var longest = 0
    private var sorted = true

    public init() {}

    /// Makes room for `words` words of `units` UTF-16 code units in all: read so, a million
    /// books' vocabulary takes its own size in memory, where arrays grown by doubling took up to
    /// three times as much at the moment each was copied (31 MiB peak for the desk, 15 of them
    /// the vocabulary's).
    public mutating func reserveCapacity(words: Int, units count: Int) {
      units.reserveCapacity(count)
      starts.reserveCapacity(words + 1)
    }

    public mutating func append(_ word: String) {
      append(units: word.utf16)
    }

    private mutating func append<Units: Sequence<UInt16>>(units word: Units) {
      let start = units.count
      units.append(contentsOf: word)
      let previous = starts.count >= 2 ? units[Int(starts[starts.count - 2])..<start] : []
      let added = units[start...]
      if starts.count >= 2, sorted {
        if added.elementsEqual(previous) {
          // The same word again: kept once.
          units.removeSubrange(start...)
          return
        }
        sorted = previous.lexicographicallyPrecedes(added)
      }
      starts.append(UInt32(units.count))
      longest = max(longest, units.count - start)
    }

    public func vocabulary() -> Vocabulary {
      guard !sorted else { return Vocabulary(units: units, starts: starts, longest: longest) }
      // Words given out of order: gathered again in order, which drops the duplicates.
      let words = (0..<(starts.count - 1)).map { units[Int(starts[$0])..<Int(starts[$0 + 1])] }
      var again = Builder()
      for word in words.sorted(by: { $0.lexicographicallyPrecedes($1) }) { again.append(units: word) }
      return again.vocabulary()
    }
  }

  public var count: Int { starts.count - 1 }

  private func word(_ index: Int) -> ArraySlice<UInt16> {
    units[Int(starts[index])..<Int(starts[index + 1])]
  }

  private func text(_ index: Int) -> String {
    String(decoding: word(index), as: UTF16.self)
  }

  /// The first word not sorted before `prefix`.
  private func start(of prefix: [UInt16]) -> Int {
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
    let wanted = Array(word.utf16)
    let index = start(of: wanted)
    return index < count && Array(self.word(index)) == wanted
  }

  /// The words that start with `prefix`, in order; nil when there are more than `limit`.
  public func words(startingWith prefix: String, limit: Int) -> [String]? {
    let wanted = Array(prefix.utf16)
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
    let query = Array(word.utf16)
    let allowed = Fuzzy.allowedDistance(forLength: query.count)
    guard allowed > 0, count > 0 else { return [] }
    // Two edits are allowed only among the words that start with the query's letter, a block of
    // the sorted words; the others are walked allowing one, which prunes within a few letters.
    // Two edits everywhere had the walk visit nearly every start of two or three letters: at ten
    // million books (202,608 words) 0.47–0.56 ms on two processors, now 0.10–0.17 on one.
    let another = Fuzzy.allowedDistanceFromAnotherFirstLetter
    var found: [(index: Int, distance: Int)]
    if allowed > another, let first = query.first {
      let sameFirst = start(of: [first])..<start(of: [first + 1])
      found = walk(0..<sameFirst.lowerBound, query: query, allowed: another)
      found += walk(sameFirst, query: query, allowed: allowed)
      found += walk(sameFirst.upperBound..<count, query: query, allowed: another)
    } else {
      found = walk(0..<count, query: query, allowed: allowed)
    }
    return Array(
      found.map { (word: text($0.index), distance: $0.distance) }.sorted {
        ($0.distance, $0.word) < ($1.distance, $1.word)
      }
      .prefix(limit))
  }

  /// The walk over the words `words`, over raw buffers: it visits tens of thousands of words a
  /// keystroke, and slices of the arrays (retained, released, bounds-checked) took half its time.
  private func walk(_ words: Range<Int>, query: [UInt16], allowed: Int) -> [(index: Int, distance: Int)] {
    units.withUnsafeBufferPointer { units in
      starts.withUnsafeBufferPointer { starts in
        shared.withUnsafeBufferPointer { shared in
          skip.withUnsafeBufferPointer { skip in
            query.withUnsafeBufferPointer { query in
              Vocabulary.walk(
                units: units, starts: starts, shared: shared, skip: skip, longest: longest, query: query,
                allowed: allowed, words: words)
            }
          }
        }
      }
    }
  }

  private static func walk(
    units: UnsafeBufferPointer<UInt16>, starts: UnsafeBufferPointer<UInt32>, shared: UnsafeBufferPointer<UInt8>,
    skip: UnsafeBufferPointer<UInt32>, longest: Int, query: UnsafeBufferPointer<UInt16>, allowed: Int,
    words: Range<Int>
  ) -> [(index: Int, distance: Int)] {
    let count = words.upperBound
    let width = query.count + 1
    // Row i: the distances from the query's prefixes to the candidate's first i letters.
    var rows = [Int](repeating: 0, count: (longest + 1) * width)
    var minima = [Int](repeating: 0, count: longest + 1)
    var found: [(index: Int, distance: Int)] = []
    rows.withUnsafeMutableBufferPointer { rows in
      minima.withUnsafeMutableBufferPointer { minima in
        for column in 0..<width { rows[column] = column }
        var valid = 0  // rows 1...valid hold the prefix of the word visited before
        var index = words.lowerBound
        while index < count {
          let letters = Int(starts[index])..<Int(starts[index + 1])
          // The word visited before is the one before this, or the first of a run of words
          // stepped over because they continue its pruned prefix; either way it has
          // `shared[index]` first letters in common with this one (see `skip`).
          var row = min(valid, letters.count, Int(shared[index])) + 1
          var pruned: Int?
          while row <= letters.count {
            let letter = units[letters.lowerBound + row - 1]
            let before = row > 1 ? units[letters.lowerBound + row - 2] : 0
            let here = row * width
            let above = here - width
            rows[here] = row
            var minimum = row
            // Only the band of columns within `allowed` of the diagonal can stay within it; the
            // cells either side of the band hold "over" for the next row to read.
            let first = max(1, row - allowed)
            let last = min(width - 1, row + allowed)
            if first - 1 >= 1 { rows[here + first - 1] = allowed + 1 }
            if row + allowed + 1 < width { rows[here + row + allowed + 1] = allowed + 1 }
            var column = first
            while column <= last {
              let cost = query[column - 1] == letter ? 0 : 1
              var value = min(rows[above + column] + 1, rows[here + column - 1] + 1, rows[above + column - 1] + cost)
              if row > 1, column > 1, query[column - 1] == before, query[column - 2] == letter {
                value = min(value, rows[above - width + column - 2] + 1)
              }
              rows[here + column] = value
              minimum = min(minimum, value)
              column += 1
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
          if let pruned {
            valid = pruned
            // The words that continue the pruned prefix stand together after this one, each
            // sharing at least `pruned` letters with the word before it.
            index += 1
            while index < count, Int(shared[index]) >= pruned { index = Int(skip[index]) }
            continue
          }
          valid = letters.count
          // Outside the band the table's last cell was not written: such lengths are too far apart.
          guard abs(letters.count - query.count) <= allowed else {
            index += 1
            continue
          }
          let distance = rows[letters.count * width + query.count]
          if distance <= allowed, distance > 0, !letters.contains(where: { (0x30...0x39).contains(units[$0]) }) {
            found.append((index, distance))
          }
          index += 1
        }
      }
    }
    return found
  }
}
