import DeskDomain
import DeskScanning
import DeskStorage
import DeskWords

#if canImport(Glibc)
  import Glibc
#endif

/// `circdesk scan`: codes from image files, or line by line from standard input (a wedge
/// scanner in a plain terminal, or a pipe), each resolved against the library; with
/// `--issue-to` or `--return` each book code also issues or returns that book.
struct ScanCommand: DeskCommand {
  static let standardInput = CommandFlag("--stdin", help: "Read one code a line from standard input.")
  static let issueTo = CommandOption<String>(
    "--issue-to", value: "<ticket>",
    help: "This reader is at the counter: as at the Desk, books are issued to them, theirs come back.")
  static let giveBack = CommandFlag("--return", help: "Take back each book code.")
  static let renew = CommandFlag("--renew", help: "Renew the loan of each book code.")
  static let json = CommandFlag("--json", help: "Print one JSON object a line, and a summary object last.")
  static let maxLine = CommandOption<Int>.integer(
    "--max-line", value: "<bytes>",
    help: "With --stdin, the longest line read (default 65536); a longer one is reported, not read.",
    in: 16...(1 << 26), unit: "bytes")

  static let spec = CommandSpec(
    path: "scan", abstract: "Read codes from images or standard input, and look them up.",
    arguments: [.init("<image>", "PNG or JPEG files with barcodes or QR codes.", .any)],
    options: [
      standardInput,
      issueTo,
      giveBack,
      renew,
      json,
      maxLine,
      CommandSpec.databaseOption,
    ],
    discussion: """
      Each code is resolved in this order: a QR book record, an ISBN, an inventory number, a reader
      ticket; anything else is reported as unknown, and nothing is ever created from a code. With
      --issue-to, --return or --renew each code acts by the Desk's own rule: with --issue-to as at
      the Desk with that reader at the counter (a book on the shelf is issued to them, one they hold
      comes back, one out to somebody else is refused, as the Desk would ask first); with --return
      as at the Desk with nobody selected. A book's label, QR label or inventory number names the
      copy; an ISBN of a title with several copies that fit is refused with those copies, to scan
      the one in hand. A bad or unknown line is reported and the run goes on; a summary closes it.
      Exit status 0 when every code was usable, 1 otherwise.
      """)

  static func run(_ arguments: ParsedArguments, in context: CommandContext) throws(CommandError) {
    let images = arguments.positionals
    let fromStandardInput = arguments.has(standardInput)
    guard fromStandardInput != !images.isEmpty else {
      throw .usage("name image files, or --stdin, but not both", command: spec.path)
    }
    let ticket = try arguments.value(issueTo)
    let actions = [ticket != nil, arguments.has(giveBack), arguments.has(renew)].filter { $0 }.count
    guard actions <= 1 else { throw .usage("choose one of --issue-to, --return and --renew", command: spec.path) }
    let store = try context.openStore(arguments, creating: actions > 0)
    var action: ScanAction = arguments.has(giveBack) ? .giveBack : arguments.has(renew) ? .renew : .lookUp
    if let ticket {
      guard let reader = try perform({ () throws(StoreError) in try store.readers.reader(ticket: ticket) }) else {
        throw .store(.readerNotFound(ticket))
      }
      action = .issue(reader)
    }
    var report = ScanReport(
      json: arguments.has(json), output: context.output, errors: context.errors, words: context.words)
    if fromStandardInput {
      let maximum = try arguments.value(maxLine) ?? 65536
      var number = 0
      while let line = readLine(from: stdin, maximumBytes: maximum) {
        number += 1
        switch line {
        case .text(let text):
          let code = ScannedCode.clean(text)
          guard !code.isEmpty else { continue }
          report.handle(code: code, source: "line \(number)", action: action, store: store)
        case .nul:
          // Never dropped in silence: «100␀102» is not book 100102.
          report.problem(source: "line \(number)", message: "a NUL byte in the code: not read; check the scanner")
        case .tooLong:
          report.problem(source: "line \(number)", message: "longer than \(maximum) bytes: not read")
        }
      }
    } else {
      // A weak code shorter than the library's shortest scanned code is none.
      let shortest =
        (try? store.policy.current().scannerMinimumLength) ?? CirculationPolicy().scannerMinimumLength
      for path in images {
        do throws(ImageError) {
          let symbols = try ImageScanner.scan(path: path, shortestWeakCode: shortest)
          if symbols.isEmpty { report.problem(source: path, file: path, message: "no barcode or QR code found") }
          for symbol in symbols {
            report.handle(
              code: symbol.text, source: "\(path) \(symbol.symbology) at \(symbol.box.left),\(symbol.box.top)",
              action: action, store: store, symbol: (path, symbol))
          }
        } catch {
          report.problem(source: path, file: path, message: error.description)
        }
      }
    }
    report.finish()
    if report.failures > 0 { throw .exit(1) }
  }

