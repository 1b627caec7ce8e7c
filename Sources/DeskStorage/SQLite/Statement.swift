import CSQLite

/// A prepared statement. Parameters are bound by position (`?`); rows are read with `Row`.
public final class Statement {
  let handle: OpaquePointer
  public let sql: String
  unowned let database: Database

  init(database: Database, sql: String) throws(DatabaseError) {
    var handle: OpaquePointer?
    let code = sqlite3_prepare_v3(database.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &handle, nil)
    guard code == SQLITE_OK, let handle else {
      throw database.error(code: code, sql: sql)
    }
    self.handle = handle
    self.sql = sql
    self.database = database
  }

  deinit {
    sqlite3_finalize(handle)
  }

  /// Clears earlier bindings and binds `arguments` to the statement's parameters in order.
  func bind(_ arguments: [any DatabaseValueConvertible]) throws(DatabaseError) {
    try bind(arguments.map(\.databaseValue))
  }

  func bind(_ arguments: [DatabaseValue]) throws(DatabaseError) {
    sqlite3_reset(handle)
    sqlite3_clear_bindings(handle)
    let expected = Int(sqlite3_bind_parameter_count(handle))
    guard expected == arguments.count else {
      throw DatabaseError(
        extendedCode: SQLITE_RANGE,
        message: "the statement takes \(expected) arguments, \(arguments.count) were given", sql: sql)
    }
    for (offset, argument) in arguments.enumerated() {
      let index = Int32(offset + 1)
      let code: Int32
      switch argument {
      case .null: code = sqlite3_bind_null(handle, index)
      case .integer(let value): code = sqlite3_bind_int64(handle, index, value)
      case .real(let value): code = sqlite3_bind_double(handle, index, value)
      case .text(let value): code = sqlite3_bind_text(handle, index, value, -1, csqlite_transient())
      case .blob(let bytes):
        code = bytes.withUnsafeBytes {
          sqlite3_bind_blob(handle, index, $0.baseAddress, Int32($0.count), csqlite_transient())
        }
      }
      guard code == SQLITE_OK else { throw database.error(code: code, sql: sql) }
    }
  }

  /// Steps once: true when a row is ready to read.
  func step() throws(DatabaseError) -> Bool {
    let code = sqlite3_step(handle)
    switch code {
    case SQLITE_ROW: return true
    case SQLITE_DONE: return false
    default:
      let error = database.error(code: code, sql: sql)
      sqlite3_reset(handle)
      throw error
    }
  }

  func reset() {
    sqlite3_reset(handle)
  }
}

/// The current row of a statement being stepped. Valid only inside the closure it is given to.
public struct Row {
  let statement: OpaquePointer

  public func isNull(_ column: Int32) -> Bool {
    sqlite3_column_type(statement, column) == SQLITE_NULL
  }

  public func string(_ column: Int32) -> String {
    guard let text = sqlite3_column_text(statement, column) else { return "" }
    let count = Int(sqlite3_column_bytes(statement, column))
    return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
  }

  public func optionalString(_ column: Int32) -> String? {
    isNull(column) ? nil : string(column)
  }

  public func int(_ column: Int32) -> Int {
    Int(sqlite3_column_int64(statement, column))
  }

  public func int64(_ column: Int32) -> Int64 {
    sqlite3_column_int64(statement, column)
  }

  public func optionalInt(_ column: Int32) -> Int? {
    isNull(column) ? nil : int(column)
  }

  public func double(_ column: Int32) -> Double {
    sqlite3_column_double(statement, column)
  }

  public func bool(_ column: Int32) -> Bool {
    sqlite3_column_int64(statement, column) != 0
  }

  /// The value as SQLite holds it, of whatever type.
  public func value(_ column: Int32) -> DatabaseValue {
    switch sqlite3_column_type(statement, column) {
    case SQLITE_INTEGER: return .integer(int64(column))
    case SQLITE_FLOAT: return .real(double(column))
    case SQLITE_TEXT: return .text(string(column))
    case SQLITE_BLOB:
      let count = Int(sqlite3_column_bytes(statement, column))
      guard let bytes = sqlite3_column_blob(statement, column), count > 0 else { return .blob([]) }
      return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
    default: return .null
    }
  }
}
