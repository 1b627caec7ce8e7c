import DeskDomain
import DeskStorage
import DeskTestSupport
import Foundation

/// A clock the test moves by hand.
final class TestClock: Clock, @unchecked Sendable {
  var instant: Timestamp

  init(_ iso: String = "2026-11-30T10:00:00Z") {
    instant = Timestamp(iso: iso)!
  }

  func now() -> LocalMoment { LocalMoment(instant: instant, utcOffsetSeconds: 0) }
  func local(_ instant: Timestamp) -> LocalMoment { LocalMoment(instant: instant, utcOffsetSeconds: 0) }

  func advance(days: Int) {
    instant = instant.adding(milliseconds: Int64(days) * 86_400_000)
  }
}

/// The lines of a store error, or a note that there was none.
func errorLines(_ body: () throws -> Void) -> [String] {
  do {
    try body()
    return ["no error"]
  } catch let error as StoreError {
    return error.lines
  } catch {
    return ["\(error)"]
  }
}
