import DeskDomain
import DeskStorage

/// The words of the Stocktake screen and its report.
public protocol StocktakeStrings {
  /// A book's field: the day a closed check last found it on the shelves.
  var labelLastChecked: String { get }

  // Home and titles
  var sectionStocktake: String { get }
  /// «Stocktaking: Hall 1, 2026».
  func stocktakeTitle(_ name: String) -> String

  // No check open
  var noOpenCheck: String { get }
  /// How a check is opened, here and from the command line.
  var startCheckAdvice: String { get }
  var keyStartCheck: String { get }
  var startCheckTitle: String { get }
  var checkNameQuestion: String { get }
  var checkPlacesQuestion: String { get }
  /// A check that would expect no copy is not opened.
  var checkCoversNothing: String { get }
  func checkStarted(_ number: Int, _ name: String, expected: Int) -> String

  // The check being scanned
  func checkLine(_ number: Int, _ name: String, opened: String, expected: Int) -> String
  /// Other checks open besides this one: scans go into this, the latest.
  func otherChecksOpen(_ count: Int) -> String
  func placeLine(_ place: String) -> String
  /// The place is not said: how to say it.
  var placeNotSaid: String { get }
  /// Found of the copies to find on the shelves (those expected less those `away`: out on loan,
  /// on the hold shelf, in processing), and each kind of surprise counted.
  func stocktakeCounts(found: Int, expected: Int, away: Int, counts: [String: Int]) -> String
  var stocktakePrompt: String { get }
  var lastScans: String { get }
  var noScansYet: String { get }
  /// What a scan found, in a few words (the kind, and what it names).
  func findingText(_ finding: StocktakeFinding) -> String
  /// A surprise dealt with since (read back from the library): what was done.
  func settledText(_ finding: StocktakeFinding) -> String
  /// The key that deals with a surprise, and what it does («↓ m updates the record»).
  func findingAdvice(_ finding: StocktakeFinding) -> String?
  /// An unknown number that is an ISBN: the copy's own number is wanted.
  var isbnNotCopy: String { get }

  // Keys and what they did
  var keyPlace: String { get }
  var keyReport: String { get }
  var keyImage: String { get }
  var keyChooseScan: String { get }
  var keyUpdatePlace: String { get }
  var keyReturnNow: String { get }
  var keyMakeAvailable: String { get }
  var keyNewRecord: String { get }
  var placeTitle: String { get }
  var placeQuestion: String { get }
  func placeSet(_ place: String) -> String
  var placeCleared: String { get }
  /// A place no copy's record names: each copy scanned there would be misplaced.
  func placeNotRecorded(_ place: String) -> String
  /// A copy's number given as the place (scanned while the place box was open): counted as a copy.
  func copyNotPlace(_ inventory: String, place: String) -> String
  func recordPlaceUpdated(_ inventory: String, _ place: String) -> String
  func madeAvailable(_ inventory: String) -> String
  func addedAsNewBook(_ inventory: String) -> String
  var stocktakeRefusedTitle: String { get }

  // Closing
  var keyCloseCheck: String { get }
  var closeCheckTitle: String { get }
  func closeCheckQuestion(_ name: String, missing: Int) -> String
  func markMissingLostQuestion(_ missing: Int) -> String
  /// Closed without marking the missing lost: the central is not reached.
  func missingNotMarkedOffline(_ missing: Int) -> String
  func checkClosed(_ number: Int, _ name: String, missing: Int, markedLost: Bool) -> String

  // The report
  func reportTitle(_ name: String) -> String
  func reportTotals(expected: Int, present: Int, missing: Int) -> String
  var reportByPlace: String { get }
  var reportBySection: String { get }
  var reportColumns: [String] { get }
  var reportMissing: String { get }
  /// Above the list of surprises, each copy or number once.
  func reportSurprises(_ count: Int) -> String
  var reportNoneMissing: String { get }
  /// Where the missing list, CSV and act are had in full.
  var reportCommandAdvice: String { get }
}
