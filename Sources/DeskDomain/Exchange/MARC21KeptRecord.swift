/// A MARC 21 record as it came from ISO 2709: its leader and its fields in their order, with
/// their indicators, where their data stood, and their subfields in `^` notation with the codes
/// as the file wrote them. Kept with the books an import makes of it, so that a MARC 21 export
/// writes it back byte for byte while the librarian changes nothing.
public struct MARCOriginal: Equatable, Sendable {
  public var leader: String?
  public var fields: [IRBISRecord.Field]

  public init(leader: String?, fields: [IRBISRecord.Field]) {
    self.leader = leader
    self.fields = fields
  }
}

extension MARC21Books {
  /// The MARC 21 record of copies imported from MARC 21: the record as it came, with what the
  /// librarian changed since written anew in the field that holds it, each copy's item (Koha's
  /// 952, or 852 with its 876) as it came with the copy's changes, and a 952 for a copy the file
  /// held no item of. An item that numbers no copy of this export goes with it only when it
  /// numbers none at all and this is the `whole` record (a deleted copy's item goes).
  static func keptRecord(
    for copies: [IRBISCopy], original: MARCOriginal, kept: IRBISKeptRecord, items: KohaItems, whole: Bool
  ) -> ISO2709Record {
    let elements = kept.elements
    let source = IRBISRecord(fields: elements.map { $0.field ?? IRBISRecord.Field(tag: 910, value: kept.copy) })
    let recordPrice = source.first(10)?.subfield("D") ?? ""
    let leader = Array(original.leader ?? "")
    let book = copies[0].book
    var changes = MARC21Changes(
      was: IRBISBooks.importedBook(source), now: book, punctuated: leader.count != 24 || leader[18] != "c",
      bbkTag: original.fields.contains { $0.tag == 84 } || !original.fields.contains { $0.tag == 80 } ? 84 : 80)
    let callNumber = source.first(903)?.text
    let pairing = ItemPairing(original.fields)
    let matches = pairing.match(copies)
    let numbersCame = Set(copies.map { IRBISRecord.Field(tag: 910, value: $0.kept?.copy ?? "").subfield("B") })

    var fields: [ISO2709Record.Field] = []
    func append(_ field: IRBISRecord.Field) {
      var written = ISO2709Record.Field(field, codesAsWritten: true)
      written.order = field.marcOrder
      fields.append(written)
    }
    for (index, field) in original.fields.enumerated() {
      switch field.tag {
      case 952:
        if let copyIndex = matches.copy[index] {
          var item = changedKohaItem(field, of: copies[copyIndex], recordPrice: recordPrice)
          // An item with no branch, which Koha refuses, gets the one the export is given.
          if item.subfield("A").isEmpty && !items.branch.isEmpty {
            if item.subfield("B").isEmpty { item = item.setting("b", items.branch) }
            item = item.setting("a", items.branch)
          }
          append(item)
        } else if whole && pairing.number[index, default: ""].isEmpty {
          append(field)
        }
      case 852, 876:
        // A holding is written as it came; a copy that changed since gets a Koha item too.
        let holding = field.tag == 852 ? index : pairing.holding[index]
        if let holding, let copyIndex = matches.copy[holding] {
          append(field)
          let item = pairing.item[holding].map { original.fields[$0] }
          let isLast = pairing.item[holding].map { $0 == index } ?? (field.tag == 852)
          let came = copy(ofHolding: original.fields[holding], item: item)
          if isLast && IRBISBooks.copyField(copies[copyIndex].keeping(came), recordPrice: recordPrice) != came {
            fields.append(kohaItem(copies[copyIndex], callNumber: callNumber, items: items))
          }
        } else if let holding, case let number = pairing.number[holding, default: ""], !number.isEmpty,
          numbersCame.contains(number)
        {
          // The holding of a copy that came in its own 952 beside it (the desk wrote that 952).
          append(field)
        } else if whole && (holding.map { pairing.number[$0, default: ""].isEmpty } ?? true) {
          append(field)
        }
      case 1 where !whole:
        // A part split off the record is a record of its own: two records with one control
        // number would be taken for one (Koha overlays one with the other).
        append(IRBISRecord.Field(tag: 1, value: book.id.text))
      default:
        if let written = changes.apply(to: field) { append(written) }
      }
    }
    // Copies the file held no item of; then what changed that no field of the record held.
    for index in copies.indices where !matches.matched.contains(index) {
      fields.append(kohaItem(copies[index], callNumber: callNumber, items: items))
    }
    for added in changes.added(from: marcRecord(for: [IRBISCopy(book: book, kept: nil, onLoan: false)]).fields) {
      let place = fields.firstIndex { $0.tag > added.tag } ?? fields.endIndex
      fields.insert(ISO2709Record.Field(added, codesAsWritten: true), at: place)
    }
    return .marc21(fields: fields, leader: original.leader)
  }

