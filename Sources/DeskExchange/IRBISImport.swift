import DeskDomain
import DeskStorage
import Dispatch

/// What an import did, or with `--dry-run` would do.
public struct ImportReport: Sendable {
  public var records = 0
  public var booksAdded = 0
  public var booksUpdated = 0
  public var readersAdded = 0
  public var readersUpdated = 0
  public var loansAdded = 0
  /// One line for each record, copy or loan not taken, with where it stands in the file.
  public var problems: [String] = []
  public var notes: [String] = []

  public init() {}
}

/// What the reading thread of an import hands to the writing one, in file order.
enum ImportItem: Sendable {
  /// A copy checked and ready to insert; the draft and what the record keeps serve `--update`.
  case book(BookRow, draft: BookDraft, kept: IRBISKeptRecord?, source: String)
  /// A copy the checks refused: the store words the refusal, with a taken number among it.
  case refusedBook(BookDraft, source: String)
  /// Reader records are few: taken apart where they are written.
  case reader(IRBISRecord, source: String)
  case problem(String)
  case note(String)
  case records(Int)
}

/// The reading side of an import: takes records apart, checks their books and makes their
/// rows, on a thread of its own while the writing side fills the database.
public struct RecordFeed {
  private let pipe: BatchPipe<ImportItem>
  private let moment: LocalMoment
  private var batch: [ImportItem] = []
  private var records = 0
  /// The inventory numbers of this file so far, each with its record's number: a number given
  /// twice in one file is reported as such. Short numbers are kept inline by Swift's strings
  /// and the record as 32 bits. Measured at a million books: 167 MB at the peak against 105 MB
  /// without it (with the record's name as a string, 204 MB).
  private var numbers: [String: Int32] = [:]

  /// With `--update` a later copy of a number replaces the earlier, in the file as in the library.
  private let update: Bool
  /// `--assign-inventory`: a book record with no numbered copy gets one, numbered by the writer.
  private let assignsNumbers: Bool

  init(pipe: BatchPipe<ImportItem>, moment: LocalMoment, update: Bool, assignsNumbers: Bool = false) {
    self.pipe = pipe
    self.moment = moment
    self.update = update
    self.assignsNumbers = assignsNumbers
    batch.reserveCapacity(RecordFeed.batchSize)
  }

  /// The inventory number of a copy the writer numbers (`--assign-inventory`): U+FFFF is a
  /// noncharacter, which no file or librarian writes in a number (and trimming keeps).
  static let unnumbered = "\u{FFFF}assign"

  private static let batchSize = 256

  /// The writing side has stopped (it failed): the reading stops too.
  struct Stopped: Error {}

  public mutating func problem(_ text: String) throws {
    try send(.problem(text))
  }

  /// Takes one record: a book record gives a book per copy, a reader record a reader.
  public mutating func take(_ record: IRBISRecord, source: String) throws {
    records += 1
    var record = record
    // A record with no copy of its own (a national library's record, bought and catalogued from
    // it) gets one new copy when the librarian asked for numbers.
    if assignsNumbers, !IRBISReaders.isReader(record), IRBISBooks.copyPositions(in: record).isEmpty {
      record.fields.append(IRBISRecord.Field(tag: 910, value: "^A0^B" + RecordFeed.unnumbered))
    }
    if IRBISReaders.isReader(record) {
      try send(.reader(record, source: source))
      return
    }
    switch IRBISBooks.drafts(from: record) {
    case .failure(let refusal):
      try send(.problem("\(source): \(refusal)"))
    case .success(let drafts):
      // Copies without a number cannot circulate: reported, never made into a book «б/н».
      for written in IRBISBooks.copiesWithoutNumber(in: record) {
        let shown = written.isEmpty ? "" : " («\(written)»)"
        try send(.problem("\(source): a copy without an inventory number\(shown): skipped"))
      }
      for entry in record.all(910) where IRBISBooks.isSummaryEntry(entry) {
        let count = entry.subfield("1").isEmpty ? "" : " of \(entry.subfield("1")) copies"
        try send(
          .note(
            "\(source): summary entry «\(entry.subfield("B"))»\(count) (910 ^A U): kept with the record, "
              + "not a copy that circulates"))
      }
      for copy in record.all(910)
      where !IRBISBooks.isSummaryEntry(copy) && IRBISBooks.status(irbisCode: copy.subfield("A")) == nil {
        try send(
          .note(
            "\(source): copy \(copy.subfield("B")): status «\(copy.subfield("A"))» is not an IRBIS copy status; "
              + "imported as available"))
      }
      let kept = IRBISKeptRecord.kept(from: record, group: drafts.count > 1 ? RecordID.random().text : "")
      for (draft, copy) in zip(drafts, kept) { try takeBook(draft, kept: copy, of: record, source: source) }
    }
  }

