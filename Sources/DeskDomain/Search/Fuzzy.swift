/// Typo-forgiving matching of words: the edit distance a query word may be from a word of the
/// catalogue (1 for words of 5 to 8 letters, 2 for 9 or more; shorter words must be exact), and
/// the distance itself with an early stop.
public enum Fuzzy {
  public static func allowedDistance(forLength length: Int) -> Int {
    switch length {
    case ..<5: return 0
    case 5...8: return 1
    default: return 2
    }
  }

  /// The Levenshtein distance of two words, or nil when it is over `limit` (computed only as far
  /// as needed). A swap of two neighbouring letters counts as one edit (Damerau), the commonest typo.
  public static func distance(_ a: [Character], _ b: [Character], limit: Int) -> Int? {
    guard abs(a.count - b.count) <= limit else { return nil }
    if a.isEmpty || b.isEmpty { return max(a.count, b.count) <= limit ? max(a.count, b.count) : nil }
    var previousPrevious = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      var rowMinimum = i
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          value = min(value, previousPrevious[j - 2] + 1)
        }
        current[j] = value
        rowMinimum = min(rowMinimum, value)
      }
      if rowMinimum > limit { return nil }
      (previousPrevious, previous, current) = (previous, current, previousPrevious)
    }
    return previous[b.count] <= limit ? previous[b.count] : nil
  }
}

/// The distinct words of a catalogue, by length, for finding the words a misspelt one meant.
public struct Vocabulary: Sendable {
  private var byLength: [Int: [[Character]]] = [:]
  /// Every word, in order, for finding the words that start with a prefix.
  private let sorted: [String]
  public private(set) var count = 0

  public init<Words: Sequence>(_ words: Words) where Words.Element == String {
    var all: [String] = []
    for word in words {
      byLength[word.count, default: []].append(Array(word))
      all.append(word)
      count += 1
    }
    sorted = all.sorted()
  }

  /// The words that start with `prefix`, in order; nil when there are more than `limit`.
  public func words(startingWith prefix: String, limit: Int) -> [String]? {
    // The words with a prefix stand together in the sorted list, from the first one not below it.
    var low = 0
    var high = sorted.count
    while low < high {
      let middle = (low + high) / 2
      if sorted[middle] < prefix { low = middle + 1 } else { high = middle }
    }
    var found: [String] = []
    for word in sorted[low...] {
      guard word.hasPrefix(prefix) else { break }
      guard found.count < limit else { return nil }
      found.append(word)
    }
    return found
  }

  /// The words within the allowed distance of `word`, nearest first (ties alphabetical).
  public func corrections(of word: String, limit: Int = 5) -> [(word: String, distance: Int)] {
    let characters = Array(word)
    let allowed = Fuzzy.allowedDistance(forLength: characters.count)
    guard allowed > 0 else { return [] }
    var found: [(String, Int)] = []
    for length in (characters.count - allowed)...(characters.count + allowed) {
      for candidate in byLength[length] ?? [] {
        if let distance = Fuzzy.distance(characters, candidate, limit: allowed), distance > 0 {
          found.append((String(candidate), distance))
        }
      }
    }
    return Array(found.sorted { ($0.1, $0.0) < ($1.1, $1.0) }.prefix(limit))
  }
}
