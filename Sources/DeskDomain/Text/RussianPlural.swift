/// The Russian plural of a counted word: 1 книга, 2 книги, 5 книг, 21 книга, 11 книг.
public func russianPlural(_ count: Int, _ one: String, _ few: String, _ many: String) -> String {
  let tens = count % 100
  let units = count % 10
  let word = (11...14).contains(tens) ? many : units == 1 ? one : (2...4).contains(units) ? few : many
  return "\(count) \(word)"
}

/// The English count of a word: 1 change, 2 changes.
public func englishPlural(_ count: Int, _ one: String, _ many: String? = nil) -> String {
  "\(count) \(count == 1 ? one : many ?? one + "s")"
}