  /// True when an export of `book` alone would not give `record` back: the record has fields
  /// the desk does not model, several copies, or fields written otherwise than the desk writes
  /// them. Most records of a catalogue the desk wrote itself keep nothing.
  static func needsKeeping(_ record: IRBISRecord, _ book: Book) -> Bool {
    guard record.fields.allSatisfy({ IRBISKeptRecord.modelledTags.contains($0.tag) }),
      IRBISBooks.copyPositions(in: record).count == 1, let copy = record.first(910)
    else { return true }
    return IRBISBooks.record(for: book, onLoan: copy.subfield("A") == "1") != record
  }

  private mutating func takeBook(_ draft: BookDraft, kept: IRBISKeptRecord, of record: IRBISRecord, source: String)
    throws
  {
    let inventory = draft.inventoryNumber.trimmingWhitespace()
    if inventory != RecordFeed.unnumbered, let earlier = numbers[inventory] {
      guard update else {
        try send(
          .problem("\(source): copy \(inventory): the same number is also in record \(earlier) of this file; skipped"))
        return
      }
      try send(
        .note(
          "\(source): copy \(inventory): the same number is also in record \(earlier) of this file; this one replaces it"
        ))
    }
    // The source reads "record N (line L)" or "record N (byte B)".
    numbers[inventory] = Int32(source.dropFirst("record ".count).prefix { $0.isNumber }) ?? 0
    var draft = draft
    var checked = validated(draft)
    // An invalid ISBN does not keep a copy out: it comes in without one, and the report says so.
    if case .failure(let errors) = checked,
      errors.errors.contains(where: { if case .invalidISBN = $0 { return true } else { return false } })
    {
      try send(
        .note("\(source): copy \(draft.inventoryNumber): ISBN «\(draft.isbn)» is not valid; imported without it"))
      draft.isbn = ""
      checked = validated(draft)
    }
    // A price that is not an amount («Беспл.», free) does not keep a copy out either.
    if case .failure(let errors) = checked,
      errors.errors.contains(where: { if case .invalidPrice = $0 { return true } else { return false } })
    {
      try send(
        .note("\(source): copy \(draft.inventoryNumber): price «\(draft.price)» is not an amount; imported without it"))
      draft.price = ""
      checked = validated(draft)
    }
    switch checked {
    case .success(let book):
      let keeping = RecordFeed.needsKeeping(record, book) ? kept : nil
      try send(.book(BookRow(book, kept: keeping), draft: draft, kept: keeping, source: source))
    case .failure: try send(.refusedBook(draft, source: source))
    }
  }

  private func validated(_ draft: BookDraft) -> Result<Book, ValidationErrors> {
    Result { () throws(ValidationErrors) in try draft.validated(base: nil, today: moment.date, now: moment.instant) }
  }

  private mutating func send(_ item: ImportItem) throws {
    batch.append(item)
    if batch.count >= RecordFeed.batchSize { try flush() }
  }

  fileprivate mutating func finish() throws {
    batch.append(.records(records))
    try flush()
  }

  private mutating func flush() throws {
    guard pipe.send(batch) else { throw Stopped() }
    batch.removeAll(keepingCapacity: true)
  }
}

