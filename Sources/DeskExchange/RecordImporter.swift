import DeskDomain
import DeskStorage

/// Reads IRBIS records (plain text or ISO 2709) into the library in one transaction: records it
/// cannot take are reported and the rest imported; an error of the database leaves it as it was.
/// Reading and checking run on a second thread while this one writes.
public struct RecordImporter {
  /// Books and readers already there are replaced, not skipped.
  private let update: Bool
  let store: LibraryStore
  private var report = ImportReport()
  /// Each reader's loans: as the file wrote them (field 40), and read.
  private var loans: [(ticket: String, field: String, loan: IRBISLoan, source: ImportPlace)] = []
  private let categories: [ReaderCategory]
  private let defaultCategory: String
  /// The copies `--assign-inventory` numbers, waiting for the file's own numbers to be in.
  private var waitingForNumbers: [(BookRow, BookDraft, IRBISKeptRecord?, ImportPlace)] = []
  /// The copies the file marks out, which its readers' loans may account for.
  private var markedOut: [String] = []
  /// The next number `--assign-inventory` may give, if it was asked for.
  var nextNumber: String?
  /// The row number of the first book this import adds: those it adds follow in order.
  private var firstRow: Int64 = 0
  /// The record each book this import added came from, in the order they were added (by row
  /// number less `firstRow`), and with `--update` the record that last changed a book it found:
  /// a number given twice in one file is told with the record that gave it before. Four bytes a
  /// book; a dictionary of the file's numbers took 63 MB of an import of a million books.
  private var addedFrom: [Int32] = []
  private var updatedFrom: [Int64: Int32] = [:]

  init(store: LibraryStore, update: Bool) throws(StoreError) {
    self.store = store
    self.update = update
    categories = try store.policy.categories()
    defaultCategory = try store.policy.current().defaultCategory
  }

  /// Runs `feed` (which hands records to a `RecordFeed`) on a reading thread, and writes what
  /// it makes inside one transaction, then the loans. A file of `fileBytes` that brings many
  /// more records than the library holds puts off the indexes new rows would each be inserted
  /// into at random (`LibraryStore.putsOffIndexes`).
  public static func run(
    store: LibraryStore, update: Bool, dryRun: Bool, assignInventory: String? = nil, fileBytes: Int? = nil,
    feed: @escaping @Sendable (inout RecordFeed) throws -> Void
  ) throws -> ImportReport {
    let body = { (cache: Int) in
      try store.withBulkCache(kibibytes: cache) {
        try importInOneTransaction(
          store: store, update: update, dryRun: dryRun, assignInventory: assignInventory, feed: feed)
      }
    }
    guard !dryRun, let fileBytes,
      try store.putsOffIndexes(bringing: fileBytes / RecordImporter.smallestRecordBytes)
    else { return try body(LibraryStore.bulkCacheKiB) }
    // Measured importing 1,000,000 books into an empty file (release build): 49.3 s with the
    // indexes, 44.4 s without them, of which 2.1 s making them again.
    return try store.puttingOffIndexes { try body(LibraryStore.putOffCacheKiB) }
  }

  /// New books indexed together while the import goes on. While the writer indexes, the reading
  /// side fills the pipe (`pipeBatches`) and then waits, and one of the two cores idles: indexing
  /// every 100,000 books, the pipe held a fraction of a second of its work. Every 10,000, with 32
  /// batches, the pipe bridges each pause. A million books (release build, by hand, the same hour):
  /// 25.1–26.0 s and 87 MiB every 100,000 with 16 batches; 22.3–22.5 s and 82 MiB every 10,000 with
  /// 32; 22.3–23.2 s and 86 MiB every 20,000 with 32. Searches afterwards as fast (the index holds
  /// as many pages: its segments are merged as they come).
  static let indexedTogether = 10_000

  /// Batches of `RecordFeed.batchSize` items the reading side may have waiting for the writer.
  static let pipeBatches = 32

  /// About the length of the shortest record of a copy that IRBIS writes (author, title,
  /// imprint, a number): a file's records counted by it are rather too many than too few, and
  /// too many at worst puts indexes off that the library then makes again in a sort.
  static let smallestRecordBytes = 200

