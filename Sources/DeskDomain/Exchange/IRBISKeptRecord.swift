/// What an import keeps of an IRBIS catalogue record, so that an export writes it back as it came:
/// every field in its order (subject headings, notes, 907 history, local tags…), each copy's own
/// 910 with its subfields, and the fields the desk models as they were written, unless the
/// librarian has changed what they say since.
public struct IRBISKeptRecord: Hashable, Sendable {
  /// The record's fields as IRBIS lines, one a line; `IRBISKeptRecord.copyLine` stands where a copy
  /// that became a book was.
  public var record: String
  /// The copy's own 910 value, as it came.
  public var copy: String
  /// Shared by the copies of one record; empty for a record of one copy.
  public var group: String

  public init(record: String, copy: String, group: String) {
    self.record = record
    self.copy = copy
    self.group = group
  }

  /// Stands for a copy in `record`: no field line starts with `*`.
  public static let copyLine = "*copy"
  /// Begins the line of the leader of a record read from ISO 2709.
  static let leaderLine = "*leader "
  /// Begins the line of the indicators of the field on the next line.
  static let indicatorsLine = "*ind "
  /// Marks the field or copy on the next line as made by the import (`IRBISRecord.Field.isMade`).
  static let madeLine = "*made"
  /// Begins the line of where the next field's data stood in its ISO 2709 record.
  static let orderLine = "*at "
  /// Begins the MARC 21 record the kept one was converted from: the rest of the line is its
  /// leader, the lines after it its fields (`MARCOriginal`).
  static let marc21Line = "*marc21 "

  /// A kept field, or the place of a copy; either may have been made by the import.
  struct Element {
    /// Nil where a copy was.
    var field: IRBISRecord.Field?
    var isMade: Bool
    /// Where the copy's field stood in its ISO 2709 record.
    var order: Int? = nil
  }

  /// The leader of the record as it came from ISO 2709, if it came so.
  var marcLeader: String? {
    guard record.hasPrefix(Self.leaderLine) else { return nil }
    return String(record.dropFirst(Self.leaderLine.count).prefix { $0 != "\n" })
  }

  /// What each copy that becomes a book keeps of `record`, in the order of `copyPositions`.
  public static func kept(from record: IRBISRecord, group: String) -> [IRBISKeptRecord] {
    kept(from: record, copies: IRBISBooks.copyPositions(in: record), group: group)
  }

  /// What each copy keeps, the copies' positions known already.
  public static func kept(from record: IRBISRecord, copies positions: [Int], group: String) -> [IRBISKeptRecord] {
    // One string, written in place: an import keeps a million of them.
    var text = ""
    text.reserveCapacity(record.fields.reduce(0) { $0 + $1.value.utf8.count + 8 })
    // A record read from ISO 2709 keeps its leader and the indicators that are not blank.
    if let leader = record.marcLeader { text += leaderLine + leader }
    for index in record.fields.indices {
      if !text.isEmpty { text += "\n" }
      if record.fields[index].isMade { text += madeLine + "\n" }
      if let order = record.fields[index].marcOrder { text += orderLine + String(order) + "\n" }
      if positions.contains(index) {
        text += copyLine
      } else {
        if let indicators = record.fields[index].indicators, indicators != "  " {
          text += indicatorsLine + indicators + "\n"
        }
        appendLine(record.fields[index], to: &text)
      }
    }
    if let original = record.marc21 {
      text += "\n" + marc21Line + (original.leader ?? "")
      for field in original.fields {
        if let order = field.marcOrder { text += "\n" + orderLine + String(order) }
        if let indicators = field.indicators, indicators != "  " { text += "\n" + indicatorsLine + indicators }
        text += "\n"
        appendLine(field, to: &text)
      }
    }
    return positions.map { IRBISKeptRecord(record: text, copy: record.fields[$0].value, group: group) }
  }

  /// A record's fields as kept lines, in order: what a reader's record keeps.
  public static func lines(of record: IRBISRecord) -> String {
    var text = ""
    for field in record.fields {
      if !text.isEmpty { text += "\n" }
      appendLine(field, to: &text)
    }
    return text
  }

