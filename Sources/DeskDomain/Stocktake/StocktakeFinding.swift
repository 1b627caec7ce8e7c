/// What a scan during a check says of the copy, sorted as it happens.
public enum StocktakeFinding: Equatable, Sendable {
  /// On its shelf, as the record says.
  case found
  /// On the shelves, but in another place than its record's.
  case misplaced(recorded: String, actual: String)
  /// In hand, while the catalogue says it is out to a reader since a day.
  case onLoan(reader: String, ticket: String, since: LocalDate)
  /// In hand, while the catalogue says it is lost or written off.
  case notInStock(CopyStatus)
  /// A number the library has no copy with.
  case unknown
  /// A copy of the library the check does not cover (another section's): noted, never missing.
  case outsideCheck
  /// Scanned before in this check: counted once.
  case scannedAgain
  /// An ISBN (a book's barcode names its title, not a copy) where no copy has that number: not
  /// kept; the copy's own label is wanted.
  case isbn

  /// The word a scan's finding is kept and exported under.
  public var kind: String {
    switch self {
    case .found: "found"
    case .misplaced: "misplaced"
    case .onLoan: "on-loan"
    case .notInStock: "not-in-stock"
    case .unknown: "unknown"
    case .outsideCheck: "outside-check"
    case .scannedAgain: "scanned-again"
    case .isbn: "isbn"
    }
  }

  /// Every kind a scan is kept under.
  public static let kinds = [
    "found", "misplaced", "on-loan", "not-in-stock", "unknown", "outside-check", "scanned-again",
  ]

  /// True for a copy the check counts as present.
  public var isPresent: Bool {
    switch self {
    case .found, .misplaced, .onLoan, .notInStock: true
    case .unknown, .outsideCheck, .scannedAgain, .isbn: false
    }
  }

  /// True for what a librarian should look at: anything but a copy found where it belongs, or
  /// one scanned again.
  public var isSurprise: Bool {
    switch self {
    case .found, .scannedAgain: false
    default: true
    }
  }
}

/// What the library knows of a scanned copy when a check sorts the scan.
public struct StocktakeCopy: Equatable, Sendable {
  public var place: String
  public var status: CopyStatus
  /// Its open loan: the reader's name and ticket, and the day it went out.
  public var loan: (reader: String, ticket: String, since: LocalDate)?
  /// Whether the check's frozen list expects it.
  public var expected: Bool
  /// Whether it was scanned before in this check.
  public var scannedBefore: Bool

  public init(
    place: String, status: CopyStatus, loan: (reader: String, ticket: String, since: LocalDate)? = nil,
    expected: Bool, scannedBefore: Bool = false
  ) {
    (self.place, self.status, self.loan, self.expected, self.scannedBefore) =
      (place, status, loan, expected, scannedBefore)
  }

  public static func == (lhs: StocktakeCopy, rhs: StocktakeCopy) -> Bool {
    lhs.place == rhs.place && lhs.status == rhs.status && lhs.expected == rhs.expected
      && lhs.scannedBefore == rhs.scannedBefore && lhs.loan?.ticket == rhs.loan?.ticket
      && lhs.loan?.since == rhs.loan?.since
  }

  /// Sorts a scan of this copy, found at `place` (empty: the place being checked is not said).
  /// A copy scanned again is counted once; one the catalogue says is lost or written off is in
  /// hand all the same, whatever section it is of; another section's is noted; one the catalogue
  /// says is out is in hand; one elsewhere than its record is misplaced.
  public func finding(at place: String) -> StocktakeFinding {
    if scannedBefore { return .scannedAgain }
    if status == .lost || status == .writtenOff { return .notInStock(status) }
    if !expected { return .outsideCheck }
    if let loan { return .onLoan(reader: loan.reader, ticket: loan.ticket, since: loan.since) }
    let here = StocktakeScope.fold(place)
    if !here.isEmpty, !StocktakeScope.fold(self.place).isEmpty, here != StocktakeScope.fold(self.place) {
      return .misplaced(recorded: self.place, actual: place.trimmingWhitespace())
    }
    return .found
  }
}
