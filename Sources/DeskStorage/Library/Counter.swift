import DeskDomain

/// What the librarian means by scanning a code at the counter. The Desk is `.counter`: the code
/// decides. The command line names one action (`scan --issue-to`, `--return`, `--renew`).
public enum CounterIntent: Sendable {
  case counter, issue, giveBack, renew
}

/// A copy of a title the librarian may choose, with its loan when it is out.
public struct CopyChoice: Hashable, Sendable {
  public var book: Book
  public var loan: CurrentLoan?
}

/// A change at the counter, as the desk records it to say what happened and to take it back.
public enum CounterAction: Hashable, Sendable {
  case issued(LoanRecord)
  case returned(LoanRecord)
  case renewed(Renewal)
  /// The book was returned from one reader and issued to another in one transaction.
  case transferred(returned: LoanRecord, issued: LoanRecord)
}

/// What a code did at the counter, or what the librarian must answer first.
public enum CounterOutcome: Hashable, Sendable {
  case selected(Reader)
  case done(CounterAction)
  /// The book is out to another reader: return it from them and issue it to the selected one?
  /// `circulate(…, transfer: true)` does both.
  case confirmTransfer(current: LoanRecord, to: Reader)
  /// An ISBN names several copies that fit: the librarian chooses one, or scans its inventory
  /// number. `toIssue` says what the chosen copy is for.
  case chooseCopy(ISBN, copies: [CopyChoice], toIssue: Bool)
  /// Not a code but words: find readers by this name.
  case findReader(String)
  /// A QR label of a book the library does not have: the librarian adds it (a New Book form).
  case newBook(BookDraft)
  /// Nothing in the library answers to this code. Nothing is created from it.
  case unknown(String)
  /// The book or reader has an open conflict between desks: it is shown before anything is done
  /// with the code (`circulate(…, conflictSeen: true)` goes on once the librarian has seen it).
  case conflict(Conflict, code: String)
}

extension CirculationStore {
  /// The one rule of the counter: what a scanned or typed code does, given the reader at the
  /// counter (if any). A ticket selects its reader. A book (its inventory number, its QR label, or
  /// an ISBN naming one copy) is returned when nobody is selected or when the selected reader holds
  /// it, issued to the selected reader when it is on the shelf, and for a book out to somebody else
  /// the librarian is asked first (`transfer: true` is their yes). An ISBN never picks one of
  /// several copies by itself. Resolving the code and acting on it are one write transaction.
  /// Refusals are thrown as `StoreError.refused`, with what to do instead. A book or ticket with an
  /// open conflict between desks answers `.conflict` first, unless `conflictSeen`.
  public func circulate(
    _ code: String, reader selected: Reader?, intent: CounterIntent = .counter, transfer: Bool = false,
    conflictSeen: Bool = false
  ) throws(StoreError) -> CounterOutcome {
    try write {
      let reader = try selected.flatMap { try readerRef(id: $0.id) }
      if let selected, reader == nil { throw StoreError.readerNotFound(selected.ticket) }
      let resolution = try store.resolve(code, prefer: reader == nil && intent == .counter ? .reader : .book)
      let book: BookRef
      switch resolution {
      case .reader(let found):
        guard intent == .counter else { throw StoreError.refused([.notABook(code)]) }
        if !conflictSeen, let conflict = try store.conflicts.openConflicts(entity: .reader, recordID: found.id).first {
          return .conflict(conflict, code: code)
        }
        if let selected = try readerRef(id: found.id) {
          try noteVisit(readerRowID: selected.rowID, at: clock.now().instant)
        }
        return .selected(found)
      case .unknown(let text):
        if intent == .counter, Self.readsAsName(text) { return .findReader(text) }
        return .unknown(text)
      case .newBook(let draft):
        if intent == .counter { return .newBook(draft) }
        let inventory = draft.inventoryNumber.identifierForm
        throw StoreError.refused([.unknownBook(inventory.isEmpty ? code : inventory)])
      case .isbn(let isbn, let copies):
        switch try pickCopy(isbn, among: copies, reader: reader, intent: intent) {
        case .copy(let ref): book = ref
        case .choose(let choices, let toIssue): return .chooseCopy(isbn, copies: choices, toIssue: toIssue)
        }
      case .book(let found), .recordOfExistingBook(_, let found):
        guard let ref = try bookRef(inventory: found.inventoryNumber) else {
          throw StoreError.refused([.unknownBook(found.inventoryNumber)])
        }
        book = ref
      }
      if !conflictSeen, let conflict = try store.conflicts.openConflicts(entity: .book, recordID: book.book.id).first {
        return .conflict(conflict, code: code)
      }
      return try act(on: book, reader: reader, intent: intent, transfer: transfer)
    }
  }

