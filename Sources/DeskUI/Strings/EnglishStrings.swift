import DeskDomain
import DeskLookup
import DeskScanning
import DeskStorage
import DeskWords

/// The English words of the desk.
public struct EnglishStrings: UIStrings {
  public let words: any LibraryWords = EnglishWords()
  public init() {}

  public let language = InterfaceLanguage.english
  public let appName = "Circulation Desk"
  public let homeTitle = "Home"
  public func statusCounts(_ books: Int, _ out: Int, _ overdue: Int, _ readers: Int) -> String {
    "\(books) books, \(out) out, \(overdue) overdue · \(readers) readers"
  }
  public func holdShelfCounts(_ waiting: Int, _ tooLong: Int) -> String {
    "\(englishPlural(waiting, "hold")) waiting on the shelf" + (tooLong > 0 ? ", \(tooLong) waiting too long" : "")
  }
  public func holdsHeader(_ count: Int) -> String { "Holds (\(count))" }
  public func bookOnHoldShelf(_ reader: String, _ ticket: String, until: String) -> String {
    "On the hold shelf for \(reader) (ticket \(ticket)) until \(until): issued to them only"
  }
  public func booksWaitingForReader(_ count: Int) -> String {
    "\(englishPlural(count, "book")) waiting for them on the hold shelf"
  }
  public func holdCopy(_ inventory: String) -> String { "copy \(inventory) only" }
  public func holdWaiting(_ inventory: String, until: String) -> String {
    "\(inventory) waits on the hold shelf until \(until)"
  }
  public func holdWaitingElsewhere(_ inventory: String, desk: String, until: String) -> String {
    "\(inventory) waits on the hold shelf of desk «\(desk)» until \(until)"
  }
  public func holdQueued(placed: String) -> String { "queued since \(placed)" }
  public func holdSuspended(until: String) -> String { "suspended until \(until)" }
  public func holdEnded(_ state: HoldState) -> String { state.rawValue }
  public func scansHeld(_ count: Int) -> String {
    (count == 1 ? "1 scan waits" : "\(count) scans wait") + " and will be applied when the window is larger."
  }
  public func tooSmall(_ columns: Int, _ rows: Int, _ minimumColumns: Int, _ minimumRows: Int) -> String {
    "The terminal is too small (\(columns)×\(rows)): the desk needs \(minimumColumns)×\(minimumRows). Make the window larger."
  }

  public let keyHelp = "Help"
  public let keyQuit = "Quit"
  public let keyDone = "Done"
  public let keyClear = "Clear"
  public let keyOpen = "Open"
  public let keyChoose = "Choose"
  public let keySearch = "Search"
  public let keyNew = "New"
  public let keyEdit = "Edit"
  public let keyFilter = "Filter"
  public let keyBack = "Back"
  public let keyIssue = "Issue"
  public let keyReturn = "Return"
  public let keyRenew = "Renew"
  public let keyDelete = "Delete"
  public let keySave = "Save"
  public let keyNextField = "Next field"
  public let keyCancel = "Cancel"
  public let keyApply = "Apply"
  public let keyRenewAll = "Renew all"
  public let keyDesk = "Desk"
  public let keyOverdue = "Overdue"
  public let keyReceipt = "Receipt"
  public let keyFindReader = "Find reader"
  public let keyUndo = "Undo"
  public let keyEndReader = "Next reader"
  public let keyScroll = "Scroll"

  public let dialogOK = "Enter: OK"
  public let dialogYesNo = "y: Yes   n: No"
  public let dialogChoice = "↑↓ choose   Enter: OK   Esc: Cancel"
  public let dialogPrompt = "Enter: OK   Esc: Cancel"
  public let quitQuestion = "Quit the desk?"
  public let quitTitle = "Quit"
  public let quitUnsaved = "A form holds changes that are not saved. Quit and lose them?"
  public func quitDuringVisit(_ reader: String?) -> String {
    "A visit is under way\(reader.map { " (\($0))" } ?? ""): quitting loses the session's log and the visit's "
      + "receipt (F4 prints it). Quit the desk?"
  }
  public let errorTitle = "Error"
  public let cannotSaveTitle = "Cannot save"
  public let discardTitle = "Discard changes"
  public let discardQuestion = "Close the form and lose what was typed?"
  public let deleteTitle = "Delete"
  public let deleteRefusedTitle = "Cannot delete"
  public let issueTitle = "Issue"
  public let issueRefusedTitle = "Cannot issue"
  public let returnRefusedTitle = "Cannot return"
  public let renewRefusedTitle = "Cannot renew"
  public let undoRefusedTitle = "Cannot undo"
  public let unknownCodeTitle = "Unknown code"

