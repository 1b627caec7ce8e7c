import DeskDomain
import DeskStorage
import DeskWords

/// The text shapes of the records, for people: label-value blocks and loan lines. Every value
/// passes through `visibleForTerminal`, so that data cannot drive the terminal.
enum RecordText {
  static func fields(_ pairs: [(String, String)]) -> String {
    let width = (pairs.map { $0.0.displayWidth }.max() ?? 0) + 2
    return pairs.map { ($0.0.padded(toWidth: width) + $0.1.visibleForTerminal).trimmedTrailingSpaces() + "\n" }.joined()
  }

  static func book(
    _ book: Book, loan: CurrentLoan?, history: [LoanRecord], holdShelf: HoldRecord? = nil, otherISBNs: [ISBN] = [],
    clock: any Clock
  ) -> String {
    let today = clock.now().date
    var status = book.status.circulates ? "available" : "\(book.status.label): not for loan"
    if let holdShelf {
      status =
        "on the hold shelf for \(holdShelf.readerName) (ticket \(holdShelf.readerTicket)) until "
        + (holdShelf.pickupBy?.iso ?? "")
    }
    if let loan {
      status = "issued to \(loan.readerName) (ticket \(loan.readerTicket)), due \(loan.loan.due.iso)"
      if loan.loan.isOverdue(on: today) { status += ", OVERDUE by \(days(loan.loan.daysOverdue(on: today)))" }
      if loan.loan.renewals > 0 { status += ", renewed \(times(loan.loan.renewals))" }
      if !book.status.circulates { status += "; the copy is \(book.status.label)" }
    }
    // The record's other ISBNs, which find the book at a scan too: shown where there are some.
    let others = otherISBNs.isEmpty ? [] : [("Other ISBNs", otherISBNs.map(\.hyphenated).joined(separator: ", "))]
    var text = fields(
      [
        ("Inventory number", book.inventoryNumber),
        ("ISBN", book.isbn?.hyphenated ?? ""),
      ] + others + [
        ("Author", book.author),
        ("Title", book.title),
        ("Publisher", book.publisher),
        ("City", book.city),
        ("Year", book.year.map(String.init) ?? ""),
        ("Pages", book.pages.map(String.init) ?? ""),
        ("Price", book.price?.description ?? ""),
        ("BBK index", book.bbk),
        ("Author mark", book.authorMark),
        ("Storage place", book.place),
        ("Date received", book.received?.iso ?? ""),
        ("Status", status),
      ] + (book.lastChecked.map { [("Last checked", $0.iso)] } ?? []))
    text += "\nLoan history:\n"
    if history.isEmpty { text += "  none\n" }
    for record in history {
      text += "  " + loanLine(record, naming: .reader, clock: clock) + "\n"
    }
    return text
  }

  static func reader(_ reader: Reader, loans: [LoanRecord], waiting: [IRBISLoan] = [], clock: any Clock) -> String {
    var text = fields([
      ("Reader ticket", reader.ticket),
      ("Name", reader.fullName),
      ("Birth year", reader.birthYear.map(String.init) ?? ""),
      ("Phone", reader.phone),
      ("E-mail", reader.email),
      ("Category", reader.category),
      ("Registered", reader.registered.iso),
      ("Address", reader.address?.singleLine ?? ""),
    ])
    let open = loans.filter { $0.loan.isOpen }
    let returned = loans.filter { !$0.loan.isOpen }
    text += "\nBooks out (\(open.count)):\n"
    if open.isEmpty { text += "  none\n" }
    for record in open { text += "  " + loanLine(record, naming: .book, clock: clock) + "\n" }
    text += "\nHistory (\(returned.count)):\n"
    if returned.isEmpty { text += "  none\n" }
    for record in returned { text += "  " + loanLine(record, naming: .book, clock: clock) + "\n" }
    // Loans an import read of books the library has not got yet: shown where there are some.
    if !waiting.isEmpty {
      text += "\nWaiting for their books, not in the library yet (\(waiting.count)):\n"
      for loan in waiting.sorted(by: { $0.issued < $1.issued }) {
        let state = loan.returned.map { "returned \($0.iso)" } ?? "due \(loan.due.iso)"
        let line = [loan.inventory, loan.description, "issued \(loan.issued.iso), \(state)"].filter { !$0.isEmpty }
        text += "  " + line.joined(separator: "  ").visibleForTerminal + "\n"
      }
    }
    return text
  }

  enum Naming { case book, reader }

  /// `100234  Лермонтов М. Ю. Герой нашего времени  issued 2026-11-30 10:15, due 2026-12-14`.
  static func loanLine(_ record: LoanRecord, naming: Naming, clock: any Clock) -> String {
    let today = clock.now().date
    let issued = clock.local(record.loan.issued)
    var parts: [String]
    switch naming {
    case .book:
      parts = [record.inventory, [record.bookAuthor, record.bookTitle].filter { !$0.isEmpty }.joined(separator: " ")]
    case .reader:
      parts = ["\(record.readerName) (ticket \(record.readerTicket))"]
    }
    var state = "issued \(issued.date.iso) \(issued.clockTime), due \(record.loan.due.iso)"
    if record.loan.renewals > 0 { state += ", renewed \(times(record.loan.renewals))" }
    if let returned = record.loan.returned {
      let local = clock.local(returned)
      state += ", returned \(local.date.iso) \(local.clockTime)"
    } else if let undone = record.loan.undone {
      let local = clock.local(undone)
      state += ", UNDONE \(local.date.iso) \(local.clockTime) (never a loan)"
    } else if record.loan.isOverdue(on: today) {
      state += ", OVERDUE by \(days(record.loan.daysOverdue(on: today)))"
    }
    parts.append(state)
    return parts.joined(separator: "  ").visibleForTerminal
  }

  static func days(_ count: Int) -> String { count == 1 ? "1 day" : "\(count) days" }
  static func times(_ count: Int) -> String { count == 1 ? "once" : "\(count) times" }

  /// A record's sync state after its text: changes not yet at the central, open conflicts.
  static func syncMark(_ mark: SyncMark?, in words: any LibraryWords, to output: any TextSink) {
    guard let mark, !words.lines(mark).isEmpty else { return }
    output.line("")
    for line in words.lines(mark) { output.line(line.visibleForTerminal) }
  }
}
