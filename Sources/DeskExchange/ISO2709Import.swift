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
    while entry + 12 <= bytes.count, bytes[entry] != 0x1E {
      if let tag = number(bytes[entry..<(entry + 3)]) { tags.append(tag) }
      entry += 12
    }
    return tags
  }

  /// UNIMARC's non-sorting marks (NSB, NSE) around an article: U+0098 and U+009C, or ESC H and
  /// ESC I in a 7-bit file. The marks go; the words they enclose stay.
  static func withoutNonSortingMarks(_ data: [UInt8]) -> [UInt8] {
    guard data.contains(0x1B) || data.contains(0xC2) else { return data }
    var result: [UInt8] = []
    result.reserveCapacity(data.count)
    var index = 0
    while index < data.count {
      let byte = data[index]
      let next = index + 1 < data.count ? data[index + 1] : 0
      if byte == 0x1B && (next == 0x48 || next == 0x49) || byte == 0xC2 && (next == 0x98 || next == 0x9C) {
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
  /// is damaged; `Undecodable` when `decode` cannot read a field's text.
  public static func record(_ bytes: [UInt8], decode: ([UInt8]) -> String?) throws(Undecodable) -> IRBISRecord? {
    guard bytes.count >= 25, let base = number(bytes[12..<17]) else { return nil }
    var record = IRBISRecord()
    var entry = 24
    while entry + 12 <= bytes.count, bytes[entry] != 0x1E {
      guard let tag = number(bytes[entry..<(entry + 3)]), let length = number(bytes[(entry + 3)..<(entry + 7)]),
        let start = number(bytes[(entry + 7)..<(entry + 12)])
      else { return nil }
      let from = base + start
      let to = min(bytes.count, from + length)
      guard from <= to else { return nil }
      var data = withoutNonSortingMarks(Array(bytes[from..<to]))
      if data.last == 0x1E { data.removeLast() }
      func text(_ bytes: [UInt8]) throws(Undecodable) -> String {
        // A NUL would cut a value short in C and in the terminal: the record is refused.
        guard !bytes.contains(0) else { throw Undecodable(flaw: .nul(tag: tag)) }
        guard let text = decode(bytes) else { throw Undecodable(flaw: .notMARC8(tag: tag)) }
        return text
      }
      let value: String
      if tag < 10 {
        value = try text(data)
      } else {
        let body = data.count >= 2 ? Array(data.dropFirst(2)) : data
        var parts = ""
        for (index, part) in body.split(separator: 0x1F, omittingEmptySubsequences: false).enumerated() {
          if index == 0 {
            parts += try text(Array(part))
          } else if let code = part.first {
            parts += "^" + String(UnicodeScalar(code)) + (try text(Array(part.dropFirst())))
          }
        }
        value = parts
      }
      record.fields.append(IRBISRecord.Field(tag: tag, value: value))
      entry += 12
    }
    return record
  }

  /// A field whose text cannot be read: a NUL byte, or a character set this import does not read.
  public struct Undecodable: Error {
    public var flaw: ISO2709Flaw
  }

  static func number(_ digits: ArraySlice<UInt8>) -> Int? {
    guard digits.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
    return digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
  }

  /// Reads the file record by record (never whole) and hands each to the importer. A record
  /// whose leader says Unicode (position 9 `a`) is read as UTF-8 whatever `encoding` says.
  public static func run(
    path: String, encoding: FileEncoding, store: LibraryStore, update: Bool, dryRun: Bool, format: Format = .auto,
    assignInventory: String? = nil
  ) throws -> ImportReport {
    let file = try ByteReader(path: path)
    let utf8: @Sendable ([UInt8]) -> String? = { String(decoding: $0, as: UTF8.self) }
    let fileDecode: @Sendable ([UInt8]) -> String? = { bytes in
      encoding == .utf8 ? String(decoding: bytes, as: UTF8.self) : Windows1251.decode(bytes)
    }
    return try RecordImporter.run(store: store, update: update, dryRun: dryRun, assignInventory: assignInventory) {
      records in
      var number = 0
      var offset = 0
      while true {
        // Line breaks between records (CR, LF or CR LF), which some tools add, are skipped.
        var first = file.read(1)
        while let byte = first.first, byte == 0x0A || byte == 0x0D {
          offset += 1
          first = file.read(1)
        }
        if first.isEmpty { break }
        let leader = first + file.read(4)
        number += 1
        guard leader.count == 5, let length = ISO2709.number(leader[...]), length >= 25 else {
          try records.problem(.unreadableMARC(record: number, byte: offset, .noRecordLength))
          break
        }
        let rest = file.read(length - 5)
        guard rest.count == length - 5 else {
          try records.problem(.unreadableMARC(record: number, byte: offset, .endsInside))
          break
        }
        let bytes = leader + rest
        let isMARC21 = format == .marc21 || (format == .auto && MARC21Books.isMARC21(tags: tags(bytes)))
        // Leader position 9: `a` is Unicode in both; in MARC 21 a blank is MARC-8.
        let decode: ([UInt8]) -> String?
        if bytes[9] == UInt8(ascii: "a") {
          decode = utf8
        } else if isMARC21 {
          decode = MARC8.decode
        } else {
          decode = fileDecode
        }
        let source = ImportPlace.byte(record: number, byte: offset)
        let parsed: IRBISRecord?
        do throws(Undecodable) {
          parsed = try ISO2709.record(bytes, decode: decode)
        } catch {
          try records.problem(.unreadableMARC(record: number, byte: offset, error.flaw))
          offset += length
          continue
        }
        if let record = parsed {
          let converted =
            isMARC21
            ? MARC21Books.irbisRecord(record, punctuated: bytes[18] != UInt8(ascii: "c"))
            : RUSMARCHoldings.withCopies(record)
          try records.take(converted, source: source)
        } else {
          try records.problem(.unreadableMARC(record: number, byte: offset, .damagedDirectory))
        }
        offset += length
      }
    }
  }
}

/// RUSMARC holdings in field 899 (location ^a, fund ^b, sublocation ^c, shelf mark ^j), as a
/// national library writes them beside or instead of IRBIS's 910.
enum RUSMARCHoldings {
  /// The record with a copy (910) for each 899 that numbers one (^p, else ^x), placed at the
  /// holding's location; the first shelf mark becomes the record's 903 when it has none. A
  /// record with copies in 910 already is left as it is.
  static func withCopies(_ record: IRBISRecord) -> IRBISRecord {
    let holdings = record.all(899)
    guard !holdings.isEmpty, record.first(910) == nil else { return record }
    var result = record
    for holding in holdings {
      let number = [holding.subfield("P"), holding.subfield("X")].map { $0.trimmingWhitespace() }.first { !$0.isEmpty }
      guard let number else { continue }
      let place = [holding.subfield("A"), holding.subfield("B"), holding.subfield("C")]
        .map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }.joined(separator: " ")
      result.fields.append(IRBISRecord.Field(tag: 910, subfields: [("A", "0"), ("B", number), ("D", place)]))
    }
    if result.first(903) == nil,
      let mark = holdings.map({ $0.subfield("J").trimmingWhitespace() }).first(where: { !$0.isEmpty })
    {
      result.append(903, mark)
    }
    return result
  }
}
