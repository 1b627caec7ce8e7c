import DeskDomain

/// A renewed loan as it was and as it is now: enough to take the renewal back.
public struct Renewal: Hashable, Sendable {
  public var before: LoanRecord
  public var after: LoanRecord
}

/// A loan with the book and the reader named, for receipts, lists and history.
public struct LoanRecord: Hashable, Sendable {
  public var loan: Loan
  public var inventory: String
  public var bookTitle: String
  public var bookAuthor: String
  public var readerTicket: String
  public var readerName: String
  /// After a return: the hold the copy was put aside for, to go on the hold shelf.
  public var heldFor: HoldTrap?

  public init(
    loan: Loan, inventory: String, bookTitle: String, bookAuthor: String, readerTicket: String, readerName: String,
    heldFor: HoldTrap? = nil
  ) {
    self.loan = loan
    self.inventory = inventory
    self.bookTitle = bookTitle
    self.bookAuthor = bookAuthor
    self.readerTicket = readerTicket
    self.readerName = readerName
    self.heldFor = heldFor
  }
}

/// The columns of a loan, `loan l`, in the order `loanColumns` selects them.
enum LoanColumn: Int32, SelectedColumn {
  case uuid, issuedAt, dueDate, returnedAt, renewals, renewedAt, desk, bookUUID, readerUUID, undoneAt

  var sql: String {
    switch self {
    case .bookUUID: return "(SELECT uuid FROM book WHERE id = l.book_id)"
    case .readerUUID: return "(SELECT uuid FROM reader WHERE id = l.reader_id)"
    default: return column(of: "l")
    }
  }
}

/// After a loan's columns in `loanRecordSQL`: the book and the reader named.
enum LoanRecordColumn: Int32, SelectedColumn {
  case inventory, title, authorSurname, authorInitials, ticket, surname, firstName, patronymic

  var sql: String {
    switch self {
    case .inventory, .title, .authorSurname, .authorInitials: return column(of: "b")
    case .ticket, .surname, .firstName, .patronymic: return column(of: "r")
    }
  }
}

extension CirculationStore {
  static let loanColumns = LoanColumn.list

  static func decodeLoan(_ row: Row, from start: Int32 = 0) throws -> Loan {
    Loan(
      id: RecordID(row.string(LoanColumn.uuid, from: start)),
      bookID: RecordID(row.string(LoanColumn.bookUUID, from: start)),
      readerID: RecordID(row.string(LoanColumn.readerUUID, from: start)),
      issued: try row.timestamp(LoanColumn.issuedAt, from: start), due: try row.date(LoanColumn.dueDate, from: start),
      returned: try row.optionalTimestamp(LoanColumn.returnedAt, from: start),
      renewals: row.int(LoanColumn.renewals, from: start),
      lastRenewed: try row.optionalTimestamp(LoanColumn.renewedAt, from: start),
      desk: row.string(LoanColumn.desk, from: start),
      undone: try row.optionalTimestamp(LoanColumn.undoneAt, from: start))
  }

  static let loanRecordSQL = """
    SELECT \(loanColumns), \(LoanRecordColumn.list)
    FROM loan l JOIN book b ON b.id = l.book_id JOIN reader r ON r.id = l.reader_id
    """

  static func decodeLoanRecord(_ row: Row) throws -> LoanRecord {
    let named = LoanColumn.count
    return LoanRecord(
      loan: try decodeLoan(row), inventory: row.string(LoanRecordColumn.inventory, from: named),
      bookTitle: row.string(LoanRecordColumn.title, from: named),
      bookAuthor: [
        row.string(LoanRecordColumn.authorSurname, from: named),
        row.string(LoanRecordColumn.authorInitials, from: named),
      ].filter { !$0.isEmpty }.joined(separator: " "),
      readerTicket: row.string(LoanRecordColumn.ticket, from: named),
      readerName: Reader.shortName(
        surname: row.string(LoanRecordColumn.surname, from: named),
        firstName: row.string(LoanRecordColumn.firstName, from: named),
        patronymic: row.string(LoanRecordColumn.patronymic, from: named)))
  }