  /// `#tag: value`; a line break inside the value (ISO 2709 data may hold one) is kept as a space,
  /// since a kept record is read line by line.
  private static func appendLine(_ field: IRBISRecord.Field, to text: inout String) {
    text += "#"
    text += String(field.tag)
    text += ": "
    if field.value.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D }) {
      text += String(field.value.map { $0.isNewline ? " " : $0 })
    } else {
      text += field.value
    }
  }

  /// The ISBNs of the record's 10 fields after the first (the first is the book's own): another
  /// binding, the set, a translation's original. A scan of one of them finds the book.
  public var otherISBNs: [ISBN] {
    var values: [Substring] = []
    var lineStart = true
    let bytes = record.utf8
    var index = bytes.startIndex
    // Found in the bytes: an import asks this of every record it keeps.
    while index < bytes.endIndex {
      if lineStart && bytes[index...].starts(with: "#10:".utf8) {
        let end = bytes[index...].firstIndex(of: 0x0A) ?? bytes.endIndex
        values.append(record[index..<end])
        index = end
        continue
      }
      // A MARC 21 original's 020s are the same ISBNs again, read once already.
      if lineStart && bytes[index...].starts(with: Self.marc21Line.utf8) { break }
      lineStart = bytes[index] == 0x0A
      index = bytes.index(after: index)
    }
    guard values.count > 1 else { return [] }
    var seen = Set<String>()
    return values.dropFirst().compactMap { line in
      let field = IRBISRecord.Field(tag: 10, value: String(line.dropFirst(4).drop { $0 == " " }))
      guard let isbn = try? ISBN(field.subfield("A")), seen.insert(isbn.isbn13).inserted else { return nil }
      return isbn
    }
  }

  /// The MARC 21 record this one was converted from, as it came; nil for any other record.
  public var marc21: MARCOriginal? {
    // The section's line, found in the bytes: most kept records have none.
    let marker = Array(("\n" + Self.marc21Line).utf8)
    let bytes = record.utf8
    guard let start = bytes.indices.first(where: { bytes[$0...].starts(with: marker) }) else { return nil }
    let rest = record[bytes.index(start, offsetBy: marker.count)...]
    let leader = rest.prefix { $0 != "\n" }
    let fields = Self.elements(of: rest[leader.endIndex...]).compactMap(\.field)
    return MARCOriginal(leader: leader.isEmpty ? nil : String(leader), fields: fields)
  }

  /// The tags whose fields the desk writes itself for a book; a record with any other tag is kept.
  public static let modelledTags: Set<Int> = [920, 10, 700, 200, 210, 215, 621, 908, 903, 910]

  /// The kept fields as a record, without the copies' places: a reader's record.
  public var fields: IRBISRecord { IRBISRecord(fields: elements.compactMap(\.field)) }

  /// The kept fields, with nil where a copy was. Read in bytes: an export reads a million.
  var elements: [Element] { Self.elements(of: record[...]) }

  /// The elements of kept lines, up to a MARC 21 original's.
  private static func elements(of record: Substring) -> [Element] {
    var result: [Element] = []
    let bytes = record.utf8
    var start = bytes.startIndex
    var indicators: String?
    var made = false
    var order: Int?
    while start < bytes.endIndex {
      let end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.endIndex
      defer { start = end == bytes.endIndex ? end : bytes.index(after: end) }
      guard start < end else { continue }
      // `#tag: value`; a leader's or indicators' line; anything else is the copy's line.
      guard bytes[start] == UInt8(ascii: "#") else {
        let line = record[start..<end]
        if line.hasPrefix(Self.marc21Line) { break }
        if line.hasPrefix(Self.leaderLine) { continue }
        if line.hasPrefix(Self.indicatorsLine) {
          indicators = String(line.dropFirst(Self.indicatorsLine.count))
          continue
        }
        if line == Self.madeLine {
          made = true
          continue
        }
        if line.hasPrefix(Self.orderLine) {
          order = Int(line.dropFirst(Self.orderLine.count))
          continue
        }
        result.append(Element(field: nil, isMade: made, order: order))
        (made, order) = (false, nil)
        continue
      }
      var index = bytes.index(after: start)
      var tag = 0
      while index < end, let digit = Optional(bytes[index]), (0x30...0x39).contains(digit) {
        tag = tag * 10 + Int(digit - 0x30)
        index = bytes.index(after: index)
      }
      guard index < end, bytes[index] == UInt8(ascii: ":") else {
        result.append(Element(field: nil, isMade: made, order: order))
        (made, order) = (false, nil)
        continue
      }
      index = bytes.index(after: index)
      if index < end, bytes[index] == UInt8(ascii: " ") { index = bytes.index(after: index) }
      var field = IRBISRecord.Field(tag: tag, value: String(record[index..<end]))
      field.indicators = indicators
      field.isMade = made
      field.marcOrder = order
      indicators = nil
      (made, order) = (false, nil)
      result.append(Element(field: field, isMade: field.isMade))
    }
    return result
  }
}

