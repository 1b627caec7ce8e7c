import DeskDomain
import DeskLookup
import DeskScanning
import DeskStorage
import DeskWords

/// Every word the full-screen desk shows, one conforming table per language
/// (`EnglishStrings`, `RussianStrings`). Screens never hold text of their own.
public protocol UIStrings: SyncStrings, StocktakeStrings, Sendable {
  /// The library's words (errors, refusals, field and status names) in the same language.
  var words: any LibraryWords { get }
  /// The language of the table: names the library left as a new library has them (its reader
  /// categories) are said in it.
  var language: InterfaceLanguage { get }
  var appName: String { get }
  var homeTitle: String { get }
  /// The counts in the status line.
  func statusCounts(_ books: Int, _ out: Int, _ overdue: Int, _ readers: Int) -> String
  /// Copies waiting on the hold shelf, and how many of them past their pickup date.
  func holdShelfCounts(_ waiting: Int, _ tooLong: Int) -> String
  func holdsHeader(_ count: Int) -> String
  func bookOnHoldShelf(_ reader: String, _ ticket: String, until: String) -> String
  func booksWaitingForReader(_ count: Int) -> String
  func holdCopy(_ inventory: String) -> String
  func holdWaiting(_ inventory: String, until: String) -> String
  func holdWaitingElsewhere(_ inventory: String, desk: String, until: String) -> String
  func holdQueued(placed: String) -> String
  func holdSuspended(until: String) -> String
  func holdEnded(_ state: HoldState) -> String
  func tooSmall(_ columns: Int, _ rows: Int, _ minimumColumns: Int, _ minimumRows: Int) -> String
  /// Scans that wait for the window to be big enough.
  func scansHeld(_ count: Int) -> String

  // Keys in the bottom bar
  var keyHelp: String { get }
  var keyQuit: String { get }
  var keyDone: String { get }
  var keyClear: String { get }
  var keyOpen: String { get }
  var keyChoose: String { get }
  var keySearch: String { get }
  var keyNew: String { get }
  var keyEdit: String { get }
  var keyFilter: String { get }
  var keyBack: String { get }
  var keyIssue: String { get }
  var keyReturn: String { get }
  var keyRenew: String { get }
  var keyDelete: String { get }
  var keySave: String { get }
  var keyNextField: String { get }
  var keyCancel: String { get }
  var keyApply: String { get }
  var keyFindReader: String { get }
  var keyUndo: String { get }
  var keyEndReader: String { get }
  var keyScroll: String { get }
  var keyRenewAll: String { get }
  var keyReceipt: String { get }
  /// Home's sections in the key bar, shorter than their names.
  var keyDesk: String { get }
  var keyOverdue: String { get }

  // Dialogs
  var dialogOK: String { get }
  var dialogYesNo: String { get }
  var dialogPrompt: String { get }
  var dialogChoice: String { get }
  var quitTitle: String { get }
  var quitUnsaved: String { get }
  /// Quitting with a reader at the counter, or their visit's changes made: the log and the receipt go.
  func quitDuringVisit(_ reader: String?) -> String
  var quitQuestion: String { get }
  var errorTitle: String { get }
  var cannotSaveTitle: String { get }
  var discardTitle: String { get }
  var discardQuestion: String { get }
  var deleteTitle: String { get }
  var deleteRefusedTitle: String { get }
  var issueTitle: String { get }
  var issueRefusedTitle: String { get }
  var returnRefusedTitle: String { get }
  var renewRefusedTitle: String { get }
  var undoRefusedTitle: String { get }
  var unknownCodeTitle: String { get }

