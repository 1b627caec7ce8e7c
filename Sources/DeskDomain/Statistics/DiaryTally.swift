/// A count of the work diary: how many of a figure a day, at one desk, of one reader group and
/// (for a figure of a book) one branch of knowledge.
public struct DiaryTally: Equatable, Sendable {
  public var figure: DiaryFigure
  public var day: LocalDate
  /// The desk's name; empty for a reader's registration, which names none.
  public var desk: String
  /// The reader's group for the diary (`DiaryTally.readerGroup(birthYear:category:year:)`), or its
  /// name to show.
  public var readerGroup: String
  /// The book's branch of knowledge (a `KnowledgeBranch`'s raw value), `withoutIndex` for a book
  /// without a BBK index, empty for a figure of no book.
  public var branch: String
  /// How many; for overdue, the change at that day's end (a loan falling overdue, or coming back).
  public var count: Int

  public init(
    figure: DiaryFigure, day: LocalDate, desk: String = "", readerGroup: String = "", branch: String = "",
    count: Int = 1
  ) {
    (self.figure, self.day, self.desk, self.readerGroup, self.branch, self.count) =
      (figure, day, desk, readerGroup, branch, count)
  }

  /// The branch of a book without a BBK index: counted under «other», and told apart.
  public static let withoutIndex = "-"

  /// A reader's group in the diary in `year`: their age group where a birth year is kept, else
  /// their category's code.
  public static func readerGroup(birthYear: Int?, category: String, year: Int) -> String {
    guard let birthYear, birthYear > 0 else { return category }
    return AgeGroup(birthYear: birthYear, eventYear: year).rawValue
  }
}

extension BranchMapping {
  /// The branch a book's index counts under, as a diary tally keeps it.
  public func tallyBranch(ofIndex index: String) -> String {
    branch(ofIndex: index)?.rawValue ?? DiaryTally.withoutIndex
  }
}
