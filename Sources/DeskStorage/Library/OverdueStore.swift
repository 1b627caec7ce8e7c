import DeskDomain

/// A reader with overdue books, for chasing them: the Overdue screen, `circdesk overdue` and the
/// reminder letters.
public struct OverdueReader: Hashable, Sendable {
  public var reader: Reader
  /// The overdue loans, longest overdue first.
  public var loans: [LoanRecord]

  /// Days the longest overdue book is late on `today`.
  public func daysOverdue(on today: LocalDate) -> Int {
    loans.map { $0.loan.daysOverdue(on: today) }.max() ?? 0
  }
}

/// Which readers a list shows.
public enum ReaderFilter: String, CaseIterable, Sendable {
  case all
  /// Readers who hold at least one overdue book.
  case overdue
}

extension CirculationStore {
  /// Every reader holding an overdue book, the longest overdue first (then by name), each with
  /// their overdue loans.
  public func overdueReaders() throws(StoreError) -> [OverdueReader] {
    let today = self.today
    return try read {
      let loans = try database.query(
        CirculationStore.loanRecordSQL + """
           WHERE l.returned_at IS NULL AND l.deleted = 0 AND l.due_date < ?
          ORDER BY l.due_date, b.sort_key
          """, today.iso, read: CirculationStore.decodeLoanRecord)
      var order: [String] = []
      var byTicket: [String: [LoanRecord]] = [:]
      for loan in loans {
        if byTicket[loan.readerTicket] == nil { order.append(loan.readerTicket) }
        byTicket[loan.readerTicket, default: []].append(loan)
      }
      // Loans come oldest due date first, so readers come longest overdue first; ties by name.
      let readers = try order.compactMap { ticket -> OverdueReader? in
        guard let reader = try store.readers.findReader(ticket: ticket) else { return nil }
        return OverdueReader(reader: reader, loans: byTicket[ticket] ?? [])
      }
      return readers.enumerated().sorted { left, right in
        let (a, b) = (left.element.daysOverdue(on: today), right.element.daysOverdue(on: today))
        if a != b { return a > b }
        if left.element.reader.sortKey != right.element.reader.sortKey {
          return left.element.reader.sortKey < right.element.reader.sortKey
        }
        return left.offset < right.offset
      }.map(\.element)
    }
  }
}
