import DeskDomain

/// Why the library could not do what was asked. Every case reads as a sentence a librarian can
/// act on; `DatabaseError` underneath keeps the technical detail.
public enum StoreError: Error, CustomStringConvertible {
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

  /// One line per problem, as the command line prints them.
  public var lines: [String] {
    switch self {
    case .invalid(let errors): return errors.errors.map(\.description)
    case .refused(let refusals): return refusals.map(\.description)
    case .invalidSetting(let problems): return problems.map(\.description)
    default: return [description]
    }
  }

  public var description: String {
    switch self {
    case .notADatabase(let path):
      return "\(path) is not a library database (it is another kind of file): "
        + "name another file with --db, or move this one away"
    case .newerSchema(let path, let found, let supported):
      return "\(path) was written by a newer version of circdesk (schema \(found); "
        + "this version knows up to \(supported)): update circdesk to open it"
    case .notALibrary(let path, let tables, let version):
      let named =
        tables.isEmpty
        ? "no tables, but a user_version of \(version) that circdesk did not write"
        : "tables: " + tables.prefix(5).joined(separator: ", ") + (tables.count > 5 ? "…" : "")
      return "\(path) is a SQLite file of another program (\(named)), not a library: it was left as it was; "
        + "name another file with --db"
    case .readOnly(let path):
      return "\(path) cannot be written (read-only file or folder): check its permissions"
    case .cannotUpgradeReadOnly(let path, let found, let latest):
      return "\(path) was written by an older version of circdesk (schema \(found), now \(latest)) and cannot be "
        + "brought up to date here, where it cannot be written: open it once as a user who may write it"
    case .busy(let path):
      return "\(path) is locked by another program for too long: try again, "
        + "or close the program that holds it"
    case .cannotOpen(let path, let reason):
      return "Cannot open \(path): \(reason)"
    case .invalid(let errors):
      return errors.description
    case .refused(let refusals):
      return refusals.map(\.description).joined(separator: "\n")
    case .bookNotFound(let inventory):
      return CirculationRefusal.unknownBook(inventory).description
    case .readerNotFound(let ticket):
      return CirculationRefusal.unknownReader(ticket).description
    case .bookOnLoan(let book, let inventory, let reader):
      return "«\(book)» (\(inventory)) is issued to \(reader): take it back before deleting it"
    case .readerHasBooks(let reader, let count):
      return "\(reader) holds \(count) \(count == 1 ? "book" : "books"): take \(count == 1 ? "it" : "them") "
        + "back before deleting the reader"
    case .categoryInUse(let code, let readers):
      return "Category «\(code)» has \(readers) readers: move them to another category first"
    case .categoryNotFound(let code):
      return "Category «\(code)» does not exist"
    case .invalidSetting(let problems):
      return problems.map(\.description).joined(separator: "\n")
    case .loanChanged:
      return "The loan has changed since (another desk?): look at the book again"
    case .badChange(let reason):
      return "Refused a change from the central: \(reason). Nothing of its batch was applied; "
        + "tell whoever runs the central"
    case .syncRefused(let message):
      return message
    case .settlementRefused(let number, let kind, let refusal):
      return "Conflict \(number) is «\(kind.title)»: \(refusal.reason(number: number))"
        + (refusal.namesRemedy ? "; \(kind.remedy(number: number))" : "")
    case .conflictNotFound(let number):
      return "No open conflict number \(number): see circdesk conflicts list"
    case .unreadableValue(let value):
      return value.description
    case .database(let error):
      if error.isBusy { return "The library database is busy: try again (\(error.message))" }
      return "Database error: \(error)"
    }
  }
}

/// Why a rule of the circulation policy cannot be saved.
public enum SettingProblem: Equatable, Sendable, CustomStringConvertible {
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

  public var description: String {
    switch self {
    case .closedEveryDay: return "The library cannot be closed on every day of the week"
    case .scannerLimits: return "The scanner's key gap must be 1 to 1000 ms and its shortest code 1 to 100 characters"
    case .syncInterval: return "The sync interval must be 1 to 3600 seconds"
    case .holdPickupDays: return "The days a held copy waits for its reader must be 1 to 365"
    case .categoryWithoutCode: return "A category needs a code"
    case .loanDays: return "Loan period must be 1 to 3650 days"
    case .negativeLoanLimit: return "Loan limit cannot be negative"
    case .negativeRenewalLimit: return "Renewal limit cannot be negative"
    case .negativeHoldLimit: return "Hold limit cannot be negative"
    case .removingDefaultCategory(let code):
      return "Category «\(code)» is the default category: choose another default first"
    }
  }
}

/// A value read from the library file that does not parse: the file was written by something
/// other than the desk, or damaged. Told, never read as 1970 or as nothing.
public struct UnreadableValue: Equatable, Sendable, CustomStringConvertible {
  public enum Kind: Sendable { case time, date }
  public var column: String
  public var value: String
  public var kind: Kind

  public var description: String {
    "\(column) holds «\(value)», not \(kind == .time ? "a time like 2026-11-30T10:00:00Z" : "a date like 2026-11-30"): "
      + "the library file was changed outside circdesk, or is damaged"
  }
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

  public func reason(number: Int) -> String {
    switch self {
    case .noLoanToTicket(let ticket): return "no open loan of the book is to ticket \(ticket)"
    case .numberTaken(let taken): return "\(taken) is taken too: give another"
    case .recordGone: return "this desk's record is gone"
    case .otherRecordDeleted: return "the other desk's record is deleted: give this one another number"
    case .bothOut(let loans):
      return "both are out (\(loans) loans), so they are two copies: give this one another number, or take one back "
        + "first"
    case .cannotRestore(let entity): return "a \(entity) cannot be restored"
    case .cannotDelete(let entity): return "a \(entity) cannot be deleted"
    case .readerHoldsBooks(let count):
      return "the reader holds \(englishPlural(count, "book")): take them back (or keep a deleted book deleted) "
        + "first, or restore the reader: conflicts resolve \(number) --restore"
    case .notOneOfTheCopies(let copy, let copies):
      return "\(copy) is not one of the copies put aside (\(copies.joined(separator: ", ")))"
    case .doesNotSettle: return "that does not settle it"
    }
  }
}
