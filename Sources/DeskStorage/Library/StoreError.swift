import DeskDomain

/// Why the library could not do what was asked. Every case reads as a sentence a librarian can
/// act on; `DatabaseError` underneath keeps the technical detail.
public enum StoreError: Error {
  case notADatabase(path: String)
  case newerSchema(path: String, found: Int, supported: Int)
  case readOnly(path: String)
  /// A file of an older schema that this user cannot write, so cannot bring up to date.
  case cannotUpgradeReadOnly(path: String, found: Int, latest: Int)
  /// A SQLite file another program wrote: its tables are not a library's.
  case notALibrary(path: String, tables: [String], version: Int)
  case busy(path: String)
  case cannotOpen(path: String, reason: String)
  case invalid(ValidationErrors)
  case refused([CirculationRefusal])
  case bookNotFound(String)
  case readerNotFound(String)
  case bookOnLoan(book: String, inventory: String, reader: String)
  case readerHasBooks(reader: String, count: Int)
  case categoryInUse(code: String, readers: Int)
  case categoryNotFound(String)
  case invalidSetting([SettingProblem])
  /// The loan is no longer as the desk saw it (another desk changed it meanwhile).
  case loanChanged
  /// A change pulled from the central that this desk cannot apply (and so applies none of its batch).
  case badChange(String)
  /// A step of sharing the library with a central that cannot be taken now (the message says why
  /// and what to do).
  case syncRefused(String)
  case conflictNotFound(Int)
  /// Conflict `number` cannot be settled the way asked.
  case settlementRefused(number: Int, kind: ConflictKind, SettlementRefusal)
  /// A value in the file that does not parse (a date that is not one).
  case unreadableValue(UnreadableValue)
  case database(DatabaseError)

}

/// Why a rule of the circulation policy cannot be saved.
public enum SettingProblem: Equatable, Sendable {
  case closedEveryDay
  case scannerLimits
  case syncInterval
  case holdPickupDays
  case categoryWithoutCode
  case loanDays
  case negativeLoanLimit
  case negativeRenewalLimit
  case negativeHoldLimit
  /// The category new readers get cannot be removed.
  case removingDefaultCategory(String)

}

/// A value read from the library file that does not parse: the file was written by something
/// other than the desk, or damaged. Told, never read as 1970 or as nothing.
public struct UnreadableValue: Equatable, Sendable {
  public enum Kind: Sendable { case time, date }
  public var column: String
  public var value: String
  public var kind: Kind

}

/// Why a conflict could not be settled the way asked.
public enum SettlementRefusal: Equatable, Sendable {
  case noLoanToTicket(String)
  case numberTaken(String)
  case recordGone
  case otherRecordDeleted
  /// Both records of a clash of inventory numbers are out: two copies, not one book twice.
  case bothOut(loans: Int)
  case cannotRestore(entity: String)
  case cannotDelete(entity: String)
  case readerHoldsBooks(Int)
  /// A copy named to settle copies put aside twice that is not one of them.
  case notOneOfTheCopies(String, copies: [String])
  case doesNotSettle

  /// Whether the message goes on with how such a conflict is settled.
  public var namesRemedy: Bool {
    switch self {
    case .noLoanToTicket, .recordGone, .cannotRestore, .cannotDelete, .doesNotSettle, .notOneOfTheCopies: return true
    case .numberTaken, .otherRecordDeleted, .bothOut, .readerHoldsBooks: return false
    }
  }
}