  /// A reader's loans: open ones first by due date, then the returned ones, newest first.
  ///
  /// `includingUndone` adds the issues taken back at the counter, for the history a librarian
  /// reads; they were never loans, so exports, statistics and rules never see them.
  public func loans(ofReader reader: Reader, includingUndone: Bool = false) throws(StoreError) -> [LoanRecord] {
    try read {
      try database.query(
        CirculationStore.loanRecordSQL + """
           WHERE r.uuid = ? AND \(CirculationStore.loanShown(includingUndone))
          ORDER BY l.returned_at IS NOT NULL OR l.undone_at IS NOT NULL,
            CASE WHEN l.returned_at IS NULL AND l.undone_at IS NULL THEN l.due_date END,
            coalesce(l.returned_at, l.undone_at) DESC
          """, reader.id.text, read: CirculationStore.decodeLoanRecord)
    }
  }

  /// A book's loans, newest first; `includingUndone` as for a reader's.
  public func loans(ofBook book: Book, includingUndone: Bool = false) throws(StoreError) -> [LoanRecord] {
    try read {
      try database.query(
        CirculationStore.loanRecordSQL
          + " WHERE b.uuid = ? AND \(CirculationStore.loanShown(includingUndone)) ORDER BY l.issued_at DESC",
        book.id.text, read: CirculationStore.decodeLoanRecord)
    }
  }

  /// True when the desk has a loan of the book, open or taken back, or undone since.
  public func hasLoans(_ book: Book) throws(StoreError) -> Bool {
    try read {
      try database.scalarInt(
        """
        SELECT EXISTS (SELECT 1 FROM loan l JOIN book b ON b.id = l.book_id
          WHERE b.uuid = ? AND \(CirculationStore.loanShown(true)))
        """, book.id.text) != 0
    }
  }

  /// The loans a history lists: an undone issue is a tombstone (`deleted`) that says why.
  static func loanShown(_ includingUndone: Bool) -> String {
    includingUndone ? "(l.deleted = 0 OR l.undone_at IS NOT NULL)" : "l.deleted = 0"
  }

  /// Issues the books to the reader, all or none: every problem with any of them is reported
  /// together and nothing is written. `due` overrides the due date the rules give.
  @discardableResult
  public func issue(ticket: String, inventories: [String], due: LocalDate? = nil) throws(StoreError) -> [LoanRecord] {
    try write {
      let ticket = ticket.identifierForm
      guard let (readerRowID, reader) = try readerRow(ticket: ticket) else {
        throw StoreError.refused([.unknownReader(ticket)])
      }
      var refusals: [CirculationRefusal] = []
      var books: [BookRef] = []
      var seen = Set<String>()
      for code in inventories.map({ $0.identifierForm }) where seen.insert(code).inserted {
        guard let book = try bookRef(inventory: code) else {
          refusals.append(.unknownBook(code))
          continue
        }
        books.append(book)
      }
      return try issue(books, to: (readerRowID, reader), due: due, refusals: refusals)
    }
  }

  /// A book as circulation acts on it: its row and its record.
  typealias BookRef = (rowID: Int64, book: Book)
  typealias ReaderRef = (rowID: Int64, reader: Reader)

  func bookRef(inventory: String) throws -> BookRef? {
    try database.queryFirst(
      "SELECT \(LibraryStore.bookColumns) FROM book b WHERE b.inventory = ? AND b.deleted = 0", inventory
    ) { ($0.int64(BookColumn.id), try LibraryStore.decodeBook($0)) }
  }

