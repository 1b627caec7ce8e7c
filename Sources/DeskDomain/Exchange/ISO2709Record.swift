/// A MARC record as ISO 2709 lays it out: a 24-byte leader, a directory of 12-byte entries
/// (tag, length, start), the fields each ended by 0x1E, subfields started by 0x1F and a code,
/// the record ended by 0x1D.
public struct ISO2709Record: Sendable {
  /// A field: a control field's text (tags below 10), or two indicators and subfields; a data
  /// field may have text before its first subfield, as IRBIS writes 621 or 903.
  public struct Field: Sendable {
    public var tag: Int
    public var indicators: String
    public var text: String
    public var subfields: [(Character, String)]
    /// True for a field read from ISO 2709, whose `text` stood before its first subfield and is
    /// written back there; else the text is IRBIS's plain value (621, 903), written as $a.
    public var textIsData = false
    /// Where the field's data stood in the record it was read from; when every field has one,
    /// the data are written in that order (the directory keeps the fields' own).
    public var order: Int?

    public init(tag: Int, indicators: String = "  ", text: String = "", subfields: [(Character, String)] = []) {
      self.tag = tag
      self.indicators = indicators
      self.text = text
      self.subfields = subfields
    }
  }

  /// Leader positions 5–9 (status, type, level, control, character coding) and 17–19.
  public var leaderHead: String
  public var leaderTail: String
  /// Positions 20–23.
  public var entryMap: String
  public var fields: [Field]

  /// RUSMARC (UNIMARC): «nam», a blank or `a` (UTF-8) at position 9, «i» at 18; or the leader
  /// the record came with (`leader`: its 24 positions), its lengths made again and position 9
  /// saying how this file is written.
  public static func rusmarc(fields: [Field], utf8: Bool, leader: String? = nil) -> ISO2709Record {
    guard let leader, leader.utf8.count == 24, leader.allSatisfy(\.isASCII) else {
      return ISO2709Record(leaderHead: "nam " + (utf8 ? "a" : " "), leaderTail: " i ", entryMap: "450 ", fields: fields)
    }
    let positions = Array(leader)
    let head = String(positions[5..<9]) + (utf8 ? "a" : positions[9] == "a" ? " " : String(positions[9]))
    return ISO2709Record(
      leaderHead: head, leaderTail: String(positions[17..<20]), entryMap: String(positions[20..<24]), fields: fields)
  }

  /// MARC 21, always UTF-8 (position 9 `a`), its values without ISBD punctuation (18 `c`); or
  /// the leader the record came with, position 9 kept where the text is ASCII (which MARC-8 and
  /// UTF-8 write alike) and `a` otherwise.
  public static func marc21(fields: [Field], leader: String? = nil) -> ISO2709Record {
    guard let leader, leader.utf8.count == 24, leader.allSatisfy(\.isASCII) else {
      return ISO2709Record(leaderHead: "nam a", leaderTail: " c ", entryMap: "4500", fields: fields)
    }
    let positions = Array(leader)
    let ascii = fields.allSatisfy { field in
      field.text.utf8.allSatisfy { $0 < 0x80 } && field.subfields.allSatisfy { $0.1.utf8.allSatisfy { $0 < 0x80 } }
    }
    let head = String(positions[5..<9]) + (ascii ? String(positions[9]) : "a")
    return ISO2709Record(
      leaderHead: head, leaderTail: String(positions[17..<20]), entryMap: String(positions[20..<24]), fields: fields)
  }

  /// Why a record cannot be written; `LibraryWords.message` says it.
  public enum Problem: Error, Equatable {
    case tooLong(Int)
    case fieldTooLong(tag: Int, bytes: Int)
  }

