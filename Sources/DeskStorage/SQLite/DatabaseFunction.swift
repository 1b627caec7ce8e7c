import CSQLite

/// A Swift function SQL can call, on this connection only: what a trigger needs of the domain
/// (the library's day of a moment, a reader's diary group) is asked of the domain's own code, so
/// the rule lives once.
extension Database {
  /// Defines `name` with `argumentCount` arguments. `deterministic` says the result depends on the
  /// arguments only, which lets SQLite use it in indexes and compute it once a statement.
  public func defineFunction(
    _ name: String, argumentCount: Int32, deterministic: Bool = true,
    _ body: @escaping ([DatabaseValue]) -> DatabaseValue
  ) throws(DatabaseError) {
    let box = Unmanaged.passRetained(FunctionBody(body)).toOpaque()
    let flags = SQLITE_UTF8 | (deterministic ? SQLITE_DETERMINISTIC : 0)
    let code = sqlite3_create_function_v2(
      handle, name, argumentCount, flags, box,
      { context, count, values in
        guard let context, let data = sqlite3_user_data(context) else { return }
        let function = Unmanaged<FunctionBody>.fromOpaque(data).takeUnretainedValue()
        var arguments: [DatabaseValue] = []
        arguments.reserveCapacity(Int(count))
        for index in 0..<Int(count) { arguments.append(Database.value(values?[index])) }
        switch function.body(arguments) {
        case .null: sqlite3_result_null(context)
        case .integer(let value): sqlite3_result_int64(context, value)
        case .real(let value): sqlite3_result_double(context, value)
        case .text(let value): sqlite3_result_text(context, value, -1, csqlite_transient())
        case .blob(let bytes):
          bytes.withUnsafeBytes { sqlite3_result_blob(context, $0.baseAddress, Int32($0.count), csqlite_transient()) }
        }
      }, nil, nil,
      { data in
        guard let data else { return }
        Unmanaged<FunctionBody>.fromOpaque(data).release()
      })
    guard code == SQLITE_OK else { throw error(code: code, sql: nil) }
  }

  private static func value(_ value: OpaquePointer?) -> DatabaseValue {
    switch sqlite3_value_type(value) {
    case SQLITE_INTEGER: return .integer(sqlite3_value_int64(value))
    case SQLITE_FLOAT: return .real(sqlite3_value_double(value))
    case SQLITE_TEXT:
      guard let text = sqlite3_value_text(value) else { return .null }
      return .text(String(cString: text))
    case SQLITE_BLOB:
      let count = Int(sqlite3_value_bytes(value))
      guard count > 0, let bytes = sqlite3_value_blob(value) else { return .blob([]) }
      return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
    default: return .null
    }
  }
}

/// What a defined function runs, kept alive by SQLite until the connection closes.
private final class FunctionBody {
  let body: ([DatabaseValue]) -> DatabaseValue
  init(_ body: @escaping ([DatabaseValue]) -> DatabaseValue) { self.body = body }
}
