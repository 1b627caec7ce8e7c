/// Books in IRBIS's catalogue worksheet PAZK: the fields the desk writes and reads.
public enum IRBISBooks {
  /// The page count in a statement of extent: its largest number in Arabic figures, so that
  /// «V, 201 p.», «[4], 256 с.» and «XII, 340, [4] с.» read 201, 256 and 340 (the roman and
  /// bracketed preliminaries are smaller); empty when there is none.
  static func pageCount(_ extent: String) -> String {
    let numbers = extent.split(whereSeparator: { !("0"..."9").contains($0) }).compactMap { Int($0) }
    return numbers.max().map(String.init) ?? ""
  }

  /// The shelf code IRBIS builds for field 903: `<BBK>/<author mark>-<inventory number>`.
  public static func shelfCode(_ book: Book) -> String {
    guard !book.bbk.isEmpty || !book.authorMark.isEmpty else { return book.inventoryNumber }
    return "\(book.bbk)/\(book.authorMark)-\(book.inventoryNumber)"
  }

  /// The status of a copy with 910 ^A `code` (ManagedIrbis's `ExemplarStatus`); nil for a code
  /// IRBIS does not define. On loan (1), reserved (9), BiblioNet (C) and a reproduction (R) are
  /// available copies: whether one is out is its loans' to say.
  public static func status(irbisCode code: String) -> CopyStatus? {
    switch code.trimmingWhitespace().uppercased() {
    case "", "0", "1", "9", "C", "R": return .available
    case "2", "8": return .inProcessing
    case "3": return .damaged
    case "4": return .lost
    case "5", "P": return .referenceOnly
    case "6": return .writtenOff
    default: return nil
    }
  }

  /// The 910 ^A code of a copy: on loan (1), put aside on the hold shelf for a reader (9,
  /// IRBIS's "reserved") or free (0) for an available copy, else its status's.
  public static func irbisCode(_ status: CopyStatus, onLoan: Bool, onHoldShelf: Bool = false) -> String {
    switch status {
    case .available: return onLoan ? "1" : onHoldShelf ? "9" : "0"
    case .inProcessing: return "2"
    case .damaged: return "3"
    case .lost: return "4"
    case .referenceOnly: return "5"
    case .writtenOff: return "6"
    }
  }

  /// One catalogue record for one copy. `onLoan` and `onHoldShelf` set the copy's code (910^A
  /// 1, 9, else 0).
  public static func record(for book: Book, onLoan: Bool, onHoldShelf: Bool = false) -> IRBISRecord {
    var record = IRBISRecord()
    record.append(920, "PAZK")
    record.append(10, subfields: [("A", book.isbn?.hyphenated ?? ""), ("D", book.price?.description ?? "")])
    record.append(700, subfields: [("A", book.authorSurname), ("B", book.authorInitials)])
    let (title, other) = splitTitle(book.title)
    record.append(200, subfields: [("A", title), ("E", other)])
    record.append(210, subfields: [("A", book.city), ("C", book.publisher), ("D", book.year.map(String.init) ?? "")])
    record.append(215, subfields: [("A", book.pages.map(String.init) ?? "")])
    record.append(621, book.bbk)
    record.append(908, book.authorMark)
    record.append(903, shelfCode(book))
    record.append(
      910,
      subfields: [
        ("A", irbisCode(book.status, onLoan: onLoan, onHoldShelf: onHoldShelf)), ("B", book.inventoryNumber),
        ("C", book.received?.compact ?? ""),
        ("D", book.place), ("S", book.lastChecked?.compact ?? ""),
      ])
    return record
  }

  /// A volume's title as the desk shows it: the set's, the volume's designation and its own
  /// title, each after the one before as ISBD joins them («Собрание сочинений : в 6 кн. Кн. 3.
  /// Странные люди»).
  static func joinedTitle(_ parts: [String]) -> String {
    parts.filter { !$0.isEmpty }.reduce("") { joined, part in
      joined.isEmpty ? part : joined + (joined.hasSuffix(".") ? " " : ". ") + part
    }
  }

  /// The title of the set a volume belongs to: IRBIS's 461 ^C, or RUSMARC's 461 with the set's
  /// 200 embedded (`$1 2001 $a Title`).
  static func setTitle(_ record: IRBISRecord) -> String {
    guard let link = record.first(461) else { return "" }
    let direct = link.subfield("C")
    if !direct.isEmpty { return direct }
    var inTitle = false
    for (code, data) in link.orderedSubfields {
      if code == "1" {
        inTitle = data.hasPrefix("200")
      } else if inTitle && code == "A" {
        return data.trimmingWhitespace()
      }
    }
    return ""
  }