  public let sectionBooks = "Books"
  public let sectionReaders = "Readers"
  public let sectionDesk = "Desk: issue and return"
  public let sectionScan = "Scan image"
  public let sectionExport = "Export"
  public let sectionOverdue = "Overdue books: chase them"
  public let sectionHoldShelf = "Hold shelf: copies waiting for readers"
  public func holdShelfTitleCount(_ count: Int) -> String { "Hold shelf (\(count))" }
  public let holdShelfEmpty = "No copy waits on the hold shelf."
  public func holdShelfLine(_ hold: HoldRecord, tooLong: Bool) -> String {
    "\(tooLong ? "! " : "  ")\(hold.waitingCopy ?? "")  \(hold.label) — \(hold.readerName) (\(hold.readerTicket)), until "
      + (hold.pickupBy?.iso ?? "") + (tooLong ? ", waited too long" : "")
  }
  public let keyExpire = "Expire"
  public let keyCancelHold = "Cancel hold"
  public let keyHolds = "Holds"
  public let holdsTitle = "Holds"
  public let chooseHold = "Which hold?"
  public let noActiveHolds = "The reader has no holds."
  public let suspendHoldAction = "Suspend until a date"
  public let resumeHoldAction = "Resume now"
  public let suspendUntilPrompt = "Suspended until (YYYY-MM-DD, that day included):"
  public func notADate(_ text: String) -> String { "«\(text)» is not a date: type it as 2026-12-31" }
  public func holdSuspendedNotice(_ label: String, until: String) -> String {
    "Hold on \(label) suspended until \(until): it keeps its place"
  }
  public func holdResumedNotice(_ label: String) -> String { "Hold on \(label) resumed" }
  public func cancelHoldQuestion(_ hold: HoldRecord) -> String {
    "Cancel the hold of \(hold.readerName) (ticket \(hold.readerTicket)) on \(hold.label)?"
  }
  public let expiredTitle = "Holds expired"
  public func holdMoveLine(_ move: HoldMove) -> String {
    "\(move.inventory) \(move.label), not collected by \(move.fromReader): "
      + (move.next.map { "to the hold shelf for \($0.readerName) (ticket \($0.readerTicket))" } ?? "back to the shelf")
  }
  public func holdEndedElsewhereLine(_ move: HoldMove) -> String {
    "\(move.inventory) \(move.label): the hold of \(move.fromReader) ended at another desk: "
      + (move.next.map { "keep it on the hold shelf for \($0.readerName) (ticket \($0.readerTicket))" }
        ?? "back to the shelf")
  }
  public func holdLapsedLine(_ hold: HoldRecord) -> String {
    "Hold of \(hold.readerName) (\(hold.readerTicket)) on \(hold.label): not wanted after "
      + (hold.notWantedAfter?.iso ?? "") + ", ended"
  }
  public let nothingExpired = "No hold waited too long."
  public func holdFreedElsewhere(_ hold: HoldRecord, inventory: String, desk: String) -> String {
    "Hold of \(hold.readerName) (ticket \(hold.readerTicket)) cancelled: \(inventory) waits on the hold shelf of "
      + "desk «\(desk)», which passes it on"
  }
  public func holdCancelled(_ hold: HoldRecord) -> String {
    "Hold of \(hold.readerName) (ticket \(hold.readerTicket)) on \(hold.label) cancelled"
  }
  public func holdFreed(_ inventory: String) -> String {
    "Hold cancelled: \(inventory) no longer waits on the hold shelf; put it back on the shelf"
  }
  public let overdueLeadsThere = "(o: who has them)"
  public let sectionHelp = "Help"
  public let exportPrompt = "File to write the IRBIS records to (Windows-1251, as IRBIS reads them):"
  public let keyExport = "Export"
  public func exported(_ count: Int, _ path: String) -> String {
    "Wrote \(count) \(count == 1 ? "record" : "records") to \(path)"
  }
  public func libraryCounts(_ books: Int, _ out: Int, _ readers: Int) -> String {
    "\(books) books, \(out) out; \(readers) readers"
  }
  public func overdueBooks(_ count: Int) -> String { count == 1 ? "1 book is overdue" : "\(count) books are overdue" }

