/// The branches of knowledge a library's work diary splits its issue by («дневник работы
/// библиотеки», part 2: the diary's usual columns), from a book's BBK index.
public enum KnowledgeBranch: String, CaseIterable, Hashable, Sendable {
  case social, natural, technology, agriculture, artsAndSport = "arts", fiction, children, other
}

/// Which BBK indexes count under which branch: by the index's beginning, the longest that
/// matches (`75` sport before `7` social sciences). A library edits it (the setting
/// `diary_branches`), written as `prefix=branch` pairs separated by `;`.
public struct BranchMapping: Equatable, Sendable {
  public private(set) var prefixes: [(prefix: String, branch: KnowledgeBranch)]

  /// The divisions of the BBK tables for public libraries: 2 natural sciences and 5 medicine; 3
  /// technology; 4 agriculture; 6 social sciences, 7 culture and education; 75 sport and 85
  /// arts; 84 fiction. Children's books are marked differently in each library (a shelf mark, a
  /// letter before the index), so none is mapped to children's literature until the library says.
  public static let standard = BranchMapping(
    parsing: "2=natural;5=natural;3=technology;4=agriculture;6=social;7=social;75=arts;85=arts;84=fiction")!

  public init(_ prefixes: [(prefix: String, branch: KnowledgeBranch)]) {
    self.prefixes = prefixes.sorted { $0.prefix.count > $1.prefix.count }
  }

  /// Nil when a pair is not `prefix=branch` with a known branch, when a prefix comes twice (which
  /// would count its books under one of two branches), or when there is no pair at all.
  /// `default` is the standard mapping.
  public init?(parsing text: String) {
    if text.trimmingWhitespace() == "default" {
      self = .standard
      return
    }
    var pairs: [(String, KnowledgeBranch)] = []
    for item in text.split(separator: ";") where !String(item).trimmingWhitespace().isEmpty {
      // At the last «=»: an index may hold one («84(2Рос=Рус)»), a branch's name never.
      guard let equals = item.lastIndex(of: "=") else { return nil }
      let prefix = String(item[..<equals]).trimmingWhitespace()
      let name = String(item[item.index(after: equals)...]).trimmingWhitespace()
      guard !prefix.isEmpty, let branch = KnowledgeBranch(rawValue: name) else { return nil }
      guard !pairs.contains(where: { $0.0 == prefix }) else { return nil }
      pairs.append((prefix, branch))
    }
    guard !pairs.isEmpty else { return nil }
    self.init(pairs)
  }

  /// The branch of a book by its BBK index; nil for a book without one (counted under «other»,
  /// and apart, by the report).
  public func branch(ofIndex index: String) -> KnowledgeBranch? {
    let trimmed = index.trimmingWhitespace()
    guard !trimmed.isEmpty else { return nil }
    return prefixes.first { trimmed.hasPrefix($0.prefix) }?.branch ?? .other
  }

  /// The setting's text, longest prefixes first.
  public var text: String { prefixes.map { "\($0.prefix)=\($0.branch.rawValue)" }.joined(separator: ";") }

  public static func == (lhs: BranchMapping, rhs: BranchMapping) -> Bool { lhs.text == rhs.text }
}

/// The diary's reader groups by age, where the library keeps birth years: children up to 14,
/// youth 15 to 30, others.
public enum AgeGroup: String, CaseIterable, Hashable, Sendable {
  case children, youth, adults

  /// By the age the reader reaches in the year of the event (the form counts by year of birth).
  public init(birthYear: Int, eventYear: Int) {
    let age = eventYear - birthYear
    self = age <= 14 ? .children : age <= 30 ? .youth : .adults
  }

  /// The ages the group holds, as the diary's columns name them.
  public var span: String {
    switch self {
    case .children: "up to 14"
    case .youth: "15–30"
    case .adults: "over 30"
    }
  }
}