/// A copy as an export writes it: the book, what its import kept, whether it is out, and
/// whether it waits on the hold shelf for a reader.
public struct IRBISCopy: Sendable {
  public var book: Book
  public var kept: IRBISKeptRecord?
  public var onLoan: Bool
  public var onHoldShelf: Bool
  /// True for a copy its file marked out (910 ^A 1) with no reader's loan to say to whom, that the
  /// desk has lent none of since: it goes out marked out, as it came.
  public var markedOutAsCame = false

  public init(book: Book, kept: IRBISKeptRecord?, onLoan: Bool, onHoldShelf: Bool = false) {
    self.book = book
    self.kept = kept
    self.onLoan = onLoan
    self.onHoldShelf = onHoldShelf
  }
}

extension IRBISBooks {
  /// The catalogue record of `copies` (the copies of one imported record, in their order; the
  /// first one's description serves them all): the kept record with each element the librarian
  /// changed written anew, and elements that are new added before the copies. A copy without a
  /// kept record gets the record the desk makes.
  ///
  /// `asMARC`: for an ISO 2709 export, which leaves out what the import made (copies of RUSMARC's
  /// 899 holdings, their shelf mark) while the librarian has not changed it.
  ///
  /// `withOtherEntries` false: the copies split off from their record (their description was
  /// changed), which leave its entries that are not copies (summary entries, «б/н») to it.
  public static func record(for copies: [IRBISCopy], withOtherEntries: Bool = true, asMARC: Bool = false)
    -> IRBISRecord
  {
    guard let first = copies.first else { return IRBISRecord() }
    guard let kept = first.kept, !kept.record.isEmpty else {
      return record(for: first.book, onLoan: first.onLoan, onHoldShelf: first.onHoldShelf)
    }
    let elements = kept.elements
    let source = IRBISRecord(fields: elements.map { $0.field ?? IRBISRecord.Field(tag: 910, value: kept.copy) })
    var changes = RecordChanges(
      was: importedBook(source), now: first.book, authorTag: source.first(700) == nil ? 961 : 700,
      setTitle: setTitle(source))
    let recordPrice = source.first(10)?.subfield("D") ?? ""
    let heldNumbers = Set(copies.map { IRBISRecord.Field(tag: 910, value: $0.kept?.copy ?? "").subfield("B") })
    var out = IRBISRecord(marcLeader: kept.marcLeader)
    out.fields.reserveCapacity(elements.count)
    var copyIndex = 0
    for element in elements {
      guard let field = element.field else {
        // Where a copy was: what is new to the description before the first, then the copy (a
        // copy deleted since leaves its place empty).
        out.fields += changes.added()
        if copyIndex < copies.count {
          var copy = copyField(copies[copyIndex], recordPrice: recordPrice)
          copy.marcOrder = element.order
          if !(asMARC && element.isMade && copy.value == copies[copyIndex].kept?.copy) { out.fields.append(copy) }
        }
        copyIndex += 1
        continue
      }
      if field.tag == 910 && !withOtherEntries { continue }
      // RUSMARC's holdings (899) go with the copies made of them: a record split by a change
      // writes each copy's holding in the part the copy is in.
      if asMARC && field.tag == 899 && !holdsOneOf(field, heldNumbers, whole: withOtherEntries) { continue }
      let written = changes.apply(to: field)
      if asMARC && field.isMade && written == field { continue }
      // A field whose every value the librarian cleared goes with them.
      if written != field && written.value.trimmingWhitespace().isEmpty { continue }
      out.fields.append(written)
    }
    out.fields += changes.added()
    while copyIndex < copies.count {
      out.fields.append(copyField(copies[copyIndex], recordPrice: recordPrice))
      copyIndex += 1
    }
    return out
  }

  /// True when a holding (899) numbers one of `numbers` (its ^p, else ^x), or numbers none and
  /// goes with the record's `whole` part.
  static func holdsOneOf(_ holding: IRBISRecord.Field, _ numbers: Set<String>, whole: Bool) -> Bool {
    let number = [holding.subfield("P"), holding.subfield("X")].map { $0.trimmingWhitespace() }.first { !$0.isEmpty }
    guard let number else { return whole }
    return numbers.contains(number)
  }

