import CSQLite

/// One connection to an SQLite file: prepared, cached statements with bound parameters, and
/// transactions that roll back when their body throws.
public final class Database {
  let handle: OpaquePointer
  public let path: String
  /// How long a statement waits for a lock another connection holds.
  let busyTimeoutMilliseconds: Int32
  private var statements: [String: Statement] = [:]
  private var transactionDepth = 0
  /// The SQL of each statement run, while `recordingStatements` listens.
  private var statementLog: [String]?

  public struct OpenFlags: OptionSet, Sendable {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }
    public static let readOnly = OpenFlags(rawValue: SQLITE_OPEN_READONLY)
    public static let readWrite = OpenFlags(rawValue: SQLITE_OPEN_READWRITE)
    public static let create = OpenFlags(rawValue: SQLITE_OPEN_CREATE)
    /// `path` is a `file:` URI, whose query may say `mode=ro` or `immutable=1`.
    public static let uri = OpenFlags(rawValue: SQLITE_OPEN_URI)
  }

  /// Opens (and with `.create`, creates) the file. SQLite reads nothing yet: a file that is not
  /// a database shows itself at the first statement. With `clockOffMachine` SQLite's own time
  /// ('now') runs that many milliseconds off the machine's (`csqlite_register_shifted_clock`).
  public init(
    path: String, flags: OpenFlags = [.readWrite, .create], busyTimeoutMilliseconds: Int32 = 5000,
    clockOffMachine: Int64 = 0
  ) throws(DatabaseError) {
    _ = Database.configured
    var vfs: [CChar]?
    if clockOffMachine != 0 {
      var name = [CChar](repeating: 0, count: 48)
      let code = csqlite_register_shifted_clock(clockOffMachine, &name)
      guard code == SQLITE_OK else {
        throw DatabaseError(extendedCode: code, message: "SQLite's clock cannot be set off the machine's")
      }
      vfs = name
    }
    var handle: OpaquePointer?
    // A connection is used by one thread at a time (its cached statements and transaction depth
    // ask that anyway; `interrupt`, the call made from another thread, takes no lock), so SQLite's
    // own lock around every call is left out: it was 3% of a search's time under `perf`.
    let code = sqlite3_open_v2(path, &handle, flags.rawValue | SQLITE_OPEN_NOMUTEX, vfs)
    guard code == SQLITE_OK, let handle else {
      let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
      sqlite3_close_v2(handle)
      throw DatabaseError(extendedCode: code, message: message)
    }
    self.handle = handle
    self.path = path
    self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
    sqlite3_extended_result_codes(handle, 1)
    sqlite3_busy_timeout(handle, busyTimeoutMilliseconds)
  }

  /// Runs `body` with statements that find the file locked failing at once (`isBusy`) instead of
  /// waiting, then waits as before.
  public func withoutWaitingForLocks<T>(_ body: () throws -> T) rethrows -> T {
    sqlite3_busy_timeout(handle, 0)
    defer { sqlite3_busy_timeout(handle, busyTimeoutMilliseconds) }
    return try body()
  }

  /// SQLite set up once, before the first connection. Without its memory count a new
  /// connection's reading of the schema (38 triggers, most of it) took 1.13 ms instead of 1.33,
  /// and every statement allocates with one mutex less; nothing here reads the count.
  private static let configured: Bool = csqlite_stop_counting_memory() == SQLITE_OK

  deinit {
    statements.removeAll()
    sqlite3_close_v2(handle)
  }

  /// True when SQLite opened the file read-only (for example for lack of write permission).
  public var isReadOnly: Bool {
    sqlite3_db_readonly(handle, "main") == 1
  }

  /// Runs one or more statements that take no arguments (schema, pragmas).
  public func executeScript(_ sql: String) throws(DatabaseError) {
    statementLog?.append(sql)
    let code = sqlite3_exec(handle, sql, nil, nil, nil)
    guard code == SQLITE_OK else { throw error(code: code, sql: sql) }
  }

  /// Runs one statement with bound arguments and returns the number of rows it changed.
  @discardableResult
  public func execute(_ sql: String, _ arguments: any DatabaseValueConvertible...) throws(DatabaseError) -> Int {
    try execute(sql, arguments: arguments)
  }

  @discardableResult
  public func execute(_ sql: String, arguments: [any DatabaseValueConvertible]) throws(DatabaseError) -> Int {
    try execute(sql, values: arguments.map(\.databaseValue))
  }

  /// Runs one statement with values already converted: bulk writes skip the boxing of each one.
  @discardableResult
  public func execute(_ sql: String, values: [DatabaseValue]) throws(DatabaseError) -> Int {
    let statement = try cachedStatement(sql)
    try statement.bind(values)
    defer { statement.reset() }
    while try statement.step() {}
    return Int(sqlite3_changes(handle))
  }

  /// Reads every row of a query through `read`.
  public func query<T>(
    _ sql: String, _ arguments: any DatabaseValueConvertible..., read: (Row) throws -> T
  ) throws -> [T] {
    try query(sql, arguments: arguments, read: read)
  }

  public func query<T>(
    _ sql: String, arguments: [any DatabaseValueConvertible], read: (Row) throws -> T
  ) throws -> [T] {
    var rows: [T] = []
    try forEachRow(sql, arguments: arguments) { rows.append(try read($0)) }
    return rows
  }

  /// Hands each row of a query to `body` as it is read, for results too large to gather.
  public func forEachRow(
    _ sql: String, _ arguments: any DatabaseValueConvertible..., body: (Row) throws -> Void
  ) throws {
    try forEachRow(sql, arguments: arguments, body: body)
  }

  public func forEachRow(
    _ sql: String, arguments: [any DatabaseValueConvertible], body: (Row) throws -> Void
  ) throws {
    let statement = try cachedStatement(sql)
    try statement.bind(arguments)
    defer { statement.reset() }
    while try statement.step() {
      try body(Row(statement: statement.handle))
    }
  }

  /// The first row of a query, or nil.
  public func queryFirst<T>(
    _ sql: String, _ arguments: any DatabaseValueConvertible..., read: (Row) throws -> T
  ) throws -> T? {
    try queryFirst(sql, arguments: arguments, read: read)
  }

  /// The integer in the first column of the first row (`SELECT count(*) …`); 0 when no row.
  public func scalarInt(_ sql: String, _ arguments: any DatabaseValueConvertible...) throws -> Int {
    try queryFirst(sql, arguments: arguments) { $0.int(0) } ?? 0
  }

  public func queryFirst<T>(
    _ sql: String, arguments: [any DatabaseValueConvertible], read: (Row) throws -> T
  ) throws -> T? {
    let statement = try cachedStatement(sql)
    try statement.bind(arguments)
    defer { statement.reset() }
    guard try statement.step() else { return nil }
    return try read(Row(statement: statement.handle))
  }

  public enum TransactionKind: String {
    /// Takes the write lock at once: a desk that means to write waits its turn at the start
    /// instead of failing half-way when another desk wrote first.
    case immediate = "IMMEDIATE"
    case deferred = "DEFERRED"
  }

  /// Runs `body` in a transaction: committed when it returns (rolled back all the same when
  /// `commit` is false: a dry run), rolled back when it throws.
  ///
  /// Inside another transaction, a write is a savepoint, as GRDB's `inSavepoint`: when its body
  /// throws, its own work is rolled back and the outer transaction goes on without it; a dry run
  /// rolls back to its savepoint, so it never commits with the outer one. A read inside another
  /// transaction simply joins it: there is nothing of its own to undo.
  public func inTransaction<T>(_ kind: TransactionKind = .immediate, commit: Bool = true, _ body: () throws -> T)
    throws -> T
  {
    if transactionDepth > 0 {
      transactionDepth += 1
      defer { transactionDepth -= 1 }
      if kind == .deferred && commit { return try body() }
      let name = "nested\(transactionDepth)"
      try execute("SAVEPOINT \(name)")
      do {
        let result = try body()
        if !commit { try execute("ROLLBACK TO \(name)") }
        try execute("RELEASE \(name)")
        return result
      } catch {
        // A failed statement may have ended the whole transaction already (SQLITE_FULL, an
        // interrupt): then there is no savepoint left to go back to, and the error stands.
        if !isAutocommit {
          try? execute("ROLLBACK TO \(name)")
          try? execute("RELEASE \(name)")
        }
        throw error
      }
    }
    try execute("BEGIN \(kind.rawValue)")
    transactionDepth = 1
    defer { transactionDepth = 0 }
    do {
      let result = try body()
      try execute(commit ? "COMMIT" : "ROLLBACK")
      return result
    } catch {
      if !isAutocommit { try? execute("ROLLBACK") }
      throw error
    }
  }

  /// True outside any transaction (SQLite's autocommit mode).
  public var isAutocommit: Bool { sqlite3_get_autocommit(handle) != 0 }

  /// Runs `body` and returns, with its result, the SQL of every statement this connection ran
  /// meanwhile (those of triggers excepted), in order: tests pin what an operation costs.
  public func recordingStatements<T>(_ body: () throws -> T) rethrows -> (result: T, statements: [String]) {
    let outer = statementLog
    statementLog = []
    defer { statementLog = outer.map { $0 + (statementLog ?? []) } }
    let result = try body()
    return (result, statementLog ?? [])
  }

  /// Stops the statement running on this connection at its next step; it fails with
  /// `SQLITE_INTERRUPT`. The one call that is safe from another thread.
  public func interrupt() {
    sqlite3_interrupt(handle)
  }

  /// Rows inserted, changed or deleted through this connection since it opened.
  public var totalChanges: Int64 {
    sqlite3_total_changes64(handle)
  }

  public var lastInsertedRowID: Int64 {
    sqlite3_last_insert_rowid(handle)
  }

  private func cachedStatement(_ sql: String) throws(DatabaseError) -> Statement {
    statementLog?.append(sql)
    if let statement = statements[sql] { return statement }
    let statement = try Statement(database: self, sql: sql)
    statements[sql] = statement
    return statement
  }

  func error(code: Int32, sql: String?) -> DatabaseError {
    let extended = sqlite3_extended_errcode(handle)
    let message = String(cString: sqlite3_errmsg(handle))
    return DatabaseError(extendedCode: extended != 0 ? extended : code, message: message, sql: sql)
  }
}