  /// A Koha item as it came, with what changed in its copy since written into the subfields
  /// that say it: status flags, $p number, $d date acquired, $c location, $g price.
  static func changedKohaItem(_ item: IRBISRecord.Field, of copy: IRBISCopy, recordPrice: String)
    -> IRBISRecord.Field
  {
    let came = MARC21Books.copy(ofKohaItem: item)
    let now = IRBISBooks.copyField(copy.keeping(came), recordPrice: recordPrice)
    guard now != came else { return item }
    let book = copy.book
    var item = item
    if now.subfield("A") != came.subfield("A") {
      // A flag Koha wrote as 0 (not set) stays as written while it is still not set.
      for (code, flag) in statusFlags(book.status) where !(flag.isEmpty && ["", "0"].contains(item.subfield(code))) {
        item = item.setting(code, flag)
      }
    }
    if now.subfield("B") != came.subfield("B") { item = item.setting("p", book.inventoryNumber) }
    if now.subfield("C") != came.subfield("C") { item = item.setting("d", book.received?.iso ?? "") }
    // The location goes in $c; $a, which the import reads for one where $c has none, stays the
    // home branch.
    if now.subfield("D") != came.subfield("D") { item = item.setting("c", book.place) }
    if now.subfield("E") != came.subfield("E") { item = item.setting("g", book.price?.description ?? "") }
    return item
  }
}

extension IRBISCopy {
  /// The copy with `copy` as the 910 its import kept: what its item said when it came.
  fileprivate func keeping(_ copy: IRBISRecord.Field) -> IRBISCopy {
    var result = self
    result.kept = IRBISKeptRecord(record: "", copy: copy.value, group: "")
    return result
  }
}

/// The items of a MARC 21 record (952s, and 852s each paired with the 876 of the same rank, as
/// the import pairs them), their numbers, and which copy of an export each one is.
struct ItemPairing {
  /// The number each item (by its field's index) came with.
  var number: [Int: String] = [:]
  /// The 876 of each 852, and the 852 of each 876.
  var item: [Int: Int] = [:]
  var holding: [Int: Int] = [:]
  private var items: [Int] = []

  init(_ fields: [IRBISRecord.Field]) {
    let holdings = fields.indices.filter { fields[$0].tag == 852 }
    let details = fields.indices.filter { fields[$0].tag == 876 }
    for (rank, index) in holdings.enumerated() where rank < details.count {
      item[index] = details[rank]
      holding[details[rank]] = index
    }
    // Koha's items first: a copy the desk wrote a 952 for beside its holding is that item.
    for index in fields.indices where fields[index].tag == 952 {
      number[index] = MARC21Books.copy(ofKohaItem: fields[index]).subfield("B")
      items.append(index)
    }
    for index in holdings {
      number[index] = MARC21Books.copy(ofHolding: fields[index], item: item[index].map { fields[$0] }).subfield("B")
      items.append(index)
    }
  }

  /// Each copy's item: the one with the number the copy came with, then an unnumbered one, in
  /// order, for a copy the import numbered (`--assign-inventory`).
  func match(_ copies: [IRBISCopy]) -> (copy: [Int: Int], matched: Set<Int>) {
    var copyOfItem: [Int: Int] = [:]
    var matched = Set<Int>()
    for (index, copy) in copies.enumerated() {
      let number = IRBISRecord.Field(tag: 910, value: copy.kept?.copy ?? "").subfield("B")
      guard !number.isEmpty, let found = items.first(where: { copyOfItem[$0] == nil && self.number[$0] == number })
      else { continue }
      copyOfItem[found] = index
      matched.insert(index)
    }
    for index in copies.indices where !matched.contains(index) {
      guard let found = items.first(where: { copyOfItem[$0] == nil && number[$0, default: ""].isEmpty }) else { break }
      copyOfItem[found] = index
      matched.insert(index)
    }
    return (copyOfItem, matched)
  }
}

