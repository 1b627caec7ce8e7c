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
