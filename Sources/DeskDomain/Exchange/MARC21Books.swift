/// MARC 21 bibliographic records (a Koha export, a national library's file) as the desk reads
/// them: turned into the IRBIS catalogue record of the same book, so that one path checks and
/// imports every format. Subfield codes are read in any case, as `IRBISRecord` does.
public enum MARC21Books {
  /// True for a record in MARC 21 rather than RUSMARC/UNIMARC: it has a title in 245 and none
  /// in 200.
  public static func isMARC21(tags: [Int]) -> Bool {
    tags.contains(245) && !tags.contains(200)
  }

  /// The IRBIS catalogue record (worksheet PAZK) of a MARC 21 record: 020 ISBN and price, 100/110
  /// author, 245 title ($a $b $n $p), 250 edition, 260/264 publication, 300 extent, 084/080
  /// classification, and a copy (910) for each item in Koha's 952 or in 852/876.
  ///
  /// `punctuated` (leader position 18 not `c`): the values end with ISBD punctuation, and a
  /// title's final full stop is taken off with it.
  public static func irbisRecord(_ marc: IRBISRecord, punctuated: Bool = true) -> IRBISRecord {
    var record = IRBISRecord()
    record.append(920, "PAZK")
    // Every 020, the first the book's: the others (another binding, the set) stay with the record.
    for (index, isbnField) in marc.all(20).enumerated() {
      let isbn = isbnField.subfield("A").split(separator: " ").first.map(String.init) ?? ""
      if index > 0 && isbn.isEmpty { continue }
      record.append(10, subfields: [("A", isbn), ("D", amount(isbnField.subfield("C")))])
    }
    if let person = marc.first(100) {
      let (surname, initials) = PersonName.split(trimmed(person.subfield("A")))
      record.append(700, subfields: [("A", surname), ("B", initials), ("G", givenNames(person.subfield("A")))])
    } else if let body = marc.first(110) {
      record.append(710, subfields: [("A", trimmed(body.subfield("A")))])
      record.append(700, subfields: [("A", trimmed(body.subfield("A")))])
    }
    if let title = marc.first(245) {
      // «Title. Part number. Part name», as ISBD joins them.
      let parts = [title.subfield("A"), title.subfield("N"), title.subfield("P")].map {
        trimmed($0, dropsFullStop: punctuated)
      }.filter { !$0.isEmpty }
      record.append(
        200,
        subfields: [
          ("A", parts.joined(separator: ". ")), ("E", trimmed(title.subfield("B"), dropsFullStop: punctuated)),
          ("F", trimmed(title.subfield("C"), dropsFullStop: punctuated)),
        ])
    }
    // Further authors, as IRBIS's 701 holds them.
    for person in marc.all(700) {
      let (surname, initials) = PersonName.split(trimmed(person.subfield("A")))
      record.append(701, subfields: [("A", surname), ("B", initials), ("G", givenNames(person.subfield("A")))])
    }
    // Subject headings (topical, personal, geographic) as IRBIS's subject field 606: the heading
    // itself; its subdivisions stay in the MARC 21 original, which the MARC 21 export writes.
    for subject in marc.all(650) + marc.all(600) + marc.all(651) {
      record.append(606, subfields: [("A", trimmed(subject.subfield("A"), dropsFullStop: punctuated))])
    }
    record.append(205, subfields: [("A", trimmed(marc.first(250)?.subfield("A") ?? ""))])
    if let publication = marc.first(260) ?? marc.first(264) {
      record.append(
        210,
        subfields: [
          ("A", trimmed(publication.subfield("A"))), ("C", trimmed(publication.subfield("B"))),
          ("D", PersonName.year(in: publication.subfield("C")).map(String.init) ?? ""),
        ])
    }
    record.append(215, subfields: [("A", trimmed(marc.first(300)?.subfield("A") ?? ""))])
    let bbk = marc.first(84)?.subfield("A") ?? marc.first(80)?.subfield("A") ?? ""
    record.append(621, trimmed(bbk))
    if let udc = marc.first(80)?.subfield("A"), marc.first(84) != nil { record.append(675, trimmed(udc)) }
    // The author mark: a local call number's item part (090 $b), as the export writes it.
    record.append(908, trimmed(marc.first(90)?.subfield("B") ?? ""))
    var callNumber = ""
    for item in marc.all(952) {
      if callNumber.isEmpty { callNumber = trimmed(item.subfield("O")) }
      record.fields.append(copy(ofKohaItem: item))
    }
    // Holdings in 852 with their items in 876 (or 852 $p), paired in order.
    let items = marc.all(876)
    let kohaNumbers = Set(marc.all(952).map { trimmed($0.subfield("P")) })
    for (index, holding) in marc.all(852).enumerated() {
      if callNumber.isEmpty {
        callNumber = [holding.subfield("H"), holding.subfield("I")].map { trimmed($0) }.filter { !$0.isEmpty }.joined(
          separator: " ")
      }
      let copy = copy(ofHolding: holding, item: index < items.count ? items[index] : nil)
      // Beside Koha's items a holding is a copy only with a number of its own: one without (where
      // the books are) or with an item's number (the desk writes a 952 beside a holding whose
      // copy changed) is no second copy.
      let number = copy.subfield("B")
      if !kohaNumbers.isEmpty && (number.isEmpty || kohaNumbers.contains(number)) { continue }
      record.fields.append(copy)
    }
    // Else a local or the Library of Congress's call number: class, then item part.
    if callNumber.isEmpty, let local = marc.first(90) ?? marc.first(50) {
      callNumber = [local.subfield("A"), local.subfield("B")].map { trimmed($0) }.filter { !$0.isEmpty }.joined(
        separator: " ")
    }
    if !callNumber.isEmpty { record.append(903, callNumber) }
    return record
  }