  /// The record's bytes, each text given by `encode`; fields with tags over 999 are left out
  /// (they do not fit the directory), and counted in `skipped`.
  public func bytes(encode: (String) -> [UInt8], skipped: inout Int) throws(Problem) -> [UInt8] {
    var entries: [(tag: Int, bytes: [UInt8], order: Int?)] = []
    for field in fields {
      guard (0...999).contains(field.tag) else {
        skipped += 1
        continue
      }
      var bytes: [UInt8]
      if field.tag < 10 {
        bytes = encode(field.text)
      } else {
        bytes = Array(field.indicators.utf8.prefix(2))
        while bytes.count < 2 { bytes.append(0x20) }
        // MARC data fields hold subfields only: IRBIS's plain values (621, 903, 908) go as $a.
        var subfields = field.subfields
        if field.textIsData {
          bytes += encode(field.text)
        } else if !field.text.isEmpty {
          subfields.insert(("a", field.text), at: 0)
        }
        for (code, value) in subfields {
          bytes.append(0x1F)
          bytes += Array(String(code).utf8.prefix(1))
          bytes += encode(value)
        }
      }
      bytes.append(0x1E)
      guard bytes.count <= 9999 else { throw .fieldTooLong(tag: field.tag, bytes: bytes.count) }
      entries.append((field.tag, bytes, field.order))
    }
    // The data in the order they came, when every field says where it stood; else the directory's.
    var layout = Array(entries.indices)
    if entries.allSatisfy({ $0.order != nil }) {
      layout.sort { (entries[$0].order ?? 0, $0) < (entries[$1].order ?? 0, $1) }
    }
    var starts = [Int](repeating: 0, count: entries.count)
    var data: [UInt8] = []
    for index in layout {
      starts[index] = data.count
      data += entries[index].bytes
    }
    var directory: [UInt8] = []
    for (index, entry) in entries.enumerated() {
      directory += digits(entry.tag, 3) + digits(entry.bytes.count, 4) + digits(starts[index], 5)
    }
    directory.append(0x1E)
    let base = 24 + directory.count
    let total = base + data.count + 1
    guard total <= 99999 else { throw .tooLong(total) }
    let leader =
      digits(total, 5) + Array(leaderHead.utf8) + Array("22".utf8) + digits(base, 5) + Array(leaderTail.utf8)
      + Array(entryMap.utf8)
    return leader + directory + data + [0x1D]
  }

  private func digits(_ value: Int, _ width: Int) -> [UInt8] {
    let text = String(value)
    return Array((String(repeating: "0", count: max(0, width - text.count)) + text).utf8)
  }
}

extension ISO2709Record.Field {
  /// An IRBIS field as RUSMARC holds it: the same tag, blank indicators, subfield codes in lower
  /// case, as the MARC formats write them (`codesAsWritten`: a field read from MARC, whose codes
  /// are already as its file wrote them).
  public init(_ field: IRBISRecord.Field, codesAsWritten: Bool = false) {
    var subfields: [(Character, String)] = []
    let parts = field.value.split(separator: "^", omittingEmptySubsequences: false)
    for part in parts.dropFirst() {
      guard let code = part.first else { continue }
      subfields.append(
        (codesAsWritten ? code : Character(code.lowercased()), String(part.dropFirst()).replacingDataCarets(with: "^")))
    }
    self.init(
      tag: field.tag, indicators: field.indicators ?? "  ",
      text: (parts.first.map(String.init) ?? "").replacingDataCarets(with: "^"),
      subfields: subfields)
    order = field.marcOrder
    textIsData = field.indicators != nil || field.marcOrder != nil
  }
}

extension MARC21Books {
  /// What a MARC 21 export says of the library's items for Koha: its branch (952 $a home, $b
  /// holding; Koha refuses an item without one) and the items' type ($y).
  public struct KohaItems: Sendable {
    public var branch: String
    public var itemType: String

    public init(branch: String = "", itemType: String = "BK") {
      self.branch = branch
      self.itemType = itemType
    }
  }

