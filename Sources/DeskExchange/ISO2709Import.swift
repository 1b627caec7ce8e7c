import DeskDomain
import DeskStorage

#if canImport(Glibc)
  import Glibc
#endif

/// ISO 2709 (RUSMARC) records: a 24-byte leader, a directory of 12-byte entries, and the
/// fields, each ended by 0x1E; subfields start with 0x1F and a code; a record ends with 0x1D.
public enum ISO2709 {
  public struct Problem: Error, Equatable, CustomStringConvertible {
    public var record: Int
    public var offset: Int
    public var reason: String
    public var description: String { "record \(record) (byte \(offset)): \(reason)" }
  }

  /// Parses one record's bytes into IRBIS-style fields: data fields as `^a…` subfields after
  /// their two indicators, control fields (tags below 10) as plain text.
  public static func record(_ bytes: [UInt8], decode: ([UInt8]) -> String) -> IRBISRecord? {
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
      var data = Array(bytes[from..<to])
      if data.last == 0x1E { data.removeLast() }
      let value: String
      if tag < 10 {
        value = decode(data)
      } else {
        let body = data.count >= 2 ? Array(data.dropFirst(2)) : data
        var text = ""
        for (index, part) in body.split(separator: 0x1F, omittingEmptySubsequences: false).enumerated() {
          if index == 0 {
            text += decode(Array(part))
          } else if let code = part.first {
            text += "^" + String(UnicodeScalar(code)) + decode(Array(part.dropFirst()))
          }
        }
        value = text
      }
      record.fields.append(IRBISRecord.Field(tag: tag, value: value))
      entry += 12
    }
    return record
  }

  static func number(_ digits: ArraySlice<UInt8>) -> Int? {
    guard digits.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
    return digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
  }

  /// Reads the file record by record (never whole) and hands each to the importer. A record
  /// whose leader says Unicode (position 9 `a`) is read as UTF-8 whatever `encoding` says.
  public static func run(
    path: String, encoding: FileEncoding, store: LibraryStore, update: Bool, dryRun: Bool
  ) throws -> ImportReport {
    let file = try ByteReader(path: path)
    let utf8: @Sendable ([UInt8]) -> String = { String(decoding: $0, as: UTF8.self) }
    let fileDecode: @Sendable ([UInt8]) -> String = { bytes in
      encoding == .utf8 ? String(decoding: bytes, as: UTF8.self) : Windows1251.decode(bytes)
    }
    return try RecordImporter.run(store: store, update: update, dryRun: dryRun) { records in
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
          try records.problem(
            Problem(record: number, offset: offset, reason: "no record length in the leader").description)
          break
        }
        let rest = file.read(length - 5)
        guard rest.count == length - 5 else {
          try records.problem(
            Problem(record: number, offset: offset, reason: "the file ends inside the record").description)
          break
        }
        let bytes = leader + rest
        let decode = bytes[9] == UInt8(ascii: "a") ? utf8 : fileDecode
        if let record = ISO2709.record(bytes, decode: decode) {
          try records.take(record, source: "record \(number) (byte \(offset))")
        } else {
          try records.problem(Problem(record: number, offset: offset, reason: "a damaged directory").description)
        }
        offset += length
      }
    }
  }
}