  /// A line of standard input: its text, or why it was not read.
  enum InputLine {
    case text(String)
    case nul
    case tooLong
  }

  /// One line of standard input, up to `maximumBytes` (the rest of a longer line is passed over,
  /// so memory stays bounded); UTF-8, or Windows-1251 when the bytes are not UTF-8. Nil at the end.
  static func readLine(from file: UnsafeMutablePointer<FILE>, maximumBytes: Int) -> InputLine? {
    var bytes: [UInt8] = []
    var tooLong = false
    var readAny = false
    while true {
      let character = getc(file)
      if character == EOF { break }
      readAny = true
      if character == 0x0A { break }
      if bytes.count < maximumBytes { bytes.append(UInt8(truncatingIfNeeded: character)) } else { tooLong = true }
    }
    guard readAny else { return nil }
    if tooLong { return .tooLong }
    if bytes.contains(0) { return .nul }
    var text = Windows1251.decodeUTF8OrWindows1251(bytes).text
    if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
    return .text(text)
  }
}

enum ScanAction {
  case lookUp
  case issue(Reader)
  case giveBack
  case renew
}

/// Reports each code as one line (or one JSON object) and counts what happened. As text, the
/// codes go to standard output and the problems (a bad file, an unknown or refused code) and the
/// summary to standard error, so that `circdesk scan *.png > codes.txt` holds codes only.
struct ScanReport {
  let json: Bool
  let output: any TextSink
  let errors: any TextSink
  /// The words refusals are told in.
  let words: any LibraryWords
  private(set) var failures = 0
  private var counts: [String: Int] = [:]

  init(json: Bool, output: any TextSink, errors: any TextSink, words: any LibraryWords) {
    self.json = json
    self.output = output
    self.errors = errors
    self.words = words
  }

  /// A code or an image that could not be read; `file` names the image.
  mutating func problem(source: String, file: String? = nil, message: String) {
    failures += 1
    counts["errors", default: 0] += 1
    emit(source: source, file: file, code: "", outcome: "error", message: message)
  }

