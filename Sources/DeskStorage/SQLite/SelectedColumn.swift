import DeskDomain

/// The columns of a SELECT list, by name: the list is written from the cases, in their order,
/// and a row is read by case, so no column position is ever counted by hand. A query that
/// selects several groups reads each from where the one before it ends (`count`).
protocol SelectedColumn: CaseIterable, RawRepresentable where RawValue == Int32 {
  /// The column's SQL: `b.title`, or an expression.
  var sql: String { get }
}

extension SelectedColumn {
  /// The SELECT list of every case, in order.
  static var list: String { allCases.map(\.sql).joined(separator: ", ") }
  static var count: Int32 { Int32(allCases.count) }

  /// The column named after the case: `authorSurname` is `author_surname`.
  var columnName: String {
    var name = ""
    for character in String(describing: self) {
      if character.isUppercase {
        name += "_" + character.lowercased()
      } else {
        name.append(character)
      }
    }
    return name
  }

  /// The column of the case in the table `alias`: `b.author_surname`.
  func column(of alias: String) -> String { alias + "." + columnName }
}

extension Row {
  func string<C: SelectedColumn>(_ column: C, from start: Int32 = 0) -> String { string(start + column.rawValue) }
  func optionalString<C: SelectedColumn>(_ column: C, from start: Int32 = 0) -> String? {
    optionalString(start + column.rawValue)
  }
  func int<C: SelectedColumn>(_ column: C, from start: Int32 = 0) -> Int { int(start + column.rawValue) }
  func int64<C: SelectedColumn>(_ column: C, from start: Int32 = 0) -> Int64 { int64(start + column.rawValue) }
  func optionalInt<C: SelectedColumn>(_ column: C, from start: Int32 = 0) -> Int? {
    optionalInt(start + column.rawValue)
  }
  func bool<C: SelectedColumn>(_ column: C, from start: Int32 = 0) -> Bool { bool(start + column.rawValue) }
  func isNull<C: SelectedColumn>(_ column: C, from start: Int32 = 0) -> Bool { isNull(start + column.rawValue) }

  /// A time stored as ISO 8601 text.
  func timestamp<C: SelectedColumn>(_ column: C, from start: Int32 = 0) throws -> Timestamp {
    try Timestamp.stored(string(column, from: start), column: column.sql)
  }

  func optionalTimestamp<C: SelectedColumn>(_ column: C, from start: Int32 = 0) throws -> Timestamp? {
    isNull(column, from: start) ? nil : try timestamp(column, from: start)
  }

  /// A day stored as `YYYY-MM-DD`.
  func date<C: SelectedColumn>(_ column: C, from start: Int32 = 0) throws -> LocalDate {
    let text = string(column, from: start)
    guard let date = LocalDate(iso: text) else {
      throw StoreError.unreadableValue(UnreadableValue(column: column.sql, value: text, kind: .date))
    }
    return date
  }

  /// A day, or nothing: NULL and the empty text both mean none.
  func optionalDate<C: SelectedColumn>(_ column: C, from start: Int32 = 0) throws -> LocalDate? {
    guard let text = optionalString(column, from: start), !text.isEmpty else { return nil }
    return try date(column, from: start)
  }
}

extension Timestamp {
  /// A time read from `column` of the library file, or the error that says it is not one.
  /// `column` is made only for the message: its name is spelt out from the case each time,
  /// which at every row of an export was a sixth of its time.
  static func stored(_ text: String, column: @autoclosure () -> String) throws(StoreError) -> Timestamp {
    guard let time = Timestamp(iso: text) else {
      throw .unreadableValue(UnreadableValue(column: column(), value: text, kind: .time))
    }
    return time
  }
}
