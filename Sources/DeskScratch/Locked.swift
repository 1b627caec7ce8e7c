import Foundation

/// A value that a test and a thread it starts both touch: every read and write under one lock.
public final class Locked<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: Value

  public init(_ value: Value) {
    stored = value
  }

  public var value: Value {
    lock.lock()
    defer { lock.unlock() }
    return stored
  }

  public func update(_ change: (inout Value) -> Void) {
    lock.lock()
    defer { lock.unlock() }
    change(&stored)
  }
}
