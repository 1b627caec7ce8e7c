import DeskDomain

/// RUSMARC holdings in field 899 (location ^a, fund ^b, sublocation ^c, shelf mark ^j), as a
/// national library writes them beside or instead of IRBIS's 910.
enum RUSMARCHoldings {
  /// The record with a copy (910) for each 899 that numbers one (^p, else ^x), placed at the
  /// holding's location; the first shelf mark becomes the record's 903 when it has none. A
  /// record with copies in 910 already is left as it is.
  static func withCopies(_ record: IRBISRecord) -> IRBISRecord {
    let holdings = record.all(899)
    guard !holdings.isEmpty, record.first(910) == nil else { return record }
    var result = record
    for holding in holdings {
      let number = [holding.subfield("P"), holding.subfield("X")].map { $0.trimmingWhitespace() }.first { !$0.isEmpty }
      guard let number else { continue }
      let place = [holding.subfield("A"), holding.subfield("B"), holding.subfield("C")]
        .map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }.joined(separator: " ")
      var copy = IRBISRecord.Field(tag: 910, subfields: [("A", "0"), ("B", number), ("D", place)])
      copy.isMade = true
      result.fields.append(copy)
    }
    if result.first(903) == nil,
      let mark = holdings.map({ $0.subfield("J").trimmingWhitespace() }).first(where: { !$0.isEmpty })
    {
      var shelfMark = IRBISRecord.Field(tag: 903, text: mark, subfields: [])
      shelfMark.isMade = true
      result.fields.append(shelfMark)
    }
    return result
  }
}