  private static func importInOneTransaction(
    store: LibraryStore, update: Bool, dryRun: Bool, assignInventory: String?,
    feed: @escaping @Sendable (inout RecordFeed) throws -> Void
  ) throws -> ImportReport {
    var importer = try RecordImporter(store: store, update: update)
    importer.nextNumber = assignInventory
    let moment = store.clock.now()
    return try BatchPipe<ImportItem>.streaming(capacity: RecordImporter.pipeBatches) { pipe in
      var records = RecordFeed(pipe: pipe, moment: moment, assignsNumbers: assignInventory != nil)
      try feed(&records)
      try records.finish()
    } using: { pipe in
      let body = {
        importer.firstRow = try store.books.nextRowNumber()
        try store.addingBooksInBulk {
          while let batch = try pipe.receive() {
            for item in batch { try importer.apply(item) }
            try store.indexBooksAddedInBulk(whenWaiting: RecordImporter.indexedTogether)
          }
          try importer.numberWaitingCopies()
        }
        try importer.takeLoans()
      }
      if dryRun { try store.dryRun(body) } else { try store.transaction(body) }
      return importer.report
    }
  }

  private mutating func apply(_ item: ImportItem) throws {
    switch item {
    case .book(let row, let draft, let kept, let source):
      // Numbered once every copy the file numbers is in: a number the file gives a copy later
      // is never handed out first.
      if draft.inventoryNumber == RecordFeed.unnumbered {
        waitingForNumbers.append((row, draft, kept, source))
        return
      }
      let store = store
      try takeBook(draft, kept: kept, source: source) { () throws(StoreError) in try store.books.add(row) }
    case .refusedBook(let draft, let source):
      // A copy `--assign-inventory` was to number is refused for its other fields: said with a
      // stand-in number, which is never shown.
      if draft.inventoryNumber == RecordFeed.unnumbered {
        var standIn = draft
        standIn.inventoryNumber = "0"
        let now = store.clock.now()
        do throws(ValidationErrors) {
          _ = try standIn.validated(base: nil, today: now.date, now: now.instant)
        } catch {
          report.problems.append(.copyRefused(source, copy: "", .invalid(error)))
        }
        return
      }
      let store = store
      try takeBook(draft, kept: nil, source: source) { () throws(StoreError) in try store.books.add(draft) }
    case .reader(let record, let source):
      try takeReader(record, source: source)
    case .problem(let problem):
      report.problems.append(problem)
    case .note(let note):
      report.notes.append(note)
    case .markedOut(let inventories):
      markedOut += inventories
    case .records(let count):
      report.records += count
    }
  }

  /// Gives the copies `--assign-inventory` numbers their numbers, and adds them.
  mutating func numberWaitingCopies() throws {
    for (row, var draft, var kept, source) in waitingForNumbers {
      let number = try freeNumber()
      var book = row.book
      book.inventoryNumber = number
      draft.inventoryNumber = number
      kept = kept.map {
        let copy = IRBISRecord.Field(tag: 910, value: $0.copy).setting("B", number)
        return IRBISKeptRecord(record: $0.record, copy: copy.value, group: $0.group)
      }
      report.notes.append(.numberAssigned(source, number: number))
      let (store, adding) = (store, BookRow(book, kept: kept))
      try takeBook(draft, kept: kept, source: source) { () throws(StoreError) in try store.books.add(adding) }
    }
    waitingForNumbers.removeAll()
  }

  /// The next number from `--assign-inventory`'s start that no book has.
  private mutating func freeNumber() throws -> String {
    var number = nextNumber ?? "1"
    while try store.books.book(inventory: number) != nil { number = InventoryNumbers.next(after: number) }
    nextNumber = InventoryNumbers.next(after: number)
    return number
  }