  // Home
  var sectionBooks: String { get }
  var sectionReaders: String { get }
  var sectionDesk: String { get }
  var sectionScan: String { get }
  var sectionExport: String { get }
  var sectionHelp: String { get }
  var sectionOverdue: String { get }
  var sectionHoldShelf: String { get }
  func holdShelfTitleCount(_ count: Int) -> String
  var holdShelfEmpty: String { get }
  func holdShelfLine(_ hold: HoldRecord, tooLong: Bool) -> String
  var keyExpire: String { get }
  var keyCancelHold: String { get }
  /// A reader's holds, to cancel, suspend or resume one (`h` on the reader's screen).
  var keyHolds: String { get }
  var holdsTitle: String { get }
  var chooseHold: String { get }
  var noActiveHolds: String { get }
  var suspendHoldAction: String { get }
  var resumeHoldAction: String { get }
  var suspendUntilPrompt: String { get }
  func notADate(_ text: String) -> String
  func holdSuspendedNotice(_ label: String, until: String) -> String
  func holdResumedNotice(_ label: String) -> String
  func cancelHoldQuestion(_ hold: HoldRecord) -> String
  var expiredTitle: String { get }
  func holdMoveLine(_ move: HoldMove) -> String
  /// A copy on this desk's hold shelf whose hold another desk ended (a sync brought it).
  func holdEndedElsewhereLine(_ move: HoldMove) -> String
  func holdLapsedLine(_ hold: HoldRecord) -> String
  var nothingExpired: String { get }
  /// A copy whose hold ended with nobody next: back to the shelf.
  func holdFreed(_ inventory: String) -> String
  /// A hold cancelled whose copy waits on another desk's shelf: that desk passes it on.
  func holdFreedElsewhere(_ hold: HoldRecord, inventory: String, desk: String) -> String
  /// A hold cancelled that no copy waited for.
  func holdCancelled(_ hold: HoldRecord) -> String
  /// After the count of overdue books on Home: how to reach the Overdue screen.
  var overdueLeadsThere: String { get }
  var exportPrompt: String { get }
  var keyExport: String { get }
  func exported(_ count: Int, _ path: String) -> String
  func libraryCounts(_ books: Int, _ out: Int, _ readers: Int) -> String
  func overdueBooks(_ count: Int) -> String

  // Lists
  var searchLabel: String { get }
  var searching: String { get }
  var searchHint: String { get }
  func matches(_ count: Int) -> String
  func didYouMean(_ words: String) -> String
  /// The query read on the other keyboard layout.
  func searchedFor(_ query: String) -> String
  var recentHeading: String { get }
  var allHeading: String { get }
  var isbnNotHere: String { get }
  func booksTitle(_ filter: String) -> String
  func filterName(_ filter: BookFilter) -> String
  func readersTitle(_ filter: String) -> String
  func readerFilterName(_ filter: ReaderFilter) -> String
  var columnInventory: String { get }
  var columnAuthor: String { get }
  var columnTitle: String { get }
  var columnYear: String { get }
  var columnStatus: String { get }
  var columnTicket: String { get }
  var columnName: String { get }
  var columnPhone: String { get }
  var columnBooksOut: String { get }
  var columnOverdue: String { get }
  var noBooks: String { get }
  var noReaders: String { get }
  func issuedStatus(_ reader: String, _ due: String) -> String
  func overdueStatus(_ reader: String, _ due: String) -> String
  func overdueCount(_ count: Int) -> String

  // Records
  var labelAuthor: String { get }
  var labelName: String { get }
  var labelAddress: String { get }
  var none: String { get }
  func bookTitle(_ inventory: String) -> String
  func readerTitle(_ name: String) -> String
  var bookAvailable: String { get }
  /// A copy that may not be issued, on its detail screen.
  func bookNotForLoan(_ status: CopyStatus) -> String
  var statusTitle: String { get }
  func statusQuestion(_ title: String) -> String
  func statusChanged(_ inventory: String, _ status: CopyStatus) -> String
  var keyStatus: String { get }
  func bookIssuedTo(_ reader: String, _ ticket: String, _ due: String) -> String
  func bookOverdueTo(_ reader: String, _ ticket: String, _ due: String, _ days: Int) -> String
  func loanHistory(_ count: Int) -> String
  func booksOut(_ count: Int) -> String
  func history(_ count: Int) -> String
  func readerHasOverdue(_ count: Int) -> String
  func readerAtLimit(_ limit: Int) -> String
  func loanDates(_ issued: String, _ due: String) -> String
  func renewedTimes(_ count: Int) -> String
  func returnedOn(_ date: String) -> String
  /// An issue taken back at the counter: in the history, never a loan.
  func undoneOn(_ moment: String) -> String
  func overdueBy(_ days: Int) -> String

