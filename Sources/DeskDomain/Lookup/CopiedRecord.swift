/// A catalogue record copied from another library's catalogue: its book as the New Book form
/// shows it, and the whole record (subjects, notes, classification, authority forms) kept with
/// the book once it is saved, so that the exports carry it. The other library's own holdings
/// (its copies, shelf marks, local fields) are not copied.
public struct CopiedRecord: Equatable, Sendable {
  /// The target it came from.
  public var target: String
  /// The record in IRBIS's fields (MARC 21 converted, its original kept), without the other
  /// library's holdings.
  public var record: IRBISRecord
  /// The form's fields the record fills; no inventory number, place or status (the copy's own).
  public var draft: BookDraft

  public init(target: String, record: IRBISRecord) {
    self.target = target
    self.record = record
    var draft = IRBISBooks.description(in: record)
    draft.authorMark = ""
    draft.price = ""
    self.draft = draft
  }

  /// Reads a record a target sent. `fromXML`: YAZ made its ISO 2709 from the MARCXML of an SRU
  /// answer, which is Unicode whatever its leader says.
  public static func read(_ bytes: [UInt8], from target: CatalogueTarget, fromXML: Bool = false)
    -> Result<CopiedRecord, ISO2709Flaw>
  {
    guard bytes.count >= 25, let length = MARCCharacterSet.digits(bytes[0..<5]) else {
      return .failure(.noRecordLength)
    }
    // A record ends with 0x1D; a server's length that disagrees is believed no more than an
    // import's.
    guard length == bytes.count else { return .failure(.lengthMismatch(said: length, found: bytes.count)) }
    let said = fromXML ? .utf8 : target.encoding?.characterSet
    let marc21: Bool? =
      switch target.syntax {
      case .marc21: fromXML ? nil : true
      case .rusmarc, .unimarc: fromXML ? nil : false
      }
    return ISO2709Reading.book(bytes, marc21: marc21, said: said).map {
      CopiedRecord(target: target.name, record: withoutHoldings($0))
    }
  }

  /// The record without another library's holdings and local data: IRBIS's copies (910) and
  /// shelf data (903, 908), RUSMARC's holdings (899), MARC 21's (852, 876–878) and Koha's items
  /// (952), and the local fields of 9XX; in the MARC 21 original too.
  static func withoutHoldings(_ record: IRBISRecord) -> IRBISRecord {
    var copy = record
    copy.fields.removeAll { isHoldings($0.tag) && $0.tag != 920 }
    copy.marc21?.fields.removeAll { isHoldings($0.tag) }
    return copy
  }

  private static func isHoldings(_ tag: Int) -> Bool {
    tag == 852 || (876...878).contains(tag) || tag == 899 || (900...999).contains(tag)
  }

  /// The book's ISBN-13, when the record has a valid one.
  public var isbn: ISBN? { try? ISBN(draft.isbn) }

  /// True when the record names this ISBN among its own (any 010 or 020, either form).
  public func describes(_ isbn: ISBN) -> Bool {
    record.all(10).contains { (try? ISBN($0.subfield("A"))).map { $0.isbn13 == isbn.isbn13 } ?? false }
  }

  /// The same book from two targets: the same ISBN, or without one the same title, author and
  /// year, in any case and spacing.
  public var sameBookKey: String {
    if let isbn { return "isbn:" + isbn.isbn13 }
    return "words:"
      + [draft.title, draft.authorSurname, draft.year].map { TextFolding.joinedWords($0) }.joined(
        separator: "|")
  }

  /// «Author I. Title. — City : Publisher, 1995. — 123 p. ISBN …», as a catalogue card's first
  /// lines say the book: what a list of found records shows of each.
  public var cardLine: String {
    var text = [draft.authorSurname, draft.authorInitials].filter { !$0.isEmpty }.joined(separator: " ")
    text += (text.isEmpty ? "" : " ") + draft.title
    let imprint = [[draft.city, draft.publisher].filter { !$0.isEmpty }.joined(separator: " : "), draft.year]
      .filter { !$0.isEmpty }.joined(separator: ", ")
    if !imprint.isEmpty { text += ". — " + imprint }
    // Pages in the language of the book, as its description is written: «с.» for a Russian one.
    let russian = draft.title.unicodeScalars.contains { (0x0400...0x04FF).contains($0.value) }
    if !draft.pages.isEmpty { text += ". — \(draft.pages) \(russian ? "с." : "p.")" }
    if !draft.isbn.isEmpty { text += " ISBN \(draft.isbn)" }
    return text
  }

  /// The record as the book copied from it keeps it (`source_record`): its fields, the book's
  /// copy (910) made from the book, so that the exports write the whole record.
  public func kept(for book: Book) -> IRBISKeptRecord? {
    var whole = record
    // The other library's control number and time stamp name its record; IRBIS numbers its own.
    whole.fields.removeAll { [1, 5, 910].contains($0.tag) }
    guard let copy = IRBISBooks.record(for: book, onLoan: false).first(910) else { return nil }
    whole.fields.append(copy)
    // IRBIS opens a record in the worksheet its 920 names: a book's is PAZK.
    if whole.first(920) == nil { whole.fields.append(IRBISRecord.Field(tag: 920, value: "PAZK")) }
    return IRBISKeptRecord.kept(from: whole, group: "").first
  }

  /// The facts the look-up's form fills, as a web catalogue's answer gives them.
  public var facts: BookFacts {
    var facts = BookFacts(
      provider: target, title: draft.title,
      authors: draft.authorSurname.isEmpty
        ? [] : [[draft.authorSurname, draft.authorInitials].filter { !$0.isEmpty }.joined(separator: " ")],
      publisher: draft.publisher, city: draft.city, year: Int(draft.year), pages: Int(draft.pages), bbk: draft.bbk)
    facts.record = self
    return facts
  }
}

extension CopiedRecord {
  /// The copied records of several targets, a book once: the first target to have it names it.
  public static func distinct(_ records: [CopiedRecord]) -> [CopiedRecord] {
    var seen: Set<String> = []
    return records.filter { seen.insert($0.sameBookKey).inserted }
  }
}
