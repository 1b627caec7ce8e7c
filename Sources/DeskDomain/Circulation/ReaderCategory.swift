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

  /// The categories a new library starts with.
  public static let defaults: [ReaderCategory] = [
    ReaderCategory(code: "adult", name: "Adult", loanDays: 14, loanLimit: 10, renewalLimit: 2),
    ReaderCategory(code: "child", name: "Child", loanDays: 14, loanLimit: 5, renewalLimit: 1, holdLimit: 3),
    ReaderCategory(code: "student", name: "Student", loanDays: 30, loanLimit: 15, renewalLimit: 2),
    ReaderCategory(code: "staff", name: "Staff", loanDays: 60, loanLimit: 30, renewalLimit: 5, holdLimit: 10),
  ]
}
