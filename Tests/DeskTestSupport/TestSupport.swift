import DeskDomain
import Foundation

/// A folder of its own for each test, removed when the test ends.
public final class TemporaryFolder {
  public let path: String

  public init() {
    path = NSTemporaryDirectory() + "circdesk-test-" + UUID().uuidString
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  deinit {
    try? FileManager.default.removeItem(atPath: path)
  }

  public func file(_ name: String) -> String { path + "/" + name }
}

public func bookDraft(
  _ inventory: String, _ title: String, surname: String = "", initials: String = "", isbn: String = ""
) -> BookDraft {
  var draft = BookDraft()
  draft.inventoryNumber = inventory
  draft.title = title
  draft.authorSurname = surname
  draft.authorInitials = initials
  draft.isbn = isbn
  return draft
}

public func readerDraft(
  _ ticket: String, _ surname: String, firstName: String = "", category: String = "", phone: String = ""
) -> ReaderDraft {
  var draft = ReaderDraft()
  draft.ticket = ticket
  draft.surname = surname
  draft.firstName = firstName
  draft.category = category
  draft.phone = phone
  return draft
}
