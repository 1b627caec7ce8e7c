/// A letter to a reader whose held books wait for them on the hold shelf, in English or Russian:
/// the library's name and contacts, each book with the last day to collect it.
public struct HoldNotice: Sendable {
  public struct Book: Sendable {
    /// The title as a hold names it: «Author «Title»».
    public var label: String
    public var inventory: String
    public var pickupBy: LocalDate

    public init(label: String, inventory: String, pickupBy: LocalDate) {
      self.label = label
      self.inventory = inventory
      self.pickupBy = pickupBy
    }
  }

  public var reader: Reader
  public var books: [Book]
  public var library: LibraryContacts
  public var today: LocalDate

  public init(reader: Reader, books: [Book], library: LibraryContacts, today: LocalDate) {
    self.reader = reader
    self.books = books
    self.library = library
    self.today = today
  }

  public func text(in language: OverdueNotice.Language) -> String {
    var lines = OverdueNotice.opening(library: library, reader: reader, today: today, language: language)
    let many = books.count > 1
    let list = books.enumerated().map { index, book in
      switch language {
      case .english:
        return "  \(index + 1). \(book.label) (inventory number \(book.inventory)): "
          + "until \(OverdueNotice.englishDate(book.pickupBy))"
      case .russian:
        return
          "  \(index + 1). \(book.label) (инв. № \(book.inventory)): до \(OverdueNotice.russianDate(book.pickupBy))"
      }
    }
    switch language {
    case .english:
      lines += [
        "The \(many ? "books" : "book") you asked for \(many ? "wait" : "waits") for you at the library "
          + "(reader's ticket \(reader.ticket)):",
        "",
      ]
      lines += list
      lines += [
        "", "Please collect \(many ? "them" : "it") by the date given: after it, the next reader's turn comes.",
      ]
    case .russian:
      lines += [
        "\(many ? "Книги, которые вы заказывали, ждут" : "Книга, которую вы заказывали, ждёт") вас в библиотеке "
          + "(читательский билет \(reader.ticket)):",
        "",
      ]
      lines += list
      lines += [
        "",
        "Пожалуйста, заберите \(many ? "их" : "её") до указанного дня: после него наступит очередь следующего читателя.",
      ]
    }
    lines += OverdueNotice.closing(library: library, language: language)
    return lines.joined(separator: "\n") + "\n"
  }
}