  /// The book an import made of `source` (a record with one copy): what the kept fields say.
  static func importedBook(_ source: IRBISRecord) -> Book? {
    guard case .success(let drafts) = drafts(from: source), var draft = drafts.first else { return nil }
    let epoch = Timestamp(millisecondsSinceEpoch: 0)
    let today = LocalDate(daysSinceEpoch: 1_000_000)
    if let book = try? draft.validated(base: nil, today: today, now: epoch) { return book }
    // As the import does: a value it could not take was left out.
    draft.isbn = ""
    draft.price = ""
    return try? draft.validated(base: nil, today: today, now: epoch)
  }

  /// A copy's 910: as it came, with what changed since written anew; or as the desk makes it.
  /// What it said is read from its subfields as the import read them (`recordPrice`: 10 ^D, the
  /// price of a copy without its own).
  static func copyField(_ copy: IRBISCopy, recordPrice: String = "") -> IRBISRecord.Field {
    let book = copy.book
    guard let kept = copy.kept, !kept.copy.isEmpty else {
      return record(for: book, onLoan: copy.onLoan, onHoldShelf: copy.onHoldShelf).first(910)
        ?? IRBISRecord.Field(tag: 910, value: "")
    }
    var field = IRBISRecord.Field(tag: 910, value: kept.copy)
    let said = field.subfields
    let ownPrice = (said["E"] ?? "").replacingCommasWithDots()
    let priceAsCame = Money(ownPrice.isEmpty ? recordPrice.replacingCommasWithDots() : ownPrice)
    let written = said["A"] ?? ""
    // A code that says the same as the status now stays as written (8 is in processing too, 9 is
    // a reserved copy on the shelf); whether the copy is out, or on the hold shelf, is its loans'
    // and holds' to say.
    var code = irbisCode(book.status, onLoan: copy.onLoan, onHoldShelf: copy.onHoldShelf)
    if status(irbisCode: written) == book.status, !["0", "1"].contains(written),
      !(copy.onLoan || copy.onHoldShelf) || book.status != .available
    {
      code = written
    }
    if copy.markedOutAsCame && written == "1" && book.status == .available { code = written }
    if code != written { field = field.setting("A", code) }
    if (said["B"] ?? "").trimmingWhitespace() != book.inventoryNumber {
      field = field.setting("B", book.inventoryNumber)
    }
    // A copy that came without a date received got the day of its import.
    let receivedAsCame = LocalDate(iso: field.subfield("C")) ?? book.created.utcDate
    if receivedAsCame != book.received { field = field.setting("C", book.received?.compact ?? "") }
    if (said["D"] ?? "").trimmingWhitespace() != book.place { field = field.setting("D", book.place) }
    if priceAsCame != book.price { field = field.setting("E", book.price?.description ?? "") }
    // A check since the import: its day (a date the file had stays while no check found the copy).
    if let checked = book.lastChecked, LocalDate(iso: field.subfield("S")) != checked {
      field = field.setting("S", checked.compact)
    }
    return field
  }
}

/// The elements of a description that the librarian changed since the import, written anew into
/// the kept fields that hold them; an element with no field to hold it is added.
struct RecordChanges {
  let was: Book?
  let now: Book
  /// 700, or 961 for a set (SPEC) that names its author there only.
  let authorTag: Int
  /// The title of the set a volume belongs to (461), which the book's title begins with.
  let setTitle: String
  /// Tags of the fields met so far: an element whose field never comes is added.
  private var met: Set<Int> = []

  init(was: Book?, now: Book, authorTag: Int, setTitle: String = "") {
    self.was = was
    self.now = now
    self.authorTag = authorTag
    self.setTitle = setTitle
  }

  private func changed<T: Equatable>(_ value: (Book) -> T) -> Bool { now.differs(from: was, in: value) }

