/// A key, or a few keys doing one thing, as the help describes it: declared once for a screen,
/// whatever state the screen is in. A screen's actions are made from these (`ScreenAction`), so
/// the help lists what the screens do, from the same declarations.
struct KeyDeclaration: Hashable, Sendable {
  /// The keys; a `ScreenAction` made from the declaration takes these or some of them.
  let keys: [Key]
  /// The keys as the help names them, when not their own names joined (`↑ ↓`, `1 2 …`).
  let name: String?
  let meaning: KeyMeaning
  /// Keys the help describes that no `ScreenAction` takes: a line editor's or a list's own, the
  /// marks of a list, a scan.
  let isLegend: Bool

  init(_ keys: Key..., name: String? = nil, means meaning: KeyMeaning) {
    self.keys = keys
    self.name = name
    self.meaning = meaning
    isLegend = false
  }

  init(keys: [Key], name: String? = nil, means meaning: KeyMeaning, isLegend: Bool = false) {
    self.keys = keys
    self.name = name
    self.meaning = meaning
    self.isLegend = isLegend
  }

  /// Keys the help names but that another part of the screen takes (a field's editor, a list).
  static func legend(_ name: String, _ meaning: KeyMeaning, keys: [Key] = []) -> KeyDeclaration {
    KeyDeclaration(keys: keys, name: name, means: meaning, isLegend: true)
  }

  /// The keys' column in the help.
  var helpName: String { name ?? keys.map(\.hintName).joined(separator: ", ") }
}

/// What a key does, as the help says it in each language (`UIStrings.meaning`).
public enum KeyMeaning: Hashable, Sendable, CaseIterable {
  // Everywhere.
  case help, undoLast, conflictsEverywhere, quit
  // Home.
  case homeBooks, homeReaders, homeDesk, homeOverdue, homeHoldShelf, homeScan, homeExport, homeConflicts
  case homeStatistics
  case chooseSection, quitAsking
  // The book and reader lists.
  case move, page, firstLast, open, searchAsYouType, newRecord, edit, exportList, backOrClear, backAsEscape
  case filterBooks, filterReaders, listMarks
  // A book, a reader.
  case issueToReader, takeBack, renew, delete, copyStatus, placeHold, applyOffer, dismissOffer, exportBook, back
  case chooseLoan, openBook, issueBooks, takeBackChosen, renewChosen, readerHolds, exportReader
  // A form.
  case nextField, previousField, moveInField, erase, eraseToEnds, undoTyping, save, takeFound, searchLibraries, cancelForm
  // The Desk.
  case applyCode, aScan, findReader, chooseVisitLoan, returnChosen, renewAll, receipt, undoVisit, nextReader
  // Overdue books, the hold shelf, an image.
  case chooseReader, openReader, chooseCopy, cancelHold, expireHolds, completeName, scanFile, chooseCode
  // Statistics.
  case chooseMonth, splitFigures
  // Stocktaking.
  case homeStocktake, applyShelfCode, setPlace, stocktakeReport, startCheck, chooseScan, moveRecordHere
  case returnNow, makeAvailable, addUnknown, scrollReport, scanImageIntoCheck, closeCheck
  case scanIntoCheck
  // Conflicts.
  case chooseConflict, openConflict, settleSide, keepAsItIs, renumber, sameRecord, restore, takeRenewalsBack
  case acknowledgeReturn, resend, dropChange, goOnWithScan
}

/// The keys the app takes on every screen before the screen sees them.
enum AppKeys {
  /// F1; a screen without a text field takes ? too (a form types it).
  static let help = KeyDeclaration(.function(1), name: "F1, ?", means: .help)
  static let undo = KeyDeclaration(.function(8), .control("z"), means: .undoLast)
  static let conflicts = KeyDeclaration(.function(9), means: .conflictsEverywhere)
  static let quit = KeyDeclaration(.function(10), .control("c"), means: .quit)
  static let all = [help, undo, conflicts, quit]
}
