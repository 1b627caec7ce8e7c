/// Why the desk will not issue, renew or return a book; each says what to do next.
public enum CirculationRefusal: Error, Hashable, Sendable {
  case unknownBook(String)
  case unknownReader(String)
  case alreadyOnLoan(book: String, inventory: String, reader: String, ticket: String, due: LocalDate)
  case alreadyOnLoanToSameReader(book: String, inventory: String, due: LocalDate)
  case limitReached(reader: String, limit: Int, category: ReaderCategory)
  case hasOverdue(reader: String, count: Int)
  case notOnLoan(book: String, inventory: String)
  case renewalLimitReached(book: String, inventory: String, limit: Int)
  case dueDateInPast(LocalDate)
  case nothingToRenew(reader: String)
  /// An ISBN no book of the library has.
  case isbnNotInLibrary(String)
  /// Every copy with the ISBN is out (to issue) or on the shelf (to return).
  case noCopyAvailable(isbn: String, copies: Int)
  case noCopyOut(isbn: String)
  /// The ISBN names several copies and nobody is there to choose (the command line); each copy
  /// as its inventory number, with its reader and due date when it is out.
  case severalCopies(isbn: String, copies: [String])
  /// A code that is not a book's, where only books are taken.
  case notABook(String)
  /// The copy is lost, written off, in repair, in processing or for reference only.
  case notForLoan(book: String, inventory: String, status: CopyStatus)
  /// The copy waits on the hold shelf for another reader.
  case heldForAnother(book: String, inventory: String, reader: String, ticket: String)
  /// Another reader waits for the title and no other copy is free.
  case renewalHeld(book: String, inventory: String, reader: String, ticket: String)
  case holdLimitReached(reader: String, limit: Int, category: ReaderCategory)
  case alreadyHolds(reader: String, book: String)
  case alreadyHasTitle(reader: String, book: String, inventory: String)
  /// A copy is on the shelf: it is issued, not waited for.
  case copyOnShelf(book: String, inventory: String)
  case holdDateInPast(LocalDate)
  case suspensionInPast(LocalDate)
  case unknownHold(Int)
  case holdEnded(number: Int, state: HoldState)
  /// A copy waits for the hold on the hold shelf: it is collected or cancelled, not suspended.
  case holdWaitingNotSuspended(number: Int, inventory: String)
  case holdNotSuspended(Int)
  /// A suspension that would outlast the date after which the hold is not wanted.
  case suspensionPastWanted(until: LocalDate, notWantedAfter: LocalDate)

}

/// The checks of an issue or a renewal that depend on the reader's situation alone.
public enum CirculationRules {
  /// Problems with issuing `count` more books to a reader who holds `openLoans`, of which
  /// `overdueLoans` are overdue.
  public static func issueRefusals(
    readerName: String, category: ReaderCategory, openLoans: Int, overdueLoans: Int,
    adding count: Int, policy: CirculationPolicy
  ) -> [CirculationRefusal] {
    var refusals: [CirculationRefusal] = []
    if policy.blockOnOverdue && overdueLoans > 0 {
      refusals.append(.hasOverdue(reader: readerName, count: overdueLoans))
    }
    if openLoans + count > category.loanLimit {
      refusals.append(.limitReached(reader: readerName, limit: category.loanLimit, category: category))
    }
    return refusals
  }

  public static func renewalRefusals(
    loan: Loan, bookName: String, inventory: String, readerName: String, category: ReaderCategory,
    overdueLoans: Int, policy: CirculationPolicy
  ) -> [CirculationRefusal] {
    var refusals: [CirculationRefusal] = []
    if policy.blockOnOverdue && overdueLoans > 0 {
      refusals.append(.hasOverdue(reader: readerName, count: overdueLoans))
    }
    if loan.renewals >= category.renewalLimit {
      refusals.append(.renewalLimitReached(book: bookName, inventory: inventory, limit: category.renewalLimit))
    }
    return refusals
  }
}
