import DeskDomain
import DeskStorage

/// What makes two loans of one book the same loan: the reader and the moment of issue. Its due
/// date and return are what became of it.
struct LoanKey: Hashable {
  var inventory: String
  var ticket: String
  var issued: Timestamp
}
