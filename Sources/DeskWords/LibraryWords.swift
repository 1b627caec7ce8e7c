import DeskDomain
import DeskExchange
import DeskStorage
import DeskSync

/// What the library says back, in one language: its errors and refusals, and the names of its
/// fields, copy statuses and conflicts. The desk and the command line both speak through these
/// words; a language is one type that has them all (its switches over each error are whole, so
/// the compiler names any it lacks).
public protocol LibraryWords: Sendable {
  /// A store error as lines, one per problem (each refusal, each field that is wrong).
  func messages(_ error: StoreError) -> [String]
  func label(_ field: Field) -> String
  func statusName(_ status: CopyStatus) -> String
  func conflictKind(_ kind: ConflictKind) -> String
  /// What a conflict between desks is about, in a line.
  func conflictSummary(_ conflict: Conflict) -> String
  /// What each side of a conflict says, a line each.
  func conflictSides(_ conflict: Conflict) -> [String]
  /// How a librarian settles conflict `number` from the command line.
  func remedy(_ kind: ConflictKind, number: Int) -> String
  /// What the librarian does with a copy a hold no longer keeps.
  func line(_ move: HoldMove) -> String
  /// What `book show` and `reader show` add of a record's place in the shared library: none for a
  /// record in step with the central.
  func lines(_ mark: SyncMark) -> [String]
  /// Where in its file a record of an import stands.
  func place(_ place: ImportPlace) -> String
  /// A record, copy or loan an import did not take, with where it stands in the file.
  func line(_ problem: ImportProblem) -> String
  func line(_ note: ImportNote) -> String
  /// What an import did (or, on a dry run, would do), in a line.
  func summary(_ report: ImportReport, dryRun: Bool) -> String
  /// The words before an import's problem (`skipped: `) and its note.
  var skipped: String { get }
  var note: String { get }
  func line(_ problem: KOC.Problem) -> String
  /// What a Koha offline transaction replayed did, after its file and line.
  func line(_ outcome: KOC.Outcome, source: String) -> String
  /// How many of a Koha file's transactions changed the library, and how many lines were not taken.
  func kocSummary(applied: Int, of transactions: Int, notTaken: Int) -> String
  /// Why a desk could not join or sync, in full (the central's own words among them).
  func message(_ error: SyncError) -> String
  /// Why a file could not be read or written.
  func message(_ error: FileError) -> String
  /// Why the records of some books could not be written to an ISO 2709 file.
  func line(_ problem: ISO2709Record.Problem, books: [String]) -> String
  /// What an export wrote: `count` records (or Koha transactions) to `destination`.
  func written(_ count: Int, transactions: Bool, to destination: String) -> String
  /// Fields tagged over 999, which ISO 2709's directory cannot hold.
  func fieldsLeftOut(_ count: Int) -> String
  /// A trial import (`--dry-run`) where there is no library yet: tried on an empty one.
  func trialOnEmptyLibrary(path: String) -> String
  /// A MARC 21 export whose items name no branch, which Koha refuses.
  var itemsWithoutBranch: String { get }
  /// Characters Windows-1251 has no place for, written as plain letters or `?`.
  func replacedCharacters(_ count: Int) -> String
}

extension LibraryWords {
  /// An import's report as the command line prints it: what was not taken, the notes, and what
  /// it did.
  public func lines(_ report: ImportReport, dryRun: Bool) -> [String] {
    report.problems.map { skipped + line($0) } + report.notes.map { note + line($0) }
      + [summary(report, dryRun: dryRun)]
  }
}

extension InterfaceLanguage {
  public var words: any LibraryWords {
    switch self {
    case .english: return EnglishWords()
    case .russian: return RussianWords()
    }
  }
}
