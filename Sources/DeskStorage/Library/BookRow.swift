import DeskDomain

/// A book's columns as the `book` table stores them, its sort and search keys computed once.
/// Made wherever there is time to spare (an import makes them on its reading thread) and
/// written by `LibraryStore.add(_:)`.
public struct BookRow: Sendable {
  public let book: Book
  let values: [DatabaseValue]
  /// The ISBN-13s of the record's other ISBNs (`IRBISKeptRecord.otherISBNs`).
  let otherISBNs: [String]

  /// `kept`: what an import keeps of the record the book came from, for its export.
  public init(_ book: Book, kept: IRBISKeptRecord? = nil) {
    self.book = book
    values =
      LibraryStore.bookValues(book) + [
        .text(kept?.record ?? ""), .text(kept?.copy ?? ""), .text(kept?.group ?? ""),
      ]
    otherISBNs = kept?.otherISBNs.map(\.isbn13) ?? []
  }
}
