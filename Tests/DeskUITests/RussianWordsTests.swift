import DeskDomain
import DeskLookup
import DeskStorage
import DeskSync
import Testing

@testable import DeskUI

/// The Russian desk speaks Russian everywhere: every message of its tables, filled with Russian
/// sample values, holds no Latin word but the names a Russian librarian reads as names (keys,
/// formats, programs, catalogues). A word of English left in a Russian sentence fails here.
@Suite struct RussianWordsTests {
  /// Latin words a Russian screen may show: key names, the letters of keys, formats and standards,
  /// programs and catalogues by their own names.
  static let names: Set<String> = [
    // Keys.
    "F", "Enter", "Esc", "Tab", "Ctrl", "Shift", "PgUp", "PgDn", "Home", "End", "Delete", "Backspace",
    // Formats, standards, encodings.
    "ISBN", "QR", "PNG", "JPEG", "HTTP", "URL", "Windows", "e", "mail", "CSV", "SRU",
    // Catalogues and programs by their names, the printer's command, and the command lines and
    // settings a message tells the librarian to run.
    "Google", "Books", "Open", "Library", "circdesk", "lp", "central", "join", "init", "sync", "overdue",
    "notices", "csv", "url", "desk", "CIRCDESK", "CENTRAL", "stats", "stocktake", "start", "report", "act",
    "target", "add", "rsl", "loc",
    // The prefix a shelf's label carries, as it is printed and scanned.
    "PLACE",
  ]