  /// A field IRBIS writes as a plain value, which ISO 2709 holds as subfield a.
  static func plainValue(_ record: IRBISRecord, _ tag: Int) -> String {
    guard let field = record.first(tag) else { return "" }
    return field.text.isEmpty ? field.subfield("A") : field.text
  }

  /// "Title : other title information" into its two parts (ISBD punctuation).
  /// Looked for in the bytes, each place found then confirmed as three whole characters (a space
  /// with a combining mark is not a space): the title was an array of characters before, a
  /// twentieth of an export's time.
  static func splitTitle(_ title: String) -> (String, String) {
    let bytes = title.utf8
    var from = bytes.startIndex
    while let space = bytes[from...].firstIndex(of: 0x20) {
      from = bytes.index(after: space)
      guard let end = bytes.index(space, offsetBy: 3, limitedBy: bytes.endIndex),
        bytes[bytes.index(after: space)] == UInt8(ascii: ":"), bytes[bytes.index(space, offsetBy: 2)] == 0x20,
        let start = String.Index(space, within: title), let after = String.Index(end, within: title),
        title[start..<after].elementsEqual([" ", ":", " "] as [Character])
      else { continue }
      return (String(title[..<start]), String(title[after...]))
    }
    return (title, "")
  }

  /// True for what catalogues write in 910 ^B for a copy without a number: nothing, «б/н»
  /// («без номера») and its spellings.
  public static func isNoNumber(_ inventory: String) -> Bool {
    // A number with a digit in it is a number: the common case, told without folding.
    if inventory.utf8.contains(where: { (0x30...0x39).contains($0) }) { return false }
    let folded = inventory.trimmingWhitespace().lowercased().filter { !" ./\\-".contains($0) }
    return folded.isEmpty || folded == "бн" || folded == "безномера"
  }

  /// The copies of a record that have no inventory number (910 ^B empty or «б/н»), as written:
  /// they cannot circulate, and an import reports them.
  public static func copiesWithoutNumber(in record: IRBISRecord) -> [String] {
    record.all(910).filter { !isSummaryEntry($0) }.map { $0.subfield("B").trimmingWhitespace() }.filter(isNoNumber)
  }

  /// True for a 910 of summary (group) accounting (^A U): a batch of copies counted together
  /// under one number (^1 holds how many), not a copy that circulates.
  public static func isSummaryEntry(_ field: IRBISRecord.Field) -> Bool {
    field.subfield("A").trimmingWhitespace().uppercased() == "U"
  }

  /// The positions in `record.fields` of the copies that become books: 910s with a number that
  /// are not summary entries, in the record's order.
  public static func copyPositions(in record: IRBISRecord) -> [Int] {
    record.fields.indices.filter { index in
      let field = record.fields[index]
      return field.tag == 910 && !isNoNumber(field.subfield("B")) && !isSummaryEntry(field)
    }
  }

  /// The books a catalogue record describes: one for each copy (field 910) with an inventory
  /// number. A record that is not a book, or has no copy with a number, says why.
  public static func drafts(from record: IRBISRecord) -> Result<[BookDraft], ImportRefusal> {
    drafts(from: record, copies: copyPositions(in: record))
  }

  /// The books of a record whose copies' positions (`copyPositions`) are known already.
  public static func drafts(from record: IRBISRecord, copies positions: [Int]) -> Result<[BookDraft], ImportRefusal> {
    let worksheet = record.text(920).trimmingWhitespace().uppercased()
    guard ["PAZK", "SPEC", ""].contains(worksheet) else { return .failure(.notABook(worksheet: worksheet)) }
    let copies = positions.map { record.fields[$0] }
    guard !copies.isEmpty else { return .failure(.noInventoryNumber(RecordFormat(of: record))) }
    let base = description(in: record)
    // Told once for the record: a draft copied and its fields read for each copy cost 3 % of an export.
    let holdsCarets = record.fields.contains { $0.value.utf8.contains(0xEE) }
    return .success(
      copies.map { field in
        let copy = field.subfields
        var draft = base
        draft.inventoryNumber = copy["B"] ?? ""
        draft.place = copy["D"] ?? ""
        let price = (copy["E"] ?? "").replacingCommasWithDots()
        if !price.isEmpty { draft.price = price }
        if let received = LocalDate(iso: copy["C"] ?? "") { draft.received = received.iso }
        // An unknown code leaves the status empty: the import notes it and the copy is available.
        if let status = status(irbisCode: copy["A"] ?? "") { draft.status = status.rawValue }
        return holdsCarets ? draft.withDataCarets : draft
      })
  }

