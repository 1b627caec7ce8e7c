import DeskDomain
import DeskStorage
import Foundation

/// A folder of its own for each test, removed when the test ends.
final class TemporaryFolder {
  let path: String

  init() {
    path = NSTemporaryDirectory() + "circdesk-test-" + UUID().uuidString
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  deinit {
    try? FileManager.default.removeItem(atPath: path)
  }

  func file(_ name: String) -> String { path + "/" + name }
}

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

func bookDraft(_ inventory: String, _ title: String, surname: String = "", initials: String = "", isbn: String = "")
  -> BookDraft
{
  var draft = BookDraft()
  draft.inventoryNumber = inventory
  draft.title = title
  draft.authorSurname = surname
  draft.authorInitials = initials
  draft.isbn = isbn
  return draft
}

func readerDraft(_ ticket: String, _ surname: String, firstName: String = "", category: String = "", phone: String = "")
  -> ReaderDraft
{
  var draft = ReaderDraft()
  draft.ticket = ticket
  draft.surname = surname
  draft.firstName = firstName
  draft.category = category
  draft.phone = phone
  return draft
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
