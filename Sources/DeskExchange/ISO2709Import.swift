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
  static func tags(_ bytes: [UInt8]) -> [Int] {
    var tags: [Int] = []
    var entry = 24
    let end = min(bytes.count, bytes.count >= 17 ? MARCCharacterSet.digits(bytes[12..<17]) ?? bytes.count : bytes.count)
    while entry + 12 <= end, bytes[entry] != 0x1E {
      if let tag = MARCCharacterSet.digits(bytes[entry..<(entry + 3)]) { tags.append(tag) }
      entry += 12
    }
    return tags
  }

  /// UNIMARC's non-sorting marks (NSB, NSE) around an article: in UTF-8 the C1 controls U+0088
  /// and U+0089 (or U+0098 and U+009C, as some systems write them), and ESC H and ESC I in a file
  /// of single bytes. The marks go; the words they enclose stay.
  static func withoutNonSortingMarks(_ data: [UInt8], utf8: Bool) -> [UInt8] {
    guard data.contains(0x1B) || (utf8 && data.contains(0xC2)) else { return data }
    var result: [UInt8] = []
    result.reserveCapacity(data.count)
    var index = 0
    while index < data.count {
      let byte = data[index]
      let next = index + 1 < data.count ? data[index + 1] : 0
      if byte == 0x1B && (next == 0x48 || next == 0x49)
        || utf8 && byte == 0xC2 && [0x88, 0x89, 0x98, 0x9C].contains(next)
      {
        index += 2
        continue
      }
      result.append(byte)
      index += 1
    }
    return result
  }

  /// Parses one record's bytes into IRBIS-style fields: data fields as `^a…` subfields after
  /// their two indicators, control fields (tags below 10) as plain text. Nil when the directory
  /// is damaged; `Undecodable` when `decode` cannot read a field's text. A field whose tag is
  /// not a number (Aleph's CAT and LKR) is passed over: the desk has no use for it. `utf8`: the
  /// record is UTF-8, whose non-sorting marks are C1 controls.
  public static func record(_ bytes: [UInt8], utf8: Bool = false, decode: ([UInt8]) -> String?) throws(Undecodable)
    -> IRBISRecord?
  {
    guard bytes.count >= 25, let base = MARCCharacterSet.digits(bytes[12..<17]), base <= bytes.count else { return nil }
    var record = IRBISRecord()
    if bytes[0..<24].allSatisfy({ (0x20...0x7E).contains($0) }) {
      record.marcLeader = String(decoding: bytes[0..<24], as: UTF8.self)
    }
    var entry = 24
    while entry + 12 <= base, bytes[entry] != 0x1E {
      guard let length = MARCCharacterSet.digits(bytes[(entry + 3)..<(entry + 7)]),
        let start = MARCCharacterSet.digits(bytes[(entry + 7)..<(entry + 12)])
      else {
        // Padding after the last entry (blanks before the directory's end) is no entry.
        if bytes[entry..<(base - 1)].allSatisfy({ $0 == 0x20 || $0 == 0x00 }) { break }
        return nil
      }
      entry += 12
      guard let tag = MARCCharacterSet.digits(bytes[(entry - 12)..<(entry - 9)]) else { continue }
      let from = base + start
      let to = min(bytes.count, from + length)
      guard from <= to else { return nil }
      var data = withoutNonSortingMarks(Array(bytes[from..<to]), utf8: utf8)
      if data.last == 0x1E { data.removeLast() }
      func text(_ bytes: [UInt8]) throws(Undecodable) -> String {
        // A NUL would cut a value short in C and in the terminal: the record is refused.
        guard !bytes.contains(0) else { throw Undecodable(flaw: .nul(tag: tag)) }
        guard let text = decode(bytes) else { throw Undecodable(flaw: .notMARC8(tag: tag)) }
        return text
      }
      // Subfields are split by 0x1F alone: a `^` is data, held as the record's data caret.
      func dataText(_ bytes: [UInt8]) throws(Undecodable) -> String {
        let decoded = try text(bytes)
        return bytes.contains(UInt8(ascii: "^"))
          ? String(decoded.map { $0 == "^" ? IRBISRecord.dataCaret : $0 }) : decoded
      }
      func read() throws(Undecodable) -> String {
        guard tag >= 10 else { return try dataText(data) }
        let body = data.count >= 2 ? Array(data.dropFirst(2)) : data
        var parts = ""
        for (index, part) in body.split(separator: 0x1F, omittingEmptySubsequences: false).enumerated() {
          if index == 0 {
            parts += try dataText(Array(part))
          } else if let code = part.first {
            parts += "^" + String(UnicodeScalar(code)) + (try dataText(Array(part.dropFirst())))
          }
        }
        return parts
      }
      let value: String
      do throws(Undecodable) {
        value = try read()
      } catch {
        // 880 repeats fields in another script (CJK, Arabic, Greek…) that the desk shows none of:
        // a set it does not read costs that field, not the record.
        if tag == 880, case .notMARC8 = error.flaw { continue }
        throw error
      }
      var field = IRBISRecord.Field(tag: tag, value: value)
      field.marcOrder = start
      if tag >= 10, data.count >= 2, data[0..<2].allSatisfy({ (0x20...0x7E).contains($0) }) {
        field.indicators = String(decoding: data[0..<2], as: UTF8.self)
      }
      record.fields.append(field)
    }
    return record
  }

  /// A field whose text cannot be read: a NUL byte, or a character set this import does not read.
  public struct Undecodable: Error {
    public var flaw: ISO2709Flaw
  }

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
        let isMARC21 = format == .marc21 || (format == .auto && MARC21Books.isMARC21(tags: tags(bytes)))
        var charset = MARCCharacterSet.of(bytes, isMARC21: isMARC21, said: said, fileDefault: said ?? .windows1251)
        // A leader that says UTF-8 of bytes that are not is wrong: the librarian's --encoding,
        // when given, reads the record; else it is refused, naming the byte.
        if charset == .utf8, let bad = MARCCharacterSet.firstInvalidUTF8(in: bytes) {
          if let said, said != .utf8 {
            charset = said
          } else {
            try feed.problem(
              .unreadableMARC(record: number, byte: offset, .invalidUTF8(byte: offset + bad, value: bytes[bad])))
            continue
          }
        }
        let source = ImportPlace.byte(record: number, byte: offset)
        let parsed: IRBISRecord?
        do throws(Undecodable) {
          parsed = try ISO2709.record(bytes, utf8: charset == .utf8, decode: charset.decode)
        } catch {
          try feed.problem(.unreadableMARC(record: number, byte: offset, error.flaw))
          continue
        }
        guard let record = parsed else {
          try feed.problem(.unreadableMARC(record: number, byte: offset, .damagedDirectory))
          continue
        }
        var converted: IRBISRecord
        if isMARC21 {
          converted = MARC21Books.irbisRecord(record, punctuated: bytes[18] != UInt8(ascii: "c"))
          converted.marc21 = MARCOriginal(leader: record.marcLeader, fields: record.fields)
        } else {
          converted = RUSMARCHoldings.withCopies(record)
        }
        try feed.take(converted, source: source)
      }
    }
  }
}