  /// Issues, returns, renews or asks about one book, by the counter's rule.
  private func act(on book: BookRef, reader: ReaderRef?, intent: CounterIntent, transfer: Bool) throws
    -> CounterOutcome
  {
    let now = clock.now().instant
    let current = try openLoanRecord(bookRowID: book.rowID)
    switch intent {
    case .renew:
      guard let current else {
        throw StoreError.refused([.notOnLoan(book: book.book.title, inventory: book.book.inventoryNumber)])
      }
      let renewal = try renewals(inventories: [current.inventory])
      guard let first = renewal.first else { throw StoreError.loanChanged }
      return .done(.renewed(first))
    case .giveBack:
      guard let current else {
        throw StoreError.refused([.notOnLoan(book: book.book.title, inventory: book.book.inventoryNumber)])
      }
      return .done(.returned(try close(current, at: now)))
    case .counter, .issue:
      guard let reader else {
        if intent == .issue { throw StoreError.refused([.unknownReader("")]) }
        guard let current else {
          throw StoreError.refused([.notOnLoan(book: book.book.title, inventory: book.book.inventoryNumber)])
        }
        return .done(.returned(try close(current, at: now)))
      }
      guard let current else {
        guard let loan = try issue([book], to: reader, due: nil).first else { throw StoreError.loanChanged }
        return .done(.issued(loan))
      }
      if current.readerTicket == reader.reader.ticket {
        // A reader brings back what they hold; the command line's --issue-to says to issue only.
        if intent == .issue {
          throw StoreError.refused([
            .alreadyOnLoanToSameReader(
              book: book.book.title, inventory: book.book.inventoryNumber, due: current.loan.due)
          ])
        }
        return .done(.returned(try close(current, at: now)))
      }
      // Out to somebody else. Ask only a question whose yes can succeed: the selected reader's
      // own refusals (overdue books, the limit) come first.
      let policy = try store.policy.current()
      guard let category = try store.policy.categories().first(where: { $0.code == reader.reader.category }) else {
        throw StoreError.categoryNotFound(reader.reader.category)
      }
      let refusals = try issueRulesRefusals(reader, adding: 1, policy: policy, category: category)
      guard refusals.isEmpty else { throw StoreError.refused(refusals) }
      guard transfer else {
        if intent == .issue {
          throw StoreError.refused([
            .alreadyOnLoan(
              book: book.book.title, inventory: book.book.inventoryNumber, reader: current.readerName,
              ticket: current.readerTicket, due: current.loan.due)
          ])
        }
        return .confirmTransfer(current: current, to: reader.reader)
      }
      let returned = try close(current, at: now)
      // Another reader waits for it: the book in hand comes back and goes to the hold shelf, and
      // the alert of the return says for whom; it is not issued past the queue.
      if let trap = returned.heldFor, trap.readerTicket != reader.reader.ticket { return .done(.returned(returned)) }
      guard let issued = try issue([book], to: reader, due: nil).first else { throw StoreError.loanChanged }
      return .done(.transferred(returned: returned, issued: issued))
    }
  }

  private enum CopyPick {
    case copy(BookRef)
    case choose([CopyChoice], toIssue: Bool)
  }