/// Reads IRBIS records (plain text or ISO 2709) into the library in one transaction: records it
/// cannot take are reported and the rest imported; an error of the database leaves it as it was.
/// Reading and checking run on a second thread while this one writes.
public struct RecordImporter {
  /// Books and readers already there are replaced, not skipped.
  private let update: Bool
  let store: LibraryStore
  private var report = ImportReport()
  private var loans: [(ticket: String, loan: IRBISLoan, source: String)] = []
  private let categories: Set<String>
  private let defaultCategory: String
  /// The next number `--assign-inventory` may give, if it was asked for.
  var nextNumber: String?

  init(store: LibraryStore, update: Bool) throws(StoreError) {
    self.store = store
    self.update = update
    categories = Set(try store.categories().map(\.code))
    defaultCategory = try store.policy().defaultCategory
  }

  /// Runs `feed` (which hands records to a `RecordFeed`) on a reading thread, and writes what
  /// it makes inside one transaction, then the loans.
  public static func run(
    store: LibraryStore, update: Bool, dryRun: Bool, assignInventory: String? = nil,
    feed: @escaping @Sendable (inout RecordFeed) throws -> Void
  ) throws -> ImportReport {
    try store.withBulkCache {
      try importInOneTransaction(
        store: store, update: update, dryRun: dryRun, assignInventory: assignInventory, feed: feed)
    }
  }