  /// Adds a copy through `add`; a number already there is reported, or the book updated.
  private mutating func takeBook(
    _ draft: BookDraft, kept: IRBISKeptRecord?, source: ImportPlace, add: () throws(StoreError) -> Void
  ) throws {
    let inventory = draft.inventoryNumber.trimmingWhitespace()
    do throws(StoreError) {
      // An update looks first. A refused insert undoes its savepoint, and inside a bulk import
      // (whose transaction dropped triggers) SQLite then reads the whole schema again: 1.2 ms a
      // record, twelve times a new record's cost.
      if update, let row = try store.books.rowNumber(inventory: inventory) {
        return try updateBook(inventory, row: row, from: draft, kept: kept, source: source)
      }
      do throws(StoreError) {
        // Adding first and looking only on refusal: the common case, a new book, costs one query.
        try add()
        addedFrom.append(Int32(clamping: source.record))
        report.booksAdded += 1
      } catch {
        guard case .invalid(let errors) = error,
          errors.errors.contains(where: { if case .duplicateInventoryNumber = $0 { return true } else { return false } }
          ),
          let row = try store.books.rowNumber(inventory: inventory)
        else { throw error }
        guard update else {
          if let earlier = earlierRecord(row) {
            report.problems.append(.numberTwice(source, copy: inventory, earlierRecord: earlier))
          } else {
            report.problems.append(.bookThere(source, inventory: inventory))
          }
          return
        }
        try updateBook(inventory, row: row, from: draft, kept: kept, source: source)
      }
    } catch {
      guard case .invalid = error else { throw error }
      report.problems.append(.copyRefused(source, copy: inventory, error))
    }
  }

  /// The record of this file that added or changed the book of row number `row`, if one did.
  private func earlierRecord(_ row: Int64) -> Int? {
    if let changed = updatedFrom[row] { return Int(changed) }
    guard row >= firstRow, row - firstRow < addedFrom.count else { return nil }
    return Int(addedFrom[Int(row - firstRow)])
  }

  /// Writes an imported copy's filled fields over the book of its inventory number (row number
  /// `row`); a book an earlier record of this file gave is replaced, and the report says so.
  private mutating func updateBook(
    _ inventory: String, row: Int64, from draft: BookDraft, kept: IRBISKeptRecord?, source: ImportPlace
  ) throws(StoreError) {
    if let earlier = earlierRecord(row) {
      report.notes.append(.numberReplaced(source, copy: inventory, earlierRecord: earlier))
    }
    updatedFrom[row] = Int32(clamping: source.record)
    try store.books.update(inventory: inventory) { current in
      for field in BookDraft.fields where !draft[field].isEmpty { current[field] = draft[field] }
      current.status = draft.status
    }
    try store.books.keep(kept, forBook: inventory)
    report.booksUpdated += 1
  }

  private mutating func takeReader(_ record: IRBISRecord, source: ImportPlace) throws {
    switch IRBISReaders.reader(from: record) {
    case .failure(let refusal):
      report.problems.append(.refused(source, refusal))
    case .success(let found):
      var draft = found.0
      let readerLoans = record.all(40).compactMap { field in IRBISLoan(field).map { (field.value, $0) } }
      // The category as the file wrote it («сотрудник») is the library's whose code, name or
      // names in other systems' files it is; the record keeps what was written.
      if !draft.category.isEmpty {
        if let category = ReaderCategory.written(draft.category, in: categories) {
          draft.category = category.code
        } else {
          report.notes.append(.unknownCategory(source, category: draft.category, given: defaultCategory))
          draft.category = defaultCategory
        }
      }
      // Kept unless the desk would write the record back as it is: with its loans (whose
      // descriptions and places the desk writes from its books) or a value the desk fills in
      // (category, date of registration), it would not.
      var asWritten = draft
      if asWritten.category.isEmpty { asWritten.category = defaultCategory }
      if asWritten.registered.isEmpty { asWritten.registered = store.clock.now().date.iso }
      let keeping = !readerLoans.isEmpty || IRBISReaders.needsKeeping(record, reader: asWritten, loans: [])
      let ticket = draft.ticket.trimmingWhitespace()
      do throws(StoreError) {
        let existing = try store.readers.reader(ticket: ticket)
        if !update, existing != nil {
          report.problems.append(.readerThere(source, ticket: ticket))
          return
        }
        do throws(StoreError) {
          try save(draft, ticket: ticket)
        } catch {
          // Addresses are kept by home phone: one the desk cannot keep (no phone, or a phone
          // another address has) is left with the record, and the reader comes in without it
          // (and without that phone, which would give them the other address).
          guard case .invalid(let errors) = error,
            errors.errors.allSatisfy({
              if case .addressConflict = $0 { return true }
              return $0 == .phoneNeededForAddress
            })
          else { throw error }
          var withoutAddress = draft
          for field in [Field.postcode, .addressCity, .street, .house, .flat] { withoutAddress[field] = "" }
          if errors.errors.contains(where: { if case .addressConflict = $0 { return true } else { return false } }) {
            withoutAddress.phone = ""
          }
          try save(withoutAddress, ticket: ticket)
          report.notes.append(.addressNotTaken(source, ticket: ticket, errors.errors[0]))
        }
        // Read again (--update), a reader keeps what the file does not say anew.
        var keptRecord = keeping ? record : nil
        if let existing, case let old = try store.readers.kept(forReader: existing), !old.isEmpty {
          keptRecord = IRBISReaders.merged(kept: IRBISKeptRecord(record: old, copy: "", group: "").fields, with: record)
        }
        try store.readers.keep(keptRecord.map(IRBISKeptRecord.lines(of:)) ?? "", forReader: ticket)
        for (field, loan) in readerLoans {
          loans.append((ticket: ticket, field: field, loan: loan, source: source))
        }
      } catch {
        guard case .invalid = error else { throw error }
        report.problems.append(.readerRefused(source, ticket: ticket, error))
      }
    }
  }

