import DeskDomain
import DeskStorage

/// IRBIS plain-text files.
public enum IRBISTextImport {
  /// What the parsing thread hands to the checking one, in file order.
  enum Parsed: Sendable {
    case record(IRBISRecord, source: ImportPlace)
    case problem(ImportProblem)
  }

  public static func run(
    path: String, encoding: FileEncoding?, store: LibraryStore, update: Bool, dryRun: Bool,
    maximumLineBytes: Int = LineReader.defaultMaximumLineBytes, assignInventory: String? = nil
  ) throws -> ImportReport {
    let lines = try LineReader(path: path, encoding: encoding, maximumLineBytes: maximumLineBytes)
    return try RecordImporter.run(
      store: store, update: update, dryRun: dryRun, assignInventory: assignInventory, fileBytes: lines.fileBytes
    ) {
      records in
      // Lines become records on a thread of their own while this one checks them and makes their
      // rows: one thread doing both was the slower end of the import (a million books with kept
      // fields: 65 s; 3 threads: see the benchmark).
      try BatchPipe<Parsed>.streaming(capacity: 16) { parsed in
        parse(lines, into: parsed)
      } using: { parsed in
        while let batch = try parsed.receive() {
          for item in batch {
            switch item {
            case .record(let record, let source): try records.take(record, source: source)
            case .problem(let problem): try records.problem(problem)
            }
          }
        }
      }
    }
  }

  /// Reads the lines into records, in batches, until the end or until nobody listens.
  private static func parse(_ lines: LineReader, into pipe: BatchPipe<Parsed>) {
    var batch: [Parsed] = []
    batch.reserveCapacity(256)
    var listening = true
    func send(_ item: Parsed) {
      batch.append(item)
      guard batch.count >= 256 else { return }
      listening = pipe.send(batch)
      batch.removeAll(keepingCapacity: true)
    }
    var reader = IRBISReader()
    while listening, let line = lines.next() {
      if let flaw = line.problem, case .unending = flaw {
        send(.problem(.unendingLine(line: lines.lineNumber, flaw)))
        break
      }
      switch reader.feed(line.text, problem: line.problem) {
      case .record(let record, let number, let firstLine)?:
        send(.record(record, source: .line(record: number, line: firstLine)))
      case .problem(let problem)?:
        send(.problem(.unreadableRecord(problem)))
      case nil:
        break
      }
    }
    if listening, case .problem(let problem)? = reader.finish() { send(.problem(.unreadableRecord(problem))) }
    if listening, !batch.isEmpty { _ = pipe.send(batch) }
  }
}
