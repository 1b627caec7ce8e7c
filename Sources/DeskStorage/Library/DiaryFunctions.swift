import DeskDomain

extension LibraryStore {
  /// The functions the work diary's triggers and views call (`DiarySums`): what a day, a reader's
  /// group and a book's branch are is the domain's to say, once. Defined on every connection
  /// before anything is written; a program that writes the file without them is refused by SQLite
  /// ("no such function") rather than leaving the sums wrong.
  func defineDiaryFunctions() throws(DatabaseError) {
    let clock = self.clock
    // A moment's day in the library's own time.
    try database.defineFunction("diary_day", argumentCount: 1) { arguments in
      guard case .text(let iso) = arguments[0], let moment = Timestamp(iso: iso) else { return .null }
      return .text(clock.local(moment).date.iso)
    }
    try database.defineFunction("diary_group", argumentCount: 3) { arguments in
      var birthYear: Int?
      switch arguments[0] {
      case .integer(let value): birthYear = Int(value)
      case .text(let text): birthYear = Int(text)
      default: birthYear = nil
      }
      guard case .text(let category) = arguments[1] else { return .text("") }
      var year = 0
      if case .text(let day) = arguments[2] { year = Int(day.prefix(4)) ?? 0 }
      return .text(DiaryTally.readerGroup(birthYear: birthYear, category: category, year: year))
    }
    // The mapping arrives as its setting's text with every call: parsed again only when it changed.
    let parsed = ParsedMapping()
    try database.defineFunction("diary_branch", argumentCount: 2) { arguments in
      var text: String?
      if case .text(let value) = arguments[1] { text = value }
      if text != parsed.text || parsed.mapping == nil {
        parsed.text = text
        parsed.mapping = text.flatMap(BranchMapping.init(parsing:)) ?? .standard
      }
      guard case .text(let index) = arguments[0] else { return .text(DiaryTally.withoutIndex) }
      return .text((parsed.mapping ?? .standard).tallyBranch(ofIndex: index))
    }
  }
}

/// The branch mapping last parsed on a connection, by its text.
private final class ParsedMapping {
  var text: String?
  var mapping: BranchMapping?
}