  /// Adds the reader, or with `--update` writes the file's filled fields over the one there.
  private mutating func save(_ draft: ReaderDraft, ticket: String) throws(StoreError) {
    if try store.readers.reader(ticket: ticket) != nil {
      try store.readers.update(ticket: ticket) { current in
        for field in ReaderDraft.fields where !draft[field].isEmpty { current[field] = draft[field] }
      }
      report.readersUpdated += 1
    } else {
      try store.readers.add(draft)
      report.readersAdded += 1
    }
  }

  private mutating func takeLoans() throws {
    let offset = store.clock.now().utcOffsetSeconds
    // A loan read back (an export imported again, or --update) is not doubled, though the desk
    // has taken it back or renewed it since: a loan is its book, reader and moment of issue. Two
    // loans of one book on one day are two loans. So the same loan is counted: in the file, and
    // added here.
    var inFile: [LoanKey: Int] = [:]
    var added: [LoanKey: Int] = [:]
    var waiting = 0
    for entry in loans {
      let loan = entry.loan
      let issued = loan.instants(offsetSeconds: offset).issued
      guard let book = try store.books.book(inventory: loan.inventory) else {
        // Kept with the reader: it becomes a loan when the book arrives (`tiePendingLoans`).
        try store.circulation.keepPendingLoan(entry.field, inventory: loan.inventory, ticket: entry.ticket)
        waiting += 1
        continue
      }
      let key = LoanKey(inventory: book.inventoryNumber, ticket: entry.ticket, issued: issued)
      inFile[key, default: 0] += 1
      let known = try store.circulation.loans(ofBook: book).filter {
        LoanKey(inventory: $0.inventory, ticket: $0.readerTicket, issued: $0.loan.issued) == key
      }
      if known.count - added[key, default: 0] >= inFile[key, default: 0] { continue }
      do throws(StoreError) {
        try store.circulation.recordLoan(loan, ticket: entry.ticket, offsetSeconds: offset)
        report.loansAdded += 1
        added[key, default: 0] += 1
      } catch {
        report.problems.append(.loanRefused(entry.source, inventory: loan.inventory, ticket: entry.ticket, error))
      }
    }
    if waiting > 0 { report.notes.append(.loansWaitingForBooks(waiting)) }
    // Marked out with no loan to say to whom, readers before the books in the file or after.
    let unaccounted = try markedOut.filter { number in
      guard let book = try store.books.book(inventory: number) else { return false }
      return try store.books.currentLoan(ofBook: book) == nil
    }.count
    if unaccounted > 0 { report.notes.append(.copiesMarkedOut(unaccounted)) }
    // Loans kept before, of books this import brought.
    for tied in try store.circulation.tiePendingLoans() {
      if let refusal = tied.refusal {
        report.problems.append(.pendingLoanRefused(inventory: tied.inventory, ticket: tied.ticket, refusal))
      } else {
        report.loansAdded += 1
      }
    }
  }
}