  /// Every text of the Russian tables, with the name of what gave it.
  static func everyText() -> [(String, String)] {
    let s = RussianStrings()
    let clock = FixedClock(Timestamp(millisecondsSinceEpoch: 1_795_000_000_000))
    let now = clock.moment.instant
    var texts: [(String, String)] = []
    texts.append(("appName", s.appName))
    texts.append(("homeTitle", s.homeTitle))
    texts.append(("statusCounts", s.statusCounts(3, 3, 3, 3)))
    texts.append(("holdShelfCounts", s.holdShelfCounts(3, 3)))
    texts.append(("holdsHeader", s.holdsHeader(3)))
    texts.append(("bookOnHoldShelf", s.bookOnHoldShelf("Тест", "Тест", until: "Тест")))
    texts.append(("booksWaitingForReader", s.booksWaitingForReader(3)))
    texts.append(("holdCopy", s.holdCopy("Тест")))
    texts.append(("holdWaiting", s.holdWaiting("Тест", until: "Тест")))
    texts.append(("holdWaitingElsewhere", s.holdWaitingElsewhere("Тест", desk: "Тест", until: "Тест")))
    texts.append(("holdQueued", s.holdQueued(placed: "Тест")))
    texts.append(("holdSuspended", s.holdSuspended(until: "Тест")))
    for v0 in HoldState.allCases { texts.append(("holdEnded", s.holdEnded(v0))) }
    texts.append(("tooSmall", s.tooSmall(3, 3, 3, 3)))
    texts.append(("scansHeld", s.scansHeld(3)))
    texts.append(("keyHelp", s.keyHelp))
    texts.append(("keyQuit", s.keyQuit))
    texts.append(("keyDone", s.keyDone))
    texts.append(("keyClear", s.keyClear))
    texts.append(("keyOpen", s.keyOpen))
    texts.append(("keyChoose", s.keyChoose))
    texts.append(("keySearch", s.keySearch))
    texts.append(("keyNew", s.keyNew))
    texts.append(("keyEdit", s.keyEdit))
    texts.append(("keyFilter", s.keyFilter))
    texts.append(("keyBack", s.keyBack))
    texts.append(("keyIssue", s.keyIssue))
    texts.append(("keyReturn", s.keyReturn))
    texts.append(("keyRenew", s.keyRenew))
    texts.append(("keyDelete", s.keyDelete))
    texts.append(("keySave", s.keySave))
    texts.append(("keyNextField", s.keyNextField))
    texts.append(("keyCancel", s.keyCancel))
    texts.append(("keyApply", s.keyApply))
    texts.append(("keyFindReader", s.keyFindReader))
    texts.append(("keyUndo", s.keyUndo))
    texts.append(("keyEndReader", s.keyEndReader))
    texts.append(("keyScroll", s.keyScroll))
    texts.append(("keyRenewAll", s.keyRenewAll))
    texts.append(("keyReceipt", s.keyReceipt))
    texts.append(("keyDesk", s.keyDesk))
    texts.append(("keyOverdue", s.keyOverdue))
    texts.append(("dialogOK", s.dialogOK))
    texts.append(("dialogYesNo", s.dialogYesNo))
    texts.append(("dialogPrompt", s.dialogPrompt))
    texts.append(("dialogChoice", s.dialogChoice))
    texts.append(("quitTitle", s.quitTitle))
    texts.append(("quitUnsaved", s.quitUnsaved))
    texts.append(("quitDuringVisit", s.quitDuringVisit("Тест")))
    texts.append(("quitQuestion", s.quitQuestion))
    texts.append(("errorTitle", s.errorTitle))
    texts.append(("cannotSaveTitle", s.cannotSaveTitle))
    texts.append(("discardTitle", s.discardTitle))
    texts.append(("discardQuestion", s.discardQuestion))
    texts.append(("deleteTitle", s.deleteTitle))
    texts.append(("deleteRefusedTitle", s.deleteRefusedTitle))
    texts.append(("issueTitle", s.issueTitle))
    texts.append(("issueRefusedTitle", s.issueRefusedTitle))
    texts.append(("returnRefusedTitle", s.returnRefusedTitle))
    texts.append(("renewRefusedTitle", s.renewRefusedTitle))
    texts.append(("undoRefusedTitle", s.undoRefusedTitle))
    texts.append(("unknownCodeTitle", s.unknownCodeTitle))
    texts.append(("sectionBooks", s.sectionBooks))
    texts.append(("sectionReaders", s.sectionReaders))
    texts.append(("sectionDesk", s.sectionDesk))
    texts.append(("sectionScan", s.sectionScan))
    texts.append(("sectionExport", s.sectionExport))
    texts.append(("sectionHelp", s.sectionHelp))
    texts.append(("sectionOverdue", s.sectionOverdue))
    texts.append(("sectionHoldShelf", s.sectionHoldShelf))
    texts.append(("holdShelfTitleCount", s.holdShelfTitleCount(3)))
    texts.append(("holdShelfEmpty", s.holdShelfEmpty))
    texts.append(("keyExpire", s.keyExpire))
    texts.append(("keyCancelHold", s.keyCancelHold))
    texts.append(("keyHolds", s.keyHolds))
    texts.append(("holdsTitle", s.holdsTitle))
    texts.append(("chooseHold", s.chooseHold))
    texts.append(("noActiveHolds", s.noActiveHolds))
    texts.append(("suspendHoldAction", s.suspendHoldAction))
    texts.append(("resumeHoldAction", s.resumeHoldAction))
    texts.append(("suspendUntilPrompt", s.suspendUntilPrompt))
    texts.append(("notADate", s.notADate("Тест")))
    texts.append(("holdSuspendedNotice", s.holdSuspendedNotice("Тест", until: "Тест")))
    texts.append(("holdResumedNotice", s.holdResumedNotice("Тест")))
    texts.append(("expiredTitle", s.expiredTitle))
    texts.append(("nothingExpired", s.nothingExpired))
    texts.append(("holdFreed", s.holdFreed("Тест")))
    texts.append(("overdueLeadsThere", s.overdueLeadsThere))
    texts.append(("exportPrompt", s.exportPrompt))
    texts.append(("keyExport", s.keyExport))
    texts.append(("exported", s.exported(3, "Тест")))
    texts.append(("libraryCounts", s.libraryCounts(3, 3, 3)))
    texts.append(("overdueBooks", s.overdueBooks(3)))
    texts.append(("searchLabel", s.searchLabel))
    texts.append(("searching", s.searching))
    texts.append(("searchHint", s.searchHint))
    texts.append(("matches", s.matches(3)))
    texts.append(("didYouMean", s.didYouMean("Тест")))
    texts.append(("searchedFor", s.searchedFor("Тест")))
    texts.append(("recentHeading", s.recentHeading))
    texts.append(("allHeading", s.allHeading))
    texts.append(("isbnNotHere", s.isbnNotHere))
    texts.append(("booksTitle", s.booksTitle("Тест")))
    for v0 in BookFilter.allCases { texts.append(("filterName", s.filterName(v0))) }
    texts.append(("readersTitle", s.readersTitle("Тест")))
    for v0 in ReaderFilter.allCases { texts.append(("readerFilterName", s.readerFilterName(v0))) }
    texts.append(("columnInventory", s.columnInventory))
    texts.append(("columnAuthor", s.columnAuthor))
    texts.append(("columnTitle", s.columnTitle))
    texts.append(("columnYear", s.columnYear))
    texts.append(("columnStatus", s.columnStatus))
    texts.append(("columnTicket", s.columnTicket))
    texts.append(("columnName", s.columnName))
    texts.append(("columnPhone", s.columnPhone))
    texts.append(("columnBooksOut", s.columnBooksOut))
    texts.append(("columnOverdue", s.columnOverdue))
    texts.append(("noBooks", s.noBooks))
    texts.append(("noReaders", s.noReaders))
    texts.append(("issuedStatus", s.issuedStatus("Тест", "Тест")))
    texts.append(("overdueStatus", s.overdueStatus("Тест", "Тест")))
    texts.append(("overdueCount", s.overdueCount(3)))
    for v0 in Field.allCases { texts.append(("label", s.label(v0))) }
    texts.append(("labelAuthor", s.labelAuthor))
    texts.append(("labelName", s.labelName))
    texts.append(("labelAddress", s.labelAddress))
    texts.append(("none", s.none))
    texts.append(("bookTitle", s.bookTitle("Тест")))
    texts.append(("readerTitle", s.readerTitle("Тест")))
    texts.append(("bookAvailable", s.bookAvailable))
    for v0 in CopyStatus.allCases { texts.append(("statusName", s.statusName(v0))) }
    for v0 in CopyStatus.allCases { texts.append(("bookNotForLoan", s.bookNotForLoan(v0))) }
    texts.append(("statusTitle", s.statusTitle))
    texts.append(("statusQuestion", s.statusQuestion("Тест")))
    for v0 in CopyStatus.allCases { texts.append(("statusChanged", s.statusChanged("Тест", v0))) }
    texts.append(("keyStatus", s.keyStatus))
    texts.append(("bookIssuedTo", s.bookIssuedTo("Тест", "Тест", "Тест")))
    texts.append(("bookOverdueTo", s.bookOverdueTo("Тест", "Тест", "Тест", 3)))
    texts.append(("loanHistory", s.loanHistory(3)))
    texts.append(("booksOut", s.booksOut(3)))
    texts.append(("history", s.history(3)))
    texts.append(("readerHasOverdue", s.readerHasOverdue(3)))
    texts.append(("readerAtLimit", s.readerAtLimit(3)))
    texts.append(("loanDates", s.loanDates("Тест", "Тест")))
    texts.append(("renewedTimes", s.renewedTimes(3)))
    texts.append(("returnedOn", s.returnedOn("Тест")))
    texts.append(("undoneOn", s.undoneOn("Тест")))
    texts.append(("overdueBy", s.overdueBy(3)))
    texts.append(("issuePromptTicket", s.issuePromptTicket("Тест")))
    texts.append(("keyHold", s.keyHold))
    texts.append(("holdTitle", s.holdTitle))
    texts.append(("holdRefusedTitle", s.holdRefusedTitle))
    texts.append(("holdPromptTicket", s.holdPromptTicket("Тест")))
    texts.append(("holdPlaced", s.holdPlaced("Тест", "Тест", position: 3)))
    texts.append(("issuePromptInventory", s.issuePromptInventory("Тест")))
    texts.append(("issuedManyNotice", s.issuedManyNotice(3, "Тест")))
    texts.append(("deleteBookQuestion", s.deleteBookQuestion("Тест")))
    texts.append(("deleteReaderQuestion", s.deleteReaderQuestion("Тест")))
    texts.append(("deletedNotice", s.deletedNotice("Тест")))
    texts.append(("savedNotice", s.savedNotice("Тест")))
    texts.append(("addressFilled", s.addressFilled("Тест")))
    texts.append(("newBookTitle", s.newBookTitle))
    texts.append(("editBookTitle", s.editBookTitle("Тест")))
    texts.append(("newReaderTitle", s.newReaderTitle))
    texts.append(("editReaderTitle", s.editReaderTitle("Тест")))
    texts.append(("requiredNote", s.requiredNote))
    texts.append(("deskTitle", s.deskTitle))
    texts.append(("deskPromptNoReader", s.deskPromptNoReader))
    texts.append(("deskPromptReader", s.deskPromptReader))
    texts.append(("deskReader", s.deskReader("Тест", "Тест", "Тест")))
    texts.append(("sessionLog", s.sessionLog))
    texts.append(("sessionLogEmpty", s.sessionLogEmpty))
    texts.append(("nothingToUndo", s.nothingToUndo))
    texts.append(("undoneAlready", s.undoneAlready))
    texts.append(("undoTitle", s.undoTitle))
    texts.append(("undoQuestion", s.undoQuestion("Тест", [.earlierVisit, .otherScreen, .older])))
    texts.append(("nothingTypedToUndo", s.nothingTypedToUndo))
    texts.append(("andMore", s.andMore(3)))
    texts.append(("unknownCode", s.unknownCode("Тест")))
    texts.append(("unknownCodeMessage", s.unknownCodeMessage("Тест")))
    texts.append(("logIssued", s.logIssued("Тест", "Тест", "Тест", "Тест")))
    texts.append(("logReturned", s.logReturned("Тест", "Тест", "Тест")))
    texts.append(("logSelected", s.logSelected("Тест", "Тест")))
    texts.append(("logUndoIssue", s.logUndoIssue("Тест", "Тест")))
    texts.append(("logUndoReturn", s.logUndoReturn("Тест", "Тест", "Тест")))
    texts.append(("cameBackLate", s.cameBackLate(3)))
    texts.append(("holdShelfTitle", s.holdShelfTitle))
    texts.append(("logRenewed", s.logRenewed("Тест", "Тест", "Тест")))
    texts.append(("logTransferred", s.logTransferred("Тест", "Тест", "Тест", "Тест", "Тест")))
    texts.append(("logUndoRenewal", s.logUndoRenewal("Тест", "Тест", "Тест")))
    texts.append(("logUndoTransfer", s.logUndoTransfer("Тест", "Тест", "Тест")))
    texts.append(("logLeftAsItWas", s.logLeftAsItWas("Тест", "Тест")))
    texts.append(("readerHasOverdueAtDesk", s.readerHasOverdueAtDesk(3)))
    texts.append(("transferTitle", s.transferTitle))
    texts.append(("transferQuestion", s.transferQuestion("Тест", "Тест", "Тест", "Тест", "Тест", "Тест", "Тест")))
    texts.append(("copyOnShelf", s.copyOnShelf("Тест", "Тест")))
    texts.append(("copyOut", s.copyOut("Тест", "Тест", "Тест", "Тест")))
    texts.append(("chooseCopyToIssue", s.chooseCopyToIssue("Тест")))
    texts.append(("chooseCopyToReturn", s.chooseCopyToReturn("Тест")))
    texts.append(("chooseCopyHint", s.chooseCopyHint))
    texts.append(("scanReaderFirst", s.scanReaderFirst))
    texts.append(("renewedAll", s.renewedAll(3)))
    texts.append(("receiptTitle", s.receiptTitle))
    texts.append(("receiptEmpty", s.receiptEmpty))
    texts.append(("receiptPrompt", s.receiptPrompt(true)))
    texts.append(("receiptPrinted", s.receiptPrinted))
    texts.append(("receiptWritten", s.receiptWritten("Тест")))
    texts.append(("receiptHeading", s.receiptHeading("Тест", "Тест")))
    texts.append(("receiptReader", s.receiptReader("Тест", "Тест")))
    texts.append(("receiptIssued", s.receiptIssued))
    texts.append(("receiptRenewed", s.receiptRenewed))
    texts.append(("receiptReturned", s.receiptReturned))
    texts.append(("receiptDue", s.receiptDue("Тест")))
    texts.append(("receiptThanks", s.receiptThanks))
    texts.append(("overdueTitle", s.overdueTitle(3)))
    texts.append(("noOverdue", s.noOverdue))
    texts.append(("overdueReaderLine", s.overdueReaderLine(3, "Тест", "Тест", "Тест")))
    texts.append(("overdueBookDates", s.overdueBookDates("Тест", 3)))
    texts.append(("scanKept", s.scanKept("Тест")))
    texts.append(("scannedLabelOfBook", s.scannedLabelOfBook("Тест")))
    texts.append(("keysNotApplied", s.keysNotApplied(3)))
    texts.append(("scannedRecord", s.scannedRecord))
    texts.append(("scannedRecordRemarksTitle", s.scannedRecordRemarksTitle))
    texts.append(("scannedNewISBN", s.scannedNewISBN("Тест")))
    texts.append(("scannedCopies", s.scannedCopies(3)))
    texts.append(("keyTakeFound", s.keyTakeFound))
    texts.append(("lookingUp", s.lookingUp("Тест")))
    texts.append(("lookupFound", s.lookupFound("Тест", 3, ["Тест", "Проба"])))
    texts.append(("lookupNotFound", s.lookupNotFound))
    texts.append(("lookupWaiting", s.lookupWaiting(nil)))
    texts.append(("keySearchLibraries", s.keySearchLibraries))
    texts.append(("copySearching", s.copySearching))
    texts.append(("copySearchNothing", s.copySearchNothing))
    texts.append(("copySearchWaiting", s.copySearchWaiting([.timedOut("rsl"), .cannotConnect("loc")])))
    texts.append(("copySearchNeedsWords", s.copySearchNeedsWords))
    texts.append(("copySearchNoTargets", s.copySearchNoTargets))
    texts.append(("copySearchUnavailable", s.copySearchUnavailable))
    texts.append(("copyChoiceTitle", s.copyChoiceTitle))
    texts.append(("copyChoiceLines", s.copyChoiceLines(found: 14, shown: 12, holdsMore: true)))
    texts.append(
      ("copyFilled", s.copyFilled("rsl", 7, isbnProblem: .wrongCheckDigit(text: "978-5-17-090335-2", expected: "1"))))
    texts.append(("reason", s.reason(.brokenRecords("rsl", 2))))
    texts.append(("lookupOffer", s.lookupOffer("Тест")))
    texts.append(("keyApplyOffer", s.keyApplyOffer))
    texts.append(("keyDismissOffer", s.keyDismissOffer))
    texts.append(("scanPrompt", s.scanPrompt))
    texts.append(("keyScanFile", s.keyScanFile))
    texts.append(("keyComplete", s.keyComplete))
    texts.append(("noCodeFound", s.noCodeFound("Тест")))
    texts.append(("codesFound", s.codesFound(3, "Тест")))
    texts.append(("helpTitle", s.helpTitle))
    for v0 in HelpTopic.allCases { texts.append(("helpHeading", s.helpHeading(v0))) }
    for v0 in KeyMeaning.allCases { texts.append(("meaning", s.meaning(v0))) }
    for v0 in HelpTopic.allCases { texts.append(("helpAbout", s.helpAbout(v0))) }
    texts.append(("helpHeadingEverywhere", s.helpHeadingEverywhere))
    texts.append(("aScan", s.aScan))
    texts.append(("syncedSecondsAgo", s.syncedSecondsAgo(3)))
    texts.append(("syncedMinutesAgo", s.syncedMinutesAgo(3)))
    texts.append(("syncedAt", s.syncedAt("Тест")))
    texts.append(("notSyncedYet", s.notSyncedYet))
    texts.append(("syncing", s.syncing))
    texts.append(("offlineSince", s.offlineSince("Тест")))
    texts.append(("syncRefused", s.syncRefused))
    texts.append(("changesWaiting", s.changesWaiting(3)))
    texts.append(("clockOff", s.clockOff(ClockOffset(milliseconds: -31_536_000_000))))
    texts.append(("conflictsBadge", s.conflictsBadge(3, key: "Тест")))
    texts.append(("sectionConflicts", s.sectionConflicts))
    texts.append(("homeCentral", s.homeCentral("Тест", desk: "Тест")))
    texts.append(("homeLastSync", s.homeLastSync("Тест")))
    texts.append(("clockOffAdvice", s.clockOffAdvice(ClockOffset(milliseconds: -31_536_000_000))))
    texts.append(("clockOffWarning", s.clockOffWarning(ClockOffset(milliseconds: -31_536_000_000))))
    texts.append(("unsyncedLegend", s.unsyncedLegend))
    texts.append(("unsyncedChanges", s.unsyncedChanges(3)))
    texts.append(("recordConflict", s.recordConflict(3, "Тест", "Тест")))
    texts.append(("conflictsTitle", s.conflictsTitle))
    texts.append(("keyConflicts", s.keyConflicts))
    texts.append(("noConflicts", s.noConflicts))
    texts.append(("conflictTitle", s.conflictTitle(3, "Тест")))
    for v0 in ConflictKind.allCases { texts.append(("conflictKind", s.conflictKind(v0))) }
    texts.append(("conflictRaised", s.conflictRaised("Тест")))
    texts.append(("conflictSettledAlready", s.conflictSettledAlready("Тест", "Тест")))
    texts.append(("conflictWhatSettles", s.conflictWhatSettles))
    texts.append(("sideHeading", s.sideHeading(3)))
    texts.append(("actionHolder", s.actionHolder(3, ticket: "Тест")))
    texts.append(("actionKeepBoth", s.actionKeepBoth))
    texts.append(("actionRenumber", s.actionRenumber))
    texts.append(("actionDuplicate", s.actionDuplicate(isBook: true)))
    texts.append(("actionRestore", s.actionRestore))
    texts.append(("actionKeepDeleted", s.actionKeepDeleted))
    texts.append(("actionResend", s.actionResend))
    texts.append(("actionDrop", s.actionDrop(byCentral: true)))
    texts.append(("actionKeepRenewals", s.actionKeepRenewals))
    texts.append(("actionTakeBackRenewals", s.actionTakeBackRenewals(limit: 3, due: "Тест")))
    texts.append(("confirmTakeBackRenewals", s.confirmTakeBackRenewals(limit: 3, due: "Тест")))
    texts.append(("actionAcknowledge", s.actionAcknowledge))
    texts.append(("actionGoOn", s.actionGoOn))
    texts.append(("renumberPrompt", s.renumberPrompt(isBook: true)))
    texts.append(("confirmHolder", s.confirmHolder("Тест")))
    texts.append(("actionCopy", s.actionCopy("Тест")))
    texts.append(("confirmCopy", s.confirmCopy("Тест")))
    texts.append(("confirmDuplicate", s.confirmDuplicate(isBook: true)))
    texts.append(("confirmKeepDeleted", s.confirmKeepDeleted))
    texts.append(("keptBothOpen", s.keptBothOpen(3)))
    texts.append(("conflictScanned", s.conflictScanned))

    for section in HomeScreen.Section.allCases { texts.append(("sectionName", s.sectionName(section))) }
    var remarks = BookRecordLabel.Remarks()
    remarks.unknownLines = ["Строка"]
    remarks.isbnProblem = .wrongCheckDigit(text: "978-5-17-079585-0", expected: "7")
    texts += s.scannedRecordRemarks(remarks).map { ("scannedRecordRemarks", $0) }
    let syncErrors: [SyncError] = [
      .central(.cannotConnect("could not connect to server: Connection refused")),
      .central(.query("ERROR: permission denied for table change")), .central(.query("ERROR: deadlock detected")),
      .central(.newerSchema(found: 9, supported: 4)), .central(.notACentral(tables: ["customers"])), .central(.noURL),
      .central(.connectionLost("server closed the connection unexpectedly")), .notJoined,
      .otherLibrary(desk: "Л1", central: "Л2"), .centralNotReady(found: 0, needed: 4),
      .centralNotReady(found: 2, needed: 4), .centralNotReady(found: 9, needed: 4), .deskNameTaken("Абонемент"),
      .store(.loanChanged),
    ]
    texts += syncErrors.map { ("syncFailure", s.syncFailure($0)) }
    let failures: [LookupFailure] = [
      .timedOut("Google Books"), .cannotConnect("Google Books"), .httpStatus("Open Library", 503),
      .malformed("Open Library", "Unexpected character 'x' at 3"), .failed("Google Books", "SSL connect error"),
    ]
    texts += failures.map { ("lookupWaiting", s.lookupWaiting($0)) }
    return texts
  }

  /// The Latin words of a text: letters of the Latin script in a row.
  static func latinWords(_ text: String) -> [String] {
    var words: [String] = []
    var word = ""
    for character in text + " " {
      if character.isASCII, character.isLetter {
        word.append(character)
      } else {
        if !word.isEmpty { words.append(word) }
        word = ""
      }
    }
    return words
  }

  /// The Latin words of a text that are not names; a single letter is a key (`w`, `Ctrl-Z`).
  static func foreignWords(_ text: String) -> [String] {
    latinWords(text).filter { $0.count > 1 && !names.contains($0) }
  }

  @Test func everyMessageOfTheRussianTablesIsRussian() {
    let texts = RussianWordsTests.everyText()
    #expect(texts.count > 300)
    for (name, text) in texts {
      let foreign = RussianWordsTests.foreignWords(text)
      #expect(foreign.isEmpty, "\(name): «\(text)» has \(foreign)")
    }
  }

  /// The check itself finds an English word left in a Russian sentence.
  @Test func anEnglishWordInARussianSentenceIsFound() {
    let text = "Поиск ждёт сети (Google Books cannot be reached (no network?))"
    #expect(RussianWordsTests.foreignWords(text) == ["cannot", "be", "reached", "no", "network"])
  }
}
