import DeskDomain
import DeskStorage

/// Makes a large, realistic and always identical catalogue: Russian and foreign authors,
/// titles built from real words, readers with Cyrillic and Latin names, and loans in every state.
/// The same seed gives the same library, so that figures from two runs compare.
public struct CatalogueGenerator {
  public var books: Int
  public var readers: Int
  /// Share of books out on loan, and of those, the share overdue.
  public var issuedShare = 0.05
  public var overdueShare = 0.2
  public var seed: UInt64 = 20_261_130

  public init(books: Int, readers: Int) {
    self.books = books
    self.readers = readers
  }

  static let surnames = [
    "Толстой", "Достоевский", "Пушкин", "Лермонтов", "Гоголь", "Чехов", "Тургенев", "Булгаков", "Пастернак",
    "Набоков", "Бунин", "Куприн", "Горький", "Шолохов", "Платонов", "Замятин", "Солженицын", "Стругацкий",
    "Паустовский", "Ахматова", "Цветаева", "Есенин", "Маяковский", "Блок", "Бродский", "Довлатов", "Аксёнов",
    "Ёлкин", "Щербаков", "Юрьев", "Austen", "Dickens", "Brontë", "Orwell", "Huxley", "Tolkien", "Hemingway",
    "Fitzgerald", "Steinbeck", "Márquez", "Müller", "Dupont", "García", "Nowak", "O'Brien", "Smith",
  ]
  static let initials = [
    "А. А.", "Л. Н.", "Ф. М.", "А. С.", "М. Ю.", "Н. В.", "А. П.", "И. С.", "М. А.", "Б. Л.", "В. В.", "J.",
    "C.", "G.", "E.", "F. S.", "J. R. R.",
  ]
  static let titleWords = [
    "Война", "мир", "Преступление", "наказание", "Герой", "нашего", "времени", "Мёртвые", "души", "Мастер",
    "Маргарита", "Отцы", "дети", "Белая", "гвардия", "Тихий", "Дон", "Доктор", "Живаго", "Тёмные", "аллеи",
    "Вишнёвый", "сад", "Остров", "сокровищ", "Повесть", "жизни", "Записки", "охотника", "Сердце", "собаки",
    "Pride", "Prejudice", "Great", "Expectations", "Wuthering", "Heights", "Brave", "New", "World", "Old",
    "Man", "Sea", "Hobbit", "Animal", "Farm", "Solitude", "Years", "Winter", "Summer", "Night", "Road",
  ]
  /// The long tail of a real catalogue's words: made-up but pronounceable Russian and Latin
  /// words, each rare, so that the vocabulary grows with the catalogue as a real one does (a
  /// million books hold some hundred thousand distinct words, not the hundred famous ones).
  static let rareWords: [String] = {
    var random = SplitMix64(seed: 1_130)
    let russian = (
      onsets: [
        "б", "в", "г", "д", "ж", "з", "к", "л", "м", "н", "п", "р", "с", "т", "ф", "х", "ц", "ч", "ш",
        "бр", "вл", "гр", "др", "кр", "пл", "пр", "ст", "тр", "зв", "сл",
      ],
      vowels: ["а", "е", "и", "о", "у", "ы", "я", "ю", "ё"],
      endings: [
        "ов", "ев", "ин", "ский", "енко", "ова", "ина", "ость", "ание", "ный", "ная", "ые", "ник", "ка", "ец",
        "ой", "ую", "ами",
      ]
    )
    let latin = (
      onsets: [
        "b", "c", "d", "f", "g", "h", "j", "k", "l", "m", "n", "p", "r", "s", "t", "v", "w", "br", "ch",
        "st", "th", "tr",
      ],
      vowels: ["a", "e", "i", "o", "u", "ou", "ea", "y"],
      endings: ["son", "man", "er", "ton", "ley", "ing", "ness", "ia", "ville", "ski"]
    )
    func one(_ parts: [String], _ random: inout SplitMix64) -> String {
      parts[Int(random.next() % UInt64(parts.count))]
    }
    return (0..<300_000).map { _ in
      let set = random.next() % 4 == 0 ? latin : russian
      var word = ""
      for _ in 0..<(1 + random.next() % 3) { word += one(set.onsets, &random) + one(set.vowels, &random) }
      return (word + one(set.endings, &random)).capitalizedFirst
    }
  }()

