import DeskDomain
import DeskExchange
import DeskStorage

#if canImport(Glibc)
  import Glibc
#endif

/// The receipt of the visit under way at the Desk: the books issued (with due dates), renewed and
/// returned, written as text to a file the librarian names, or sent to the printer with `lp`.
enum ReceiptAction {
  /// What the printer is called in the prompt: answering it prints.
  static let printerName = "lp"

  static func prompt(context: UIContext) -> [Effect] {
    let s = context.strings
    guard let text = receipt(context: context) else { return [.notify(s.receiptEmpty)] }
    let ticket = context.session.reader.map { "-" + fileName(for: $0.ticket) } ?? ""
    let suggestion =
      LinePrinter.isAvailable ? printerName : "receipt\(ticket)-\(context.today.compact).txt"
    return [
      .dialog(
        Dialog(
          title: s.receiptTitle, lines: [s.receiptPrompt(LinePrinter.isAvailable)],
          kind: .prompt(LineEditor(suggestion, maximumLength: 4096))
        ) { answer in
          guard case .text(let destination) = answer, !destination.isEmpty else { return [] }
          return write(text, to: destination, context: context)
        })
    ]
  }

  static func write(_ text: String, to destination: String, context: UIContext) -> [Effect] {
    let s = context.strings
    do throws(FileError) {
      if destination == printerName {
        try LinePrinter.print(text)
        return [.notify(s.receiptPrinted)]
      }
      let writer = try TextWriter(path: destination, encoding: .utf8)
      writer.write(text)
      try writer.close()
      return [.notify(s.receiptWritten(absolutePath(destination)))]
    } catch {
      return [.bell, .dialog(.error(s.receiptTitle, [s.words.message(error)]))]
    }
  }

  /// A path as the librarian can find it again: relative ones are in the desk's working folder.
  static func absolutePath(_ path: String) -> String {
    guard !path.hasPrefix("/"), let folder = getcwd(nil, 0) else { return path }
    defer { free(folder) }
    return String(cString: folder) + "/" + path
  }

  /// The visit's receipt, or nil when the visit changed nothing yet.
  static func receipt(context: UIContext) -> String? {
    let s = context.strings
    let (actions, visitReader) = context.session.visitActions
    guard !actions.isEmpty else { return nil }
    // What happened to each loan, as the reader leaves with it: a book issued and then renewed is
    // under both, issued with its first due date and renewed with its last; a book that came back
    // in the visit is under returned only.
    var issued: [LoanRecord] = []
    var renewed: [LoanRecord] = []
    var returned: [LoanRecord] = []
    for action in actions {
      switch action {
      case .issued(let loan), .transferred(_, let loan): issued.append(loan)
      case .returned(let loan):
        issued.removeAll { $0.loan.id == loan.loan.id }
        renewed.removeAll { $0.loan.id == loan.loan.id }
        returned.append(loan)
      case .renewed(let renewal):
        if let index = renewed.firstIndex(where: { $0.loan.id == renewal.after.loan.id }) {
          renewed[index] = renewal.after
        } else {
          renewed.append(renewal.after)
        }
      }
    }
    let library = (try? context.store.policy.libraryContacts()) ?? LibraryContacts()
    var lines = ([library.name] + library.lines).filter { !$0.isEmpty }
    let now = context.clock.now()
    lines.append(s.receiptHeading(now.date.iso, now.clockTime))
    let reader =
      visitReader
      ?? (issued + renewed).first.flatMap { (try? context.store.readers.reader(ticket: $0.readerTicket)) ?? nil }
    if let reader {
      lines.append(s.receiptReader(reader.ticket, reader.fullName))
    }
    func book(_ loan: LoanRecord) -> String {
      "  \(loan.inventory)  " + [loan.bookAuthor, "«\(loan.bookTitle)»"].filter { !$0.isEmpty }.joined(separator: " ")
    }
    if !issued.isEmpty {
      lines += ["", s.receiptIssued] + issued.map { book($0) + "  " + s.receiptDue($0.loan.due.iso) }
    }
    if !renewed.isEmpty {
      lines += ["", s.receiptRenewed] + renewed.map { book($0) + "  " + s.receiptDue($0.loan.due.iso) }
    }
    if !returned.isEmpty { lines += ["", s.receiptReturned] + returned.map(book) }
    lines += ["", s.receiptThanks]
    return lines.map(\.visibleForTerminal).joined(separator: "\n") + "\n"
  }
}
