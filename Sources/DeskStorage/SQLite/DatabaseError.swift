import CSQLite

/// An error reported by SQLite, with its result code, its message and the statement that
/// failed, so that a log line says everything needed to find the cause.
public struct DatabaseError: Error, Sendable, CustomStringConvertible {
  /// The extended result code (`SQLITE_CONSTRAINT_UNIQUE`, `SQLITE_BUSY_SNAPSHOT`, …).
  public let extendedCode: Int32
  public let message: String
  public let sql: String?

  public init(extendedCode: Int32, message: String, sql: String? = nil) {
    self.extendedCode = extendedCode
    self.message = message
    self.sql = sql
  }

  /// The primary result code (`SQLITE_CONSTRAINT`, `SQLITE_BUSY`, …).
  public var code: Int32 { extendedCode & 0xFF }

  public var isBusy: Bool { code == SQLITE_BUSY || code == SQLITE_LOCKED }
  public var isNotADatabase: Bool { code == SQLITE_NOTADB }
  public var isReadOnly: Bool { code == SQLITE_READONLY }
  public var isUniqueViolation: Bool {
    // SQLITE_CONSTRAINT_UNIQUE and _PRIMARYKEY are macro expressions Swift does not import.
    extendedCode == SQLITE_CONSTRAINT | (8 << 8) || extendedCode == SQLITE_CONSTRAINT | (6 << 8)
  }

  public var description: String {
    var text = "SQLite error \(extendedCode): \(message)"
    if let sql { text += " — while running: \(sql)" }
    return text
  }
}