  private static func importInOneTransaction(
    store: LibraryStore, update: Bool, dryRun: Bool, assignInventory: String?,
    feed: @escaping @Sendable (inout RecordFeed) throws -> Void
  ) throws -> ImportReport {
    var importer = try RecordImporter(store: store, update: update)
    importer.nextNumber = assignInventory
    let pipe = BatchPipe<ImportItem>(capacity: 16)
    let moment = store.clock.now()
    let reading = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      var records = RecordFeed(pipe: pipe, moment: moment, update: update, assignsNumbers: assignInventory != nil)
      do {
        try feed(&records)
        try records.finish()
        pipe.finish()
      } catch {
        pipe.finish(throwing: error)
      }
      reading.signal()
    }
    defer {
      pipe.cancel()
      reading.wait()
    }
    let body = {
      try store.addingBooksInBulk {
        while let batch = try pipe.receive() {
          for item in batch { try importer.apply(item) }
        }
      }
      try importer.takeLoans()
    }
    if dryRun { try store.dryRun(body) } else { try store.transaction(body) }
    return importer.report
  }

  private mutating func apply(_ item: ImportItem) throws {
    switch item {
    case .book(var row, var draft, var kept, let source):
      if row.book.inventoryNumber == RecordFeed.unnumbered {
        let number = try freeNumber()
        var book = row.book
        book.inventoryNumber = number
        draft.inventoryNumber = number
        kept = kept.map { IRBISKeptRecord(record: $0.record, copy: "^A0^B" + number, group: $0.group) }
        row = BookRow(book, kept: kept)
        report.notes.append("\(source): a new copy numbered \(number) (--assign-inventory)")
      }
      let store = store
      let adding = row
      try takeBook(draft, kept: kept, source: source) { () throws(StoreError) in try store.add(adding) }
    case .refusedBook(let draft, let source):
      let store = store
      try takeBook(draft, kept: nil, source: source) { () throws(StoreError) in try store.addBook(draft) }
    case .reader(let record, let source):
      try takeReader(record, source: source)
    case .problem(let text):
      report.problems.append(text)
    case .note(let text):
      report.notes.append(text)
    case .records(let count):
      report.records += count
    }
  }

  /// The next number from `--assign-inventory`'s start that no book has.
  private mutating func freeNumber() throws -> String {
    var number = nextNumber ?? "1"
    while try store.book(inventory: number) != nil { number = InventoryNumbers.next(after: number) }
    nextNumber = InventoryNumbers.next(after: number)
    return number
  }

  /// Adds a copy through `add`; a number already there is reported, or the book updated.
  private mutating func takeBook(
    _ draft: BookDraft, kept: IRBISKeptRecord?, source: String, add: () throws(StoreError) -> Void
  ) throws {
    let inventory = draft.inventoryNumber.trimmingWhitespace()
    do throws(StoreError) {
      do throws(StoreError) {
        // Adding first and looking only on refusal: the common case, a new book, costs one query.
        try add()
        report.booksAdded += 1
      } catch {
        guard case .invalid(let errors) = error,
          errors.errors.contains(where: { if case .duplicateInventoryNumber = $0 { return true } else { return false } }
          )
        else { throw error }
        guard update else {
          report.problems.append("\(source): \(ImportRefusal.alreadyThere("book \(inventory)"))")
          return
        }
        try store.updateBook(inventory: inventory) { current in
          for field in BookDraft.fields where !draft[field].isEmpty { current[field] = draft[field] }
          current.status = draft.status
        }
        try store.keep(kept, forBook: inventory)
        report.booksUpdated += 1
      }
    } catch {
      guard case .invalid = error else { throw error }
      report.problems.append("\(source): copy \(inventory): \(error.lines.joined(separator: "; "))")
    }
  }

  private mutating func takeReader(_ record: IRBISRecord, source: String) throws {
    switch IRBISReaders.reader(from: record) {
    case .failure(let refusal):
      report.problems.append("\(source): \(refusal)")
    case .success(let found):
      var draft = found.0
      let readerLoans = found.1
      if !draft.category.isEmpty && !categories.contains(draft.category) {
        report.notes.append(
          "\(source): category «\(draft.category)» is not known here; the reader is «\(defaultCategory)»")
        draft.category = defaultCategory
      }
      let ticket = draft.ticket.trimmingWhitespace()
      let added = draft
      do throws(StoreError) {
        if try store.reader(ticket: ticket) != nil {
          guard update else {
            report.problems.append("\(source): \(ImportRefusal.alreadyThere("reader \(ticket)"))")
            return
          }
          try store.updateReader(ticket: ticket) { current in
            for field in ReaderDraft.fields where !added[field].isEmpty { current[field] = added[field] }
          }
          report.readersUpdated += 1
        } else {
          try store.addReader(added)
          report.readersAdded += 1
        }
        for loan in readerLoans { loans.append((ticket: ticket, loan: loan, source: source)) }
      } catch {
        guard case .invalid = error else { throw error }
        report.problems.append("\(source): reader \(ticket): \(error.lines.joined(separator: "; "))")
      }
    }
  }

  private static func instant(_ date: LocalDate, _ time: String, offsetSeconds: Int) -> Timestamp {
    Timestamp(date: date, second: IRBISReaders.seconds(time)).adding(milliseconds: -Int64(offsetSeconds) * 1000)
  }

  private mutating func takeLoans() throws {
    let offset = store.clock.now().utcOffsetSeconds
    // A loan read back (an export imported again, or --update) is not doubled; two loans of one
    // book on one day are two loans. So the same loan is counted: in the file, and added here.
    var inFile: [LoanKey: Int] = [:]
    var added: [LoanKey: Int] = [:]
    for entry in loans {
      let loan = entry.loan
      let issued = RecordImporter.instant(loan.issued, loan.issuedTime, offsetSeconds: offset)
      let returned = loan.returned.map { RecordImporter.instant($0, loan.returnedTime, offsetSeconds: offset) }
      guard let book = try store.book(inventory: loan.inventory) else {
        report.problems.append(
          "\(entry.source): loan of \(loan.inventory) to \(entry.ticket): no such book in the library")
        continue
      }
      let key = LoanKey(
        inventory: book.inventoryNumber, ticket: entry.ticket, issued: issued, due: loan.due, returned: returned)
      inFile[key, default: 0] += 1
      let known = try store.loans(ofBook: book).filter {
        LoanKey(
          inventory: $0.inventory, ticket: $0.readerTicket, issued: $0.loan.issued, due: $0.loan.due,
          returned: $0.loan.returned) == key
      }
      if known.count - added[key, default: 0] >= inFile[key, default: 0] { continue }
      let renewed = loan.renewed.map { RecordImporter.instant($0, "", offsetSeconds: offset) }
      let result = LoanImport.record(
        store: store, ticket: entry.ticket, loan: loan, issued: issued, returned: returned, renewed: renewed)
      if let refusal = result {
        report.problems.append("\(entry.source): loan of \(loan.inventory) to \(entry.ticket): \(refusal)")
      } else {
        report.loansAdded += 1
        added[key, default: 0] += 1
      }
    }
  }
}

