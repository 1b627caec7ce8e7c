import DeskDomain
import DeskLookup

/// What `circdesk lookup --title` prints of a search of the targets: each book found once, with
/// where it came from, then the targets that could not answer and the records that could not be
/// read.
enum CopySearchReport {
  /// `query` heads the lines: `lookup --pending` answers several searches at once.
  static func write(_ result: CopySearchResult, for query: CopyQuery? = nil, json: Bool, context: CommandContext) {
    let asked: [(String, JSON)] = query.map { [("query", .string($0.shown))] } ?? []
    if json {
      for record in result.records {
        let draft = record.draft
        context.output.line(
          JSON.object(
            asked + [
              ("result", .string("found")), ("target", .string(record.target)), ("isbn", .string(draft.isbn)),
              ("title", .string(draft.title)), ("author_surname", .string(draft.authorSurname)),
              ("author_initials", .string(draft.authorInitials)), ("publisher", .string(draft.publisher)),
              ("city", .string(draft.city)), ("year", .string(draft.year)), ("pages", .string(draft.pages)),
              ("bbk", .string(draft.bbk)), ("cached", .bool(result.cached)),
            ]
          ).rendered().replacingNewlines())
      }
      for failure in result.failures {
        context.output.line(
          JSON.object(
            asked + [
              ("result", .string(result.isUnavailable ? "waiting" : "failed")), ("target", .string(failure.provider)),
              ("reason", .string(failure.description)),
            ]
          )
          .rendered().replacingNewlines())
      }
      for problem in result.unreadable {
        context.output.line(
          JSON.object(asked + [("result", .string("unreadable")), ("reason", .string(problem))]).rendered()
            .replacingNewlines())
      }
      return
    }
    if let query { context.output.line("Search \(query.shown):".visibleForTerminal) }
    if result.records.isEmpty && !result.isUnavailable {
      context.output.line("No target has such a book\(result.cached ? " (remembered from an earlier search)" : "").")
    }
    for (index, record) in result.records.enumerated() {
      context.output.line("\(index + 1). \(record.cardLine)  [\(record.target)]".visibleForTerminal)
    }
    if result.holdsMore {
      context.output.line("The catalogues hold more than they sent: narrow the search with --author or --year.")
    }
    for failure in result.failures { context.output.line("  \(failure.description)".visibleForTerminal) }
    if result.isUnavailable {
      context.output.line("No target could answer: the search waits for 'circdesk lookup --pending'.")
    }
    for problem in result.unreadable { context.output.line("  not read: \(problem)".visibleForTerminal) }
  }
}
