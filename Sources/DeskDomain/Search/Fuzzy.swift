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

  /// The distance a query word may be from a catalogue word that starts with another letter: one
  /// edit at most, whatever the query's length («кермонтов», «елрмонтов» for «лермонтов», not
  /// «кермантов»). Lucene's spell checker does the same (`DirectSpellChecker`: two edits only
  /// with the first letter kept, LUCENE-4500): misspellings seldom touch the first letter, and
  /// allowing two edits beside it would have the walk visit nearly every word's first letters.
  public static let allowedDistanceFromAnotherFirstLetter = 1

  /// The distance `query` may be from `word` (both folded).
  public static func allowedDistance<Letters: Collection>(from query: Letters, to word: Letters) -> Int
  where Letters.Element: Equatable {
    let allowed = allowedDistance(forLength: query.count)
    return query.first == word.first ? allowed : min(allowed, allowedDistanceFromAnotherFirstLetter)
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
