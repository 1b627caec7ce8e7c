/// What a copy is apart from being out or in, as IRBIS (910 ^A) and Koha (an item's lost,
/// withdrawn, damaged and not-for-loan flags) keep it. Only an available copy is issued; whether
/// it is out is what its loans say, never its status.
public enum CopyStatus: String, CaseIterable, Hashable, Sendable {
  case available
  /// Ordered, being catalogued or on its way: not on the shelf yet.
  case inProcessing = "processing"
  /// In repair or at the bindery.
  case damaged
  /// Read in the library only (not for loan).
  case referenceOnly = "reference"
  case lost
  case writtenOff = "written-off"

  /// True when the copy may be issued.
  public var circulates: Bool { self == .available }

  /// The status a word names: its own name (`written-off`, `reference`) or the words Koha and
  /// librarians use for it (`withdrawn`, `repair`, `not-for-loan`, `ordered`), in any case.
  public init?(word: String) {
    let folded = word.trimmingWhitespace().lowercased().map { $0 == "_" || $0 == " " ? "-" : $0 }
    switch String(folded) {
    case "available", "on-shelf", "free": self = .available
    case "processing", "in-processing", "ordered", "on-order", "in-transit": self = .inProcessing
    case "damaged", "repair", "in-repair", "bindery": self = .damaged
    case "reference", "reference-only", "not-for-loan", "notforloan": self = .referenceOnly
    case "lost", "missing": self = .lost
    case "written-off", "writtenoff", "withdrawn", "discarded": self = .writtenOff
    default: return nil
    }
  }

  /// The English words for it in messages and lists.
  public var label: String {
    switch self {
    case .available: return "available"
    case .inProcessing: return "in processing"
    case .damaged: return "damaged / in repair"
    case .referenceOnly: return "reference only"
    case .lost: return "lost"
    case .writtenOff: return "written off"
    }
  }

  /// The names a command line accepts, for its help.
  public static var words: String { allCases.map(\.rawValue).joined(separator: ", ") }
}