  /// Issues `books` to the reader inside the caller's write, after every check of the rules;
  /// `refusals` found by the caller are reported with the rest.
  func issue(_ books: [BookRef], to reader: ReaderRef, due: LocalDate?, refusals found: [CirculationRefusal] = [])
    throws -> [LoanRecord]
  {
    let moment = clock.now()
    let policy = try store.policy.current()
    guard let category = try store.policy.categories().first(where: { $0.code == reader.reader.category }) else {
      throw StoreError.categoryNotFound(reader.reader.category)
    }
    var refusals = found
    if let due, due < moment.date { refusals.append(.dueDateInPast(due)) }
    for (rowID, book) in books {
      if !book.status.circulates {
        refusals.append(.notForLoan(book: book.title, inventory: book.inventoryNumber, status: book.status))
      }
      // A copy on the hold shelf goes to the reader it waits for, and to nobody else.
      if let held = try store.holds.waitingHold(bookRowID: rowID), held.readerRowID != reader.rowID {
        refusals.append(
          .heldForAnother(book: book.title, inventory: book.inventoryNumber, reader: held.name, ticket: held.ticket))
      }
      guard let current = try store.books.currentLoan(bookID: book.id) else { continue }
      if current.readerTicket == reader.reader.ticket {
        refusals.append(
          .alreadyOnLoanToSameReader(book: book.title, inventory: book.inventoryNumber, due: current.loan.due))
      } else {
        refusals.append(
          .alreadyOnLoan(
            book: book.title, inventory: book.inventoryNumber, reader: current.readerName,
            ticket: current.readerTicket, due: current.loan.due))
      }
    }
    refusals += try issueRulesRefusals(reader, adding: books.count + found.count, policy: policy, category: category)
    guard refusals.isEmpty else { throw StoreError.refused(refusals) }
    let dueDate = due ?? policy.dueDate(issuedOn: moment.date, category: category)
    var issued: [LoanRecord] = []
    for (rowID, book) in books {
      let loan = Loan(
        bookID: book.id, readerID: reader.reader.id, issued: try issueMoment(bookRowID: rowID, now: moment.instant),
        due: dueDate, desk: policy.deskName)
      try database.execute(
        """
        INSERT INTO loan(uuid, book_id, reader_id, issued_at, due_date, desk, created_at, updated_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
        """, loan.id.text, rowID, reader.rowID, loan.issued.iso, loan.due.iso, loan.desk, loan.issued.iso,
        loan.issued.iso)
      try store.holds.fulfilHolds(of: reader.rowID, book: book, bookRowID: rowID, at: loan.issued)
      try noteVisit(readerRowID: reader.rowID, at: loan.issued, desk: policy.deskName)
      issued.append(
        LoanRecord(
          loan: loan, inventory: book.inventoryNumber, bookTitle: book.title, bookAuthor: book.author,
          readerTicket: reader.reader.ticket, readerName: reader.reader.shortName))
    }
    return issued
  }

  /// When an issue of the book at `now` is dated: never before the book's last return, as a
  /// return is never dated before its issue. A desk whose clock runs ahead within the bound
  /// dates its loans ahead, and a return here of such a loan is dated at its issue; an issue
  /// here dated before that return would count as ended by it, and a sync closes it. A return
  /// dated further ahead than the bound is a wrong clock's and moves nothing.
  func issueMoment(bookRowID: Int64, now: Timestamp) throws -> Timestamp {
    let lastReturn = try database.queryFirst(
      "SELECT max(returned_at) FROM loan WHERE book_id = ? AND deleted = 0 AND returned_at >= ? AND returned_at <= ?",
      bookRowID, now.iso, now.adding(milliseconds: ClockOffset.boundMilliseconds).iso
    ) { $0.isNull(0) ? nil : Timestamp(iso: $0.string(0)) }
    return lastReturn.flatMap { $0 }.map { $0.adding(milliseconds: 1) } ?? now
  }