  /// What a record says of its book, whatever its copies: the fields of a draft but the copy's
  /// own (inventory number, place, received, status). A data caret stays the record's mark
  /// (`IRBISRecord.dataCaret`).
  public static func description(in record: IRBISRecord) -> BookDraft {
    var base = BookDraft()
    let isbnField = record.first(10)
    base.isbn = isbnField?.subfield("A") ?? ""
    base.price = (isbnField?.subfield("D") ?? "").replacingCommasWithDots()
    // A multi-volume set (SPEC) names its author in 961 when 700 is absent.
    let author = record.first(700) ?? record.first(961)
    base.authorSurname = author?.subfield("A") ?? ""
    base.authorInitials = initials(author?.subfield("B") ?? "")
    let title = record.first(200)
    var titleText = [title?.subfield("A") ?? "", title?.subfield("E") ?? ""].filter { !$0.isEmpty }.joined(
      separator: " : ")
    // A volume of a multi-volume set (SPEC) is named by the set's title (461 ^C) and its own
    // designation (200 ^V): «Собрание сочинений : в 6 кн. Кн. 3. Странные люди».
    let volume = title?.subfield("V") ?? ""
    let set = setTitle(record)
    base.title = joinedTitle([set, volume, titleText])
    let publication = record.first(210)
    base.city = publication?.subfield("A") ?? ""
    base.publisher = publication?.subfield("C") ?? ""
    base.year = PersonName.year(in: publication?.subfield("D") ?? "").map(String.init) ?? ""
    base.pages = IRBISBooks.pageCount(record.first(215)?.subfield("A") ?? "")
    // RUSMARC (the Russian State Library's records, other libraries') gives the BBK index in 686
    // with its scheme in $2: rubbk, rubbks (BBK for scientific libraries), rubbkd and so on.
    base.bbk = plainValue(record, 621)
    if base.bbk.isEmpty {
      base.bbk = record.all(686).first { $0.subfield("2").lowercased().hasPrefix("rubbk") }?.subfield("A") ?? ""
    }
    base.authorMark = plainValue(record, 908)
    return base
  }
}

extension IRBISBooks {
  /// The initials of 700 ^B: IRBIS writes them («М. Ю.»); UNIMARC's $b may hold the given names,
  /// after a comma («, Isaac»), which become initials.
  static func initials(_ written: String) -> String {
    let text = String(written.drop { $0 == "," || $0 == " " }).trimmingWhitespace()
    guard !text.isEmpty, !text.contains(".") else { return text }
    return PersonName.initials(of: PersonName.words(text))
  }
}

/// The format a catalogue record came in, which says where it keeps what (its copies' numbers).
public enum RecordFormat: Equatable, Sendable {
  case irbis, unimarc, marc21

  /// Told from what the record kept of its reading: MARC 21 keeps its original, an ISO 2709
  /// record of UNIMARC's family its leader.
  public init(of record: IRBISRecord) {
    self = record.marc21 != nil ? .marc21 : record.marcLeader != nil ? .unimarc : .irbis
  }
}

/// Why a record of an import was not taken.
public enum ImportRefusal: Error, Equatable, Sendable {
  /// A record of another worksheet than a book's.
  case notABook(worksheet: String)
  /// No copy with a number, where the record's format keeps them.
  case noInventoryNumber(RecordFormat)
  case notAReader
  case noTicket
}

extension String {
  func replacingCommasWithDots() -> String {
    String(map { $0 == "," ? "." : $0 }).trimmingWhitespace()
  }
}

extension BookDraft {
  /// The draft with the `^` its record's data held written as `^` again.
  var withDataCarets: BookDraft {
    var draft = self
    for field in BookDraft.fields where draft[field].utf8.contains(0xEE) {
      draft[field] = draft[field].replacingDataCarets(with: "^")
    }
    return draft
  }
}
