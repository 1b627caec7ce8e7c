/// One issue of a book to a reader. Open while `returned` is nil; returned loans stay as the
/// reader's and the book's history.
public struct Loan: Hashable, Sendable {
  public var id: RecordID
  public var bookID: RecordID
  public var readerID: RecordID
  public var issued: Timestamp
  public var due: LocalDate
  public var returned: Timestamp?
  public var renewals: Int
  public var lastRenewed: Timestamp?
  public var desk: String
  /// When the issue was taken back at the counter (undone): the loan never was, but its line stays
  /// in the history, saying so.
  public var undone: Timestamp?

  public init(
    id: RecordID = .random(), bookID: RecordID, readerID: RecordID, issued: Timestamp, due: LocalDate,
    returned: Timestamp? = nil, renewals: Int = 0, lastRenewed: Timestamp? = nil, desk: String,
    undone: Timestamp? = nil
  ) {
    self.id = id
    self.bookID = bookID
    self.readerID = readerID
    self.issued = issued
    self.due = due
    self.returned = returned
    self.renewals = renewals
    self.lastRenewed = lastRenewed
    self.desk = desk
    self.undone = undone
  }

  /// Out to the reader now: neither returned nor undone.
  public var isOpen: Bool { returned == nil && undone == nil }

  public func isOverdue(on today: LocalDate) -> Bool {
    isOpen && due < today
  }

  /// Days past due on `today`; zero when not overdue.
  public func daysOverdue(on today: LocalDate) -> Int {
    isOverdue(on: today) ? due.days(until: today) : 0
  }
}