  public let searchLabel = "Search:"
  public let searching = "searching…"
  public let searchHint = "/ to search"
  public func matches(_ count: Int) -> String {
    count >= LibraryStore.searchCap
      ? "\(LibraryStore.searchCap)+ found: type more" : (count == 1 ? "1 found" : "\(count) found")
  }
  public func searchedFor(_ query: String) -> String { "Searched for «\(query)»" }
  public func didYouMean(_ words: String) -> String { "Did you mean: \(words)?" }
  public let recentHeading = "Opened lately (↑ to choose):"
  public let allHeading = "All:"
  public let isbnNotHere = "This ISBN is not in the library: Enter adds it, looked up"
  public func booksTitle(_ filter: String) -> String { "Books: \(filter)" }
  public func filterName(_ filter: BookFilter) -> String {
    switch filter {
    case .all: return "all"
    case .issued: return "issued"
    case .available: return "available"
    case .overdue: return "overdue"
    case .notForLoan: return "not for loan"
    }
  }
  public func readersTitle(_ filter: String) -> String { "Readers: \(filter)" }
  public func readerFilterName(_ filter: ReaderFilter) -> String {
    switch filter {
    case .all: return "all"
    case .overdue: return "with overdue books"
    }
  }
  public let columnInventory = "Inv. no."
  public let columnAuthor = "Author"
  public let columnTitle = "Title"
  public let columnYear = "Year"
  public let columnStatus = "Due, reader"
  public let columnTicket = "Ticket"
  public let columnName = "Name"
  public let columnPhone = "Phone"
  public let columnBooksOut = "Books"
  public let columnOverdue = "Overdue"
  public let noBooks = "No books here. n adds one."
  public let noReaders = "No readers here. n registers one."
  public func issuedStatus(_ reader: String, _ due: String) -> String { "\(due)  \(reader)" }
  public func overdueStatus(_ reader: String, _ due: String) -> String { "\(due)! \(reader)" }
  public func overdueCount(_ count: Int) -> String { "\(count) late" }

  public let labelAuthor = "Author"
  public let labelName = "Name"
  public let labelAddress = "Address"
  public let none = "none"
  public func bookTitle(_ inventory: String) -> String { "Book \(inventory)" }
  public func readerTitle(_ name: String) -> String { "Reader \(name)" }
  public let bookAvailable = "On the shelf: available"
  public func bookNotForLoan(_ status: CopyStatus) -> String {
    "Not for loan: \(status.label) (s changes the status)"
  }
  public let statusTitle = "Copy status"
  public func statusQuestion(_ title: String) -> String { "Status of «\(title)»:" }
  public func statusChanged(_ inventory: String, _ status: CopyStatus) -> String {
    "\(inventory) is now \(status.label)"
  }
  public let keyStatus = "Status"
  public func bookIssuedTo(_ reader: String, _ ticket: String, _ due: String) -> String {
    "Issued to \(reader) (ticket \(ticket)), due \(due)"
  }
  public func bookOverdueTo(_ reader: String, _ ticket: String, _ due: String, _ days: Int) -> String {
    "OVERDUE: issued to \(reader) (ticket \(ticket)), due \(due), \(days == 1 ? "1 day" : "\(days) days") late"
  }
  public func loanHistory(_ count: Int) -> String { "Loan history (\(count))" }
  public func booksOut(_ count: Int) -> String { "Books out (\(count))" }
  public func history(_ count: Int) -> String { "History (\(count))" }
  public func readerHasOverdue(_ count: Int) -> String {
    count == 1 ? "Has 1 overdue book" : "Has \(count) overdue books"
  }
  public func readerAtLimit(_ limit: Int) -> String { "At the limit of \(limit) books" }
  public func loanDates(_ issued: String, _ due: String) -> String { "issued \(issued), due \(due)" }
  public func renewedTimes(_ count: Int) -> String { count == 1 ? "renewed once" : "renewed \(count) times" }
  public func returnedOn(_ date: String) -> String { "returned \(date)" }
  public func undoneOn(_ moment: String) -> String { "UNDONE \(moment), never a loan" }
  public func overdueBy(_ days: Int) -> String { days == 1 ? "OVERDUE by 1 day" : "OVERDUE by \(days) days" }

  public func issuePromptTicket(_ title: String) -> String { "Reader ticket to issue «\(title)» to:" }
  public let keyHold = "Hold"
  public let holdTitle = "Place a hold"
  public let holdRefusedTitle = "Cannot place the hold"
  public func holdPromptTicket(_ label: String) -> String { "Ticket of the reader who waits for \(label) (any copy):" }
  public func holdPlaced(_ reader: String, _ label: String, position: Int) -> String {
    "Hold placed: \(reader) waits for \(label), number \(position) in the queue"
  }
  public func issuePromptInventory(_ reader: String) -> String { "Inventory numbers of the books for \(reader):" }
  public func issuedManyNotice(_ count: Int, _ reader: String) -> String {
    count == 1 ? "Issued 1 book to \(reader)" : "Issued \(count) books to \(reader)"
  }
  public func deleteBookQuestion(_ title: String) -> String { "Delete «\(title)» from the catalogue?" }
  public func deleteReaderQuestion(_ name: String) -> String { "Delete the reader \(name)?" }
  public func deletedNotice(_ name: String) -> String { "Deleted: \(name)" }
  public func savedNotice(_ what: String) -> String { "Saved: \(what)" }
  public func addressFilled(_ address: String) -> String { "This phone's address filled in: \(address)" }

  public let newBookTitle = "New book"
  public func editBookTitle(_ inventory: String) -> String { "Edit book \(inventory)" }
  public let newReaderTitle = "New reader"
  public func editReaderTitle(_ name: String) -> String { "Edit reader \(name)" }
  public let requiredNote = "Fields marked * are required. F2 saves, Esc cancels."