/// The elements of a MARC 21 description the librarian changed since the import, written anew
/// into the first field that holds each (020 ISBN, 100/110 author, 245 title, 260/264
/// publication, 300 extent, 084 BBK index, 090 $b author mark, and 008's date); an element no
/// field holds is added from the record the desk makes.
struct MARC21Changes {
  let was: Book?
  let now: Book
  /// The record ends its values with ISBD punctuation (leader position 18 not `c`).
  let punctuated: Bool
  /// The field the import read the book's classification from: 084, or 080 where there is none.
  let bbkTag: Int
  private var met: Set<Int> = []

  init(was: Book?, now: Book, punctuated: Bool, bbkTag: Int = 84) {
    self.was = was
    self.now = now
    self.punctuated = punctuated
    self.bbkTag = bbkTag
  }

  private func changed<T: Equatable>(_ value: (Book) -> T) -> Bool { now.differs(from: was, in: value) }

  /// The tags that hold one element: the first of them met holds it.
  private static func holders(of tag: Int) -> [Int] {
    switch tag {
    case 100, 110: return [100, 110]
    case 260, 264: return [260, 264]
    default: return [tag]
    }
  }

  /// The field with what changed written anew; nil when the change left it nothing to say (a
  /// publisher, place and year all cleared).
  mutating func apply(to field: IRBISRecord.Field) -> IRBISRecord.Field? {
    guard !met.contains(field.tag) else { return field }
    met.formUnion(Self.holders(of: field.tag))
    guard isChanged(field.tag) else { return field }
    let written = rewritten(field)
    guard let essential = Self.essential[field.tag] else { return written }
    return essential.contains { !written.subfield($0).isEmpty } ? written : nil
  }

  /// The subfields without which a rewritten field says nothing and goes.
  private static let essential: [Int: [Character]] = [
    20: ["a", "z"], 100: ["a"], 110: ["a"], 245: ["a", "k"], 260: ["a", "b", "c"], 264: ["a", "b", "c"],
    300: ["a"], 84: ["a"], 80: ["a"], 90: ["a", "b"],
  ]

  /// The field with the element it holds written as it is now.
  private func rewritten(_ field: IRBISRecord.Field) -> IRBISRecord.Field {
    switch field.tag {
    case 8:
      var data = Array(field.value)
      guard data.count >= 15 else { return field }
      if let year = now.year {
        data.replaceSubrange(7..<11, with: Array(String(year).leftPadded(to: 4)))
      } else {
        // No date known: type of date n, both dates unknown.
        data.replaceSubrange(6..<15, with: Array("nuuuuuuuu"))
      }
      return IRBISRecord.Field(tag: 8, value: String(data))
    case 20:
      // A qualifier («(hardcover)») said which binding the old number was.
      return field.setting("a", now.isbn?.digits ?? "").setting("q", "")
    case 100, 110:
      let name = [now.authorSurname, now.authorInitials].filter { !$0.isEmpty }.joined(separator: ", ")
      return field.setting("a", name.isEmpty ? "" : name + trailingPunctuation(field.subfield("A")))
    case 245:
      let (title, other) = IRBISBooks.splitTitle(now.title)
      let responsibility = !field.subfield("C").isEmpty
      var field = field
      // The characters sorting skips: an English article's, or none (the old title's count is
      // no longer right).
      if let indicators = field.indicators, indicators.count == 2 {
        let article = ["The ", "An ", "A "].first { title.hasPrefix($0) }
        field.indicators = String(indicators.prefix(1)) + String(article?.count ?? 0)
      }
      return field.replacing(
        ["a", "b", "n", "p"],
        with: [
          ("a", title + mark(other.isEmpty ? (responsibility ? " /" : ".") : " :", after: title)),
          ("b", other.isEmpty ? "" : other + mark(responsibility ? " /" : ".", after: other)),
        ])
    case 260, 264:
      let year = now.year.map(String.init) ?? ""
      return field.replacing(
        ["a", "b", "c"],
        with: [
          ("a", now.city.isEmpty ? "" : now.city + mark(now.publisher.isEmpty ? (year.isEmpty ? "" : ",") : " :")),
          ("b", now.publisher.isEmpty ? "" : now.publisher + mark(year.isEmpty ? "" : ",")),
          ("c", year.isEmpty ? "" : year + mark(".")),
        ])
    case 300:
      // In the unit the record writes pages in («320 с.» in a Russian record).
      let unit = field.subfield("A").contains("с.") ? "с." : "p."
      let extent = now.pages.map { "\($0) \(unit)" } ?? ""
      return field.setting("a", extent.isEmpty ? "" : extent + trailingPunctuation(field.subfield("A")))
    case 84, 80:
      return field.setting("a", now.bbk)
    case 90:
      return field.setting("b", now.authorMark)
    default:
      return field
    }
  }

