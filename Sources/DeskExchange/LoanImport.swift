import DeskDomain
import DeskStorage

/// What makes two loans of one book the same loan.
struct LoanKey: Hashable {
  var inventory: String
  var ticket: String
  var issued: Timestamp
  var due: LocalDate
  var returned: Timestamp?
}

enum LoanImport {
  /// Records the loan; why the library refused it (the book out to someone else), if it did.
  static func record(
    store: LibraryStore, ticket: String, loan: IRBISLoan, issued: Timestamp, returned: Timestamp?,
    renewed: Timestamp? = nil
  ) -> StoreError? {
    do throws(StoreError) {
      try store.circulation.recordLoan(
        ticket: ticket, inventory: loan.inventory, issued: issued, due: loan.due, returned: returned,
        renewals: max(loan.renewals, renewed == nil ? 0 : 1), renewed: renewed,
        desk: loan.desk.isEmpty ? "import" : loan.desk)
      return nil
    } catch {
      return error
    }
  }
}