/// What makes two loans of one book the same loan.
struct LoanKey: Hashable {
  var inventory: String
  var ticket: String
  var issued: Timestamp
  var due: LocalDate
  var returned: Timestamp?
}

enum LoanImport {
  /// Records the loan; the reason when the library refused it (the book out to someone else).
  static func record(
    store: LibraryStore, ticket: String, loan: IRBISLoan, issued: Timestamp, returned: Timestamp?,
    renewed: Timestamp? = nil
  ) -> String? {
    do throws(StoreError) {
      try store.recordLoan(
        ticket: ticket, inventory: loan.inventory, issued: issued, due: loan.due, returned: returned,
        renewals: max(loan.renewals, renewed == nil ? 0 : 1), renewed: renewed,
        desk: loan.desk.isEmpty ? "import" : loan.desk)
      return nil
    } catch {
      return error.lines.joined(separator: "; ")
    }
  }
}

/// Inventory numbers given in sequence: `--assign-inventory START`.
public enum InventoryNumbers {
  /// The number after `number`: its last run of digits counted up, its width kept while it fits
  /// («A-0099» → «A-0100», «99» → «100»); a number without digits gets «1» added.
  public static func next(after number: String) -> String {
    var characters = Array(number)
    guard var index = characters.lastIndex(where: { $0.isASCII && $0.isNumber }) else { return number + "1" }
    while let digit = characters[index].wholeNumberValue {
      if digit < 9 {
        characters[index] = Character(String(digit + 1))
        return String(characters)
      }
      characters[index] = "0"
      guard index > 0, characters[index - 1].isASCII, characters[index - 1].isNumber else {
        characters.insert("1", at: index)
        return String(characters)
      }
      index -= 1
    }
    return String(characters)
  }

  /// True for a start `--assign-inventory` can count up from: ends with a digit, no spaces.
  public static func isValidStart(_ text: String) -> Bool {
    !text.isEmpty && text.count <= 40 && text.last.map { $0.isASCII && $0.isNumber } == true
      && text.allSatisfy { !$0.isWhitespace && !($0.asciiValue.map { $0 < 0x20 || $0 == 0x7F } ?? false) }
  }
}

/// IRBIS plain-text files.
public enum IRBISTextImport {
  public static func run(
    path: String, encoding: FileEncoding?, store: LibraryStore, update: Bool, dryRun: Bool,
    maximumLineBytes: Int = LineReader.defaultMaximumLineBytes, assignInventory: String? = nil
  ) throws -> ImportReport {
    let lines = try LineReader(path: path, encoding: encoding, maximumLineBytes: maximumLineBytes)
    return try RecordImporter.run(store: store, update: update, dryRun: dryRun, assignInventory: assignInventory) {
      records in
      var reader = IRBISReader()
      while let line = lines.next() {
        if case .unending? = line.problem {
          try records.problem("line \(lines.lineNumber): \(line.problem?.description ?? "")")
          break
        }
        switch reader.feed(line.text, problem: line.problem?.description) {
        case .record(let record, let number, let firstLine)?:
          try records.take(record, source: "record \(number) (line \(firstLine))")
        case .problem(let problem)?:
          try records.problem(problem.description)
        case nil:
          break
        }
      }
      if case .problem(let problem)? = reader.finish() { try records.problem(problem.description) }
    }
  }
}
