/// Reading one ISO 2709 record (MARC 21, UNIMARC, RUSMARC) into IRBIS-style fields: what an
/// import of a file and a copy-cataloguing search share.
public enum ISO2709Reading {
  /// A whole record (its length checked by the caller) as the desk reads a book's record: its
  /// character set what it says (leader position 9, UNIMARC's 100 $a), else what its bytes show,
  /// else `said` (the librarian's `--encoding`, a target's setting; nil: Windows-1251 for
  /// RUSMARC, MARC-8 for MARC 21); MARC 21 converted to IRBIS's fields with its original kept
  /// (`IRBISRecord.marc21`). `marc21` nil: the format told from the record's tags. A record that
  /// says UTF-8 and is not is read in `said` when one is given; else refused, naming the byte.
  public static func book(_ bytes: [UInt8], marc21: Bool? = nil, said: MARCCharacterSet?)
    -> Result<IRBISRecord, ISO2709Flaw>
  {
    guard bytes.count >= 25 else { return .failure(.noRecordLength) }
    let isMARC21 = marc21 ?? MARC21Books.isMARC21(tags: tags(bytes))
    var charset = MARCCharacterSet.of(bytes, isMARC21: isMARC21, said: said, fileDefault: said ?? .windows1251)
    if charset == .utf8, let bad = MARCCharacterSet.firstInvalidUTF8(in: bytes) {
      guard let said, said != .utf8 else { return .failure(.invalidUTF8(byte: bad, value: bytes[bad])) }
      charset = said
    }
    let parsed: IRBISRecord?
    do throws(Undecodable) {
      parsed = try record(bytes, utf8: charset == .utf8, decode: charset.decode)
    } catch {
      return .failure(error.flaw)
    }
    guard let record = parsed else { return .failure(.damagedDirectory) }
    guard isMARC21 else { return .success(record) }
    var converted = MARC21Books.irbisRecord(record, punctuated: bytes[18] != UInt8(ascii: "c"))
    converted.marc21 = MARCOriginal(leader: record.marcLeader, fields: record.fields)
    return .success(converted)
  }

  /// The tags of a record's directory, without reading its fields.
  public static func tags(_ bytes: [UInt8]) -> [Int] {
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

    public init(flaw: ISO2709Flaw) { self.flaw = flaw }
  }
}

/// What an ISO 2709 record's bytes say wrong.
public enum ISO2709Flaw: Error, Equatable, Sendable {
  case noRecordLength
  /// The leader says one length; the record, up to its end mark (0x1D), has another.
  case lengthMismatch(said: Int, found: Int)
  case endsInside
  /// A record whose leader says UTF-8, with a byte (its place in the file, and its value) that is not.
  case invalidUTF8(byte: Int, value: UInt8)
  case damagedDirectory
  /// A field holding a NUL byte.
  case nul(tag: Int)
  /// A MARC 21 field in MARC-8 that switches to a character set the import does not read
  /// (Greek, Hebrew, Arabic, CJK), or holds a byte MARC-8 does not define.
  case notMARC8(tag: Int)
}