  mutating func apply(to field: IRBISRecord.Field) -> IRBISRecord.Field {
    // Only the first field of a tag holds the element (701 and a second 700 are further authors).
    let isFirst = met.insert(field.tag).inserted
    var field = field
    switch field.tag {
    case 10:
      guard isFirst else { break }
      if changed({ $0.isbn?.isbn13 }) { field = field.setting("A", now.isbn?.hyphenated ?? "") }
    case authorTag:
      guard isFirst else { break }
      met.insert(700)
      if changed(\.authorSurname) { field = field.setting("A", now.authorSurname) }
      if changed(\.authorInitials) { field = field.setting("B", now.authorInitials) }
      // The full given names (^G) spelt the old initials, or were an author's no longer named.
      if changed(\.authorInitials) || (changed(\.authorSurname) && now.authorSurname.isEmpty) {
        field = field.setting("G", "")
      }
    case 200:
      guard isFirst else { break }
      if changed(\.title) { field = retitled(field) }
    case 210:
      guard isFirst else { break }
      if changed(\.city) { field = field.setting("A", now.city) }
      if changed(\.publisher) { field = field.setting("C", now.publisher) }
      if changed(\.year) { field = field.setting("D", now.year.map(String.init) ?? "") }
    case 215:
      guard isFirst else { break }
      if changed(\.pages) { field = field.setting("A", now.pages.map(String.init) ?? "") }
    case 621:
      guard isFirst else { break }
      if changed(\.bbk) { field = IRBISRecord.Field(tag: 621, value: IRBISRecord.clean(now.bbk)) }
    case 908:
      guard isFirst else { break }
      if changed(\.authorMark) { field = IRBISRecord.Field(tag: 908, value: IRBISRecord.clean(now.authorMark)) }
    case 903:
      guard isFirst else { break }
      if changed({ [$0.bbk, $0.authorMark, $0.inventoryNumber] }) {
        field = IRBISRecord.Field(tag: 903, value: IRBISRecord.clean(IRBISBooks.shelfCode(now)))
      }
    default:
      break
    }
    return field
  }

  /// A title field with the book's title now. A volume of a set (461) shows the set's title and
  /// its designation (^V) before its own: while the new title still begins with them, only its
  /// own title is written, in ^A and ^E; else the whole of it, in place of the designation too.
  private func retitled(_ field: IRBISRecord.Field) -> IRBISRecord.Field {
    let volume = field.subfield("V")
    var own = now.title
    var keepsVolume = false
    if !setTitle.isEmpty {
      for (prefix, withVolume) in [(IRBISBooks.joinedTitle([setTitle, volume]), true), (setTitle, false)] {
        let lead = prefix + (prefix.hasSuffix(".") ? " " : ". ")
        guard own.hasPrefix(lead), own.count > lead.count else { continue }
        own = String(own.dropFirst(lead.count))
        keepsVolume = withVolume
        break
      }
    }
    let (title, other) = IRBISBooks.splitTitle(own)
    return field.setting("A", title).setting("E", other).setting("V", keepsVolume ? volume : "")
  }

  /// Fields for elements changed since the import that no kept field holds; once.
  mutating func added() -> [IRBISRecord.Field] {
    var tags: [Int] = []
    for tag in [10, 700, 200, 210, 215, 621, 908, 903] where !met.contains(tag) && isChanged(tag) {
      met.insert(tag)
      tags.append(tag)
    }
    // Nearly always nothing: the record the desk would make is made only for what is new.
    guard !tags.isEmpty else { return [] }
    let made = IRBISBooks.record(for: now, onLoan: false)
    return tags.compactMap { made.first($0) }
  }

  /// True when the element a field of `tag` holds has changed since the import.
  private func isChanged(_ tag: Int) -> Bool {
    switch tag {
    case 10: return changed { $0.isbn?.isbn13 }
    case 700: return changed { [$0.authorSurname, $0.authorInitials] }
    case 200: return changed(\.title)
    case 210: return changed { [$0.city, $0.publisher, $0.year.map(String.init) ?? ""] }
    case 215: return changed(\.pages)
    case 621: return changed(\.bbk)
    case 908: return changed(\.authorMark)
    case 903: return changed { [$0.bbk, $0.authorMark, $0.inventoryNumber] }
    default: return false
    }
  }

}

extension IRBISRecord.Field {
  /// The field with subfield `code` (any case) set to `value` where it stands, added at the end
  /// when absent, or removed when `value` is empty. Other subfields stay as written.
  public func setting(_ code: Character, _ value: String) -> IRBISRecord.Field {
    let wanted = code.uppercased()
    let cleaned = IRBISRecord.clean(value)
    var parts = self.value.split(separator: "^", omittingEmptySubsequences: false).map(String.init)
    let head = parts.isEmpty ? "" : parts.removeFirst()
    var found = false
    parts = parts.compactMap { part in
      guard let first = part.first, first.uppercased() == wanted, !found else { return part }
      found = true
      return cleaned.isEmpty ? nil : String(first) + cleaned
    }
    if !found && !cleaned.isEmpty { parts.append(String(code) + cleaned) }
    var field = self
    field.value = ([head] + parts.map { "^" + $0 }).joined()
    return field
  }
}

extension Book {
  /// True when the book's `value` is not what `was` said, or nothing was known of it: an element
  /// of a kept record the librarian changed since the import.
  func differs<T: Equatable>(from was: Book?, in value: (Book) -> T) -> Bool {
    guard let was else { return true }
    return value(was) != value(self)
  }
}
