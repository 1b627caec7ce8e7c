import DeskDomain

/// Loans an import read of books the library has not got yet (a readers' file brought in before
/// its catalogue): kept with their readers, and made loans when the books arrive.
extension CirculationStore {
  /// A loan as its file wrote it (the value of IRBIS field 40), kept with the reader of `ticket`
  /// until the book of `inventory` arrives.
  public func keepPendingLoan(_ loan: String, inventory: String, ticket: String) throws(StoreError) {
    try writeWithin {
      try database.execute(
        """
        INSERT OR IGNORE INTO pending_loan(inventory, reader_id, loan)
        SELECT ?1, id, ?3 FROM reader WHERE ticket = ?2 AND deleted = 0 LIMIT 1
        """, inventory.identifierForm, ticket.identifierForm, loan)
    }
  }

  /// The loans (40 values) kept with a reader that wait for their books.
  public func pendingLoans(ofReader reader: Reader) throws(StoreError) -> Set<String> {
    try read {
      Set(
        try database.query(
          "SELECT p.loan FROM pending_loan p JOIN reader r ON r.id = p.reader_id WHERE r.uuid = ?", reader.id.text
        ) { $0.string(0) })
    }
  }

  /// Records a loan another system's file wrote (`recordLoan`): its times read with
  /// `offsetSeconds`, a renewal date counting as one renewal at least, the desk "import" when the
  /// file names none.
  @discardableResult
  public func recordLoan(_ loan: IRBISLoan, ticket: String, offsetSeconds: Int) throws(StoreError) -> LoanRecord {
    let (issued, returned, renewed) = loan.instants(offsetSeconds: offsetSeconds)
    return try recordLoan(
      ticket: ticket, inventory: loan.inventory, issued: issued, due: loan.due, returned: returned,
      renewals: max(loan.renewals, renewed == nil ? 0 : 1), renewed: renewed,
      desk: loan.desk.isEmpty ? "import" : loan.desk)
  }

  /// A pending loan made a loan, or why it could not be (the book out to another reader).
  public struct TiedLoan: Sendable {
    public var ticket: String
    public var inventory: String
    public var refusal: StoreError?
  }

  /// Makes the pending loans of books that have arrived (of `inventory` alone, or of any) into
  /// loans, as an import makes a reader's loans; each leaves the waiting list either way.
  @discardableResult
  public func tiePendingLoans(inventory: String? = nil) throws(StoreError) -> [TiedLoan] {
    try writeWithin {
      // Nearly always none: one look at the index first.
      guard try database.scalarInt("SELECT EXISTS (SELECT 1 FROM pending_loan)") == 1 else { return [] }
      let waiting = try database.query(
        """
        SELECT p.inventory, r.ticket, p.loan, p.reader_id FROM pending_loan p
        JOIN book b ON b.inventory = p.inventory AND b.deleted = 0
        JOIN reader r ON r.id = p.reader_id AND r.deleted = 0
        WHERE ?1 IS NULL OR p.inventory = ?1
        ORDER BY p.inventory, p.loan
        """, inventory?.identifierForm
      ) { (inventory: $0.string(0), ticket: $0.string(1), loan: $0.string(2), reader: $0.int64(3)) }
      let offset = clock.now().utcOffsetSeconds
      var tied: [TiedLoan] = []
      // Older loans first, so that a book's loan still open comes last and stays open.
      let loans = waiting.compactMap { row in IRBISLoan(IRBISRecord.Field(tag: 40, value: row.loan)).map { (row, $0) } }
      for (row, loan) in loans.sorted(by: { $0.1.issued < $1.1.issued }) {
        var refusal: StoreError?
        do throws(StoreError) {
          try recordLoan(loan, ticket: row.ticket, offsetSeconds: offset)
        } catch {
          refusal = error
        }
        tied.append(TiedLoan(ticket: row.ticket, inventory: row.inventory, refusal: refusal))
        try database.execute(
          "DELETE FROM pending_loan WHERE inventory = ? AND reader_id = ? AND loan = ?", row.inventory, row.reader,
          row.loan)
      }
      return tied
    }
  }
}

/// What an import keeps of the records its readers came from, for an export without loss.
extension ReaderStore {
  /// Keeps `record` (IRBIS lines) as the record the reader of `ticket` came in; "" keeps none.
  public func keep(_ record: String, forReader ticket: String) throws(StoreError) {
    try writeWithin {
      try database.execute(
        "UPDATE reader SET source_record = ? WHERE ticket = ? AND deleted = 0", record, ticket.identifierForm)
    }
  }

  /// The record the reader came in, as an import kept it; "" for none.
  public func kept(forReader reader: Reader) throws(StoreError) -> String {
    try read {
      try database.queryFirst("SELECT source_record FROM reader WHERE uuid = ?", reader.id.text) { $0.string(0) }
        ?? ""
    }
  }
}
