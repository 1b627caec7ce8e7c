import DeskDomain
import DeskStorage
import DeskWords

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
      try store.circulation.recordLoan(
        ticket: ticket, inventory: loan.inventory, issued: issued, due: loan.due, returned: returned,
        renewals: max(loan.renewals, renewed == nil ? 0 : 1), renewed: renewed,
        desk: loan.desk.isEmpty ? "import" : loan.desk)
      return nil
    } catch {
      return EnglishWords().messages(error).joined(separator: "; ")
    }
  }
}
