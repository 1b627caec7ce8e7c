import DeskDomain
import DeskStorage

extension EnglishStrings {
  public var labelLastChecked: String { "Last checked" }
  public var sectionStocktake: String { "Stocktaking: check the shelves" }
  public func stocktakeTitle(_ name: String) -> String { "Stocktaking: \(name)" }

  public var noOpenCheck: String { "No check of the stock is open." }
  public var startCheckAdvice: String {
    "n opens one here, over the whole stock or the storage places you name. `circdesk stocktake start` opens "
      + "one by shelf codes and statuses too."
  }
  public var keyStartCheck: String { "New check" }
  public var startCheckTitle: String { "New check of the stock" }
  public var checkNameQuestion: String { "The check's name (empty: by today's date):" }
  public var checkPlacesQuestion: String {
    "The storage places it covers, by the beginning of their names, separated by ; (empty: every place):"
  }
  public var checkCoversNothing: String {
    "No copy is kept in those places: the check was not opened. Name the places as the books' records do."
  }
  public func checkStarted(_ number: Int, _ name: String, expected: Int) -> String {
    "Check \(number) «\(name)» is open: \(expected) \(expected == 1 ? "copy" : "copies") expected"
  }

  public func checkLine(_ number: Int, _ name: String, opened: String, expected: Int) -> String {
    "Check \(number) «\(name)», opened \(opened): \(expected) \(expected == 1 ? "copy" : "copies") expected"
  }
  public func otherChecksOpen(_ count: Int) -> String {
    count == 1
      ? "another check is open too; scans go into this one" : "\(count) more checks are open; scans go into this one"
  }
  public func placeLine(_ place: String) -> String { "Place: \(place)   (F2 changes it, or scan the shelf's label)" }
  public var placeNotSaid: String { "Place: not said — F2 types it, or scan the shelf's label (PLACE:…)" }
  public func stocktakeCounts(found: Int, expected: Int, away: Int, counts: [String: Int]) -> String {
    let toFind = max(0, expected - away)
    let share = toFind > 0 ? " (\(min(100, found * 100 / toFind)) %)" : ""
    let surprises: [(String, String)] = [
      ("misplaced", "misplaced"), ("on-loan", "out but in hand"), ("not-in-stock", "lost but in hand"),
      ("outside-check", "other sections'"), ("unknown", "unknown"), ("scanned-again", "scanned twice"),
    ]
    let said = surprises.compactMap { kind, name in counts[kind].flatMap { $0 > 0 ? "\(name) \($0)" : nil } }
    let outside = away > 0 ? ["\(away) out, on the hold shelf or in processing"] : []
    return (["Found \(found) of \(toFind)\(share)"] + outside + said).joined(separator: " · ")
  }
  public var stocktakePrompt: String { "Scan each copy on the shelf, or type its number and Enter." }
  public var lastScans: String { "Last scans" }
  public var noScansYet: String { "Nothing scanned yet." }
  public func findingText(_ finding: StocktakeFinding) -> String {
    switch finding {
    case .found: return "found"
    case .misplaced(let recorded, let actual):
      return "misplaced: its record says \(recorded.isEmpty ? "no place" : recorded), found in \(actual)"
    case .onLoan(let reader, let ticket, let since):
      return "the catalogue says it is out to \(reader) (ticket \(ticket)) since \(since.iso)"
    case .notInStock(let status): return "the catalogue says it is \(statusName(status))"
    case .unknown: return "no copy with this number in the library"
    case .outsideCheck: return "another section's copy: not part of this check"
    case .scannedAgain: return "scanned before: counted once"
    case .isbn: return isbnNotCopy
    }
  }
  public func settledText(_ finding: StocktakeFinding) -> String {
    switch finding {
    case .misplaced(_, let actual): "misplaced: its record has been moved to \(actual)"
    case .onLoan: "was recorded as out: returned since"
    case .notInStock: "was recorded as lost or written off: available since"
    case .unknown: "was not in the library: added as a new book since"
    default: findingText(finding)
    }
  }
  public func findingAdvice(_ finding: StocktakeFinding) -> String? {
    switch finding {
    case .misplaced: "↓ m moves its record here"
    case .onLoan: "↓ r returns it now; or it is another copy"
    case .notInStock: "↓ a makes it available"
    case .unknown: "↓ n adds it as a new book"
    default: nil
    }
  }
  public var isbnNotCopy: String { "an ISBN, not a copy's number (not kept): scan the copy's inventory label" }

