import DeskDomain
import DeskStorage

/// The library's words in English.
public struct EnglishWords: LibraryWords {
  public init() {}

  public func label(_ field: Field) -> String { field.label }
  public func statusName(_ status: CopyStatus) -> String { status.label }

  /// What the librarian does with a copy a hold no longer keeps, as the command line says it.
  public func line(_ move: HoldMove) -> String {
    let why =
      switch move.cause {
      case .notCollected: "not collected by \(move.fromReader)"
      case .endedElsewhere: "the hold of \(move.fromReader) ended at another desk"
      case .settled: "no longer for \(move.fromReader) (a conflict settled)"
      }
    return "\(move.inventory) \(move.label): \(why): "
      + (move.next.map { "keep it on the hold shelf for \($0.readerName) (ticket \($0.readerTicket))" }
        ?? "put it back on the shelf")
  }

  public func lines(_ mark: SyncMark) -> [String] {
    var lines: [String] = []
    if mark.unsynced > 0 {
      lines.append("Not yet at the central: \(englishPlural(mark.unsynced, "change")) made here")
    }
    for conflict in mark.conflicts {
      lines.append(
        "Conflict \(conflict.number) (\(conflictKind(conflict.kind))): \(conflictSummary(conflict)); circdesk conflicts show "
          + "\(conflict.number)")
    }
    return lines
  }