  // Actions
  func issuePromptTicket(_ title: String) -> String
  var keyHold: String { get }
  var holdTitle: String { get }
  var holdRefusedTitle: String { get }
  func holdPromptTicket(_ label: String) -> String
  func holdPlaced(_ reader: String, _ label: String, position: Int) -> String
  func issuePromptInventory(_ reader: String) -> String
  func issuedManyNotice(_ count: Int, _ reader: String) -> String
  func deleteBookQuestion(_ title: String) -> String
  func deleteReaderQuestion(_ name: String) -> String
  func deletedNotice(_ name: String) -> String
  func savedNotice(_ what: String) -> String
  func addressFilled(_ address: String) -> String

  // Forms
  var newBookTitle: String { get }
  func editBookTitle(_ inventory: String) -> String
  var newReaderTitle: String { get }
  func editReaderTitle(_ name: String) -> String
  var requiredNote: String { get }

  // Desk
  var deskTitle: String { get }
  var deskPromptNoReader: String { get }
  var deskPromptReader: String { get }
  func deskReader(_ ticket: String, _ name: String, _ category: String) -> String
  var sessionLog: String { get }
  var sessionLogEmpty: String { get }
  var nothingToUndo: String { get }
  /// A second undo: only the last act is taken back.
  var undoneAlready: String { get }
  var undoTitle: String { get }
  /// The last act, asked about before it is undone: when it was made, and why it is asked.
  func undoQuestion(_ when: String, _ doubts: [CounterSession.UndoDoubt]) -> String
  /// Ctrl-Z in a field with no typing to take back.
  var nothingTypedToUndo: String { get }
  func andMore(_ count: Int) -> String
  func unknownCode(_ code: String) -> String
  func unknownCodeMessage(_ code: String) -> String
  func logIssued(_ inventory: String, _ title: String, _ reader: String, _ due: String) -> String
  func logReturned(_ inventory: String, _ title: String, _ reader: String) -> String
  func logSelected(_ ticket: String, _ name: String) -> String
  func logUndoIssue(_ inventory: String, _ title: String) -> String
  func logUndoReturn(_ inventory: String, _ title: String, _ reader: String) -> String
  func cameBackLate(_ days: Int) -> String
  /// A returned copy put aside for a hold: the alert's title, its line, and the log's note.
  var holdShelfTitle: String { get }
  func putOnHoldShelf(_ trap: HoldTrap, title: String) -> String
  func logHeldFor(_ trap: HoldTrap) -> String
  func logRenewed(_ inventory: String, _ title: String, _ due: String) -> String
  func logTransferred(_ inventory: String, _ title: String, _ from: String, _ to: String, _ due: String) -> String
  func logUndoRenewal(_ inventory: String, _ title: String, _ due: String) -> String
  func logUndoTransfer(_ inventory: String, _ title: String, _ reader: String) -> String
  func logLeftAsItWas(_ inventory: String, _ title: String) -> String
  func readerHasOverdueAtDesk(_ count: Int) -> String
  var transferTitle: String { get }
  func transferQuestion(
    _ title: String, _ inventory: String, _ reader: String, _ ticket: String, _ since: String, _ due: String,
    _ to: String
  ) -> String
  func copyOnShelf(_ inventory: String, _ place: String) -> String
  func copyOut(_ inventory: String, _ reader: String, _ ticket: String, _ due: String) -> String
  func chooseCopyToIssue(_ isbn: String) -> String
  func chooseCopyToReturn(_ isbn: String) -> String
  var chooseCopyHint: String { get }
  var scanReaderFirst: String { get }
  func renewedAll(_ count: Int) -> String