  public var keyPlace: String { "Place" }
  public var keyReport: String { "Report" }
  public var keyImage: String { "Image" }
  public var keyChooseScan: String { "Choose a scan" }
  public var keyUpdatePlace: String { "Move the record here" }
  public var keyReturnNow: String { "Return now" }
  public var keyMakeAvailable: String { "Make available" }
  public var keyNewRecord: String { "New book" }
  public var placeTitle: String { "The place being checked" }
  public var placeQuestion: String {
    "Where the copies scanned next stand, as the books' records name it (empty: not said):"
  }
  public func placeSet(_ place: String) -> String { "Checking \(place)" }
  public func placeNotRecorded(_ place: String) -> String {
    "No copy's record names the place «\(place)»: copies scanned here count as misplaced. F2 corrects it."
  }
  public func copyNotPlace(_ inventory: String, place: String) -> String {
    "\(inventory) is a copy's number, not a place: counted as a copy; the place stays "
      + (place.isEmpty ? "not said" : place)
  }
  public var placeCleared: String { "The place is not said: copies are not checked for their place" }
  public func recordPlaceUpdated(_ inventory: String, _ place: String) -> String {
    "\(inventory): its record's place is now \(place)"
  }
  public func madeAvailable(_ inventory: String) -> String { "\(inventory): available again" }
  public func addedAsNewBook(_ inventory: String) -> String { "\(inventory): added as a new book" }
  public var stocktakeRefusedTitle: String { "Not done" }

  public var keyCloseCheck: String { "Close the check" }
  public var closeCheckTitle: String { "Close the check" }
  public func closeCheckQuestion(_ name: String, missing: Int) -> String {
    "Close «\(name)»? No more scans go into it; each copy found keeps today as its last check."
      + (missing > 0 ? " \(missing) \(missing == 1 ? "copy is" : "copies are") missing." : "")
  }
  public func markMissingLostQuestion(_ missing: Int) -> String {
    "Record the \(missing) missing \(missing == 1 ? "copy" : "copies") as lost? Answer yes only when the "
      + "commission has signed the act; no leaves them as they are."
  }
  public func missingNotMarkedOffline(_ missing: Int) -> String {
    "The \(missing) missing \(missing == 1 ? "copy is" : "copies are") not recorded as lost: this desk does not "
      + "reach its central, so scans other desks made may not be here yet. Change their status on each book's "
      + "record once the desks have synced."
  }
  public func checkClosed(_ number: Int, _ name: String, missing: Int, markedLost: Bool) -> String {
    "Check \(number) «\(name)» is closed"
      + (missing == 0 ? "" : markedLost ? "; \(missing) missing recorded as lost" : "; \(missing) missing")
  }

  public func reportTitle(_ name: String) -> String { "Report: \(name)" }
  public func reportTotals(expected: Int, present: Int, missing: Int) -> String {
    "Expected \(expected), present \(present), missing \(missing)"
  }
  public var reportByPlace: String { "By storage place" }
  public var reportBySection: String { "By shelf-code section" }
  public var reportColumns: [String] { ["Expected", "Missing"] }
  public var reportMissing: String {
    "Missing (expected, neither scanned nor out on loan, on the hold shelf or in processing)"
  }
  public func reportSurprises(_ count: Int) -> String { "Surprises, each copy or number once (\(count))" }
  public var reportNoneMissing: String { "Nothing is missing." }
  public var reportCommandAdvice: String {
    "`circdesk stocktake report --csv` gives the missing as CSV; `circdesk stocktake act` the act to sign."
  }
}