  static let publishers = ["Азбука", "Эксмо", "АСТ", "Махаон", "Наука", "Penguin Books", "Vintage", "Harper"]
  static let cities = ["Москва", "Санкт-Петербург", "Екатеринбург", "London", "New York"]
  static let firstNames = [
    "Мария", "Анна", "Ольга", "Елена", "Татьяна", "Алексей", "Сергей", "Дмитрий", "Илья", "Фёдор", "Артём",
    "John", "Anna", "José", "Élise", "Katarzyna", "Patrick",
  ]
  static let patronymics = ["Петрович", "Сергеевна", "Ильич", "Андреевна", "Николаевич", "Юрьевна", ""]

  /// Fills an empty library. `progress` hears how many books are in so far.
  public func fill(_ store: LibraryStore, progress: (Int) -> Void = { _ in }) throws {
    var random = SplitMix64(seed: seed)
    let now = store.clock.now()
    let today = now.date
    try store.transaction {
      // Books in bulk (their index and count brought up to date once, at the end), as an import does.
      try store.addingBooksInBulk {
        for index in 0..<books {
          let words = (0..<(1 + Int(random.next() % 4))).map { _ in
            pick(CatalogueGenerator.titleWords, orRareWith: 0.35, &random).lowercased()
          }
          let surname = pick(CatalogueGenerator.surnames, orRareWith: 0.3, &random)
          let book = Book(
            id: RecordID.random(using: &random), inventoryNumber: String(1_000_000 + index),
            authorSurname: surname, authorInitials: pick(CatalogueGenerator.initials, &random),
            title: words.joined(separator: " ").capitalizedFirst,
            publisher: pick(CatalogueGenerator.publishers, &random),
            city: pick(CatalogueGenerator.cities, &random), year: 1950 + Int(random.next() % 76),
            pages: 100 + Int(random.next() % 900), price: Money(minorUnits: Int64(10_000 + random.next() % 90_000)),
            received: today.adding(days: -Int(random.next() % 3650)), created: now.instant, updated: now.instant)
          try store.books.add(BookRow(book))
          if index % 50_000 == 0 { progress(index) }
        }
      }
      for index in 0..<readers {
        var draft = ReaderDraft()
        draft.ticket = String(index + 1)
        draft.surname = pick(CatalogueGenerator.surnames, orRareWith: 0.5, &random)
        draft.firstName = pick(CatalogueGenerator.firstNames, &random)
        draft.patronymic = pick(CatalogueGenerator.patronymics, &random)
        draft.phone = "+7 343 \(200 + index / 10_000)-\(index % 10_000)"
        try store.readers.add(draft)
      }
      guard readers > 0 else { return }
      let issued = Int(Double(books) * issuedShare)
      let desk = try store.policy.current().deskName
      for index in 0..<issued {
        let bookIndex = (index * 7919) % books
        let overdue = Double(random.next() % 1000) / 1000 < overdueShare
        let issuedAgo = Int64(overdue ? 20 + random.next() % 40 : random.next() % 14)
        let issuedAt = now.instant.adding(milliseconds: -issuedAgo * 86_400_000)
        try store.circulation.recordLoan(
          ticket: String(1 + index % readers), inventory: String(1_000_000 + bookIndex), issued: issuedAt,
          due: issuedAt.utcDate.adding(days: 14), desk: desk)
      }
    }
    // The words of the bulk insert's slices, gathered as a large import gathers them.
    try store.vocabulary.gatherVocabularyNews(waiting: 1)
    progress(books)
  }

  /// A famous word most of the time, else a rare one, the rarer the less often (a power law).
  private func pick(_ famous: [String], orRareWith share: Double, _ random: inout SplitMix64) -> String {
    let draw = Double(random.next() % 1_000_000) / 1_000_000
    guard draw < share else { return pick(famous, &random) }
    let position = Double(random.next() % 1_000_000) / 1_000_000
    let rare = CatalogueGenerator.rareWords
    return rare[Int(Double(rare.count) * position * position * position)]
  }

  private func pick(_ words: [String], _ random: inout SplitMix64) -> String {
    words[Int(random.next() % UInt64(words.count))]
  }
}

extension String {
  var capitalizedFirst: String {
    guard let first else { return self }
    return first.uppercased() + dropFirst()
  }
}
