import DeskAssets
import DeskDomain
import DeskStorage

#if canImport(Glibc)
  import Glibc
#endif

/// Builds the demo library from the tables in `Assets/demo`, dated relative to today so that
/// due, due-today and overdue loans always look current.
enum DemoLibrary {
  struct Counts {
    var books = 0
    var readers = 0
    var loans = 0
  }

  /// Fills `store`, which must be empty, in one transaction; the readers' categories are named in
  /// `language`.
  static func load(into store: LibraryStore, language: InterfaceLanguage = .english) throws(CommandError) -> Counts {
    let moment = store.clock.now()
    let today = moment.date
    let day: Int64 = 86_400_000
    var counts = Counts()
    try perform { () throws(StoreError) in
      try store.transaction {
        for category in ReaderCategory.defaults(in: language) { try store.policy.setCategory(category) }
        let books = rows(DemoAssets.books, width: 13)
        for (index, cells) in books.enumerated() {
          var draft = BookDraft()
          let fields: [Field] = [
            .inventoryNumber, .isbn, .authorSurname, .authorInitials, .title, .publisher, .city, .year, .pages,
            .price, .bbk, .authorMark, .place,
          ]
          for (field, value) in zip(fields, cells) { draft[field] = value }
          // Older inventory numbers arrived earlier: a week apart, the last one a week ago.
          draft.received = today.adding(days: -7 * (books.count - index)).iso
          try store.books.add(draft)
          counts.books += 1
        }
        for cells in rows(DemoAssets.readers, width: 14) {
          var draft = ReaderDraft()
          let fields: [Field] = [
            .ticket, .surname, .firstName, .patronymic, .birthYear, .phone, .email, .category,
          ]
          for (field, value) in zip(fields, cells) { draft[field] = value }
          draft.registered = today.adding(days: -(Int(cells[8]) ?? 0)).iso
          let address: [Field] = [.postcode, .addressCity, .street, .house, .flat]
          for (field, value) in zip(address, cells[9...]) { draft[field] = value }
          try store.readers.add(draft)
          counts.readers += 1
        }
        let desk = try store.policy.current().deskName
        for cells in rows(DemoAssets.loans, width: 6) {
          let issuedAgo = Int64(cells[2]) ?? 0
          let returnedAgo = Int64(cells[4])
          try store.circulation.recordLoan(
            ticket: cells[0], inventory: cells[1],
            issued: moment.instant.adding(milliseconds: -issuedAgo * day),
            due: today.adding(days: Int(cells[3]) ?? 0),
            returned: returnedAgo.map { moment.instant.adding(milliseconds: -$0 * day) },
            renewals: Int(cells[5]) ?? 0, desk: desk)
          counts.loans += 1
        }
        try store.policy.markAsDemoLibrary()
      }
    }
    return counts
  }

  /// The tab-separated cells of each line that is not blank or a `#` comment, padded with
  /// empty cells to `width` (editors drop trailing tabs).
  static func rows(_ text: String, width: Int) -> [[String]] {
    text.split(separator: "\n", omittingEmptySubsequences: true)
      .filter { !$0.hasPrefix("#") && !$0.allSatisfy(\.isWhitespace) }
      .map { line in
        let cells = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        return cells + Array(repeating: "", count: max(0, width - cells.count))
      }
  }
}

struct DemoCommand: DeskCommand {
  static let lang = CommandOption<InterfaceLanguage>.choice(
    "--lang", help: "Language of the readers' categories' names (default: from LANG).")

  static let spec = CommandSpec(
    path: "demo", abstract: "Create a fresh demo library.",
    options: [
      CommandSpec.databaseOption,
      lang,
    ],
    discussion: """
      Fills the file with 156 books, 42 readers and loans in every state (out, due today, overdue,
      renewed, returned), dated relative to today. An earlier demo library in the file is replaced;
      a file that holds any other library is refused and left as it is.
      """)

  static func run(_ arguments: ParsedArguments, in context: CommandContext) throws(CommandError) {
    let language = try arguments.value(lang) ?? context.language
    let path = try context.databasePath(arguments)
    if access(path, F_OK) == 0 {
      let replace = try {
        () throws(CommandError) -> Bool in
        let existing = try context.openStore(arguments)
        if try perform({ () throws(StoreError) in try existing.policy.isDemoLibrary() }) { return true }
        guard try perform({ () throws(StoreError) in try existing.isEmpty() }) else {
          throw .failed([
            "\(path) holds a library that is not a demo: it is left as it is. "
              + "Name another file with --db to create the demo."
          ])
        }
        return false
      }()
      if replace {
        for suffix in ["", "-wal", "-shm"] where unlink(path + suffix) != 0 && errno != ENOENT {
          throw .failed(["Cannot remove the old demo library \(path + suffix): \(String(cString: strerror(errno)))"])
        }
      }
    }
    let store = try context.openStore(arguments)
    let counts = try DemoLibrary.load(into: store, language: language)
    context.output.line(
      "Demo library ready: \(counts.books) books, \(counts.readers) readers, \(counts.loans) loans in \(path)"
        .visibleForTerminal)
  }
}