  public let deskTitle = "Desk"
  public let deskPromptNoReader = "Scan a reader's card (or type a name), or a book to take it back:"
  public let deskPromptReader = "Scan books: new ones go out, the reader's own come back. ↓: their loans"
  public func deskReader(_ ticket: String, _ name: String, _ category: String) -> String {
    "Reader \(ticket): \(name) (\(category))"
  }
  public let sessionLog = "This session"
  public let sessionLogEmpty = "nothing yet"
  public let nothingToUndo = "Nothing to undo"
  public let undoneAlready = "Undone already: only the last change can be undone"
  public let undoTitle = "Undo"
  public func undoQuestion(_ when: String, _ doubts: [CounterSession.UndoDoubt]) -> String {
    let reasons = doubts.map { doubt -> String in
      switch doubt {
      case .earlierVisit: return "in an earlier visit (another reader)"
      case .otherScreen: return "on another screen"
      case .older: return "over \(CounterSession.undoWithoutAskingSeconds / 60) minutes ago"
      }
    }
    return "The last change was made at \(when), \(reasons.joined(separator: ", ")). Undo it?"
  }
  public let nothingTypedToUndo = "Nothing typed in this field to undo"
  public func andMore(_ count: Int) -> String { "and \(count) more" }
  public func unknownCode(_ code: String) -> String { "Unknown code «\(code)»" }
  public func unknownCodeMessage(_ code: String) -> String {
    "Unknown code «\(code)»: no reader has this ticket and no book has this inventory number. "
      + "Scan again, or add the book or the reader first."
  }
  public func logIssued(_ inventory: String, _ title: String, _ reader: String, _ due: String) -> String {
    "Issued \(inventory) «\(title)» to \(reader), due \(due)"
  }
  public func logReturned(_ inventory: String, _ title: String, _ reader: String) -> String {
    "Returned \(inventory) «\(title)» from \(reader)"
  }
  public func logSelected(_ ticket: String, _ name: String) -> String { "Reader \(ticket) \(name)" }
  public func logUndoIssue(_ inventory: String, _ title: String) -> String {
    "Undone: the issue of \(inventory) «\(title)»"
  }
  public func logUndoReturn(_ inventory: String, _ title: String, _ reader: String) -> String {
    "Undone: the return of \(inventory) «\(title)»; it is out to \(reader) again"
  }
  public func cameBackLate(_ days: Int) -> String { days == 1 ? "1 day late" : "\(days) days late" }
  public let holdShelfTitle = "Hold shelf"
  public func putOnHoldShelf(_ trap: HoldTrap, title: String) -> String {
    "Hold for \(trap.readerName) (ticket \(trap.readerTicket)): put «\(title)» (\(trap.inventory)) on the hold shelf; "
      + "it waits for them until \(trap.pickupBy.iso)"
  }
  public func logHeldFor(_ trap: HoldTrap) -> String {
    "to the hold shelf for \(trap.readerName) (\(trap.readerTicket))"
  }
  public func logRenewed(_ inventory: String, _ title: String, _ due: String) -> String {
    "Renewed \(inventory) «\(title)», due \(due)"
  }
  public func logTransferred(_ inventory: String, _ title: String, _ from: String, _ to: String, _ due: String)
    -> String
  {
    "Returned \(inventory) «\(title)» from \(from) and issued it to \(to), due \(due)"
  }
  public func logUndoRenewal(_ inventory: String, _ title: String, _ due: String) -> String {
    "Undone: the renewal of \(inventory) «\(title)»; due \(due) again"
  }
  public func logUndoTransfer(_ inventory: String, _ title: String, _ reader: String) -> String {
    "Undone: the move of \(inventory) «\(title)»; it is out to \(reader) again"
  }
  public func logLeftAsItWas(_ inventory: String, _ title: String) -> String {
    "Left as it was: \(inventory) «\(title)»"
  }
  public func readerHasOverdueAtDesk(_ count: Int) -> String {
    count == 1 ? "1 overdue book: scan it to take it back" : "\(count) overdue books: scan them to take them back"
  }
  public let transferTitle = "Out to another reader"
  public func transferQuestion(
    _ title: String, _ inventory: String, _ reader: String, _ ticket: String, _ since: String, _ due: String,
    _ to: String
  ) -> String {
    "«\(title)» (\(inventory)) is out to \(reader) (\(ticket)) since \(since), due \(due). "
      + "Return it from \(reader) and issue it to \(to)?"
  }
  public func copyOnShelf(_ inventory: String, _ place: String) -> String {
    place.isEmpty ? "\(inventory)  (no place given)" : "\(inventory)  \(place)"
  }
  public func copyOut(_ inventory: String, _ reader: String, _ ticket: String, _ due: String) -> String {
    "\(inventory)  \(reader) (\(ticket)), due \(due)"
  }
  public func chooseCopyToIssue(_ isbn: String) -> String { "Which copy of \(isbn)?" }
  public func chooseCopyToReturn(_ isbn: String) -> String { "Which copy of \(isbn) came back?" }
  public let chooseCopyHint = "An ISBN names a title: choose the copy in hand, or scan its inventory number."
  public let scanReaderFirst = "Scan the reader's card first"
  public func renewedAll(_ count: Int) -> String {
    count == 0 ? "Nothing renewed" : count == 1 ? "Renewed 1 book" : "Renewed \(count) books"
  }

