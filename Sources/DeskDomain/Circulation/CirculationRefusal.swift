/// Why the desk will not issue, renew or return a book; each says what to do next.
public enum CirculationRefusal: Error, Hashable, Sendable, CustomStringConvertible {
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

  public var description: String {
    switch self {
    case .unknownBook(let code):
      return "No book has inventory number \(code): check the label, or add the book first"
    case .unknownReader(let code):
      return "No reader has ticket \(code): check the card, or register the reader first"
    case .alreadyOnLoan(let book, let inventory, let reader, let ticket, let due):
      return "«\(book)» (\(inventory)) is already issued to \(reader) (ticket \(ticket)), "
        + "due \(due.iso): return it first"
    case .alreadyOnLoanToSameReader(let book, let inventory, let due):
      return "«\(book)» (\(inventory)) is already issued to this reader, due \(due.iso): renew it instead"
    case .limitReached(let reader, let limit, let category):
      return "\(reader) already holds \(englishPlural(limit, "book")), the limit for category «\(category.name)»: "
        + "take one back before issuing another"
    case .hasOverdue(let reader, let count):
      return "\(reader) has \(count) overdue \(count == 1 ? "book" : "books"): "
        + "take \(count == 1 ? "it" : "them") back before issuing or renewing"
    case .notOnLoan(let book, let inventory):
      return "«\(book)» (\(inventory)) is not on loan"
    case .renewalLimitReached(let book, let inventory, let limit):
      return "«\(book)» (\(inventory)) has been renewed \(limit) \(limit == 1 ? "time" : "times"), "
        + "the limit: return it and issue it again if it may stay"
    case .dueDateInPast(let date):
      return "Due date \(date.iso) is in the past"
    case .nothingToRenew(let reader):
      return "\(reader) holds no books: nothing to renew"
    case .isbnNotInLibrary(let isbn):
      return "No book with ISBN \(isbn) is in the library: add it first, or scan the inventory number"
    case .noCopyAvailable(let isbn, let copies):
      return "All \(copies) \(copies == 1 ? "copy" : "copies") with ISBN \(isbn) are out: "
        + "scan the inventory number of the copy in hand"
    case .noCopyOut(let isbn):
      return "No copy with ISBN \(isbn) is out: nothing to return"
    case .severalCopies(let isbn, let copies):
      return "ISBN \(isbn) is on several copies; scan the inventory number of the one in hand: "
        + copies.joined(separator: "; ")
    case .notABook(let code):
      return "«\(code)» is not a book of the library: scan the book's label"
    case .notForLoan(let book, let inventory, let status):
      if status == .referenceOnly { return "«\(book)» (\(inventory)) is for reference only: it is read here, not lent" }
      return "«\(book)» (\(inventory)) is \(status.label) and cannot be issued: if it is back on the shelf, "
        + "make it available first (s on the book's screen, or book edit --status available)"
    case .heldForAnother(let book, let inventory, let reader, let ticket):
      return
        "«\(book)» (\(inventory)) waits on the hold shelf for \(reader) (ticket \(ticket)): it is issued to them only"
    case .renewalHeld(let book, let inventory, let reader, let ticket):
      return "«\(book)» (\(inventory)) cannot be renewed: \(reader) (ticket \(ticket)) is waiting for it and no "
        + "other copy is free; take it back"
    case .holdLimitReached(let reader, let limit, let category):
      return "\(reader) already has \(englishPlural(limit, "hold")), the limit for category «\(category.name)»: "
        + "cancel one first, or issue a book that is on the shelf"
    case .alreadyHolds(let reader, let book):
      return "\(reader) already has a hold on \(book)"
    case .alreadyHasTitle(let reader, let book, let inventory):
      return "\(reader) already has «\(book)» (\(inventory)) on loan"
    case .copyOnShelf(let book, let inventory):
      return "«\(book)» (\(inventory)) is on the shelf: issue it instead of placing a hold"
    case .holdDateInPast(let date):
      return "The date \(date.iso) after which the hold is not wanted is in the past"
    case .suspensionInPast(let date):
      return "The last day \(date.iso) of the suspension is in the past: suspend until today or later"
    case .unknownHold(let number):
      return "No hold number \(number): see circdesk hold list"
    case .holdEnded(let number, let state):
      return "Hold \(number) is \(state.rawValue) already: nothing to change"
    case .holdWaitingNotSuspended(let number, let inventory):
      return "Hold \(number) cannot be suspended: its copy \(inventory) already waits on the hold shelf "
        + "(let the reader collect it, or cancel the hold)"
    case .holdNotSuspended(let number):
      return "Hold \(number) is not suspended: nothing to resume"
    case .suspensionPastWanted(let until, let wanted):
      return "The hold is not wanted after \(wanted.iso): a suspension until \(until.iso) would outlast it"
    }
  }
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