  mutating func handle(
    code: String, source: String, action: ScanAction, store: LibraryStore, symbol: (file: String, ScannedSymbol)? = nil
  ) {
    guard let (reader, intent) = action.counter else {
      lookUp(code: code, source: source, store: store, symbol: symbol)
      return
    }
    var outcome: String
    var message: String
    var usable = false
    var heldFor: HoldTrap?
    do {
      switch try store.circulation.circulate(code, reader: reader, intent: intent) {
      case .done(.issued(let loan)):
        (outcome, usable) = ("issued", true)
        message = "issued \(loan.inventory) «\(loan.bookTitle)» to \(loan.readerName), due \(loan.loan.due.iso)"
      case .done(.returned(let loan)), .done(.transferred(let loan, _)):
        (outcome, usable) = ("returned", true)
        message = "returned \(loan.inventory) «\(loan.bookTitle)» from \(loan.readerName)"
        heldFor = loan.heldFor
        if let trap = loan.heldFor { message += "; " + HoldExpire.moveLine(trap) }
      case .done(.renewed(let renewal)):
        (outcome, usable) = ("renewed", true)
        message = "renewed \(renewal.after.inventory) «\(renewal.after.bookTitle)», due \(renewal.after.loan.due.iso)"
      case .chooseCopy(let isbn, let copies, _):
        outcome = "refused"
        let described = copies.map { copy in
          copy.loan.map {
            "\(copy.book.inventoryNumber) (\($0.readerName), \($0.readerTicket), due \($0.loan.due.iso))"
          } ?? copy.book.inventoryNumber
        }
        message = words.messages(.refused([.severalCopies(isbn: isbn.hyphenated, copies: described)])).joined()
      case .confirmTransfer(let current, _):
        outcome = "refused"
        message = words.messages(
          .refused([
            .alreadyOnLoan(
              book: current.bookTitle, inventory: current.inventory, reader: current.readerName,
              ticket: current.readerTicket, due: current.loan.due)
          ])
        ).joined()
      case .selected(let found):
        outcome = "refused"
        message = words.messages(.refused([.notABook(found.ticket)])).joined()
      case .newBook(let draft):
        outcome = "refused"
        message = words.messages(.bookNotFound(draft.inventoryNumber)).joined()
      case .findReader(let text), .unknown(let text):
        outcome = "unknown"
        message = describe(.unknown(text))
      case .conflict(let conflict, _):
        // Nothing is done with a record two desks disagree about before a librarian settles it.
        outcome = "conflict"
        message =
          "conflict \(conflict.number) (\(words.conflictKind(conflict.kind))): "
          + "\(words.conflictSummary(conflict)); settle it first: "
          + words.remedy(conflict.kind, number: conflict.number)
      }
    } catch {
      outcome = "refused"
      message = words.messages(error).joined(separator: "; ")
    }
    if !usable { failures += 1 }
    counts[outcome, default: 0] += 1
    emit(source: source, code: code, outcome: outcome, message: message, symbol: symbol, heldFor: heldFor)
  }

  /// What a code names, changing nothing.
  private mutating func lookUp(
    code: String, source: String, store: LibraryStore, symbol: (file: String, ScannedSymbol)?
  ) {
    let resolution: CodeResolution
    do {
      resolution = try store.resolve(code, prefer: .book)
    } catch {
      problem(source: source, message: words.messages(error).joined(separator: "; "))
      return
    }
    let outcome = kind(of: resolution)
    if case .unknown = resolution { failures += 1 }
    counts[outcome, default: 0] += 1
    emit(source: source, code: code, outcome: outcome, message: describe(resolution), symbol: symbol)
  }

  private func kind(of resolution: CodeResolution) -> String {
    switch resolution {
    case .newBook: return "new-book"
    case .recordOfExistingBook: return "existing-book-record"
    case .isbn(_, let copies): return copies.isEmpty ? "new-isbn" : "isbn"
    case .book: return "book"
    case .reader: return "reader"
    case .unknown: return "unknown"
    }
  }

  private func describe(_ resolution: CodeResolution) -> String {
    switch resolution {
    case .newBook(let draft):
      return "book record for a new book «\(draft.title)»"
        + (draft.inventoryNumber.isEmpty ? "" : " (\(draft.inventoryNumber))")
    case .recordOfExistingBook(_, let book):
      return "label of book \(book.inventoryNumber) «\(book.title)», in the library"
    case .isbn(let isbn, let copies):
      guard !copies.isEmpty else { return "ISBN \(isbn.hyphenated): not in the library; a new book with this ISBN" }
      return "ISBN \(isbn.hyphenated): " + copies.map { "\($0.inventoryNumber) «\($0.title)»" }.joined(separator: ", ")
    case .book(let book):
      return "book \(book.inventoryNumber) «\(book.title)»" + (book.author.isEmpty ? "" : " (\(book.author))")
    case .reader(let reader): return "reader \(reader.ticket) \(reader.fullName)"
    case .unknown(let code): return "unknown code «\(code)»: no book, reader or ISBN has it"
    }
  }