  /// What would refuse the reader one more book by their situation alone (the limit of their
  /// category, overdue books): what a self-check kiosk's patron status says before a checkout.
  public func borrowingRefusals(ticket: String) throws(StoreError) -> [CirculationRefusal] {
    try read {
      guard let (rowID, reader) = try readerRow(ticket: ticket.identifierForm) else {
        throw StoreError.refused([.unknownReader(ticket)])
      }
      guard let category = try store.policy.category(code: reader.category) else {
        throw StoreError.categoryNotFound(reader.category)
      }
      return try issueRulesRefusals(
        (rowID, reader), adding: 1, policy: try store.policy.current(), category: category)
    }
  }

  /// What the reader's situation alone forbids of issuing `count` more books.
  func issueRulesRefusals(_ reader: ReaderRef, adding count: Int, policy: CirculationPolicy, category: ReaderCategory)
    throws -> [CirculationRefusal]
  {
    let (openLoans, overdue) = try loanCounts(readerRowID: reader.rowID, today: clock.now().date)
    return CirculationRules.issueRefusals(
      readerName: reader.reader.shortName, category: category, openLoans: openLoans, overdueLoans: overdue,
      adding: count, policy: policy)
  }

  /// Takes the books back. Only the books are needed; all or none.
  @discardableResult
  public func returnBooks(inventories: [String]) throws(StoreError) -> [LoanRecord] {
    let now = clock.now().instant
    return try write {
      try openLoanRecords(inventories: inventories).map { try close($0, at: now) }
    }
  }

  /// Marks an open loan returned at `now`, inside the caller's write. A return is never dated
  /// before its issue: a loan issued at a desk whose clock ran ahead (before a sync found it off)
  /// comes back the moment it went out.
  func close(_ record: LoanRecord, at moment: Timestamp) throws -> LoanRecord {
    let now = max(moment, record.loan.issued)
    try database.execute(
      "UPDATE loan SET returned_at = ?, updated_at = ? WHERE uuid = ?", now.iso, now.iso, record.loan.id.text)
    // A book issued at two desks while they were apart comes back once: the return closes every
    // loan of it, whoever holds it (Koha's rule for offline circulation), and settles the conflict.
    if let book = try database.queryFirst(
      "SELECT book_id FROM loan WHERE uuid = ? AND conflict <> 0", record.loan.id.text, read: { $0.int64(0) })
    {
      // Each no earlier than its own issue (ISO times in one form order as text).
      try database.execute(
        """
        UPDATE loan SET returned_at = max(?1, issued_at), updated_at = ?1
        WHERE book_id = ?2 AND returned_at IS NULL AND deleted = 0
        """, now.iso, book)
      _ = try store.reconcileLoans(bookRowID: book, now: now)
    }
    if let reader = try database.queryFirst(
      "SELECT reader_id FROM loan WHERE uuid = ?", record.loan.id.text, read: { $0.int64(0) })
    {
      try noteVisit(readerRowID: reader, at: now)
    }
    var returned = record
    returned.loan.returned = now
    // The copy fills the first hold of its queue, if one waits: it goes to the hold shelf.
    if let rowID = try store.books.bookRowID(inventory: record.inventory) {
      returned.heldFor = try store.holds.trap(bookRowID: rowID)
    }
    return returned
  }

  /// Extends the loans of the books by their readers' loan periods; all or none.
  @discardableResult
  public func renew(inventories: [String]) throws(StoreError) -> [LoanRecord] {
    try renewals(inventories: inventories).map(\.after)
  }

  /// Extends the loans of the books, all or none, saying what each loan was before.
  public func renewals(inventories: [String]) throws(StoreError) -> [Renewal] {
    try write {
      let (renewals, refusals) = try renew(try openLoanRecords(inventories: inventories))
      guard refusals.isEmpty else { throw StoreError.refused(refusals) }
      try record(renewals)
      return renewals
    }
  }