  // Receipts
  var receiptTitle: String { get }
  var receiptEmpty: String { get }
  func receiptPrompt(_ canPrint: Bool) -> String
  var receiptPrinted: String { get }
  func receiptWritten(_ path: String) -> String
  func receiptHeading(_ date: String, _ time: String) -> String
  func receiptReader(_ ticket: String, _ name: String) -> String
  var receiptIssued: String { get }
  var receiptRenewed: String { get }
  var receiptReturned: String { get }
  func receiptDue(_ date: String) -> String
  var receiptThanks: String { get }

  // Statistics: the work diary
  var sectionStatistics: String { get }
  /// «Statistics: November 2026».
  func statisticsTitle(month: Int, year: Int) -> String
  /// A figure of the work diary, as the table names it.
  func diaryFigure(_ figure: DiaryFigure) -> String
  /// The table's columns: the day (today, or the month's last), a year before, the month, a year before.
  func statisticsColumns(day: String, month: String) -> [String]
  /// Beside a chart's title: its tallest bar's value.
  /// Beside the table where the window has no room for the charts.
  var chartsNeedRoom: String { get }
  /// Below the chart of days where the window has no room for the months'.
  var monthChartNeedsRoom: String { get }
  /// A split of a month with nothing counted.
  var splitEmpty: String { get }
  /// Below the split by branch: the issues of books without an index, counted under «other».
  func issuesWithoutIndex(_ count: Int) -> String
  func chartLargest(_ value: Int) -> String
  /// The day column's name when it is today.
  var statisticsTodayName: String { get }
  func issuesPerDay(month: Int, year: Int) -> String
  /// The current month's chart: the 30 days to today.
  var issuesLast30Days: String { get }
  func issuesPerMonth(year: Int) -> String
  /// Month names, short, January first.
  var shortMonths: [String] { get }
  var keyMonths: String { get }
  var keySplit: String { get }
  /// Above the month's figures split: by reader group, branch of knowledge, desk.
  func splitTitle(_ split: DiarySplit) -> String
  /// A split's column: an age group or a branch by its name here; a category or a desk as it is.
  func splitColumn(_ name: String, split: DiarySplit) -> String

  // Overdue
  func overdueTitle(_ readers: Int) -> String
  var noOverdue: String { get }
  func overdueReaderLine(_ days: Int, _ ticket: String, _ name: String, _ contacts: String) -> String
  /// An overdue book's due date and how late it is.
  func overdueBookDates(_ due: String, _ days: Int) -> String

  // Scans
  /// A scan that came while a message was open: it waits, and acts when the message closes.
  func scanKept(_ code: String) -> String
  /// A QR label of a book the library has: its record opened.
  func scannedLabelOfBook(_ inventory: String) -> String
  /// Keys that arrived with an Enter that opened another screen, not applied to it.
  func keysNotApplied(_ count: Int) -> String
  var scannedRecord: String { get }
  /// What a scanned book record said that did not fill the form: lines not understood, a bad ISBN.
  var scannedRecordRemarksTitle: String { get }
  /// What a scanned label said that filled nothing, and an ISBN with a wrong check digit: a line each.
  func scannedRecordRemarks(_ remarks: BookRecordLabel.Remarks) -> [String]
  func scannedNewISBN(_ isbn: String) -> String
  func scannedCopies(_ count: Int) -> String

