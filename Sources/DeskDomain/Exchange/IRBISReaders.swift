/// One loan as IRBIS's reader field 40 holds it: dates and times on the library's wall clock.
public struct IRBISLoan: Equatable, Sendable {
  public var inventory: String
  public var shelfCode: String
  public var description: String
  public var issued: LocalDate
  public var issuedTime: String
  public var due: LocalDate
  /// Nil while the book is out (written `******`).
  public var returned: LocalDate?
  public var returnedTime: String
  public var renewed: LocalDate?
  public var renewals: Int
  public var desk: String
  public var place: String

  public init(
    inventory: String, shelfCode: String = "", description: String = "", issued: LocalDate, issuedTime: String = "",
    due: LocalDate, returned: LocalDate? = nil, returnedTime: String = "", renewed: LocalDate? = nil, renewals: Int = 0,
    desk: String = "", place: String = ""
  ) {
    self.inventory = inventory
    self.shelfCode = shelfCode
    self.description = description
    self.issued = issued
    self.issuedTime = issuedTime
    self.due = due
    self.returned = returned
    self.returnedTime = returnedTime
    self.renewed = renewed
    self.renewals = renewals
    self.desk = desk
    self.place = place
  }

  var field: IRBISRecord.Field {
    IRBISRecord.Field(
      tag: 40,
      subfields: [
        ("A", shelfCode), ("B", inventory), ("C", description), ("D", issued.compact), ("1", issuedTime),
        ("E", due.compact), ("F", returned?.compact ?? "******"), ("2", returnedTime), ("G", "IBIS"), ("K", place),
        ("V", desk), ("L", renewed?.compact ?? ""), ("4", renewals > 0 ? String(renewals) : ""),
      ])
  }

  /// When the loan was issued, returned and renewed, its wall-clock dates and times read with
  /// `offsetSeconds` from UTC (a time not written is the start of its day).
  public func instants(offsetSeconds: Int) -> (issued: Timestamp, returned: Timestamp?, renewed: Timestamp?) {
    func instant(_ date: LocalDate, _ time: String) -> Timestamp {
      Timestamp(date: date, second: IRBISReaders.seconds(time)).adding(milliseconds: -Int64(offsetSeconds) * 1000)
    }
    return (instant(issued, issuedTime), returned.map { instant($0, returnedTime) }, renewed.map { instant($0, "") })
  }

  public init?(_ field: IRBISRecord.Field) {
    let inventory = field.subfield("B").trimmingWhitespace()
    guard !inventory.isEmpty, let issued = LocalDate(iso: field.subfield("D")) else { return nil }
    self.inventory = inventory
    shelfCode = field.subfield("A")
    description = field.subfield("C")
    self.issued = issued
    issuedTime = field.subfield("1")
    due = LocalDate(iso: field.subfield("E")) ?? issued
    let returnedText = field.subfield("F")
    returned = returnedText.hasPrefix("*") ? nil : LocalDate(iso: returnedText)
    returnedTime = field.subfield("2")
    renewed = LocalDate(iso: field.subfield("L"))
    renewals = Int(field.subfield("4")) ?? 0
    desk = field.subfield("V")
    place = field.subfield("K")
  }
}

/// Readers in IRBIS's reader database RDR.
public enum IRBISReaders {
  public static func record(for reader: Reader, loans: [IRBISLoan]) -> IRBISRecord {
    var record = described(ReaderDraft(reader))
    record.fields += loans.map(\.field)
    return record
  }

  /// The fields the desk writes of a reader, in its order, loans aside.
  static func described(_ reader: ReaderDraft) -> IRBISRecord {
    var record = IRBISRecord()
    record.append(920, "RDR")
    record.append(10, reader.surname)
    record.append(11, reader.firstName)
    record.append(12, reader.patronymic)
    record.append(21, reader.birthYear)
    record.append(30, reader.ticket)
    record.append(
      13,
      subfields: [
        ("A", reader.postcode), ("C", reader.addressCity), ("D", reader.street), ("E", reader.house),
        ("H", reader.flat),
      ])
    record.append(17, reader.phone)
    record.append(32, reader.email)
    record.append(50, reader.category)
    record.append(51, LocalDate(iso: reader.registered)?.compact ?? "")
    return record
  }

  /// True when an export of the reader alone would not give `record` back: a worksheet of
  /// another name, fields the desk does not model, a category written otherwise than the desk's
  /// code (`reader.category` is the desk's), loans with subfields of their own.
  public static func needsKeeping(_ record: IRBISRecord, reader: ReaderDraft, loans: [IRBISLoan]) -> Bool {
    var made = described(reader)
    made.fields += loans.map(\.field)
    return made.fields.map(\.value) != record.fields.map(\.value) || made.fields.map(\.tag) != record.fields.map(\.tag)
  }

  /// True for a reader record: worksheet RDR, or any worksheet that carries a ticket (field 30)
  /// and no copies, since libraries rename their reader worksheets.
  public static func isReader(_ record: IRBISRecord) -> Bool {
    let worksheet = record.text(920).trimmingWhitespace().uppercased()
    if worksheet == "RDR" { return true }
    return !["PAZK", "SPEC"].contains(worksheet) && record.first(910) == nil
      && !record.text(30).trimmingWhitespace().isEmpty
  }

  /// The reader a record describes, and their loans.
  public static func reader(from record: IRBISRecord) -> Result<(ReaderDraft, [IRBISLoan]), ImportRefusal> {
    guard isReader(record) else { return .failure(.notAReader) }
    var draft = ReaderDraft()
    draft.ticket = record.text(30)
    guard !draft.ticket.trimmingWhitespace().isEmpty else { return .failure(.noTicket) }
    draft.surname = record.text(10)
    draft.firstName = record.text(11)
    draft.patronymic = record.text(12)
    draft.birthYear = String(record.text(21).prefix(4))
    if let address = record.first(13) {
      draft.postcode = address.subfield("A")
      draft.addressCity = address.subfield("C")
      draft.street = address.subfield("D")
      draft.house = address.subfield("E")
      draft.flat = address.subfield("H")
    }
    draft.phone = record.text(17)
    draft.email = record.text(32)
    draft.category = record.text(50)
    draft.registered = LocalDate(iso: record.text(51))?.iso ?? ""
    return .success((draft, record.all(40).compactMap(IRBISLoan.init)))
  }

  /// `HHMMSS` as seconds into the day; 0 when absent or malformed.
  public static func seconds(_ time: String) -> Int {
    let digits = Array(time.prefix(6))
    guard digits.count == 6, digits.allSatisfy(\.isASCIIDigit), let value = Int(String(digits)) else { return 0 }
    return (value / 10_000) * 3600 + (value / 100 % 100) * 60 + value % 100
  }
}
