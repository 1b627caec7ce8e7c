import DeskDomain
import DeskStorage

/// The copies that go out in one exported record, with whether the record carries the fields of
/// the imported record that are not any copy's own (the first part of a record split by changes).
struct ExportedCopies: Sendable {
  var copies: [IRBISCopy]
  var whole: Bool
}

/// Gathers the copies of one imported record, so that they go out as that one record, once, in
/// the place of the first of them an export meets.
struct RecordCopies {
  private var written = Set<RecordID>()
  /// The inventory numbers asked for, when an export names its books: their record goes out
  /// with them alone, not with the record's other copies.
  var only: Set<String>?

  /// The copies that go out with `listing`'s book, or nil when they went out already.
  mutating func copies(
    of listing: BookWithLoan, kept: IRBISKeptRecord?, onHoldShelf: Bool, in store: LibraryStore
  ) throws(StoreError) -> ExportedCopies? {
    var copy = IRBISCopy(book: listing.book, kept: kept, onLoan: listing.loan != nil, onHoldShelf: onHoldShelf)
    guard let group = kept?.group, !group.isEmpty else {
      try Self.noteMarkedOut(&copy, in: store)
      return ExportedCopies(copies: [copy], whole: true)
    }
    guard !written.contains(listing.book.id) else { return nil }
    var all = try store.books.copies(inGroup: group)
    for index in all.indices { try Self.noteMarkedOut(&all[index], in: store) }
    // The part of the record this copy's description is: the whole of it while it holds the
    // record's first copy, whichever of its copies an export names.
    let sharing = all.filter { $0.book.sharesDescription(with: listing.book) }
    let copies = sharing.filter { only?.contains($0.book.inventoryNumber) ?? true }
    written.formUnion(copies.map(\.book.id))
    return ExportedCopies(copies: copies, whole: sharing.first?.book.id == all.first?.book.id)
  }

  /// Whether a copy its file marked out (910 ^A 1) is still so: the desk has no loan of it, lent
  /// and taken back or lent now. Asked only of those few copies.
  private static func noteMarkedOut(_ copy: inout IRBISCopy, in store: LibraryStore) throws(StoreError) {
    guard !copy.onLoan, let kept = copy.kept, IRBISRecord.Field(tag: 910, value: kept.copy).subfield("A") == "1"
    else { return }
    copy.markedOutAsCame = try !store.circulation.hasLoans(copy.book)
  }
}

extension IRBISExport {
  /// Calls `body` with the copies of each record of the whole catalogue (or its books new since
  /// a date), in the order the books were entered. The books are read on a thread of their own,
  /// through a connection of their own to the file, while this thread makes and writes the
  /// records: a million books took 15.0–15.3 s on one thread (reading a third of it), 8.3–8.9 s
  /// so, against 3.9 s for `sqlite3` writing the same rows to a file. Inside a transaction of
  /// `store`, whose changes another connection would not see yet, they are read here.
  static func forEachInEntryOrder(
    _ selection: BookSelection, of store: LibraryStore, _ body: (ExportedCopies) throws(StoreError) -> Void
  ) throws(StoreError) {
    guard !store.isInTransaction else {
      try readInEntryOrder(selection, from: store) { batch throws(StoreError) in
        for copies in batch { try body(copies) }
        return true
      }
      return
    }
    let (path, clock, readingOnly) = (store.path, store.clock, store.isReadOnly)
    do {
      try BatchPipe<ExportedCopies>.streaming(capacity: 8) { pipe in
        let books = try LibraryStore(path: path, clock: clock, create: false, readingOnly: readingOnly)
        try readInEntryOrder(selection, from: books) { batch in pipe.send(batch) }
      } using: { pipe in
        while let batch = try pipe.receive() {
          for copies in batch { try body(copies) }
        }
      }
    } catch let error as StoreError {
      throw error
    } catch {
      throw .cannotOpen(path: path, reason: "\(error)")
    }
  }

  /// Reads the selection's books page by page in entry order, handing each page's records to
  /// `take` until it says no more.
  private static func readInEntryOrder(
    _ selection: BookSelection, from books: LibraryStore, take: ([ExportedCopies]) throws(StoreError) -> Bool
  ) throws(StoreError) {
    var records = RecordCopies()
    var entry: Int64 = 0
    while true {
      let page = try books.books.booksToExportInEntryOrder(after: entry)
      var batch: [ExportedCopies] = []
      batch.reserveCapacity(page.count)
      for (listing, kept, onHoldShelf, _) in page where isSelected(listing.book, selection) {
        if let copies = try records.copies(of: listing, kept: kept, onHoldShelf: onHoldShelf, in: books) {
          batch.append(copies)
        }
      }
      guard let last = page.last, try take(batch) else { return }
      entry = last.entry
    }
  }

  /// Whether a book read from a page belongs to `selection`: new books are those received (or
  /// entered) on or after its date.
  static func isSelected(_ book: Book, _ selection: BookSelection) -> Bool {
    guard case .newSince(let date) = selection else { return true }
    return (book.received ?? book.created.utcDate) >= date
  }
}
