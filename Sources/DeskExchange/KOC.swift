import DeskDomain
import DeskStorage

#if canImport(Glibc)
  import Glibc
#endif

/// Koha's offline circulation file (`.koc`): a header line, then one issue or return a line,
/// tab-separated, with a timestamp to the millisecond.
public enum KOC {
  public struct Transaction: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
      case issue(ticket: String, inventory: String)
      case giveBack(inventory: String)
    }

    public var time: Timestamp
    public var kind: Kind
    public var source: String

    /// What the transaction says, whatever file it is in: its identity among those replayed.
    var key: String {
      switch kind {
      case .issue(let ticket, let inventory): "\(time.iso)\tissue\t\(ticket)\t\(inventory)"
      case .giveBack(let inventory): "\(time.iso)\treturn\t\(inventory)"
      }
    }
  }

  /// A line of a file that was not taken, with the file and the line's number.
  public struct Problem: Equatable, Sendable {
    public var path: String
    public var line: Int
    public var kind: Kind

    public enum Kind: Equatable, Sendable {
      case unreadable(LineFlaw)
      /// The first line names another version than Koha's 1.0: nothing of the file is taken.
      case otherVersion(String)
      case notATransaction
      /// An issue or a return that names no book (its barcode cell empty or missing).
      case noBarcode(String)
      /// Fines paid, which this desk does not keep.
      case payment
      case unknownTransaction(String)
    }
  }

  /// What a transaction replayed did, by Koha's rules.
  public enum Outcome: Equatable, Sendable {
    case unknownItem(String)
    case unknownReader(String)
    /// The library has a loan of the book newer than the transaction.
    case newerLoan(String)
    case notOnLoan(String)
    case renewed(inventory: String, ticket: String)
    case moved(inventory: String, from: String, to: String)
    case issued(inventory: String, ticket: String)
    case returned(String)
    /// The same transaction, from this file or another, was replayed here before: nothing changes.
    case replayedBefore

    /// True for what changed the library.
    public var changedTheLibrary: Bool {
      switch self {
      case .renewed, .moved, .issued, .returned: true
      default: false
      }
    }

    /// True for an item or reader the library does not have.
    public var isUnknown: Bool {
      switch self {
      case .unknownItem, .unknownReader: true
      default: false
      }
    }
  }

  public static let header = "Version=1.0\tGenerator=circdesk\tGeneratorVersion="

  /// `YYYY-MM-DD HH:MM:SS mmm` on the wall clock.
  static func format(_ moment: LocalMoment) -> String {
    // 2026-11-30T10:15:02.120Z
    let text = moment.instant.adding(milliseconds: Int64(moment.utcOffsetSeconds) * 1000).iso
    let date = text.prefix(10)
    let time = text.dropFirst(11).prefix(8)
    let milliseconds = text.dropFirst(20).prefix(3)
    return "\(date) \(time) \(milliseconds)"
  }

  /// A wall-clock time of the file as an instant, by the UTC offset of its own date (a line of
  /// July is summer time, whatever the offset on the day of the import).
  static func parseTime(_ text: String, clock: any Clock) -> Timestamp? {
    let parts = text.split(separator: " ")
    guard parts.count >= 2 else { return nil }
    let fraction = parts.count >= 3 ? String(parts[2]) : "000"
    guard let local = Timestamp(iso: "\(parts[0])T\(parts[1]).\(fraction)Z") else { return nil }
    // The offset of the instant the wall time names: guessed from today's, then from the guess's
    // own (twice settles it, but in the hour a change of offset skips or repeats).
    var instant = local.adding(milliseconds: -Int64(clock.now().utcOffsetSeconds) * 1000)
    for _ in 0..<2 {
      instant = local.adding(milliseconds: -Int64(clock.local(instant).utcOffsetSeconds) * 1000)
    }
    return instant
  }

  /// Writes the desk's issues and returns since `since` (all when nil), oldest first.
  public static func export(
    from store: LibraryStore, since: Timestamp?, version: String, to writer: TextWriter
  ) throws(StoreError) -> Int {
    writer.write(header + version + "\n")
    var lines: [(Timestamp, String)] = []
    for event in try store.circulation.circulationEvents(since: since) {
      let time = format(store.clock.local(event.time))
      switch event.kind {
      // Koha reads an issue of a book already on loan to the same reader as a renewal.
      case .issue, .renewal: lines.append((event.time, "\(time)\tissue\t\(event.ticket)\t\(event.inventory)"))
      case .giveBack: lines.append((event.time, "\(time)\treturn\t\(event.inventory)"))
      }
    }
    for (_, line) in lines.sorted(by: { $0.0 < $1.0 }) { writer.write(line + "\n") }
    return lines.count
  }

  /// Reads the transactions of several files, merged by timestamp; lines it cannot read are
  /// returned as problems with their file and line.
  public static func read(paths: [String], clock: any Clock) throws -> ([Transaction], [Problem]) {
    var transactions: [Transaction] = []
    var problems: [Problem] = []
    for path in paths {
      let lines = try LineReader(path: path, encoding: .utf8)
      var number = 0
      while let read = lines.next() {
        number += 1
        let line = read.text
        if let problem = read.problem {
          problems.append(Problem(path: path, line: number, kind: .unreadable(problem)))
          if case .unending = problem { break }
          continue
        }
        if number == 1 {
          // Koha writes Version=1.0 and reads nothing else: another version is another format.
          let version = line.split(separator: "\t").first.map(String.init) ?? ""
          guard version == "Version=1.0" else {
            problems.append(Problem(path: path, line: 1, kind: .otherVersion(String(version.prefix(40)))))
            break
          }
          continue
        }
        if line.trimmingWhitespace().isEmpty { continue }
        let cells = line.split(separator: "\t", omittingEmptySubsequences: false).map {
          String($0).trimmingWhitespace()
        }
        let source = "\(path):\(number)"
        guard cells.count >= 3, let time = parseTime(cells[0], clock: clock) else {
          problems.append(Problem(path: path, line: number, kind: .notATransaction))
          continue
        }
        switch cells[1] {
        case "issue" where cells.count < 4 || cells[3].isEmpty, "return" where cells[2].isEmpty:
          problems.append(Problem(path: path, line: number, kind: .noBarcode(cells[1])))
        case "issue":
          transactions.append(
            Transaction(time: time, kind: .issue(ticket: cells[2], inventory: cells[3]), source: source))
        case "return":
          transactions.append(Transaction(time: time, kind: .giveBack(inventory: cells[2]), source: source))
        case "payment":
          problems.append(Problem(path: path, line: number, kind: .payment))
        default:
          problems.append(Problem(path: path, line: number, kind: .unknownTransaction(cells[1])))
        }
      }
    }
    return (transactions.sorted { $0.time < $1.time }, problems)
  }

  /// Replays transactions in timestamp order with Koha's rules; what each did, with its source. A
  /// transaction replayed before (the same time, kind, reader and book, from any file) is passed
  /// over: a file replayed twice changes the library once, as Koha marks the offline
  /// transactions it has applied.
  public static func replay(_ transactions: [Transaction], into store: LibraryStore) throws -> [(
    source: String, outcome: Outcome
  )] {
    var results: [(source: String, outcome: Outcome)] = []
    try store.transaction {
      for transaction in transactions {
        let key = transaction.key
        if try store.circulation.wasReplayed(key) {
          results.append((transaction.source, .replayedBefore))
          continue
        }
        let outcome = try replay(transaction, into: store)
        if outcome.changedTheLibrary { try store.circulation.noteReplayed(key) }
        results.append((transaction.source, outcome))
      }
    }
    return results
  }

  static func replay(_ transaction: Transaction, into store: LibraryStore) throws -> Outcome {
    switch transaction.kind {
    case .issue(let ticket, let inventory):
      guard let book = try store.books.book(inventory: inventory) else { return .unknownItem(inventory) }
      guard let reader = try store.readers.reader(ticket: ticket) else { return .unknownReader(ticket) }
      // A loan issued after the line, open or taken back since, is newer: the line would make
      // two loans of one book at once.
      if try store.circulation.loans(ofBook: book).contains(where: { $0.loan.issued > transaction.time }) {
        return .newerLoan(inventory)
      }
      if let current = try store.books.currentLoan(ofBook: book) {
        if current.readerTicket == reader.ticket {
          try store.circulation.renewRecorded(inventory: inventory, at: transaction.time)
          return .renewed(inventory: inventory, ticket: reader.ticket)
        }
        try store.circulation.returnRecorded(inventory: inventory, at: transaction.time)
        try store.circulation.issueRecorded(ticket: reader.ticket, inventory: inventory, at: transaction.time)
        return .moved(inventory: inventory, from: current.readerTicket, to: reader.ticket)
      }
      try store.circulation.issueRecorded(ticket: reader.ticket, inventory: inventory, at: transaction.time)
      return .issued(inventory: inventory, ticket: reader.ticket)
    case .giveBack(let inventory):
      guard let book = try store.books.book(inventory: inventory) else { return .unknownItem(inventory) }
      guard let current = try store.books.currentLoan(ofBook: book) else { return .notOnLoan(inventory) }
      if current.loan.issued > transaction.time { return .newerLoan(inventory) }
      try store.circulation.returnRecorded(inventory: inventory, at: transaction.time)
      return .returned(inventory)
    }
  }
}
