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
  /// What other systems' files write for the category («Сотрудник библиотеки», «учащийся»): an
  /// import takes a reader so written into it, and an export writes back what came.
  public var writtenAs: [String]

  public init(
    code: String, name: String, loanDays: Int, loanLimit: Int, renewalLimit: Int, holdLimit: Int = 5,
    writtenAs: [String] = []
  ) {
    self.code = code
    self.name = name
    self.loanDays = loanDays
    self.loanLimit = loanLimit
    self.renewalLimit = renewalLimit
    self.holdLimit = holdLimit
    self.writtenAs = writtenAs
  }

  /// The category a file's `written` category is: the one whose code, name (in either language)
  /// or any of `writtenAs` it is, letter case and spacing aside.
  public static func written(_ written: String, in categories: [ReaderCategory]) -> ReaderCategory? {
    let wanted = TextFolding.words(written).joined(separator: " ")
    guard !wanted.isEmpty else { return nil }
    func same(_ text: String) -> Bool { TextFolding.words(text).joined(separator: " ") == wanted }
    return categories.first { same($0.code) }
      ?? categories.first { category in
        same(category.name) || same(category.name(in: .russian)) || category.writtenAs.contains(where: same)
      }
  }

  /// `writtenAs` as a setting holds it, one name a line.
  public var writtenAsText: String { writtenAs.joined(separator: "\n") }

  /// The names of a `writtenAsText`, or of a list given as «сотрудник; сотр.».
  public static func writtenNames(_ text: String) -> [String] {
    text.split(whereSeparator: { $0 == "\n" || $0 == ";" }).map { String($0).trimmingWhitespace() }.filter {
      !$0.isEmpty
    }
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