  /// Renews every loan of the reader that may be renewed; the others are left as they were and
  /// named, each with its reason. Refused only when not one loan may be renewed.
  public func renewAll(ticket: String) throws(StoreError) -> (renewed: [Renewal], refused: [CirculationRefusal]) {
    try write {
      guard let (_, reader) = try readerRow(ticket: ticket.identifierForm) else {
        throw StoreError.refused([.unknownReader(ticket)])
      }
      let open = try loans(ofReader: reader).filter(\.loan.isOpen)
      guard !open.isEmpty else { throw StoreError.refused([.nothingToRenew(reader: reader.shortName)]) }
      var renewed: [Renewal] = []
      var refused: [CirculationRefusal] = []
      for record in open {
        let (done, problems) = try renew([record])
        renewed += done
        refused += problems.filter { !refused.contains($0) }
      }
      guard !renewed.isEmpty else { throw StoreError.refused(refused) }
      try record(renewed)
      return (renewed, refused)
    }
  }

  /// The renewals of open loans the rules allow, not yet written, and the refusals of the others.
  private func renew(_ records: [LoanRecord]) throws -> (renewals: [Renewal], refusals: [CirculationRefusal]) {
    let moment = clock.now()
    let policy = try store.policy.current()
    let categories = try store.policy.categories()
    var refusals: [CirculationRefusal] = []
    var renewed: [Renewal] = []
    for record in records {
      guard let (readerRowID, reader) = try readerRow(ticket: record.readerTicket),
        let category = categories.first(where: { $0.code == reader.category })
      else {
        refusals.append(.unknownReader(record.readerTicket))
        continue
      }
      let (_, overdue) = try loanCounts(readerRowID: readerRowID, today: moment.date)
      var problems = CirculationRules.renewalRefusals(
        loan: record.loan, bookName: record.bookTitle, inventory: record.inventory, readerName: reader.shortName,
        category: category, overdueLoans: overdue, policy: policy)
      // Koha's rule: no renewal while another reader waits for the title and no other copy is free.
      if let rowID = try store.books.bookRowID(inventory: record.inventory),
        let book = try store.books.findBook(inventory: record.inventory),
        let waiting = try store.holds.readerWaiting(forBookRowID: rowID, book: book)
      {
        problems.append(
          .renewalHeld(
            book: record.bookTitle, inventory: record.inventory, reader: waiting.name, ticket: waiting.ticket))
      }
      guard problems.isEmpty else {
        refusals += problems.filter { !refusals.contains($0) }
        continue
      }
      var changed = record
      changed.loan.due = policy.renewedDueDate(oldDue: record.loan.due, today: moment.date, category: category)
      changed.loan.renewals += 1
      changed.loan.lastRenewed = max(moment.instant, record.loan.issued)
      renewed.append(Renewal(before: record, after: changed))
    }
    return (renewed, refusals)
  }

  private func record(_ renewals: [Renewal]) throws {
    let desk = try store.policy.deskName()
    for renewal in renewals {
      let loan = renewal.after.loan
      try database.execute(
        "UPDATE loan SET due_date = ?, renewals = ?, renewed_at = ?, updated_at = ? WHERE uuid = ?",
        loan.due.iso, loan.renewals, loan.lastRenewed?.iso, loan.lastRenewed?.iso, loan.id.text)
      // The work diary counts each renewal on its day; the loan keeps only the latest.
      try noteRenewal(of: loan.id, at: loan.lastRenewed ?? clock.now().instant, desk: desk)
    }
  }

  /// A renewal of the loan at `moment`, in the work diary.
  func noteRenewal(of loan: RecordID, at moment: Timestamp, desk: String) throws {
    try database.execute(
      """
      INSERT INTO renewal(uuid, loan_id, renewed_at, desk, created_at)
      SELECT ?1, id, ?2, ?3, ?2 FROM loan WHERE uuid = ?4
      """, RecordID.random().text, moment.iso, desk, loan.text)
  }

