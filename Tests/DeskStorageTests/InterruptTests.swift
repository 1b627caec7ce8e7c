import CSQLite
import DeskTestSupport
import Dispatch
import Foundation
import Testing

@_spi(Connection) @testable import DeskStorage

/// A search superseded by a newer keystroke is stopped where it stands: `interrupt` from another
/// thread ends a long query on the search's connection at once, and the connection goes on.
@Suite struct InterruptTests {
  let folder = TemporaryFolder()

  @Test func aLongQueryStopsWhenInterruptedAndTheConnectionGoesOn() throws {
    let store = try LibraryStore(path: folder.file("library.sqlite"), clock: TestClock())
    try store.books.add(bookDraft("1", "Война и мир", surname: "Толстой"))
    let database = store.database
    // Counting to ten billion takes SQLite minutes: only an interrupt ends it soon.
    let slow =
      "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10000000000) SELECT max(i) FROM n"
    let finished = DispatchSemaphore(value: 0)
    let outcome = Locked("none")
    let started = Date()
    DispatchQueue.global().async {
      do {
        _ = try database.scalarInt(slow)
        outcome.update { $0 = "finished" }
      } catch let error as DatabaseError {
        outcome.update { $0 = error.code == SQLITE_INTERRUPT ? "interrupted" : "failed: \(error)" }
      } catch {
        outcome.update { $0 = "failed: \(error)" }
      }
      finished.signal()
    }
    // Stop it as a new keystroke does. An interrupt before the query has started stops nothing
    // (SQLite forgets it when no statement runs), so it is sent again until the query ends.
    var ended = false
    for _ in 0..<200 where !ended {
      Thread.sleep(forTimeInterval: 0.05)
      database.interrupt()
      ended = finished.wait(timeout: .now() + 0.05) == .success
    }
    #expect(ended, "the query ended")
    #expect(outcome.value == "interrupted")
    #expect(Date().timeIntervalSince(started) < 10)
    // The next search on the same connection runs normally.
    #expect(try store.books.search("войн").all.map(\.book.inventoryNumber) == ["1"])
  }
}