  /// The fields of `made` (the record the desk makes of the book) for changed elements that no
  /// field of the record held, with ISBD's marks where the record has them; once.
  mutating func added(from made: [ISO2709Record.Field]) -> [IRBISRecord.Field] {
    var result: [IRBISRecord.Field] = []
    for field in made where !met.contains(field.tag) && [20, 100, 245, 260, 300, 84, 90].contains(field.tag) {
      met.formUnion(Self.holders(of: field.tag))
      guard isChanged(field.tag) else { continue }
      var added = IRBISRecord.Field(tag: field.tag, subfields: field.subfields)
      added.indicators = field.indicators
      result.append(rewritten(added))
    }
    return result
  }

  private func isChanged(_ tag: Int) -> Bool {
    switch tag {
    case 8: return changed(\.year)
    case 20: return changed { $0.isbn?.isbn13 }
    case 100, 110: return changed { [$0.authorSurname, $0.authorInitials] }
    case 245: return changed(\.title)
    case 260, 264: return changed { [$0.city, $0.publisher, $0.year.map(String.init) ?? ""] }
    case 300: return changed(\.pages)
    case 84, 80: return tag == bbkTag && changed(\.bbk)
    case 90: return changed(\.authorMark)
    default: return false
    }
  }

  /// ISBD's mark after a value, in a record that writes them; none after a value that ends in
  /// one already («Why?», «ed.»).
  private func mark(_ mark: String, after value: String = "") -> String {
    guard punctuated, !mark.isEmpty else { return "" }
    if mark == ".", let last = value.last, ".?!".contains(last) { return "" }
    return mark
  }

  /// The ISBD marks a value ended with («Austen, Jane,» → «,»; «xii, 345 p. :» → « :»), written
  /// after its new value.
  private func trailingPunctuation(_ value: String) -> String {
    guard punctuated else { return "" }
    return String(value.reversed().prefix { " ,:;/=+".contains($0) }.reversed())
  }
}

extension IRBISRecord.Field {
  /// The field with its subfields of `codes` (any case) taken out, and `new` (those not empty)
  /// put where the first of them stood, or first.
  func replacing(_ codes: Set<Character>, with new: [(Character, String)]) -> IRBISRecord.Field {
    var parts = value.split(separator: "^", omittingEmptySubsequences: false).map(String.init)
    let head = parts.isEmpty ? "" : parts.removeFirst()
    func isReplaced(_ part: String) -> Bool { part.first.map { codes.contains(Character($0.lowercased())) } ?? false }
    // Nothing before the first replaced subfield is replaced: it stays where it is.
    let at = parts.firstIndex(where: isReplaced) ?? 0
    parts.removeAll(where: isReplaced)
    parts.insert(contentsOf: new.filter { !$0.1.isEmpty }.map { String($0.0) + IRBISRecord.clean($0.1) }, at: at)
    var field = self
    field.value = ([head] + parts.map { "^" + $0 }).joined()
    return field
  }
}

extension String {
  fileprivate func leftPadded(to width: Int) -> String {
    count >= width ? String(suffix(width)) : String(repeating: "0", count: width - count) + self
  }
}