  /// A reader at the counter at `moment`: one visit a day a desk, in the work diary (at this desk
  /// unless `desk` names another: a recorded loan's).
  func noteVisit(readerRowID: Int64, at moment: Timestamp, desk: String? = nil) throws {
    let desk = try desk ?? store.policy.deskName()
    try database.execute(
      """
      INSERT OR IGNORE INTO visit(uuid, reader_id, day, at, desk, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?4)
      """, RecordID.random().text, readerRowID, clock.local(moment).date.iso, moment.iso, desk)
  }

  /// Records a loan that happened elsewhere or earlier (an import, a replay, the demo), with
  /// its own dates. The book must be free when the loan is still open.
  @discardableResult
  public func recordLoan(
    ticket: String, inventory: String, issued: Timestamp, due: LocalDate, returned: Timestamp? = nil,
    renewals: Int = 0, renewed: Timestamp? = nil, desk: String
  ) throws(StoreError) -> LoanRecord {
    try write {
      guard let (readerRowID, reader) = try readerRow(ticket: ticket) else {
        throw StoreError.refused([.unknownReader(ticket)])
      }
      guard let book = try store.books.findBook(inventory: inventory),
        let bookRowID = try store.books.bookRowID(inventory: inventory)
      else {
        throw StoreError.refused([.unknownBook(inventory)])
      }
      if returned == nil, let current = try store.books.currentLoan(bookID: book.id) {
        throw StoreError.refused([
          .alreadyOnLoan(
            book: book.title, inventory: inventory, reader: current.readerName, ticket: current.readerTicket,
            due: current.loan.due)
        ])
      }
      let loan = Loan(
        bookID: book.id, readerID: reader.id, issued: issued, due: due, returned: returned, renewals: renewals,
        lastRenewed: renewed, desk: desk)
      let updated = returned ?? issued
      try database.execute(
        """
        INSERT INTO loan(uuid, book_id, reader_id, issued_at, due_date, returned_at, renewals, renewed_at, desk,
          created_at, updated_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """, loan.id.text, bookRowID, readerRowID, issued.iso, due.iso, returned?.iso, renewals, renewed?.iso, desk,
        issued.iso, updated.iso)
      // In the work diary as they happened: a visit at the issue and at the return, and the
      // latest renewal (the only one whose day is known).
      try noteVisit(readerRowID: readerRowID, at: issued, desk: desk)
      if let returned { try noteVisit(readerRowID: readerRowID, at: returned, desk: desk) }
      if renewals > 0, let renewed { try noteRenewal(of: loan.id, at: renewed, desk: desk) }
      if returned == nil {
        // A loan made elsewhere of a copy on the hold shelf: the reader's own hold is fulfilled;
        // another's queues again, since the copy is out.
        try store.holds.fulfilHolds(of: readerRowID, book: book, bookRowID: bookRowID, at: clock.now().instant)
        try store.holds.releaseTrappedCopy(bookRowID: bookRowID, at: clock.now().instant)
      }
      return LoanRecord(
        loan: loan, inventory: book.inventoryNumber, bookTitle: book.title, bookAuthor: book.author,
        readerTicket: reader.ticket, readerName: reader.shortName)
    }
  }

  /// Takes back an issue made by mistake: the loan counts nowhere, as if it never happened, and
  /// stays in the book's and the reader's history as issued and undone, with when. Only an open
  /// loan can be cancelled.
  public func cancelLoan(_ id: RecordID) throws(StoreError) {
    let now = clock.now().instant
    try write {
      let changed = try database.execute(
        """
        UPDATE loan SET deleted = 1, undone_at = ?1, updated_at = ?1
        WHERE uuid = ?2 AND returned_at IS NULL AND deleted = 0
        """, now.iso, id.text)
      guard changed == 1 else { throw StoreError.loanChanged }
      // The hold the issue fulfilled stands again: waiting for its copy, or queued where it was.
      try database.execute(
        """
        UPDATE hold SET state = CASE WHEN trapped_book_id IS NULL THEN 'queued' ELSE 'waiting' END, ended_at = NULL,
          updated_at = ?1
        WHERE state = 'fulfilled' AND (reader_id, ended_at) = (SELECT reader_id, issued_at FROM loan WHERE uuid = ?2)
        """, now.iso, id.text)
    }
  }

