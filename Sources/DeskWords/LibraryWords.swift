import DeskDomain
import DeskStorage

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
}

extension InterfaceLanguage {
  public var words: any LibraryWords {
    switch self {
    case .english: return EnglishWords()
    case .russian: return RussianWords()
    }
  }
}
