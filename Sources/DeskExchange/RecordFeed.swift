import DeskDomain
import DeskStorage

/// What the reading thread of an import hands to the writing one, in file order.
enum ImportItem: Sendable {
  /// A copy checked and ready to insert; the draft and what the record keeps serve `--update`.
  case book(BookRow, draft: BookDraft, kept: IRBISKeptRecord?, source: ImportPlace)
  /// A copy the checks refused: the store words the refusal, with a taken number among it.
  case refusedBook(BookDraft, source: ImportPlace)
  /// Reader records are few: taken apart where they are written.
  case reader(IRBISRecord, source: ImportPlace)
  case problem(ImportProblem)
  case note(ImportNote)
  /// The copies the file marks out (910 ^A 1): out to whom, only a reader's loan says.
  case markedOut([String])
  case records(Int)
}

/// The reading side of an import: takes records apart, checks their books and makes their
/// rows, on a thread of its own while the writing side fills the database.
public struct RecordFeed {
  private let pipe: BatchPipe<ImportItem>
  private let moment: LocalMoment
  private var batch: [ImportItem] = []
  private var records = 0
  /// Copies the file marks out (910 ^A 1), told once at the end.
  private var copiesMarkedOut: [String] = []

  /// `--assign-inventory`: a book record with no numbered copy gets one, numbered by the writer.
  private let assignsNumbers: Bool

  init(pipe: BatchPipe<ImportItem>, moment: LocalMoment, assignsNumbers: Bool = false) {
    self.pipe = pipe
    self.moment = moment
    self.assignsNumbers = assignsNumbers
    batch.reserveCapacity(RecordFeed.batchSize)
  }

  /// The inventory number of a copy the writer numbers (`--assign-inventory`): U+FFFF is a
  /// noncharacter, which no file or librarian writes in a number (and trimming keeps).
  static let unnumbered = "\u{FFFF}assign"

  /// A copy's number as a note gives it: none for a copy `--assign-inventory` numbers later.
  static func shown(_ number: String) -> String { number == unnumbered ? "" : number }

  static let batchSize = 256

  /// The writing side has stopped (it failed): the reading stops too.
  struct Stopped: Error {}

  public mutating func problem(_ problem: ImportProblem) throws {
    // A record that could not be read is a record of the file all the same: the summary counts it.
    switch problem {
    case .unreadableRecord, .unreadableMARC: records += 1
    default: break
    }
    try send(.problem(problem))
  }

  /// Takes one record: a book record gives a book per copy, a reader record a reader.
  public mutating func take(_ record: IRBISRecord, source: ImportPlace) throws {
    records += 1
    var record = record
    // When the librarian asked for numbers, the copies a record lists without one (a Koha item
    // with no barcode, «б/н») are numbered, beside its numbered ones; a record with no copy of
    // its own (a national library's record, bought and catalogued from it) gets one new copy.
    if assignsNumbers, !IRBISReaders.isReader(record) {
      let unnumbered = record.fields.indices.filter { index in
        let field = record.fields[index]
        return field.tag == 910 && !IRBISBooks.isSummaryEntry(field) && IRBISBooks.isNoNumber(field.subfield("B"))
      }
      for index in unnumbered { record.fields[index] = record.fields[index].setting("B", RecordFeed.unnumbered) }
      if unnumbered.isEmpty && IRBISBooks.copyPositions(in: record).isEmpty {
        record.fields.append(IRBISRecord.Field(tag: 910, value: "^A0^B" + RecordFeed.unnumbered))
      }
    }
    if IRBISReaders.isReader(record) {
      try send(.reader(record, source: source))
      return
    }
    let positions = IRBISBooks.copyPositions(in: record)
    switch IRBISBooks.drafts(from: record, copies: positions) {
    case .failure(let refusal):
      try send(.problem(.refused(source, refusal)))
    case .success(let drafts):
      // Copies without a number cannot circulate: reported, never made into a book «б/н».
      for written in IRBISBooks.copiesWithoutNumber(in: record) {
        try send(.problem(.copyWithoutNumber(source, written: written)))
      }
      for entry in record.all(910) where IRBISBooks.isSummaryEntry(entry) {
        try send(.note(.summaryEntry(source, number: entry.subfield("B"), copies: entry.subfield("1"))))
      }
      for copy in positions.map({ record.fields[$0] }) {
        let code = copy.subfield("A").trimmingWhitespace()
        if IRBISBooks.status(irbisCode: code) == nil {
          try send(.note(.unknownCopyStatus(source, copy: RecordFeed.shown(copy.subfield("B")), code: code)))
        } else if code == "1" {
          copiesMarkedOut.append(copy.subfield("B").trimmingWhitespace())
        }
      }
      // What the record keeps is made only when it is needed: most records of a catalogue the desk
      // wrote itself keep nothing, and a million of them would be built for nothing.
      var kept: [IRBISKeptRecord]?
      let group = drafts.count > 1 ? RecordID.random().text : ""
      for (index, draft) in drafts.enumerated() {
        try takeBook(draft, of: record, source: source) {
          if kept == nil { kept = IRBISKeptRecord.kept(from: record, copies: positions, group: group) }
          return kept?[index]
        }
      }
    }
  }

