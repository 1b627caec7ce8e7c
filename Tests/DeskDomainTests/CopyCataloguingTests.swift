import DeskDomain
import Testing

/// Copy cataloguing's rules without a network: the targets' addresses, the queries each protocol
/// is asked, the records read by the import's ISO 2709 reading.
@Suite struct CopyCataloguingTests {
  @Test func targetsAddressesAndNames() throws {
    #expect(
      try CatalogueTarget.z3950("aleph.rsl.ru:9909/rsl01")
        == .z3950(host: "aleph.rsl.ru", port: 9909, database: "rsl01"))
    #expect(try CatalogueTarget.sru("http://lx2.loc.gov:210/LCDB") == .sru(url: "http://lx2.loc.gov:210/LCDB"))
    for bad in ["aleph.rsl.ru:9909", "aleph.rsl.ru/rsl01", ":210/books", "host:0/db", "host:70000/db", "host:21 0/db"] {
      #expect(throws: TargetError.badZ3950Address(bad)) { try CatalogueTarget.z3950(bad) }
    }
    for bad in ["ftp://x/y", "http://x/y?query=1", "lx2.loc.gov:210/LCDB"] {
      #expect(throws: TargetError.badSRUAddress(bad)) { try CatalogueTarget.sru(bad) }
    }
    #expect(try CatalogueTarget.checkedName("rsl") == "rsl")
    #expect(try CatalogueTarget.checkedName("Библиотека_1") == "Библиотека_1")
    #expect(throws: TargetError.reservedName("Google")) { try CatalogueTarget.checkedName("Google") }
    #expect(throws: TargetError.badName("a,b")) { try CatalogueTarget.checkedName("a,b") }
  }

  @Test func queriesForZ3950AndSRU() throws {
    let isbn = try ISBN("5-17-079585-8")
    #expect(CopyQuery.isbn(isbn).pqf == "@or @attr 1=7 \"\(isbn.isbn13)\" @attr 1=7 \"5170795858\"")
    #expect(CopyQuery.isbn(isbn).cql == "bath.isbn=\"\(isbn.isbn13)\" or bath.isbn=\"5170795858\"")
    let query = try #require(CopyQuery.words(title: "Война и \"мир\"", author: "Толстой\\", year: "2013 г."))
    #expect(query.pqf == "@and @and @attr 1=4 \"Война и \\\"мир\\\"\" @attr 1=1003 \"Толстой\\\\\" @attr 1=31 \"2013\"")
    #expect(query.cql == "dc.title=\"Война и \\\"мир\\\"\" and dc.creator=\"Толстой\\\\\" and dc.date=\"2013\"")
    #expect(CopyQuery.words(title: "  ", author: "", year: "2013") == nil, "a year alone is no search")
    let scanned = try #require(CopyQuery.words(title: "War\u{1B}[31m", author: "", year: ""))
    #expect(scanned.pqf == "@attr 1=4 \"War [31m\"", "a control character never reaches the server")
    #expect(
      CopyQuery.words(title: "ВОЙНА  и мир", author: "", year: "")?.key
        == CopyQuery.words(title: "война и мир", author: "", year: "")?.key, "one query in any case and spacing")
  }

  /// A MARC 21 record in MARC-8 (ANSEL's acute and tilde before their letters), as a Z39.50
  /// target sends it, read as the import reads one; the other library's holdings stay behind.
  @Test func aMARC8RecordFromATarget() throws {
    var record = ISO2709Record.marc21(fields: [
      .init(tag: 20, subfields: [("a", "0060883286")]),
      .init(tag: 100, indicators: "1 ", subfields: [("a", "García Márquez, Gabriel,")]),
      .init(
        tag: 245, indicators: "10", subfields: [("a", "Cien años de soledad /"), ("c", "Gabriel García Márquez.")]),
      .init(tag: 260, subfields: [("a", "New York :"), ("b", "Harper,"), ("c", "2006.")]),
      .init(tag: 650, indicators: " 0", subfields: [("a", "Families"), ("z", "Colombia"), ("v", "Fiction.")]),
      .init(tag: 852, subfields: [("a", "Their library"), ("h", "PQ8180.17")]),
      .init(tag: 952, subfields: [("p", "THEIR-1")]),
    ])
    record.leaderHead = "cam  "
    var skipped = 0
    let bytes = try record.bytes(
      encode: { text in
        text.unicodeScalars.flatMap { scalar -> [UInt8] in
          switch scalar {
          case "á": [0xE2, 0x61]
          case "í": [0xE2, 0x69]
          case "ñ": [0xE4, 0x6E]
          default: [UInt8(scalar.value)]
          }
        }
      }, skipped: &skipped)
    #expect(bytes[9] == 0x20, "the leader says MARC-8")
    let target = CatalogueTarget(
      name: "lc", endpoint: .z3950(host: "lx2.loc.gov", port: 210, database: "LCDB"), syntax: .marc21)
    let copied = try CopiedRecord.read(bytes, from: target).get()
    #expect(copied.draft.title == "Cien años de soledad")
    #expect(copied.draft.authorSurname == "García Márquez")
    #expect(copied.draft.year == "2006")
    #expect(copied.draft.inventoryNumber.isEmpty)
    #expect(copied.draft.isbn == "0060883286")
    #expect(copied.describes(try ISBN("978-0-06-088328-7")))
    let original = try #require(copied.record.marc21)
    #expect(original.fields.contains { $0.tag == 650 }, "the subjects stay")
    #expect(!original.fields.contains { [852, 952].contains($0.tag) }, "their copies do not")
    #expect(!copied.record.fields.contains { $0.tag == 910 })
    // A record cut short by the network is refused, not half read.
    #expect(throws: ISO2709Flaw.self) { try CopiedRecord.read(Array(bytes.dropLast(10)), from: target).get() }
  }

  /// The same book from two targets, by ISBN or by its words, is listed once.
  @Test func aBookIsListedOnce() throws {
    func copied(_ target: String, title: String, isbn: String) -> CopiedRecord {
      var record = IRBISRecord()
      record.append(920, "PAZK")
      record.append(10, subfields: [("A", isbn)])
      record.append(200, subfields: [("A", title)])
      record.append(700, subfields: [("A", "Толстой"), ("B", "Л. Н.")])
      return CopiedRecord(target: target, record: record)
    }
    let found = [
      copied("a", title: "Война и мир", isbn: "978-5-17-079585-7"),
      copied("b", title: "ВОЙНА И МИР", isbn: "5170795858"),
      copied("b", title: "Анна Каренина", isbn: ""), copied("c", title: "анна  каренина", isbn: ""),
    ]
    #expect(CopiedRecord.distinct(found).map(\.target) == ["a", "b"])
  }

  /// A record's line in a list is written in the book's language: pages «с.» for a Russian one.
  @Test func theCardLineCountsPagesInTheBooksLanguage() throws {
    let target = CatalogueTarget(name: "t", endpoint: .sru(url: "http://127.0.0.1/x"), syntax: .rusmarc)
    var russian = IRBISRecord()
    russian.append(200, subfields: [("A", "Война и мир")])
    russian.append(215, subfields: [("A", "1300 с.")])
    #expect(CopiedRecord(target: target.name, record: russian).cardLine == "Война и мир. — 1300 с.")
    var english = IRBISRecord()
    english.append(200, subfields: [("A", "Gödel, Escher, Bach")])
    english.append(215, subfields: [("A", "777 p.")])
    #expect(CopiedRecord(target: target.name, record: english).cardLine == "Gödel, Escher, Bach. — 777 p.")
  }
}