  public func message(_ refusal: CirculationRefusal) -> String {
    switch refusal {
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

  public func message(_ error: ValidationError) -> String {
    switch error {
    case .required(let field):
      return "\(field.label) is required"
    case .invalidISBN(let error):
      return error.description
    case .notANumber(let field, let text):
      return "\(field.label) must be a whole number, not «\(text)»"
    case .outOfRange(let field, let text, let range):
      return "\(field.label) \(text) is out of range (\(range.lowerBound)–\(range.upperBound))"
    case .invalidPrice(let text):
      return "Price «\(text)» is not an amount like 254 or 254.50"
    case .invalidDate(let field, let text):
      return "\(field.label) «\(text)» is not a date like 2026-11-30"
    case .dateOutOfRange(let field, let text):
      return "\(field.label) \(text) is outside the dates the library takes "
        + "(\(LocalDate.accepted.lowerBound) to \(LocalDate.accepted.upperBound))"
    case .invalidEmail(let text):
      return "E-mail «\(text)» is not an address like name@example.org"
    case .tooLong(let field, let maximum):
      return "\(field.label) is longer than \(maximum) characters"
    case .duplicateInventoryNumber(let number, let title):
      return "Inventory number \(number) is already used by «\(title)»"
    case .duplicateTicket(let ticket, let reader):
      return "Reader ticket \(ticket) is already used by \(reader)"
    case .unknownCategory(let code, let known):
      return "Category «\(code)» is not known; the categories are: \(known.joined(separator: ", "))"
    case .addressConflict(let phone, let existing):
      return "Phone \(phone) already has another address (\(existing)); "
        + "leave the address empty to use it, or correct it there first"
    case .phoneNeededForAddress:
      return "An address needs a phone number: addresses are kept by home phone"
    case .unknownStatus(let text):
      return "Status «\(text)» is not known; the statuses are: \(CopyStatus.words)"
    case .invisibleCharacter(let field, let text, let scalar):
      return "\(field.label) «\(text.visibleCharacters)» holds an invisible or control character "
        + "(U+\(ValidationError.hex(scalar))): type or scan it again"
    case .leadingDash(let field, let text):
      return "\(field.label) «\(text)» begins with «-»: numbers and tickets may not"
    }
  }

  public func message(_ problem: SettingProblem) -> String {
    switch problem {
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

  public func message(_ value: UnreadableValue) -> String {
    "\(value.column) holds «\(value.value)», not \(value.kind == .time ? "a time like 2026-11-30T10:00:00Z" : "a date like 2026-11-30"): "
      + "the library file was changed outside circdesk, or is damaged"
  }

  func sentence(_ error: StoreError) -> String {
    switch error {
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
      return errors.errors.map(message).joined(separator: "\n")
    case .refused(let refusals):
      return refusals.map(message).joined(separator: "\n")
    case .bookNotFound(let inventory):
      return message(CirculationRefusal.unknownBook(inventory))
    case .readerNotFound(let ticket):
      return message(CirculationRefusal.unknownReader(ticket))
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
      return problems.map(message).joined(separator: "\n")
    case .loanChanged:
      return "The loan has changed since (another desk?): look at the book again"
    case .badChange(let reason):
      return "Refused a change from the central: \(reason). Nothing of its batch was applied; "
        + "tell whoever runs the central"
    case .syncRefused(let message):
      return message
    case .settlementRefused(let number, let kind, let refusal):
      return "Conflict \(number) is «\(conflictKind(kind))»: \(reason(refusal, number: number))"
        + (refusal.namesRemedy ? "; \(remedy(kind, number: number))" : "")
    case .conflictNotFound(let number):
      return "No open conflict number \(number): see circdesk conflicts list"
    case .unreadableValue(let value):
      return message(value)
    case .database(let error):
      if error.isBusy { return "The library database is busy: try again (\(error.message))" }
      return "Database error: \(error)"
    }
  }

  public func messages(_ error: StoreError) -> [String] {
    switch error {
    case .invalid(let errors): return errors.errors.map(message)
    case .refused(let refusals): return refusals.map(message)
    case .invalidSetting(let problems): return problems.map(message)
    default: return [sentence(error)]
    }
  }

  public func conflictKind(_ kind: ConflictKind) -> String {
    switch kind {
    case .inventory: return "same inventory number"
    case .ticket: return "same ticket"
    case .doubleIssue: return "issued twice"
    case .editAfterDelete: return "changed after deletion"
    case .trappedTwice: return "put aside twice"
    case .refusedChange: return "change not taken"
    case .renewalLimit: return "renewed past the limit"
    case .renewedAfterReturn: return "renewed after return"
    }
  }

  /// How a librarian settles conflict `number` from the command line.
  public func remedy(_ kind: ConflictKind, number: Int) -> String {
    remedyPattern(kind).split(separator: " ", omittingEmptySubsequences: false)
      .map { $0 == "N" ? String(number) : String($0) }.joined(separator: " ")
  }

  /// How a librarian settles it from the command line (N: the conflict's number).
  private func remedyPattern(_ kind: ConflictKind) -> String {
    switch kind {
    case .inventory, .ticket:
      return "give one of them another number: conflicts resolve N --renumber NEW, or --duplicate when both are one"
    case .doubleIssue: return "say who holds the book: conflicts resolve N --holder TICKET"
    case .editAfterDelete: return "conflicts resolve N --restore, or --keep-deleted"
    case .trappedTwice: return "say which copy the reader collects: conflicts resolve N --copy INVENTORY"
    case .refusedChange:
      return "correct the record here, then conflicts resolve N --resend (the central refused it), or --drop"
    case .renewalLimit: return "conflicts resolve N --keep-renewals, or --take-back-renewal"
    case .renewedAfterReturn: return "the book is back: conflicts resolve N --acknowledge"
    }
  }

  /// «Title» (inventory), or Name (ticket N).
  func named(_ record: ConflictFacts.Record) -> String {
    record.isBook ? "«\(record.name)» (\(record.number))" : "\(record.name) (ticket \(record.number))"
  }

  /// One line: what happened.
  public func conflictSummary(_ conflict: Conflict) -> String {
    switch conflict.facts {
    case .clash(let number, let here, _, let otherDesk):
      return "\(named(here)): the \(here.isBook ? "inventory number" : "ticket") \(number) was given at desk "
        + "«\(otherDesk)» first"
    case .doubleIssue(let book, let loans):
      return "\(named(book)) was issued to \(loans.count) readers at once"
    case .deletedWhileOut(let record, let deletedBy, let out, _):
      return "\(named(record)) is deleted\(deletedBy.isEmpty ? "" : " at desk «\(deletedBy)»") but out: \(out)"
    case .changedAfterDeletion(let record, let desk, _, let deletedBy, _):
      return "\(named(record)) was changed at desk «\(desk)» after desk «\(deletedBy)» deleted it"
    case .trappedTwice(let reader, let title, let copies):
      return "\(copies.count) copies of \(title) were put aside for \(named(reader)), one at each desk"
    case .refusedChange(let record, let byCentral, let desk, let reason):
      return byCentral
        ? "\(named(record)): the central refused a change made here: \(reason)"
        : "\(named(record)): a change from desk «\(desk)» was set aside here: \(reason)"
    case .renewedPastLimit(let book, let reader, let count, let limit, _, _):
      return "\(named(book)), out to \(named(reader)), was renewed \(englishPlural(count, "time")) at desks apart: "
        + "the limit is \(limit)"
    case .renewedAfterReturn(let book, _, let renewedBy, _, let returnedBy, _):
      return "\(named(book)) was renewed at desk «\(renewedBy)» after desk «\(returnedBy)» took it back"
    }
  }

  /// What each side says, a line each.
  public func conflictSides(_ conflict: Conflict) -> [String] {
    switch conflict.facts {
    case .clash(_, let here, let there, let otherDesk):
      return ["here: \(named(here)), not yet at the central", "desk «\(otherDesk)»: \(named(there))"]
    case .doubleIssue(_, let loans):
      return loans.map {
        "issued to \($0.reader) (ticket \($0.ticket)) at desk «\($0.desk)» at \($0.issued), due \($0.due)"
      }
    case .deletedWhileOut(_, let deletedBy, let out, _):
      let by = deletedBy.isEmpty ? "" : " at desk «\(deletedBy)»"
      return ["deleted\(by)", "out: \(out)"]
    case .changedAfterDeletion(_, let desk, let at, let deletedBy, let fields):
      let changed = fields.map(\.words)
      return ["desk «\(deletedBy)»: deleted", "desk «\(desk)» at \(at): changed " + changed.joined(separator: ", ")]
    case .trappedTwice(_, _, let copies):
      return copies.map {
        "copy \($0.inventory) put aside at desk «\($0.desk)» at \($0.at)"
          + ($0.pickupBy.isEmpty ? "" : ", to collect by \($0.pickupBy)")
      }
    case .refusedChange(_, let byCentral, let desk, let reason):
      return byCentral
        ? ["here: changed; the other desks never got the change", "the central: \(reason)"]
        : ["desk «\(desk)»: changed", "here: not applied, \(reason)"]
    case .renewedPastLimit(_, _, _, _, _, let renewals):
      return renewals.map { "renewed at desk «\($0.desk)»: due \($0.due)" }
    case .renewedAfterReturn(_, let reader, let renewedBy, let due, let returnedBy, let returned):
      return [
        "desk «\(returnedBy)»: taken back from \(named(reader)) at \(returned)",
        "desk «\(renewedBy)»: renewed to \(due), not knowing it was back",
      ]
    }
  }

  public func reason(_ refusal: SettlementRefusal, number: Int) -> String {
    switch refusal {
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
