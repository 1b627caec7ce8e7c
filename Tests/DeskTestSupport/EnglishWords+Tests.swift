import DeskDomain
import DeskExchange
import DeskStorage
import DeskWords

// The English words of the library's errors, as tests compare them: the words live in
// DeskWords, not on the errors.

extension StoreError {
  /// One line per problem, in English.
  public var englishLines: [String] { EnglishWords().messages(self) }
  public var english: String { englishLines.joined(separator: "\n") }
}

extension CirculationRefusal {
  public var english: String { EnglishWords().message(self) }
}

extension ValidationError {
  public var english: String { EnglishWords().message(self) }
}

extension Conflict {
  public var englishSummary: String { EnglishWords().conflictSummary(self) }
  public var englishSides: [String] { EnglishWords().conflictSides(self) }
}

extension ImportReport {
  /// What was not taken and the notes, a line each, as the command line says them in English.
  public var englishProblems: [String] { problems.map(EnglishWords().line) }
  public var englishNotes: [String] { notes.map(EnglishWords().line) }
}

extension KOC.Problem {
  public var english: String { EnglishWords().line(self) }
}
