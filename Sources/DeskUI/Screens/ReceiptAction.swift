import DeskDomain
import DeskExchange
import DeskStorage

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
      return [.notify(s.receiptWritten(destination))]
    } catch {
      return [.bell, .dialog(.error(s.receiptTitle, [error.description]))]
    }
  }

  /// The visit's receipt, or nil when the visit changed nothing yet.
  static func receipt(context: UIContext) -> String? {
    let s = context.strings
    let actions = context.session.visitActions
    guard !actions.isEmpty else { return nil }
    var issued: [LoanRecord] = []
    var renewed: [LoanRecord] = []
    var returned: [LoanRecord] = []
    for action in actions {
      switch action {
      case .issued(let loan): issued.append(loan)
      case .returned(let loan): returned.append(loan)
      case .renewed(let renewal): renewed.append(renewal.after)
      case .transferred(_, let loan): issued.append(loan)
      }
    }
    let library = (try? context.store.libraryContacts()) ?? LibraryContacts()
    var lines = ([library.name] + library.lines).filter { !$0.isEmpty }
    let now = context.clock.now()
    lines.append(s.receiptHeading(now.date.iso, now.clockTime))
    let reader =
      context.session.reader ?? issued.first.flatMap { (try? context.store.reader(ticket: $0.readerTicket)) ?? nil }
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
