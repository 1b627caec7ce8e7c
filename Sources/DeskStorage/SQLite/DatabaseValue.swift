/// A value as SQLite stores it.
public enum DatabaseValue: Hashable, Sendable {
  case null
  case integer(Int64)
  case real(Double)
  case text(String)
  case blob([UInt8])
}

/// A Swift value that binds to a statement parameter. Values only ever reach SQL as bound
/// parameters, never spliced into the statement text.
public protocol DatabaseValueConvertible {
  var databaseValue: DatabaseValue { get }
}

extension DatabaseValue {
  /// Text, or NULL for nil.
  public static func optionalText(_ value: String?) -> DatabaseValue {
    value.map { .text($0) } ?? .null
  }

  /// An integer, or NULL for nil.
  public static func optionalInteger(_ value: Int?) -> DatabaseValue {
    value.map { .integer(Int64($0)) } ?? .null
  }
}

extension DatabaseValue: DatabaseValueConvertible {
  public var databaseValue: DatabaseValue { self }
}

extension String: DatabaseValueConvertible {
  public var databaseValue: DatabaseValue { .text(self) }
}

extension Int: DatabaseValueConvertible {
  public var databaseValue: DatabaseValue { .integer(Int64(self)) }
}

extension Int64: DatabaseValueConvertible {
  public var databaseValue: DatabaseValue { .integer(self) }
}

extension Bool: DatabaseValueConvertible {
  public var databaseValue: DatabaseValue { .integer(self ? 1 : 0) }
}

extension Double: DatabaseValueConvertible {
  public var databaseValue: DatabaseValue { .real(self) }
}

extension Optional: DatabaseValueConvertible where Wrapped: DatabaseValueConvertible {
  public var databaseValue: DatabaseValue { self?.databaseValue ?? .null }
}
