/// The `Label: value` text a book's QR label carries, in the original desk app's Russian labels
/// or in English:
///
///     ISBN: 978-5-17-079585-7
///     Фамилия автора: Лермонтов
///     Название книги: Герой нашего времени
public enum BookRecordLabel {
  /// Labels for each field, Russian first (the label writer's choice), then English.
  static let labels: [(Field, [String])] = [
    (.inventoryNumber, ["Инвентарный номер", "Inventory number"]),
    (.isbn, ["ISBN"]),
    (.authorSurname, ["Фамилия автора", "Author surname"]),
    (.authorInitials, ["Инициалы автора", "Author initials"]),
    (.title, ["Название книги", "Title"]),
    (.publisher, ["Название издательства", "Издательство", "Publisher"]),
    (.city, ["Город издания", "City of publication", "City"]),
    (.year, ["Год издания", "Year"]),
    (.pages, ["Число страниц", "Pages"]),
    (.price, ["Цена", "Price"]),
    (.bbk, ["ББК", "BBK", "BBK index"]),
    (.authorMark, ["Авторский знак", "Author mark"]),
  ]

  /// The fields of a label text, or nil when the text is not a book record: it needs a title or
  /// an ISBN, and at least two recognised lines.
  public static func parse(_ text: String) -> BookDraft? {
    var draft = BookDraft()
    var recognised = 0
    for line in text.split(whereSeparator: \.isNewline) {
      guard let colon = line.firstIndex(of: ":") else { continue }
      let label = TextFolding.fold(String(line[..<colon]).trimmingWhitespace())
      let value = String(line[line.index(after: colon)...]).trimmingWhitespace()
      guard
        let field = labels.first(where: { entry in entry.1.contains { TextFolding.fold($0) == label } })?.0
      else { continue }
      draft[field] = value
      recognised += 1
    }
    guard recognised >= 2, !draft.title.isEmpty || !draft.isbn.isEmpty else { return nil }
    return draft
  }

  /// The label text of a book: every filled field on its own line, Russian labels.
  public static func text(of book: Book) -> String {
    let draft = BookDraft(book)
    return labels.compactMap { field, names -> String? in
      let value = draft[field].replacingLineBreaks()
      return value.isEmpty ? nil : "\(names[0]): \(value)"
    }.joined(separator: "\n")
  }
}

extension String {
  /// A value that must stay on one line: line breaks become spaces.
  func replacingLineBreaks() -> String {
    String(map { $0.isNewline ? " " : $0 })
  }
}