  /// One line for a code: where it came from (for an image: the file, the symbology and the
  /// symbol's place, in separate JSON fields), what it is, and what the code alone says beyond
  /// that (a price add-on; a book record's lines not understood, a wrong ISBN check digit).
  private func emit(
    source: String, file: String? = nil, code: String, outcome: String, message: String,
    symbol: (file: String, ScannedSymbol)? = nil, heldFor: HoldTrap? = nil
  ) {
    var message = message
    let addOn = symbol?.1.addOn
    if let addOn { message += " (add-on \(addOn))" }
    let remarks = code.contains(where: \.isNewline) ? BookRecordLabel.remarks(code) : BookRecordLabel.Remarks()
    if !remarks.unknownLines.isEmpty {
      message += "; lines not understood: " + remarks.unknownLines.map { "«\($0)»" }.joined(separator: ", ")
    }
    if let problem = remarks.isbnProblem { message += "; " + problem.description }
    if json {
      // Every line has every key, absent values as null, as the README promises scripts.
      let scanned = symbol?.1
      let position = scanned.map { scanned in
        JSON.object([
          ("left", .int(scanned.box.left)), ("top", .int(scanned.box.top)), ("right", .int(scanned.box.right)),
          ("bottom", .int(scanned.box.bottom)),
        ])
      }
      let members: [(String, JSON)] = [
        ("source", .string(symbol?.file ?? source)), ("file", (symbol?.file ?? file).map { .string($0) } ?? .null),
        ("symbology", scanned.map { .string($0.symbology) } ?? .null), ("position", position ?? .null),
        ("add_on", addOn.map { .string($0) } ?? .null), ("code", .string(code)), ("result", .string(outcome)),
        ("message", .string(message)),
        ("lines_not_understood", .array(remarks.unknownLines.map { JSON.string($0) })),
        ("isbn_problem", remarks.isbnProblem.map { .string($0.description) } ?? .null),
        ("held_for", heldFor.map(RecordJSON.trap) ?? .null),
      ]
      output.line(JSON.object(members).rendered().replacingNewlines())
    } else {
      let problem = ["error", "unknown", "refused"].contains(outcome)
      // An image's own error names its file already.
      let line = message.hasPrefix(source + " ") || message.hasPrefix(source + ":") ? message : "\(source): \(message)"
      (problem ? errors : output).line(line.visibleForTerminal)
    }
  }

  func finish() {
    let total = counts.values.reduce(0, +)
    if json {
      let members = counts.keys.sorted().map { ($0, JSON.int(counts[$0] ?? 0)) }
      output.line(
        JSON.object([("summary", .object([("codes", .int(total))] + members))]).rendered().replacingNewlines())
    } else {
      let parts = counts.keys.sorted().map { ScanReport.counted(counts[$0] ?? 0, $0) }
      errors.line(englishPlural(total, "code") + ": " + parts.joined(separator: ", "))
    }
  }

  /// A count of the summary line in words: "1 error", "2 books"; outcomes that are not nouns
  /// ("issued", "unknown") read the same for any count.
  static func counted(_ count: Int, _ outcome: String) -> String {
    let nouns: [String: (one: String, many: String)] = [
      "errors": ("error", "errors"), "book": ("book", "books"), "reader": ("reader", "readers"),
      "isbn": ("ISBN", "ISBNs"), "new-isbn": ("new ISBN", "new ISBNs"), "new-book": ("new book", "new books"),
      "existing-book-record": ("record of a book in the library", "records of books in the library"),
      "conflict": ("conflict", "conflicts"),
    ]
    guard let noun = nouns[outcome] else { return "\(count) \(outcome)" }
    return englishPlural(count, noun.one, noun.many)
  }
}

extension ScanAction {
  /// The reader and intent the counter's rule acts with; nil for a look-up that changes nothing.
  var counter: (Reader?, CounterIntent)? {
    switch self {
    case .lookUp: return nil
    case .issue(let reader): return (reader, .counter)
    case .giveBack: return (nil, .giveBack)
    case .renew: return (nil, .renew)
    }
  }
}

extension String {
  /// JSON on one line: the pretty printer's line breaks and indentation removed.
  func replacingNewlines() -> String {
    split(separator: "\n").map { String($0).trimmingWhitespace() }.joined(separator: " ")
  }
}
