import DeskDomain

/// What an import did, or with `--dry-run` would do.
public struct ImportReport: Sendable {
  public var records = 0
  public var booksAdded = 0
  public var booksUpdated = 0
  public var readersAdded = 0
  public var readersUpdated = 0
  public var loansAdded = 0
  /// One line for each record, copy or loan not taken, with where it stands in the file.
  public var problems: [String] = []
  public var notes: [String] = []

  public init() {}
}
