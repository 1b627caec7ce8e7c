import CSQLite

/// One statement as SQLite ran it: its SQL with the values bound, and how long its run took,
/// from its first step to its reset.
public struct ProfiledStatement: Sendable {
  public var sql: String
  public var milliseconds: Double
}

extension Database {
  /// Runs `body` and lists every statement it ran, with its time: where a slow operation's time
  /// goes (`circdesk-bench search-probe --statements`). Timed here, between SQLite's trace of the
  /// statement's start and of its end: SQLite's own figure counts whole milliseconds only.
  /// Statements run inside triggers count in the statement that fired them.
  public func profilingStatements<T>(_ body: () throws -> T) rethrows -> (result: T, statements: [ProfiledStatement]) {
    let collected = CollectedStatements()
    let context = Unmanaged.passRetained(collected)
    defer { context.release() }
    sqlite3_trace_v2(
      handle, UInt32(SQLITE_TRACE_STMT | SQLITE_TRACE_PROFILE),
      { event, context, statement, _ in
        guard let context, let statement else { return 0 }
        let collected = Unmanaged<CollectedStatements>.fromOpaque(context).takeUnretainedValue()
        let key = UInt(bitPattern: statement)
        if event == UInt32(SQLITE_TRACE_STMT) {
          // Once per run, at its first step (trigger programs report here too, without a profile).
          if collected.started[key] == nil { collected.started[key] = ContinuousClock.now }
          return 0
        }
        guard let start = collected.started.removeValue(forKey: key) else { return 0 }
        let elapsed = ContinuousClock.now - start
        let expanded = sqlite3_expanded_sql(OpaquePointer(statement))
        defer { sqlite3_free(expanded) }
        let (seconds, attoseconds) = elapsed.components
        collected.statements.append(
          ProfiledStatement(
            sql: expanded.map { String(cString: $0) } ?? "",
            milliseconds: Double(seconds) * 1000 + Double(attoseconds) / 1e15))
        return 0
      }, context.toOpaque())
    defer { sqlite3_trace_v2(handle, 0, nil, nil) }
    let result = try body()
    return (result, collected.statements)
  }
}

/// What the trace callback adds to, through its context pointer.
private final class CollectedStatements {
  var started: [UInt: ContinuousClock.Instant] = [:]
  var statements: [ProfiledStatement] = []
}