  /// The copy an ISBN means at the counter, or the copies to choose from. To return: the copy out
  /// to the reader at the counter, else (nobody selected) to anyone. To issue: a title with one
  /// copy is that copy; otherwise the librarian picks from those on the shelf, reading their
  /// inventory numbers and places.
  private func pickCopy(_ isbn: ISBN, among copies: [Book], reader: ReaderRef?, intent: CounterIntent) throws
    -> CopyPick
  {
    guard !copies.isEmpty else { throw StoreError.refused([.isbnNotInLibrary(isbn.hyphenated)]) }
    var out: [(ref: BookRef, loan: LoanRecord)] = []
    var free: [BookRef] = []
    for copy in copies {
      guard let ref = try bookRef(inventory: copy.inventoryNumber) else { continue }
      if let loan = try openLoanRecord(bookRowID: ref.rowID) { out.append((ref, loan)) } else { free.append(ref) }
    }
    let held = out.filter { $0.loan.readerTicket == reader?.reader.ticket }
    let toReturn =
      intent == .giveBack || intent == .renew || (intent == .counter && (reader == nil || !held.isEmpty))
    if toReturn {
      let candidates = reader == nil ? out : held
      guard !candidates.isEmpty else { throw StoreError.refused([.noCopyOut(isbn: isbn.hyphenated)]) }
      if candidates.count == 1 { return .copy(candidates[0].ref) }
      return .choose(
        try candidates.map { CopyChoice(book: $0.ref.book, loan: try store.books.currentLoan(bookID: $0.ref.book.id)) },
        toIssue: false)
    }
    if copies.count == 1, let only = out.first?.ref ?? free.first { return .copy(only) }
    let lendable = free.filter { $0.book.status.circulates }
    guard !lendable.isEmpty else {
      // The one copy on the shelf that may not be issued: its refusal says why (lost, in repair…).
      if free.count == 1, let only = free.first { return .copy(only) }
      throw StoreError.refused([.noCopyAvailable(isbn: isbn.hyphenated, copies: copies.count)])
    }
    return .choose(lendable.map { CopyChoice(book: $0.book, loan: nil) }, toIssue: true)
  }

  /// Takes back a change made at the counter, as if it had not happened: an issue is cancelled, a
  /// return reopened, a renewal's due date and count put back. Refused when the loan changed since.
  public func undo(_ action: CounterAction) throws(StoreError) {
    try write {
      switch action {
      case .issued(let loan):
        try cancelLoan(loan.loan.id)
      case .returned(let loan):
        try reopenLoan(loan.loan.id)
      case .transferred(let returned, let issued):
        try cancelLoan(issued.loan.id)
        try reopenLoan(returned.loan.id)
      case .renewed(let renewal):
        let before = renewal.before.loan
        let after = renewal.after.loan
        let changed = try database.execute(
          """
          UPDATE loan SET due_date = ?, renewals = ?, renewed_at = ?, updated_at = ?
          WHERE uuid = ? AND returned_at IS NULL AND deleted = 0 AND renewals = ? AND due_date = ?
          """, before.due.iso, before.renewals, before.lastRenewed?.iso, clock.now().instant.iso, before.id.text,
          after.renewals, after.due.iso)
        guard changed == 1 else { throw StoreError.loanChanged }
        // Not a renewal of the work diary's either.
        try database.execute(
          """
          UPDATE renewal SET deleted = 1 WHERE id = (
            SELECT r.id FROM renewal r JOIN loan l ON l.id = r.loan_id
            WHERE l.uuid = ? AND r.deleted = 0 ORDER BY r.renewed_at DESC, r.id DESC LIMIT 1)
          """, before.id.text)
      }
    }
  }

  func readerRef(id: RecordID) throws -> ReaderRef? {
    try database.queryFirst(
      "SELECT \(ReaderStore.readerColumns) FROM \(ReaderStore.readerFrom) WHERE r.uuid = ? AND r.deleted = 0",
      id.text
    ) { ($0.int64(ReaderColumn.id), try ReaderStore.decodeReader($0)) }
  }

  func openLoanRecord(bookRowID: Int64) throws -> LoanRecord? {
    try database.queryFirst(
      CirculationStore.loanRecordSQL + " WHERE l.book_id = ? AND l.returned_at IS NULL AND l.deleted = 0", bookRowID,
      read: CirculationStore.decodeLoanRecord)
  }

  /// Words typed at the counter rather than a code: letters, no digits. A reader's name.
  static func readsAsName(_ text: String) -> Bool {
    text.contains(where: \.isLetter) && !text.contains(where: \.isNumber)
  }
}
