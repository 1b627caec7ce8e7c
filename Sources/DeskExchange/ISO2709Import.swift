import DeskDomain
import DeskStorage

#if canImport(Glibc)
  import Glibc
#endif

/// ISO 2709 (RUSMARC) records: a 24-byte leader, a directory of 12-byte entries, and the
/// fields, each ended by 0x1E; subfields start with 0x1F and a code; a record ends with 0x1D.
public enum ISO2709 {
  /// The MARC format of a file: told from each record, or said with `--format`.
  public enum Format: String, Sendable, CaseIterable {
    case auto, rusmarc, marc21
  }

  /// The tags of a record's directory, without reading its fields.
  static func tags(_ bytes: [UInt8]) -> [Int] { ISO2709Reading.tags(bytes) }

  /// One record's fields (`ISO2709Reading.record`).
  public static func record(_ bytes: [UInt8], utf8: Bool = false, decode: ([UInt8]) -> String?) throws(Undecodable)
    -> IRBISRecord?
  {
    try ISO2709Reading.record(bytes, utf8: utf8, decode: decode)
  }

  public typealias Undecodable = ISO2709Reading.Undecodable

  /// Reads the file record by record (never whole) and hands each to the importer. A record's
  /// character set is what it says (leader position 9, UNIMARC's 100 $a), else what its bytes
  /// show, else `encoding` (the librarian's `--encoding`; nil: Windows-1251 for RUSMARC, MARC-8
  /// for MARC 21). A record that says UTF-8 and is not is read in `encoding` when one is given.
  public static func run(
    path: String, encoding: FileEncoding?, store: LibraryStore, update: Bool, dryRun: Bool, format: Format = .auto,
    assignInventory: String? = nil
  ) throws -> ImportReport {
    let records = ISO2709Records(file: try ByteReader(path: path))
    let said: MARCCharacterSet? = encoding.map { $0 == .utf8 ? .utf8 : .windows1251 }
    return try RecordImporter.run(
      store: store, update: update, dryRun: dryRun, assignInventory: assignInventory, fileBytes: records.fileBytes
    ) {
      feed in
      var number = 0
      while let found = records.next() {
        number += 1
        let (bytes, offset) = (found.bytes, found.offset)
        guard found.isWhole else {
          try feed.problem(.unreadableMARC(record: number, byte: offset, .endsInside))
          break
        }
        guard bytes.count >= 25, let length = MARCCharacterSet.digits(bytes[0..<5]) else {
          try feed.problem(.unreadableMARC(record: number, byte: offset, .noRecordLength))
          continue
        }
        guard length == bytes.count else {
          try feed.problem(
            .unreadableMARC(record: number, byte: offset, .lengthMismatch(said: length, found: bytes.count)))
          continue
        }
        let source = ImportPlace.byte(record: number, byte: offset)
        let record: IRBISRecord
        switch ISO2709Reading.book(bytes, marc21: format == .auto ? nil : format == .marc21, said: said) {
        case .success(let read): record = read
        case .failure(.invalidUTF8(let byte, let value)):
          try feed.problem(
            .unreadableMARC(record: number, byte: offset, .invalidUTF8(byte: offset + byte, value: value)))
          continue
        case .failure(let flaw):
          try feed.problem(.unreadableMARC(record: number, byte: offset, flaw))
          continue
        }
        let converted = record.marc21 != nil ? record : RUSMARCHoldings.withCopies(record)
        try feed.take(converted, source: source)
      }
    }
  }
}
