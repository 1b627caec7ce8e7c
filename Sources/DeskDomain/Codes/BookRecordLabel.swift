/// The `Label: value` text a book's QR label carries, in the original desk app's Russian labels
/// or in English:
///
///     ISBN: 978-5-17-079585-7
///     Фамилия автора: Лермонтов
///     Название книги: Герой нашего времени
public enum BookRecordLabel {
  /// Labels for each field, Russian first (the label writer's choice), then the variants a
  /// librarian writes, then English.
  static let labels: [(Field, [String])] = [
    (
      .inventoryNumber, ["Инвентарный номер", "Инв. номер", "Инв. №", "Инвентарный №", "Inventory number", "Inventory"]
    ),
    (.isbn, ["ISBN", "ISBN-13", "ISBN-10"]),
    (.authorSurname, ["Фамилия автора", "Author surname", "Surname"]),
    (.authorInitials, ["Инициалы автора", "Инициалы", "Author initials", "Initials"]),
    (.title, ["Название книги", "Название", "Заглавие", "Title"]),
    (.publisher, ["Название издательства", "Издательство", "Издатель", "Publisher"]),
    (.city, ["Город издания", "Место издания", "Город", "City of publication", "Place of publication", "City"]),
    (.year, ["Год издания", "Год", "Year of publication", "Year"]),
    (.pages, ["Число страниц", "Количество страниц", "Кол-во страниц", "Страниц", "Страницы", "Объём", "Pages"]),
    (.price, ["Цена", "Стоимость", "Price"]),
    (.bbk, ["ББК", "Индекс ББК", "BBK", "BBK index"]),
    (.authorMark, ["Авторский знак", "Author mark"]),
  ]

  /// A whole name under one label («Автор: Лермонтов М. Ю.»), split into surname and initials.
  static let wholeNameLabels = ["Автор", "Author"]

  /// What a label text says beyond its fields: the lines it did not understand, and an ISBN
  /// that is not valid (with the check digit it should have).
  public struct Remarks: Equatable, Sendable {
    public var unknownLines: [String] = []
    public var isbnProblem: ISBNError?

    public var isEmpty: Bool { unknownLines.isEmpty && isbnProblem == nil }

    public init() {}
  }

  /// The lines of a book record that are not `Label: value` with a known label, and what is
  /// wrong with its ISBN.
  public static func remarks(_ text: String) -> Remarks {
    var remarks = Remarks()
    for line in text.split(whereSeparator: \.isNewline) {
      let trimmed = String(line).trimmingWhitespace()
      guard !trimmed.isEmpty else { continue }
      guard let colon = trimmed.firstIndex(of: ":"), field(for: String(trimmed[..<colon])) != nil else {
        remarks.unknownLines.append(trimmed)
        continue
      }
    }
    if let draft = parse(text), !draft.isbn.isEmpty {
      do {
        _ = try ISBN(draft.isbn)
      } catch {
        remarks.isbnProblem = error
      }
    }
    return remarks
  }

  /// The field a label names (any case, any spacing), or the whole-name label's surname.
  static func field(for label: String) -> Field? {
    let folded = TextFolding.fold(label.trimmingWhitespace())
    if wholeNameLabels.contains(where: { TextFolding.fold($0) == folded }) { return .authorSurname }
    return labels.first(where: { entry in entry.1.contains { TextFolding.fold($0) == folded } })?.0
  }

  /// The fields of a label text, or nil when the text is not a book record: it needs a title or
  /// an ISBN, and at least two recognised lines.
  public static func parse(_ text: String) -> BookDraft? {
    var draft = BookDraft()
    var recognised = 0
    for line in text.split(whereSeparator: \.isNewline) {
      guard let colon = line.firstIndex(of: ":") else { continue }
      let label = String(line[..<colon])
      let value = String(line[line.index(after: colon)...]).trimmingWhitespace()
      guard let field = field(for: label) else { continue }
      recognised += 1
      // «Автор: Лермонтов М. Ю.» gives both the surname and the initials.
      if wholeNameLabels.contains(where: { TextFolding.fold($0) == TextFolding.fold(label.trimmingWhitespace()) }) {
        let (surname, initials) = PersonName.split(value)
        draft.authorSurname = surname
        if draft.authorInitials.isEmpty { draft.authorInitials = initials }
        continue
      }
      draft[field] = value
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
