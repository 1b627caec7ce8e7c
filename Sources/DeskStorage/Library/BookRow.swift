import DeskDomain

/// A book's columns as the `book` table stores them, its sort and search keys computed once.
/// Made wherever there is time to spare (an import makes them on its reading thread) and
/// written by `LibraryStore.add(_:)`.
public struct BookRow: Sendable {
  public let book: Book
  let values: [DatabaseValue]
  /// The ISBN-13s of the record's other ISBNs (`IRBISKeptRecord.otherISBNs`).
  let otherISBNs: [String]

  /// The columns of `values` after the book's fields, in their order (`BookStore.bookInsertion`).
  static let columnsAfterFields = [
    "sort_key", "search_text", "source_record", "source_copy", "record_group", "uuid", "created_at", "updated_at",
  ]

  /// `kept`: what an import keeps of the record the book came from, for its export.
  public init(_ book: Book, kept: IRBISKeptRecord? = nil) {
    self.book = book
    // One array, made to its size on the thread that makes the row: the insert added the UUID and
    // times on the writing thread, which copied every row's 30 values into a new array.
    var values = LibraryStore.bookFieldValues(book)
    values.reserveCapacity(values.count + BookRow.columnsAfterFields.count)
    values.append(.text(book.sortKey))
    values.append(.text(book.searchText))
    values.append(.text(kept?.record ?? ""))
    values.append(.text(kept?.copy ?? ""))
    values.append(.text(kept?.group ?? ""))
    let created = book.created.iso
    values.append(.text(book.id.text))
    values.append(.text(created))
    values.append(.text(book.updated == book.created ? created : book.updated.iso))
    self.values = values
    otherISBNs = kept?.otherISBNs.map(\.isbn13) ?? []
  }
}