  /// The MARC 21 record of a book's copies: 001 (the record's number here) and 008 (its fixed
  /// data), 020, 100, 245, 260, 300, 084, the author mark in 090 $b, and an item in Koha's 952 for
  /// each copy ($a and $b the branch, $y the item type, $p barcode, $o call number, $c location,
  /// $d acquired, $g price, and the lost, withdrawn, damaged and not-for-loan flags), so that Koha
  /// can take the file.
  ///
  /// Copies imported from MARC 21 get the record they came with (`keptRecord`); `whole` says
  /// that this part of it (a record whose copies' descriptions now differ goes out in parts)
  /// writes its items that number no copy.
  public static func marcRecord(for copies: [IRBISCopy], items: KohaItems = KohaItems(), whole: Bool = true)
    -> ISO2709Record
  {
    if let kept = copies.first?.kept, let original = kept.marc21 {
      return keptRecord(for: copies, original: original, kept: kept, items: items, whole: whole)
    }
    guard let book = copies.first?.book else { return .marc21(fields: []) }
    var fields: [ISO2709Record.Field] = []
    func add(_ tag: Int, indicators: String = "  ", _ subfields: [(Character, String)]) {
      let present = subfields.filter { !$0.1.isEmpty }
      if !present.isEmpty { fields.append(.init(tag: tag, indicators: indicators, subfields: present)) }
    }
    fields.append(.init(tag: 1, text: book.id.text))
    fields.append(.init(tag: 8, text: fixedData(book)))
    add(20, [("a", book.isbn?.digits ?? ""), ("c", book.isbn == nil ? "" : book.price?.description ?? "")])
    add(84, [("a", book.bbk), ("2", book.bbk.isEmpty ? "" : "rubbk")])
    add(
      100, indicators: "1 ",
      [("a", [book.authorSurname, book.authorInitials].filter { !$0.isEmpty }.joined(separator: ", "))])
    let (title, other) = IRBISBooks.splitTitle(book.title)
    add(245, indicators: book.authorSurname.isEmpty ? "00" : "10", [("a", title), ("b", other)])
    add(260, [("a", book.city), ("b", book.publisher), ("c", book.year.map(String.init) ?? "")])
    add(300, [("a", book.pages.map { "\($0) p." } ?? "")])
    // The author mark as a local call number's item part (090 $b), as Koha's frameworks hold it.
    add(90, [("a", book.authorMark.isEmpty ? "" : book.bbk), ("b", book.authorMark)])
    // The call number as the record came (its 903), else the shelf code when there is a BBK index
    // or author mark to make it of.
    let keptCallNumber = copies.first?.kept?.elements.compactMap(\.field).first { $0.tag == 903 }.map {
      $0.text.isEmpty ? $0.subfield("A") : $0.text
    }
    // The record's default item type, which Koha's framework makes mandatory.
    add(942, [("c", items.itemType)])
    for copy in copies {
      fields.append(kohaItem(copy, callNumber: keptCallNumber, items: items))
    }
    return .marc21(fields: fields)
  }

  /// The Koha item (952) of a copy: `callNumber` the record's, else its BBK index and author
  /// mark.
  static func kohaItem(_ copy: IRBISCopy, callNumber: String?, items: KohaItems) -> ISO2709Record.Field {
    let item = copy.book
    // A call number as MARC 21 writes one: the class, then the author mark.
    let callNumber = callNumber ?? [item.bbk, item.authorMark].filter { !$0.isEmpty }.joined(separator: " ")
    // A copy whose file gave no date got the day of its import: no date acquired is made up.
    let dateCame = copy.kept.map { IRBISRecord.Field(tag: 910, value: $0.copy).subfield("C") } ?? "x"
    let acquired = dateCame.isEmpty && item.received == item.created.utcDate ? "" : item.received?.iso ?? ""
    let subfields: [(Character, String)] = [
      ("a", items.branch), ("b", items.branch), ("y", items.itemType),
      ("p", item.inventoryNumber), ("o", callNumber), ("c", item.place),
      ("d", acquired), ("g", item.price?.description ?? ""),
    ]
    return ISO2709Record.Field(tag: 952, subfields: (subfields + statusFlags(item.status)).filter { !$0.1.isEmpty })
  }

  /// Koha's item flags for a status: lost ($1), withdrawn ($0), damaged ($4), not for loan ($7, -1
  /// on order); "" for a flag not set.
  static func statusFlags(_ status: CopyStatus) -> [(Character, String)] {
    [
      ("1", status == .lost ? "1" : ""), ("0", status == .writtenOff ? "1" : ""),
      ("4", status == .damaged ? "1" : ""),
      ("7", status == .referenceOnly ? "1" : (status == .inProcessing ? "-1" : "")),
    ]
  }

  /// MARC 21's 008 for a book: the date entered (when the desk first had it), a single date of
  /// publication or none, place unknown, the language told from the title's letters (Russian or
  /// undetermined), and «d», catalogued here. Forty positions.
  static func fixedData(_ book: Book) -> String {
    let entered = book.created.utcDate.compact.dropFirst(2)
    let dates = book.year.map { "s" + String($0).padded(to: 4) + "    " } ?? "n        "
    let russian = book.title.unicodeScalars.contains { (0x0400...0x04FF).contains($0.value) }
    return entered + dates + "xx " + String(repeating: " ", count: 17) + (russian ? "rus" : "und") + " d"
  }
}

extension String {
  fileprivate func padded(to width: Int) -> String {
    count >= width ? String(prefix(width)) : String(repeating: "0", count: width - count) + self
  }
}
