/// A reader's record as an IRBIS import kept it (`IRBISReaders.needsKeeping`), written back: the
/// worksheet, the fields the desk does not model (1, 31, 33, 52, 599, 666, 907…), the category as
/// the file wrote it, and each loan's own subfields (40 ^G database, ^H barcode, ^I staff,
/// ^U…), with what changed since written anew.
extension IRBISReaders {
  /// The tags whose fields the desk writes itself for a reader, loans (40) aside.
  static let describedTags: [Int] = [10, 11, 12, 21, 30, 13, 17, 32, 50, 51]

  /// The record of `reader` and `loans` (the desk's, as `record(for:loans:)` takes them) from
  /// the `kept` lines of the record they came in.
  ///
  /// `categories`: the library's, to tell the desk's category from the one the file wrote (a
  /// category the import did not know became `defaultCategory`). `pending`: the kept loans (40
  /// values) of books the library has not got yet, written as they came; a kept loan that is
  /// neither the desk's nor pending (a loan undone since) is not written.
  public static func record(
    for reader: Reader, loans: [IRBISLoan], kept: String, categories: [ReaderCategory], defaultCategory: String,
    pending: Set<String>
  ) -> IRBISRecord {
    let source = IRBISKeptRecord(record: kept, copy: "", group: "").fields
    guard case .success(let found) = IRBISReaders.reader(from: source) else {
      return record(for: reader, loans: loans)
    }
    var was = found.0
    was.category = ReaderCategory.written(was.category, in: categories)?.code ?? defaultCategory
    // A record without a registration date got the day of its import: no date is made up.
    if was.registered.isEmpty, let registered = LocalDate(iso: ReaderDraft(reader).registered),
      abs(registered.daysSinceEpoch - reader.created.utcDate.daysSinceEpoch) <= 1
    {
      was.registered = registered.iso
    }
    let now = ReaderDraft(reader)
    let (made, madeWas) = (described(now), described(was))
    func changed(_ tag: Int) -> Bool {
      // An address the desk could not keep (addresses go by home phone), and a phone it left
      // out with it, stay as they came.
      if tag == 13 && reader.address == nil { return false }
      if tag == 17 && reader.address == nil && reader.phone.isEmpty { return false }
      return made.first(tag)?.value != madeWas.first(tag)?.value
    }
    func rewritten(_ field: IRBISRecord.Field) -> IRBISRecord.Field? {
      switch field.tag {
      case 13:
        let address = made.first(13) ?? IRBISRecord.Field(tag: 13, value: "")
        var result = field
        for code: Character in ["A", "C", "D", "E", "H"] { result = result.setting(code, address.subfield(code)) }
        return result.value.isEmpty ? nil : result
      case 50:
        // A category the librarian changed is written as the library's files write it, else by
        // its name, as IRBIS's category menu does («сотрудник»).
        let category = categories.first { $0.code == reader.category }
        let written = category.map { $0.writtenAs.first ?? $0.name(in: .russian) } ?? reader.category
        return IRBISRecord.Field(tag: 50, value: IRBISRecord.clean(written))
      default:
        return made.first(field.tag)
      }
    }

    var out = IRBISRecord()
    var met = Set<Int>()
    var deskLoans = loans
    var addedDescription = false
    func addDescription() {
      guard !addedDescription else { return }
      addedDescription = true
      for tag in describedTags where !met.contains(tag) && changed(tag) {
        if let field = tag == 50 ? rewritten(IRBISRecord.Field(tag: 50, value: "")) : made.first(tag) {
          out.fields.append(field)
        }
      }
    }
    for field in source.fields {
      guard field.tag != 40 else {
        // What is new to the description goes before the loans, as the desk writes them.
        addDescription()
        guard let loan = IRBISLoan(field) else {
          out.fields.append(field)
          continue
        }
        if let index = deskLoans.firstIndex(where: { $0.inventory == loan.inventory && $0.issued == loan.issued }) {
          out.fields.append(loanField(field, was: loan, now: deskLoans.remove(at: index)))
        } else if pending.contains(field.value) {
          out.fields.append(field)
        }
        continue
      }
      guard describedTags.contains(field.tag), met.insert(field.tag).inserted, changed(field.tag) else {
        out.fields.append(field)
        continue
      }
      if let written = rewritten(field) { out.fields.append(written) }
    }
    addDescription()
    out.fields += deskLoans.map(\.field)
    return out
  }

  /// A kept loan (40) with what changed since written anew: its due date, return, renewal.
  static func loanField(_ field: IRBISRecord.Field, was: IRBISLoan, now: IRBISLoan) -> IRBISRecord.Field {
    var field = field
    if was.due != now.due { field = field.setting("E", now.due.compact) }
    if was.returned != now.returned { field = field.setting("F", now.returned?.compact ?? "******") }
    if was.returnedTime != now.returnedTime { field = field.setting("2", now.returnedTime) }
    if was.renewed != now.renewed { field = field.setting("L", now.renewed?.compact ?? "") }
    if was.renewals != now.renewals { field = field.setting("4", now.renewals > 0 ? String(now.renewals) : "") }
    return field
  }

  /// The record a reader keeps when a file brings them again (`--update`): the new record's
  /// fields in place of the kept ones of the same tags, the kept fields of tags it does not
  /// write, as a value the file leaves empty stays; its loans beside the kept ones, a loan of the
  /// same book, day and time written once, as the new file has it.
  public static func merged(kept: IRBISRecord, with new: IRBISRecord) -> IRBISRecord {
    func identity(_ loan: IRBISRecord.Field) -> [String] {
      [loan.subfield("B").trimmingWhitespace(), loan.subfield("D"), loan.subfield("1")]
    }
    let newTags = Set(new.fields.map(\.tag))
    let newLoans = new.all(40).map(identity)
    var out = IRBISRecord()
    var written = Set<Int>()
    for field in kept.fields {
      if field.tag == 40 {
        if !newLoans.contains(identity(field)) { out.fields.append(field) }
      } else if newTags.contains(field.tag) {
        if written.insert(field.tag).inserted { out.fields += new.all(field.tag) }
      } else {
        out.fields.append(field)
      }
    }
    // Tags the kept record had none of, in the new record's order; its loans last.
    for field in new.fields
    where field.tag != 40 && !written.contains(field.tag) && !kept.fields.contains(where: { $0.tag == field.tag }) {
      out.fields.append(field)
    }
    out.fields += new.all(40)
    return out
  }
}
