/// A category of readers and the loan rules that come with it (Koha's "circulation rules" by
/// patron category).
public struct ReaderCategory: Hashable, Sendable {
  public var code: String
  public var name: String
  /// Days (or open days, by the due-date mode) a book is lent for.
  public var loanDays: Int
  /// How many books a reader of the category may hold at once.
  public var loanLimit: Int
  /// How many times one loan may be renewed.
  public var renewalLimit: Int
  /// How many holds a reader of the category may have at once (Koha's `reservesallowed`).
  public var holdLimit: Int

  public init(code: String, name: String, loanDays: Int, loanLimit: Int, renewalLimit: Int, holdLimit: Int = 5) {
    self.code = code
    self.name = name
    self.loanDays = loanDays
    self.loanLimit = loanLimit
    self.renewalLimit = renewalLimit
    self.holdLimit = holdLimit
  }

  /// The names of the categories a new library starts with, as a Russian library calls them.
  public static let russianNames = [
    "adult": "взрослый", "child": "детский", "student": "студент", "staff": "сотрудник",
  ]

  /// The categories a new library starts with, named in `language`.
  public static func defaults(in language: InterfaceLanguage) -> [ReaderCategory] {
    guard language == .russian else { return defaults }
    return defaults.map { category in
      var named = category
      named.name = russianNames[category.code] ?? category.name
      return named
    }
  }

  /// The name a desk speaking `language` shows: the library's own, unless it is still the English
  /// name a new library starts with, which a Russian desk says in Russian.
  public func name(in language: InterfaceLanguage) -> String {
    guard language == .russian, let russian = ReaderCategory.russianNames[code],
      ReaderCategory.defaults.contains(where: { $0.code == code && $0.name == name })
    else { return name }
    return russian
  }

  /// The categories a new library starts with.
  public static let defaults: [ReaderCategory] = [
    ReaderCategory(code: "adult", name: "Adult", loanDays: 14, loanLimit: 10, renewalLimit: 2),
    ReaderCategory(code: "child", name: "Child", loanDays: 14, loanLimit: 5, renewalLimit: 1, holdLimit: 3),
    ReaderCategory(code: "student", name: "Student", loanDays: 30, loanLimit: 15, renewalLimit: 2),
    ReaderCategory(code: "staff", name: "Staff", loanDays: 60, loanLimit: 30, renewalLimit: 5, holdLimit: 10),
  ]
}
