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

  public init(
    id: RecordID = .random(), bookID: RecordID, readerID: RecordID, issued: Timestamp, due: LocalDate,
    returned: Timestamp? = nil, renewals: Int = 0, lastRenewed: Timestamp? = nil, desk: String
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
  }

  public var isOpen: Bool { returned == nil }

  public func isOverdue(on today: LocalDate) -> Bool {
    isOpen && due < today
  }

  /// Days past due on `today`; zero when not overdue.
  public func daysOverdue(on today: LocalDate) -> Int {
    isOverdue(on: today) ? due.days(until: today) : 0
  }
}
