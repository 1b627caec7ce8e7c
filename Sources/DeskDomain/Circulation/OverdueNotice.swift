/// A reminder letter to a reader who holds overdue books, in English or Russian: the library's
/// name and contacts, the books with their due dates and days overdue, and what to do.
public struct OverdueNotice: Sendable {
  public enum Language: String, CaseIterable, Sendable {
    case english = "en"
    case russian = "ru"
  }

  public struct Book: Sendable {
    public var inventory: String
    public var author: String
    public var title: String
    public var due: LocalDate

    public init(inventory: String, author: String, title: String, due: LocalDate) {
      self.inventory = inventory
      self.author = author
      self.title = title
      self.due = due
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

  public func text(in language: Language) -> String {
    var lines = Self.opening(library: library, reader: reader, today: today, language: language)
    let many = books.count > 1
    let list = books.enumerated().map { index, book in
      let days = book.due.days(until: today)
      let what = [book.author, "«\(book.title)»"].filter { !$0.isEmpty }.joined(separator: ", ")
      switch language {
      case .english:
        return "  \(index + 1). \(what) (inventory number \(book.inventory)): due \(Self.englishDate(book.due)), "
          + "\(days) \(days == 1 ? "day" : "days") overdue"
      case .russian:
        return "  \(index + 1). \(what) (инв. № \(book.inventory)): срок \(Self.russianDate(book.due)), "
          + "просрочено на \(russianPlural(days, "день", "дня", "дней"))"
      }
    }
    switch language {
    case .english:
      lines += [
        "Our records show that \(many ? "these books are" : "this book is") overdue (reader's ticket \(reader.ticket)):",
        "",
      ]
      lines += list
      lines += [
        "",
        "Please bring \(many ? "them" : "it") back to the library as soon as you can.",
        "If you have returned \(many ? "them" : "it") already, thank you, and please disregard this letter.",
      ]
    case .russian:
      lines += [
        "Напоминаем, что срок возврата \(many ? "книг" : "книги") истёк (читательский билет \(reader.ticket)):", "",
      ]
      lines += list
      lines += [
        "",
        "Пожалуйста, верните \(many ? "их" : "её") в библиотеку как можно скорее.",
        "Если вы уже вернули \(many ? "книги" : "книгу"), спасибо, и не обращайте внимания на это письмо.",
      ]
    }
    lines += Self.closing(library: library, language: language)
    return lines.joined(separator: "\n") + "\n"
  }

  /// What every letter to a reader opens with: the library's letterhead, the date and the greeting
  /// (given names first in English, as an English letter addresses people; name and patronymic in
  /// Russian).
  static func opening(library: LibraryContacts, reader: Reader, today: LocalDate, language: Language) -> [String] {
    var lines = ([library.name] + library.lines).filter { !$0.isEmpty }
    if !lines.isEmpty { lines.append("") }
    switch language {
    case .english:
      let name = [reader.firstName, reader.patronymic, reader.surname].filter { !$0.isEmpty }.joined(separator: " ")
      return lines + [englishDate(today), "", "Dear \(name),", ""]
    case .russian:
      let given = [reader.firstName, reader.patronymic].filter { !$0.isEmpty }.joined(separator: " ")
      return lines + [russianDate(today), "", "Здравствуйте, \(given.isEmpty ? reader.fullName : given)!", ""]
    }
  }

  /// What every letter to a reader closes with: the library's signature.
  static func closing(library: LibraryContacts, language: Language) -> [String] {
    switch language {
    case .english: return ["", "Kind regards,", library.name.isEmpty ? "The library" : library.name]
    case .russian: return ["", "С уважением,", library.name.isEmpty ? "библиотека" : library.name]
    }
  }

  /// The months' English names, January first.
  public static let englishMonths = [
    "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November",
    "December",
  ]

  static func englishDate(_ date: LocalDate) -> String {
    spelled(date, months: englishMonths)
  }

  static func russianDate(_ date: LocalDate) -> String {
    spelled(
      date,
      months: [
        "января", "февраля", "марта", "апреля", "мая", "июня", "июля", "августа", "сентября", "октября", "ноября",
        "декабря",
      ]) + " г."
  }

  /// A date as a letter writes it: day, month's name, year.
  private static func spelled(_ date: LocalDate, months: [String]) -> String {
    let (year, month, day) = date.components
    return "\(day) \(months[month - 1]) \(year)"
  }
}
