/// Where a hold stands. A reader queues for a title (any copy of it) or for one copy, as in
/// Koha's reserves and Evergreen's holds; a returned copy that fills the first hold of its queue
/// waits on the hold shelf for that reader until they collect it or the pickup period ends.
public enum HoldState: String, Hashable, Sendable, CaseIterable {
  /// In the queue: no copy is put aside yet.
  case queued
  /// A copy waits on the hold shelf for the reader.
  case waiting
  /// The reader collected the copy (or got another copy of the title).
  case fulfilled
  case cancelled
  /// Not collected in time, or no longer wanted after its date.
  case expired

  public var isActive: Bool { self == .queued || self == .waiting }
}

extension Book {
  /// What makes copies one title for a hold on a title: the ISBN, or, for a book without one,
  /// the author and title as they sort (`sortKey` without the inventory number) and the year.
  public var titleKey: String {
    if let isbn { return "isbn:" + isbn.isbn13 }
    return "work:" + sortPrefix + String(year ?? 0)
  }

  /// The start of `sortKey` that every copy of the same author and title shares: the copies of
  /// a title are a range of the list's index.
  public var sortPrefix: String {
    let head = authorSurname.isEmpty ? [title] : [authorSurname, authorInitials, title]
    return head.map(TextFolding.fold).joined(separator: "\u{1}") + "\u{1}"
  }

  /// The book as a hold names it: «Булгаков М. А. «Мастер и Маргарита»».
  public var holdLabel: String {
    author.isEmpty ? "«\(title)»" : "\(author) «\(title)»"
  }
}