  public let receiptTitle = "Receipt"
  public let receiptEmpty = "Nothing issued, renewed or returned in this visit yet"
  public func receiptPrompt(_ canPrint: Bool) -> String {
    canPrint ? "Print the visit's receipt (lp), or write it to a file:" : "Write the visit's receipt to a file:"
  }
  public let receiptPrinted = "Receipt sent to the printer"
  public func receiptWritten(_ path: String) -> String { "Receipt written to \(path)" }
  public func receiptHeading(_ date: String, _ time: String) -> String { "Receipt, \(date) \(time)" }
  public func receiptReader(_ ticket: String, _ name: String) -> String { "Reader \(ticket): \(name)" }
  public let receiptIssued = "Issued:"
  public let receiptRenewed = "Renewed:"
  public let receiptReturned = "Returned:"
  public func receiptDue(_ date: String) -> String { "due \(date)" }
  public let receiptThanks = "Thank you!"

  public let sectionStatistics = "Statistics: the work diary"
  private static let months = OverdueNotice.englishMonths
  public func statisticsTitle(month: Int, year: Int) -> String {
    "Statistics: \(EnglishStrings.months[max(0, min(11, month - 1))]) \(year)"
  }
  public func diaryFigure(_ figure: DiaryFigure) -> String {
    switch figure {
    case .registered: "Readers registered"
    case .reregistered: "Re-registered this year"
    case .visits: "Visits"
    case .issues: "Issues"
    case .renewals: "Renewals"
    case .returns: "Returns"
    case .holdsPlaced: "Holds placed"
    case .holdsFilled: "Holds filled"
    case .overdue: "Overdue at the end"
    }
  }
  public func statisticsColumns(day: String, month: String) -> [String] { [day, "a year ago", month, "a year ago"] }
  public let statisticsTodayName = "today"
  public func chartLargest(_ value: Int) -> String { value == 0 ? "none" : "at most \(value)" }
  public let chartsNeedRoom = "A taller window shows the charts of issues."
  public let monthChartNeedsRoom = "A taller window shows the issues per month too."
  public let splitEmpty = "Nothing counted in this month."
  public func issuesWithoutIndex(_ count: Int) -> String {
    count == 1
      ? "1 issue was of a book without a BBK index: under «other»."
      : "\(count) issues were of books without a BBK index: under «other»."
  }
  public let keySplit = "Split"
  public func splitTitle(_ split: DiarySplit) -> String {
    switch split {
    case .category: "The month by reader group (age where birth years are kept, else category)"
    case .branch: "The month's books by branch of knowledge (from the BBK index)"
    case .desk: "The month by desk"
    }
  }
  public func splitColumn(_ name: String, split: DiarySplit) -> String {
    switch (AgeGroup(rawValue: name), KnowledgeBranch(rawValue: name), split) {
    case (let group?, _, .category): group.span
    case (_, let branch?, .branch):
      switch branch {
      case .social: "social"
      case .natural: "nature"
      case .technology: "tech."
      case .agriculture: "agric."
      case .artsAndSport: "arts"
      case .fiction: "fiction"
      case .children: "child."
      case .other: "other"
      }
    default: name
    }
  }
  public func issuesPerDay(month: Int, year: Int) -> String {
    "Issues per day, \(EnglishStrings.months[max(0, min(11, month - 1))]) \(year)"
  }
  public let issuesLast30Days = "Issues per day, the last 30 days"
  public func issuesPerMonth(year: Int) -> String { "Issues per month, \(year)" }
  public let shortMonths = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
  public let keyMonths = "Month"
  public func overdueTitle(_ readers: Int) -> String {
    readers == 1 ? "Overdue: 1 reader" : "Overdue: \(readers) readers"
  }
  public let noOverdue = "No books are overdue."
  public func overdueReaderLine(_ days: Int, _ ticket: String, _ name: String, _ contacts: String) -> String {
    "\(days) \(days == 1 ? "day" : "days")  \(ticket)  \(name)  \(contacts)"
  }
  public func overdueBookDates(_ due: String, _ days: Int) -> String {
    "due \(due), \(days) \(days == 1 ? "day" : "days") overdue"
  }