  /// True when an export of `book` alone would not give `record` back: the record has fields
  /// the desk does not model, several copies, or fields written otherwise than the desk writes
  /// them. Most records of a catalogue the desk wrote itself keep nothing.
  static func needsKeeping(_ record: IRBISRecord, _ book: Book) -> Bool {
    // A record read from ISO 2709 keeps its leader and indicators for its export.
    if record.marcLeader != nil || record.marc21 != nil { return true }
    // The desk writes 920 first and one 910: anything else is kept without building a record.
    guard record.fields.first?.tag == 920, record.fields.allSatisfy({ IRBISKeptRecord.modelledTags.contains($0.tag) }),
      record.fields.lazy.filter({ $0.tag == 910 }).count == 1, let copy = record.first(910)
    else { return true }
    // A copy marked out keeps the mark, for an export while the desk lends it none.
    guard copy.subfield("A") != "1" else { return true }
    return !IRBISBooks.record(for: book, onLoan: false).isWrittenAlike(record)
  }

  private mutating func takeBook(
    _ draft: BookDraft, of record: IRBISRecord, source: ImportPlace, kept: () -> IRBISKeptRecord?
  ) throws {
    var draft = draft
    var checked = validated(draft)
    // An invalid ISBN does not keep a copy out: it comes in without one, and the report says so.
    if case .failure(let errors) = checked,
      errors.errors.contains(where: { if case .invalidISBN = $0 { return true } else { return false } })
    {
      try send(.note(.isbnDropped(source, copy: RecordFeed.shown(draft.inventoryNumber), isbn: draft.isbn)))
      draft.isbn = ""
      checked = validated(draft)
    }
    // A price that is not an amount («Беспл.», free) does not keep a copy out either.
    if case .failure(let errors) = checked,
      errors.errors.contains(where: { if case .invalidPrice = $0 { return true } else { return false } })
    {
      try send(.note(.priceDropped(source, copy: RecordFeed.shown(draft.inventoryNumber), price: draft.price)))
      draft.price = ""
      checked = validated(draft)
    }
    switch checked {
    case .success(let book):
      let keeping = RecordFeed.needsKeeping(record, book) ? kept() : nil
      try send(.book(BookRow(book, kept: keeping), draft: draft, kept: keeping, source: source))
    case .failure: try send(.refusedBook(draft, source: source))
    }
  }

  /// The book of a draft, or what is wrong with it. A copy the writer numbers is checked with a
  /// stand-in number (its own is not known yet, and the stand-in's mark is not a valid one).
  private func validated(_ draft: BookDraft) -> Result<Book, ValidationErrors> {
    var checked = draft
    if checked.inventoryNumber == RecordFeed.unnumbered { checked.inventoryNumber = "0" }
    return Result { () throws(ValidationErrors) in
      try checked.validated(base: nil, today: moment.date, now: moment.instant)
    }
  }

  private mutating func send(_ item: ImportItem) throws {
    batch.append(item)
    if batch.count >= RecordFeed.batchSize { try flush() }
  }

  mutating func finish() throws {
    // A catalogue says a copy is out (910 ^A 1), but only a reader's loan (field 40) says to whom.
    if !copiesMarkedOut.isEmpty { batch.append(.markedOut(copiesMarkedOut)) }
    batch.append(.records(records))
    try flush()
  }

  private mutating func flush() throws {
    guard pipe.send(batch) else { throw Stopped() }
    batch.removeAll(keepingCapacity: true)
  }
}