  // Look-ups
  var keyTakeFound: String { get }
  func lookingUp(_ isbn: String) -> String
  func lookupFound(_ provider: String, _ filled: Int, _ differing: [String]) -> String
  var lookupNotFound: String { get }
  /// The look-up could not reach a catalogue: why (the first failure), said whole in the language.
  func lookupWaiting(_ failure: LookupFailure?) -> String
  /// Why a catalogue did not answer, briefly.
  func reason(_ failure: LookupFailure) -> String
  var keySearchLibraries: String { get }
  var copySearching: String { get }
  var copySearchNothing: String { get }
  /// No target answered: why, for each; the desk shows the records when the network brings them.
  func copySearchWaiting(_ failures: [LookupFailure]) -> String
  var copySearchNeedsWords: String { get }
  var copySearchNoTargets: String { get }
  var copySearchUnavailable: String { get }
  var copyChoiceTitle: String { get }
  func copyChoiceLines(found: Int, shown: Int, holdsMore: Bool) -> String
  /// The form filled from a copied record; what is wrong with the record's ISBN, if anything.
  func copyFilled(_ target: String, _ filled: Int, isbnProblem: ISBNError?) -> String
  func lookupOffer(_ provider: String) -> String
  var keyApplyOffer: String { get }
  var keyDismissOffer: String { get }
  var scanPrompt: String { get }
  var keyScanFile: String { get }
  var keyComplete: String { get }
  func noCodeFound(_ path: String) -> String
  /// Why an image file gave no codes.
  func message(_ error: ImageError) -> String
  func codesFound(_ count: Int, _ path: String) -> String

  // Help
  var helpTitle: String { get }
  func helpHeading(_ topic: HelpTopic) -> String
  /// What a key does, as the help says it.
  func meaning(_ meaning: KeyMeaning) -> String
  /// How the help names the scanner's typing, which is no key.
  var aScan: String { get }
  /// What the screen is for and how work flows there.
  func helpAbout(_ topic: HelpTopic) -> String
  var helpHeadingEverywhere: String { get }

  /// A store error as lines in this language.
}

extension UIStrings {
  func sectionName(_ section: HomeScreen.Section) -> String {
    switch section {
    case .books: return sectionBooks
    case .readers: return sectionReaders
    case .desk: return sectionDesk
    case .overdue: return sectionOverdue
    case .statistics: return sectionStatistics
    case .stocktake: return sectionStocktake
    case .holdShelf: return sectionHoldShelf
    case .scan: return sectionScan
    case .export: return sectionExport
    case .conflicts: return sectionConflicts
    case .help: return sectionHelp
    }
  }
}

/// The library's words the screens say, in the interface's language.
extension UIStrings {
  public func messages(_ error: StoreError) -> [String] { words.messages(error) }
  public func label(_ field: Field) -> String { words.label(field) }
  public func statusName(_ status: CopyStatus) -> String { words.statusName(status) }
  public func conflictKind(_ kind: ConflictKind) -> String { words.conflictKind(kind) }
  public func conflictSummary(_ conflict: Conflict) -> String { words.conflictSummary(conflict) }
  public func conflictSides(_ conflict: Conflict) -> [String] { words.conflictSides(conflict) }
  public func remedy(_ kind: ConflictKind, number: Int) -> String { words.remedy(kind, number: number) }
  public func line(_ move: HoldMove) -> String { words.line(move) }
  public func lines(_ mark: SyncMark) -> [String] { words.lines(mark) }
}

/// The interface language: `--lang`, else Russian when `LC_ALL`, `LC_MESSAGES` or `LANG` says
/// `ru_*`, else English.
extension InterfaceLanguage {
  public var strings: any UIStrings {
    switch self {
    case .english: return EnglishStrings()
    case .russian: return RussianStrings()
    }
  }
}

extension UIStrings {
  /// The keys' column of a help line.
  func helpName(_ declaration: KeyDeclaration) -> String {
    [.aScan, .scanIntoCheck].contains(declaration.meaning) ? aScan : declaration.helpName
  }
}
