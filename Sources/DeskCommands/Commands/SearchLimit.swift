import DeskStorage

/// What a list command prints of a search's answer. A search ranks at most
/// `LibraryStore.searchCap` records and says when there were more (one past the cap), as the
/// desk's list says «200+ found: type more»; `--limit 0` or a limit above the cap lists those and
/// says so, instead of stopping at the cap in silence.
enum SearchLimit {
  /// What to ask the search for: one past the cap where the command may list up to it, to know
  /// whether there were more.
  static func asked(for limit: Int) -> Int {
    limit == 0 || limit > LibraryStore.searchCap ? LibraryStore.searchCap + 1 : limit
  }

  static func listed<Listing>(
    _ found: [Listing], limit: Int, query: String, noun: String, in context: CommandContext
  ) -> [Listing] {
    let cap = LibraryStore.searchCap
    if found.count > cap, limit == 0 || limit > cap {
      context.errors.line(
        "More than \(cap) \(noun) match «\(query)»: the first \(cap) are listed; add a word to narrow the search."
          .visibleForTerminal)
    }
    return Array(found.prefix(min(limit == 0 ? cap : limit, cap)))
  }
}