  /// The copy (910) of an item in Koha's 952.
  static func copy(ofKohaItem item: IRBISRecord.Field) -> IRBISRecord.Field {
    IRBISRecord.Field(
      tag: 910,
      subfields: [
        ("A", kohaStatus(item)), ("B", trimmed(item.subfield("P"))), ("C", compactDate(item.subfield("D"))),
        ("D", [item.subfield("C"), item.subfield("A")].map { trimmed($0) }.first { !$0.isEmpty } ?? ""),
        ("E", amount(item.subfield("G"))),
      ])
  }

  /// The copy (910) of a holding in 852 and its item in 876 (or the number in 852 $p).
  static func copy(ofHolding holding: IRBISRecord.Field, item: IRBISRecord.Field?) -> IRBISRecord.Field {
    let number =
      trimmed(item?.subfield("P") ?? "").isEmpty ? trimmed(holding.subfield("P")) : trimmed(item?.subfield("P") ?? "")
    return IRBISRecord.Field(
      tag: 910,
      subfields: [
        ("A", itemStatus(item?.subfield("J") ?? "")), ("B", number),
        ("C", compactDate(item?.subfield("D") ?? "")),
        ("D", [holding.subfield("C"), holding.subfield("B")].map { trimmed($0) }.first { !$0.isEmpty } ?? ""),
        ("E", amount(item?.subfield("C") ?? "")),
      ])
  }

  /// The IRBIS status code of a Koha item: lost ($1), withdrawn ($0), damaged ($4), not for loan
  /// ($7: -1 is on order), each set when not 0.
  static func kohaStatus(_ item: IRBISRecord.Field) -> String {
    func set(_ code: Character) -> Bool {
      let value = item.subfield(code).trimmingWhitespace()
      return !value.isEmpty && value != "0"
    }
    if set("1") { return "4" }
    if set("0") { return "6" }
    if set("4") { return "3" }
    if set("7") { return item.subfield("7").trimmingWhitespace().hasPrefix("-") ? "2" : "5" }
    return "0"
  }

  /// The IRBIS status code of an 876 $j item status written in words (`lost`, `withdrawn`…).
  static func itemStatus(_ text: String) -> String {
    IRBISBooks.irbisCode(CopyStatus(word: text) ?? .available, onLoan: false)
  }

  /// A value without the ISBD punctuation MARC 21 ends it with: «London :», «Penguin,», «Emma /».
  /// A title's final full stop goes too (`dropsFullStop`), unless it ends an abbreviation or an
  /// initial («ed.», «J.»); a place keeps its («СПб.»).
  static func trimmed(_ value: String, dropsFullStop: Bool = false) -> String {
    var text = value.trimmingWhitespace()
    while let last = text.last, " /:;,=".contains(last) { text.removeLast() }
    if dropsFullStop, text.hasSuffix("."), let word = text.split(separator: " ").last, word.count > 3,
      !word.dropLast().contains(".")
    {
      text.removeLast()
    }
    return text.trimmingWhitespace()
  }

  /// «Jane» of «Austen, Jane,».
  static func givenNames(_ name: String) -> String {
    guard let comma = name.firstIndex(of: ",") else { return "" }
    return trimmed(String(name[name.index(after: comma)...]))
  }

  /// `YYYYMMDD` of a date written `YYYY-MM-DD` (Koha) or already compact; empty otherwise.
  static func compactDate(_ text: String) -> String {
    (LocalDate(iso: text.trimmingWhitespace()) ?? LocalDate(iso: String(text.trimmingWhitespace().prefix(10))))?
      .compact ?? ""
  }

  /// The amount in a price written «£6.99», «$12.50 (pbk.)» or «254 р.»: its first number.
  static func amount(_ text: String) -> String {
    var number = ""
    for character in text {
      if character.isASCII && (character.isNumber || (character == "." && !number.isEmpty && !number.contains("."))) {
        number.append(character)
      } else if !number.isEmpty {
        break
      }
    }
    return number.hasSuffix(".") ? String(number.dropLast()) : number
  }
}