  public func scanKept(_ code: String) -> String { "Scanned \(code): it acts when this message closes" }
  public func scannedLabelOfBook(_ inventory: String) -> String {
    "The label of \(inventory), a book the library has: its record"
  }
  public func keysNotApplied(_ count: Int) -> String {
    "\(englishPlural(count, "key")) that came with the Enter not applied to this screen: type again what you meant"
  }
  public let scannedRecord = "Filled from the scanned label: check and save with F2"
  public let scannedRecordRemarksTitle = "The scanned label, checked"
  public func scannedRecordRemarks(_ remarks: BookRecordLabel.Remarks) -> [String] {
    var lines: [String] = []
    if !remarks.unknownLines.isEmpty {
      lines.append("Lines not understood (nothing was filled from them):")
      lines += remarks.unknownLines.map { "  «\($0)»" }
    }
    if let isbn = remarks.isbnProblem { lines.append(isbn.description) }
    return lines
  }
  public func scannedNewISBN(_ isbn: String) -> String { "ISBN \(isbn) is not in the library: a new book" }
  public func scannedCopies(_ count: Int) -> String { "The library has \(count) copies with this ISBN" }

  public let scanPrompt = "Image file (PNG or JPEG) to scan; Tab completes the name:"
  public let keyScanFile = "Scan"
  public let keyComplete = "Complete"
  public func noCodeFound(_ path: String) -> String { "No barcode or QR code found in \(path)" }
  public func message(_ error: ImageError) -> String { error.description }
  public func codesFound(_ count: Int, _ path: String) -> String { "\(count) codes in \(path): choose one" }

  public let keyTakeFound = "Take found"
  public func lookingUp(_ isbn: String) -> String { "Looking up ISBN \(isbn)…" }
  public func lookupFound(_ provider: String, _ filled: Int, _ differing: [String]) -> String {
    var text = "Found in \(provider): \(filled == 1 ? "1 field" : "\(filled) fields") filled"
    if !differing.isEmpty {
      text += "; differs from what was typed: \(differing.joined(separator: ", ")) (F5 takes the found values)"
    }
    return text
  }
  public let lookupNotFound = "No catalogue knows this ISBN: fill the form by hand"
  public let keySearchLibraries = "Search libraries"
  public let copySearching = "Searching other libraries' catalogues…"
  public let copySearchNothing = "No library's catalogue has such a book: fill the form by hand"
  public func copySearchWaiting(_ failures: [LookupFailure]) -> String {
    let why = failures.isEmpty ? "" : " (" + failures.map { reason($0) }.joined(separator: "; ") + ")"
    return
      "No library's catalogue could answer\(why); the search waits for the network, and its records show here when they come. Fill the form by hand meanwhile."
  }
  public let copySearchNeedsWords = "Type a title or an author, then F5 searches other libraries' catalogues"
  public let copySearchNoTargets =
    "No library catalogue to search: add one with circdesk target add (Z39.50 or SRU)"
  public let copySearchUnavailable = "Searching other libraries is not available here"
  public let copyChoiceTitle = "Found in libraries' catalogues"
  public func copyChoiceLines(found: Int, shown: Int, holdsMore: Bool) -> String {
    (found == shown ? "\(found) found" : "\(found) found, the first \(shown) shown")
      + ": Enter fills the form from the record chosen, and the book keeps the whole record."
      + (holdsMore ? " The catalogues hold more: type the author or the year, and F5 again." : "")
  }
  public func copyFilled(_ target: String, _ filled: Int, isbnProblem: ISBNError?) -> String {
    "Filled from \(target): \(filled) fields; the whole record is kept with the book. Type the inventory number and save."
      + (isbnProblem.map { " The record's \($0.description): correct it before saving." } ?? "")
  }
  public func lookupWaiting(_ failure: LookupFailure?) -> String {
    "Look-up waits for the network\(failure.map { " (\($0.description))" } ?? ""); it will be tried again. "
      + "Fill the form by hand meanwhile."
  }
  public func reason(_ failure: LookupFailure) -> String { failure.description }
  public func lookupOffer(_ provider: String) -> String { "\(provider) has details for this book:" }
  public let keyApplyOffer = "Apply found"
  public let keyDismissOffer = "Dismiss found"

