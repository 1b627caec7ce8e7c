import DeskDomain
import DeskStorage

/// What an import did, or with `--dry-run` would do.
public struct ImportReport: Sendable {
  public var records = 0
  public var booksAdded = 0
  public var booksUpdated = 0
  public var readersAdded = 0
  public var readersUpdated = 0
  public var loansAdded = 0
  /// Each record, copy or loan not taken, with where it stands in the file.
  public var problems: [ImportProblem] = []
  /// What was taken otherwise than the file has it, and what the file says that the desk keeps aside.
  public var notes: [ImportNote] = []

  public init() {}

  /// Everything taken: books and readers added or updated, and loans.
  public var taken: Int { booksAdded + booksUpdated + readersAdded + readersUpdated + loansAdded }
}

/// Where a record stands in the file it came from.
public enum ImportPlace: Equatable, Sendable {
  /// An IRBIS text record and the line it starts on.
  case line(record: Int, line: Int)
  /// An ISO 2709 record and the byte it starts at.
  case byte(record: Int, byte: Int)

  public var record: Int {
    switch self {
    case .line(let record, _), .byte(let record, _): record
    }
  }
}

/// Something an import did not take.
public enum ImportProblem: Sendable {
  /// An IRBIS text record whose lines are not a record.
  case unreadableRecord(IRBISReader.Problem)
  /// A line with no line break for so long that the file is not text: nothing after it is read.
  case unendingLine(line: Int, LineFlaw)
  /// An ISO 2709 record that is not one.
  case unreadableMARC(record: Int, byte: Int, ISO2709Flaw)
  case refused(ImportPlace, ImportRefusal)
  /// A copy with no inventory number (`written` is what stands in its place, «б/н»).
  case copyWithoutNumber(ImportPlace, written: String)
  /// A copy whose number an earlier record of the same file has.
  case numberTwice(ImportPlace, copy: String, earlierRecord: Int)
  case bookThere(ImportPlace, inventory: String)
  case readerThere(ImportPlace, ticket: String)
  /// A copy or a reader the library refused, with why (`copy` empty: the new copy of a record
  /// that `--assign-inventory` was to number).
  case copyRefused(ImportPlace, copy: String, StoreError)
  case readerRefused(ImportPlace, ticket: String, StoreError)
  case loanRefused(ImportPlace, inventory: String, ticket: String, StoreError)
  /// A loan kept with its reader until its book came, that the library refused then.
  case pendingLoanRefused(inventory: String, ticket: String, StoreError)
}

/// Something an import took otherwise than the file has it, or kept aside.
public enum ImportNote: Equatable, Sendable {
  /// `--assign-inventory` gave a record's new copy a number.
  case numberAssigned(ImportPlace, number: String)
  /// 910 ^A U: a count of copies kept with the record, not a copy that circulates.
  case summaryEntry(ImportPlace, number: String, copies: String)
  /// `copy` is empty in these for a copy `--assign-inventory` numbers.
  case unknownCopyStatus(ImportPlace, copy: String, code: String)
  /// With `--update`, a later copy of a number replaces the earlier one of the same file.
  case numberReplaced(ImportPlace, copy: String, earlierRecord: Int)
  case isbnDropped(ImportPlace, copy: String, isbn: String)
  case priceDropped(ImportPlace, copy: String, price: String)
  case unknownCategory(ImportPlace, category: String, given: String)
  /// A reader's address the desk could not keep (no home phone, or a phone another address has):
  /// the reader came without it, and their record keeps it.
  case addressNotTaken(ImportPlace, ticket: String, ValidationError)
  /// Copies the catalogue marks out (910 ^A 1) with no reader's loan in the file.
  case copiesMarkedOut(Int)
  /// Loans of books the library has not got, kept with their readers until the books come.
  case loansWaitingForBooks(Int)
}