  /// Takes back a return made by mistake: the loan is open again, with its old due date.
  /// Refused when the book has been issued again since.
  public func reopenLoan(_ id: RecordID) throws(StoreError) {
    let now = clock.now().instant
    try write {
      guard
        let record = try database.queryFirst(
          CirculationStore.loanRecordSQL + " WHERE l.uuid = ? AND l.deleted = 0", id.text,
          read: CirculationStore.decodeLoanRecord),
        record.loan.returned != nil
      else { throw StoreError.loanChanged }
      guard let book = try store.books.findBook(inventory: record.inventory) else {
        throw StoreError.bookNotFound(record.inventory)
      }
      if let current = try store.books.currentLoan(bookID: book.id) {
        throw StoreError.refused([
          .alreadyOnLoan(
            book: book.title, inventory: book.inventoryNumber, reader: current.readerName,
            ticket: current.readerTicket, due: current.loan.due)
        ])
      }
      try database.execute("UPDATE loan SET returned_at = NULL, updated_at = ? WHERE uuid = ?", now.iso, id.text)
      // The hold the return put the copy aside for queues again, in its old place.
      try database.execute(
        """
        UPDATE hold SET state = 'queued', trapped_book_id = NULL, waiting_since = NULL, pickup_by = NULL, updated_at = ?
        WHERE state = 'waiting' AND trapped_book_id = (SELECT book_id FROM loan WHERE uuid = ?)
        """, now.iso, id.text)
    }
  }

  /// The open loans of the books, or a refusal naming each book that is unknown or not out.
  func openLoanRecords(inventories: [String]) throws -> [LoanRecord] {
    var refusals: [CirculationRefusal] = []
    var records: [LoanRecord] = []
    var seen = Set<String>()
    for code in inventories.map({ $0.identifierForm }) where seen.insert(code).inserted {
      guard let book = try store.books.findBook(inventory: code) else {
        refusals.append(.unknownBook(code))
        continue
      }
      // Any book with the number: while two desks' books share it (a clash not yet settled), the
      // one out is the one coming back.
      guard
        let record = try database.queryFirst(
          CirculationStore.loanRecordSQL
            + " WHERE b.inventory = ? AND b.deleted = 0 AND l.returned_at IS NULL AND l.deleted = 0 ORDER BY b.clash",
          book.inventoryNumber, read: CirculationStore.decodeLoanRecord)
      else {
        refusals.append(.notOnLoan(book: book.title, inventory: code))
        continue
      }
      records.append(record)
    }
    guard refusals.isEmpty else { throw StoreError.refused(refusals) }
    return records
  }

  func readerRow(ticket: String) throws -> (Int64, Reader)? {
    try database.queryFirst(
      "SELECT \(ReaderStore.readerColumns) FROM \(ReaderStore.readerFrom) WHERE r.ticket = ? AND r.deleted = 0",
      ticket
    ) { ($0.int64(ReaderColumn.id), try ReaderStore.decodeReader($0)) }
  }

  func loanCounts(readerRowID: Int64, today: LocalDate) throws -> (open: Int, overdue: Int) {
    try database.queryFirst(
      """
      SELECT count(*), coalesce(sum(due_date < ?), 0) FROM loan
      WHERE reader_id = ? AND returned_at IS NULL AND deleted = 0
      """, today.iso, readerRowID
    ) { ($0.int(0), $0.int(1)) } ?? (0, 0)
  }
}