  public let helpTitle = "Help"
  public func helpHeading(_ topic: HelpTopic) -> String {
    switch topic {
    case .home: return "Home"
    case .bookList: return "Book list"
    case .readerList: return "Reader list"
    case .bookDetail: return "A book"
    case .readerDetail: return "A reader"
    case .form: return "Forms"
    case .desk: return "Desk"
    case .scanImage: return "Scan image"
    case .overdue: return "Overdue books"
    case .statistics: return "Statistics"
    case .stocktake: return "Stocktaking"
    case .stocktakeReport: return "A check's report"
    case .holdShelf: return "Hold shelf"
    case .conflicts: return "Conflicts"
    }
  }
  public func helpAbout(_ topic: HelpTopic) -> String {
    switch topic {
    case .home:
      return "The library at a glance. Most of the day is spent on the Desk (d): a reader's visit, scan by scan. "
        + "The count of overdue books leads to the readers who hold them (o)."
    case .bookList:
      return "The catalogue, issued books marked * and overdue ones !. Type / and a few letters of an author, a "
        + "title, an ISBN or an inventory number; typos and the other keyboard layout are forgiven."
    case .readerList:
      return "The readers, those with overdue books marked !. f shows only them. Chosen from the Desk (F3, or a "
        + "name typed there), Enter selects the reader for the visit."
    case .bookDetail:
      return "One copy: every field, who holds it and until when, and who held it before."
    case .readerDetail:
      return "One reader: the books they hold (overdue ones first marked !), then their history. Choose a loan "
        + "with ↑↓ to return or renew it; i issues more, several scans at once. Their holds follow the loans; h "
        + "cancels one, or suspends a queued one until a date (it keeps its place)."
    case .form:
      return "Fields marked * are required. Nothing is saved before F2; a refused save keeps everything typed "
        + "and puts the cursor on the field to fix. A scanner's Enter moves to the next field, never saves."
    case .desk:
      return "A whole visit here: scan the reader's card, then each book. A book the reader holds is returned; a "
        + "new one is issued to them; a book out to somebody else asks before moving it to them. With no reader "
        + "selected a scanned book is returned. An ISBN of several copies asks which copy. Typing a name finds the "
        + "reader. ↓ chooses one of the reader's loans: w renews it, r returns it; F7 renews all that may be. "
        + "F4 prints or saves the visit's receipt; F8 undoes the last change; Esc ends the visit."
    case .scanImage:
      return "Reads barcodes and QR codes from a photo or a scanned image, and opens what the code names."
    case .holdShelf:
      return "The copies put aside for holds, the soonest due first; those past their pickup date are marked !. "
        + "Enter opens the book; x cancels the chosen hold (its copy goes to the next hold, or back to the shelf); "
        + "e expires the holds that waited too long and says where each copy goes."
    case .overdue:
      return "Every reader holding an overdue book, the longest overdue first, with their phone and e-mail to "
        + "reach them. Enter opens the reader. `circdesk overdue --csv` gives the same for a mail merge, and "
        + "`circdesk notices overdue` writes a reminder letter to each."
    case .statistics:
      return
        "The work diary at a glance: today and the month so far beside the same days a year before, issues per day "
        + "of the month and per month of the year. ← → move a month. `circdesk stats` prints every figure for "
        + "any range, split by reader group, branch of knowledge or desk, as the diary's CSV."
    case .stocktake:
      return "A check of the stock at the shelves. Say the place being checked once per shelf (F2, or scan the "
        + "shelf's label PLACE:…), then scan copy after copy: each is checked at once; a copy on its shelf, or "
        + "one scanned again, passes quietly, and anything else rings and is marked ! — misplaced, out on loan, "
        + "lost, another section's, unknown. ↓ chooses a scan: m moves a misplaced copy's record to the place it was found, r returns a copy "
        + "the catalogue says is out, a makes a lost one available, n adds an unknown number as a new book. F3 "
        + "reads every code of an image (a photo of a shelf) into the check. F5 shows the report: what is "
        + "missing, by place and by shelf-code section."
    case .stocktakeReport:
      return "What the check has found so far: the copies expected, present and missing, by storage place and by "
        + "shelf-code section, and each missing copy. Copies out on loan, on the hold shelf or in processing are "
        + "present. c closes the check (and, when the commission has signed, records the missing as lost); "
        + "`circdesk stocktake act` writes the act for the commission to sign."
    case .conflicts:
      return "What two desks did apart that cannot both stand: one number given twice, one book issued to two "
        + "readers, a record changed after another desk deleted it. Each shows both sides and the keys that "
        + "settle it; the settlement reaches every desk at their next sync. A scan of a record in conflict shows "
        + "the conflict first. ↑ in a list marks a record changed here and not yet at the central."
    }
  }
  public let helpHeadingEverywhere = "Everywhere"
  public let aScan = "a scan"

