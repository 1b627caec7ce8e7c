import DeskDomain
import DeskLookup

/// What `circdesk lookup --title` prints of a search of the targets: each book found once, with
/// where it came from, then the targets that could not answer and the records that could not be
/// read.
enum CopySearchReport {
  static func write(_ result: CopySearchResult, json: Bool, context: CommandContext) {
    if json {
      for record in result.records {
        let draft = record.draft
        context.output.line(
          JSON.object([
            ("result", .string("found")), ("target", .string(record.target)), ("isbn", .string(draft.isbn)),
            ("title", .string(draft.title)), ("author_surname", .string(draft.authorSurname)),
            ("author_initials", .string(draft.authorInitials)), ("publisher", .string(draft.publisher)),
            ("city", .string(draft.city)), ("year", .string(draft.year)), ("pages", .string(draft.pages)),
            ("bbk", .string(draft.bbk)), ("cached", .bool(result.cached)),
          ]).rendered().replacingNewlines())
      }
      for failure in result.failures {
        context.output.line(
          JSON.object([
            ("result", .string(result.isUnavailable ? "waiting" : "failed")), ("reason", .string(failure.description)),
          ])
          .rendered().replacingNewlines())
      }
      for problem in result.unreadable {
        context.output.line(
          JSON.object([("result", .string("unreadable")), ("reason", .string(problem))]).rendered().replacingNewlines())
      }
      return
    }
    if result.records.isEmpty && !result.isUnavailable {
      context.output.line("No target has such a book\(result.cached ? " (remembered from an earlier search)" : "").")
    }
    for (index, record) in result.records.enumerated() {
      context.output.line("\(index + 1). \(record.cardLine)  [\(record.target)]".visibleForTerminal)
    }
    for failure in result.failures { context.output.line("  \(failure.description)".visibleForTerminal) }
    if result.isUnavailable {
      context.output.line("No target could answer: the search waits for 'circdesk lookup --pending'.")
    }
    for problem in result.unreadable { context.output.line("  not read: \(problem)".visibleForTerminal) }
  }
}
