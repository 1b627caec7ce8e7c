/// Answers in each catalogue's real shape (see ../shared/reference/LOOKUP.md), as the local
/// server plays them back.
enum Answers {
  static let googleLermontov = """
    {"kind": "books#volumes", "totalItems": 1, "items": [{"kind": "books#volume", "id": "x1",
      "volumeInfo": {"title": "Герой нашего времени", "subtitle": "роман",
        "authors": ["Лермонтов, Михаил Юрьевич"], "publisher": "АСТ", "publishedDate": "2018-03-01",
        "industryIdentifiers": [{"type": "ISBN_10", "identifier": "5170795858"},
                                {"type": "ISBN_13", "identifier": "9785170795857"}],
        "pageCount": 414, "categories": ["Fiction"], "language": "ru"}}]}
    """

  static let googleEmpty = #"{"kind": "books#volumes", "totalItems": 0}"#

  /// Google answering with another book than the one asked for.
  static let googleOtherBook = """
    {"kind": "books#volumes", "totalItems": 1, "items": [{"id": "zz", "volumeInfo": {
      "title": "A Different Book", "authors": ["Someone Else"],
      "industryIdentifiers": [{"type": "ISBN_13", "identifier": "9780000000002"}]}}]}
    """

  static let openLibraryAusten = """
    {"ISBN:9780141439518": {"url": "https://openlibrary.org/books/OL1M/Pride_and_Prejudice",
      "title": "Pride and Prejudice", "authors": [{"url": "https://openlibrary.org/authors/OL1A", "name": "Jane Austen"}],
      "publishers": [{"name": "Penguin Books"}], "publish_places": [{"name": "London"}],
      "publish_date": "April 29, 2003", "number_of_pages": 480,
      "identifiers": {"isbn_10": ["0141439513"], "isbn_13": ["9780141439518"], "openlibrary": ["OL1M"]}}}
    """

  static let openLibraryGoodOmens = """
    {"ISBN:9780060853983": {"title": "Good Omens", "subtitle": "The Nice and Accurate Prophecies of Agnes Nutter, Witch",
      "authors": [{"name": "Terry Pratchett"}, {"name": "Neil Gaiman"}], "publishers": [{"name": "William Morrow"}],
      "publish_date": "2006", "number_of_pages": 432,
      "identifiers": {"isbn_13": ["9780060853983"]}}}
    """

  static let openLibraryEmpty = "{}"
}