  public func meaning(_ meaning: KeyMeaning) -> String {
    switch meaning {
    case .help: "Help"
    case .undoLast: "Undo the last change, once (in a field: the typing)"
    case .conflictsEverywhere: "Conflicts between desks (a desk joined to a central)"
    case .quit: "Quit (asks first when a form holds changes or a reader is at the counter)"
    case .homeBooks: "Books"
    case .homeReaders: "Readers"
    case .homeDesk: "Desk: issue and return"
    case .homeOverdue: "Overdue books"
    case .homeStatistics: "Statistics: the work diary"
    case .chooseMonth: "The month before, the month after"
    case .splitFigures: "The month split by reader group, by branch of knowledge, by desk, or not"
    case .homeHoldShelf: sectionHoldShelf
    case .homeScan: "Scan image"
    case .homeExport: "Export everything to IRBIS"
    case .homeConflicts: "Conflicts between desks (a desk joined to a central)"
    case .chooseSection: "Choose a section"
    case .quitAsking: "Quit (asks first)"
    case .move: "Move"
    case .page: "Page up, page down"
    case .firstLast: "First, last"
    case .open: "Open"
    case .searchAsYouType: "Search as you type (. is / under the Russian layout); Enter keeps the results, Esc clears"
    case .newRecord: "New"
    case .edit: "Edit"
    case .exportList: "Export the list as shown to IRBIS"
    case .backOrClear: "Back (or clear the search)"
    case .backAsEscape: "Back, as Esc"
    case .filterBooks: "Filter: all, issued, available, overdue, not for loan"
    case .filterReaders: "Filter: all readers, or those with overdue books"
    case .listMarks: "Marks issued and overdue books"
    case .issueToReader: "Issue to a reader"
    case .takeBack: "Take back"
    case .renew: "Renew"
    case .delete: "Delete"
    case .copyStatus: "The copy's status: on the shelf, lost, in repair, written off…"
    case .placeHold: "Place a hold for a reader: any copy of the title, the first that comes back"
    case .applyOffer: "Apply the details a look-up found"
    case .dismissOffer: "Dismiss the details a look-up found"
    case .exportBook: "Export this book to IRBIS"
    case .back: "Back"
    case .chooseLoan: "Choose a loan"
    case .openBook: "Open the book"
    case .issueBooks: "Issue books to this reader"
    case .takeBackChosen: "Take back the chosen book"
    case .renewChosen: "Renew the chosen loan"
    case .readerHolds: "A hold: cancel, suspend or resume it"
    case .exportReader: "Export this reader with their loans to IRBIS"
    case .nextField: "Next field"
    case .previousField: "Previous field"
    case .moveInField: "Move in the field"
    case .erase: "Erase"
    case .eraseToEnds: "Erase to the start, to the end"
    case .undoTyping: "Undo the typing in the field (never a loan)"
    case .save: "Save"
    case .takeFound: "Take what the ISBN look-up found over what was typed"
    case .searchLibraries:
      "On a new book's form: search other libraries' catalogues (Z39.50, SRU) by the title, author and year typed"
    case .cancelForm: "Cancel (asks first when something was typed)"
    case .applyCode: "Apply the scanned or typed code (or find readers by a typed name)"
    case .aScan: "Selects a reader, issues or returns a book, like Enter"
    case .findReader: "Find a reader by name"
    case .chooseVisitLoan: "Choose one of the reader's loans, back to the code field"
    case .returnChosen: "Return the chosen loan"
    case .renewAll: "Renew every loan of the reader that may be"
    case .receipt: "The visit's receipt: print it (lp) or write it to a file"
    case .undoVisit: "Undo this visit's last change (an earlier one: asks first)"
    case .nextReader: "Next reader (or back)"
    case .chooseReader: "Choose a reader"
    case .openReader: "Open the reader"
    case .chooseCopy: "Choose a copy"
    case .cancelHold: "Cancel the chosen hold"
    case .expireHolds: "Expire the holds that waited too long"
    case .completeName: "Complete the file name"
    case .scanFile: "Scan the file; with several codes, open the chosen one"
    case .chooseCode: "Choose among several codes"
    case .chooseConflict: "Choose a conflict"
    case .openConflict: "Open the chosen conflict"
    case .settleSide:
      "Issued twice: this side's reader holds the book; put aside twice: the reader collects this copy"
    case .keepAsItIs:
      "Issued twice: keep both loans open; changed after deletion: keep it deleted; renewed past the limit: the "
        + "renewals stand"
    case .renumber: "Number given twice: give this desk's record another"
    case .sameRecord: "Number given twice: they are one"
    case .restore: "Changed after deletion: restore it"
    case .takeRenewalsBack: "Renewed past the limit: take the renewals back to it"
    case .acknowledgeReturn: "Renewed after return: the book is back, close the conflict"
    case .resend: "Change not taken: send the corrected record again"
    case .dropChange: "Change not taken: let it go"
    case .goOnWithScan: "Opened by a scan: go on with the scan"
    case .homeStocktake: sectionStocktake
    case .applyShelfCode: "Check the typed number (PLACE:… and a name says the place)"
    case .scanIntoCheck: "A copy's label: checked and counted; a shelf's label PLACE:… says the place"
    case .setPlace: "Say the place being checked"
    case .stocktakeReport: "The check's report: what is missing, by place and section"
    case .startCheck: "Open a check (when none is open)"
    case .chooseScan: "Choose one of the last scans"
    case .moveRecordHere: "A misplaced copy: move its record to the place it was found"
    case .returnNow: "A copy the catalogue says is out: return it now"
    case .makeAvailable: "A copy the catalogue says is lost or written off: make it available"
    case .addUnknown: "A number the library lacks: add it as a new book"
    case .scrollReport: "Scroll"
    case .closeCheck: "Close the check (asks first, then whether the missing copies are lost)"
    case .scanImageIntoCheck: "Scan an image (a photo of a shelf): every code in it goes into the check"
    }
  }

}
