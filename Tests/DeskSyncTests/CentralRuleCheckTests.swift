import DeskDomain
import DeskStorage
import DeskSync
import DeskTestSupport
import Foundation
import Testing

/// The central's quick check of a change's fields (`circdesk_keeps_rules`, straight-line code made
/// from the rules) against its reading of the rules' rows (`circdesk_change_problem`), which says
/// why: the quick one never passes what the rules refuse, and passes what desks send.
extension SyncTests {
  /// Every kind of record, every field, every kind of value that breaks a rule or keeps one
  /// (boundaries, calendar days that do not exist, digits of other scripts, control characters):
  /// a change the quick check passes is one the rules take.
  @Test func theQuickCheckPassesNoChangeTheRulesRefuse() throws {
    let (a, _, url, _) = try holdLibraryWithQueue()
    try a.policy.addHoliday(try #require(LocalDate(year: 2026, month: 12, day: 31)), name: "Новый год")
    try a.policy.setSetting("library_name", "Городская библиотека")
    let check = try #require(try a.stocktakes.start(name: "Зал", scope: StocktakeScope()))
    _ = try a.stocktakes.scan("555", in: check, at: "")
    try sync(a)
    let central = try CentralConnection(url: url)
    var known: [String: String] = [:]
    for row in try central.execute("SELECT DISTINCT ON (entity) entity, record_id FROM change ORDER BY entity, seq") {
      if let entity = row[0], let record = row[1] { known[entity] = record }
    }
    let fields = LibraryStore.travellingFields
    // A renewal is refused while readers wait for the title.
    #expect(
      Set(fields.map(\.entity)).subtracting(known.keys) == ["address", "conflict", "renewal"], "nearly every kind known"
    )

    var values = [
      "null", #""""#, #"" a""#, #""a ""#, #""abc""#, #""Война и мир""#, "0", "1", "-1", "1.5", "1e2", "true", "{}",
      "[]",
      #""x\u001b""#, #""a\u202e""#, #""a\u0085""#, #""2026-02-28""#, #""2024-02-29""#, #""2025-02-29""#,
      #""2026-04-31""#, #""2026-06-31""#, #""2026-09-31""#, #""2026-11-31""#, #""2026-12-31""#, #""2026-13-01""#,
      #""2026-00-10""#, #""0000-01-01""#, #""٢٠٢٦-01-01""#, #""2026-1-01""#,
      #""2026-01-01T10:00:00Z""#, #""2026-01-01T10:00:00.123Z""#, #""2026-01-01T24:00:00Z""#,
      #""2026-01-01T10:60:00Z""#, #""2026-01-01T10:00:60Z""#, #""2026-01-01T10:00:00.Z""#,
      #""2026-02-30T10:00:00Z""#, #""2026-01-01T10:00:00.1234Z""#, #""2026-01-01 10:00:00Z""#,
      #""0c6d8b52-8c1a-4a59-9a3e-2f1c07b4a8d1""#, #""0C6D8B52-8C1A-4A59-9A3E-2F1C07B4A8D1""#, #""nobody""#,
      #""\#(String(repeating: "я", count: 65))""#,
    ]
    values += known.values.map { "\"\($0)\"" }
    for field in fields {
      switch field.rule.kind {
      case .text(let minimum, let maximum):
        values += [max(minimum - 1, 0), minimum, maximum, maximum + 1].filter { $0 <= 2_000 }.map {
          "\"\(String(repeating: "ж", count: $0))\""
        }
      case .integer(let range):
        values += [range.lowerBound - 1, range.lowerBound, range.upperBound, range.upperBound + 1].map(String.init)
      case .choice(let words):
        values += words.map { "\"\($0)\"" }
      default:
        break
      }
    }
    values = Array(Set(values)).sorted()

    var cases: [String] = []
    func addCase(_ entity: String, _ record: String?, _ payload: String) {
      let id = record.map { "\"\($0.replacingOccurrences(of: "\"", with: "\\\""))\"" } ?? "null"
      cases.append(#"{"entity": "\#(entity)", "record": \#(id), "payload": \#(payload)}"#)
    }
    for entity in Set(fields.map(\.entity)).sorted() {
      let record = known[entity]
      addCase(entity, record, "{}")
      addCase(entity, record, #"{"colour": 1}"#)
      addCase(entity, record, #"{"created_at": "2026-01-01T10:00:00.000Z"}"#)
      addCase(entity, nil, "{}")
      addCase(entity, "0c6d8b52-8c1a-4a59-9a3e-2f1c07b4a8d1", "{}")
      for value in values where value.hasPrefix("\"") {
        addCase(entity, String(value.dropFirst().dropLast()), "{}")
      }
      for field in fields where field.entity == entity && !field.field.isEmpty {
        for value in values { addCase(entity, record, #"{"\#(field.field)": \#(value)}"#) }
      }
    }
    addCase("poem", "1", "{}")
    let rows = try central.execute(
      """
      SELECT x.entity, x.record, x.payload::text, circdesk_keeps_rules(x.entity, x.record, x.payload),
        circdesk_change_problem(x.entity, x.record, 1, x.payload), f.key, f.type, f.text
      FROM jsonb_to_recordset($1::jsonb) AS x(entity text, record text, payload jsonb)
        LEFT JOIN LATERAL (SELECT key, jsonb_typeof(value) AS type, value #>> '{}' AS text FROM jsonb_each(x.payload)) f
          ON (SELECT count(*) FROM jsonb_object_keys(x.payload)) = 1
      """, ["[" + cases.joined(separator: ",") + "]"])
    #expect(rows.count == cases.count)
    var rules: [String: FieldRule] = [:]
    for field in fields { rules["\(field.entity).\(field.field)"] = field.rule }
    var passed: Set<String> = []
    var checkedAtTheDesk = 0
    for row in rows {
      let change = "\(row[0] ?? "") \(row[1] ?? "NULL") \(row[2] ?? "")"
      if row[3] == "t" {
        #expect(row[4] == nil, "passed by the quick check, refused by the rules: \(change): \(row[4] ?? nil ?? "")")
        passed.insert(row[0] ?? "")
      }
      // What the central takes, a desk pulling it takes too (`FieldRule.problem`, checked again as
      // it applies): a value the two read differently would be set aside at every desk.
      if row[4] == nil, let name = row[5], let type = row[6], let rule = rules["\(row[0] ?? "").\(name)"] {
        let text = row[7] ?? nil ?? ""
        let value: FieldValue
        switch type {
        case "null": value = .null
        case "string": value = .text(text)
        case "number": value = Int64(text).map { .integer($0) } ?? .real(Double(text) ?? .nan)
        default: value = .other(type)
        }
        #expect(rule.problem(value) == nil, "taken by the central, refused by a desk: \(change)")
        checkedAtTheDesk += 1
      }
    }
    #expect(checkedAtTheDesk > 500, "\(checkedAtTheDesk)")
    // Not a check that refuses everything: each known kind has changes it passes.
    #expect(passed.isSuperset(of: known.keys), "\(passed)")
  }

  /// What a working desk sends — books, readers, a category, loans, renewals, holds, a holiday,
  /// settings — passes the quick check, change by change: none takes the slow reading of the rules.
  @Test func everyChangeADeskSendsPassesTheQuickCheck() throws {
    let (a, b, url, _) = try holdLibraryWithQueue()
    try a.policy.addHoliday(try #require(LocalDate(year: 2026, month: 12, day: 31)), name: "Новый год")
    try a.policy.setSetting("library_name", "Городская библиотека")
    try b.books.add(bookDraft("R1", "Обломов"))
    try b.circulation.issue(ticket: "1003", inventories: ["R1"])
    _ = try b.circulation.renew(inventories: ["R1"])
    _ = try b.circulation.returnBooks(inventories: ["M2"])
    try b.books.update(inventory: "M1") { $0.year = "1999" }
    try sync(b)
    try sync(a)
    let central = try CentralConnection(url: url)
    let kinds = try central.execute("SELECT DISTINCT entity FROM change ORDER BY entity").compactMap { $0[0] }
    #expect(kinds.count >= 7, "\(kinds)")
    let slow = try central.execute(
      """
      SELECT entity, payload::text FROM change WHERE NOT circdesk_keeps_rules(entity, record_id, payload)
      """)
    #expect(slow.isEmpty, "\(slow)")
  }
}

/// The central's way for a plain batch (`circdesk_store_plain`: a statement a table) against its
/// way change by change (`circdesk_push`'s loop).
extension SyncTests {
  /// A desk's changes sent to a second central in one batch that is not plain (a change taken
  /// before at its end) leave it holding what the first central, which took them in plain
  /// batches, holds: the same log in the same order, the same numbers with the same clocks. A
  /// batch with anything the loop would not simply accept is not plain, and stores nothing.
  @Test func aPlainBatchIsStoredAsChangeByChangeWouldStoreIt() throws {
    let (a, _, first) = try twoDesks(books: [("1", "Одна"), ("2", "Две")], second: "B")
    let reader = try a.readers.add(readerDraft("1001", "Смирнова"))
    try a.circulation.issue(ticket: reader.ticket, inventories: ["1"])
    try sync(a)
    let deskA = try #require(try a.sync.deskTie()).deskID
    let log = "SELECT id, entity, record_id, hlc, payload FROM change WHERE desk_id = $1::uuid ORDER BY seq"
    let keys =
      "SELECT entity, id, key, key_clock, key_desk, deleted, deleted_clock, deleted_desk FROM record_key ORDER BY 1, 2"
    let firstCentral = try CentralConnection(url: first)
    let sent = try firstCentral.execute(log, [deskA])
    func batch(_ condition: String) throws -> [String] {
      try firstCentral.execute(
        """
        SELECT json_build_object('id', id, 'entity', entity, 'record_id', record_id, 'hlc', hlc, 'payload', payload)::text
        FROM change WHERE desk_id = $1::uuid AND \(condition) ORDER BY seq
        """, [deskA]
      ).compactMap { $0.first ?? nil }
    }
    let all = try batch("true")
    let records = try batch("entity = 'book'")

    let central = try CentralConnection(url: try makeCentral())
    _ = try central.execute("SELECT circdesk_join($1::uuid, 'A', 'a')", [deskA])
    /// Whether the central takes `changes` as a plain batch; nothing of it is kept.
    func plain(_ changes: [String]) throws -> Bool {
      _ = try central.execute("BEGIN")
      defer { _ = try? central.execute("ROLLBACK") }
      let said = try central.execute(
        """
        SELECT circdesk_store_plain($1::uuid, ARRAY(SELECT jsonb_populate_recordset(NULL::change, $2::jsonb)),
          (extract(epoch FROM clock_timestamp()) * 1000)::bigint)
        """,
        [deskA, "[" + changes.joined(separator: ",") + "]"])
      return said.first?.first == "t"
    }
    #expect(try plain(records), "new books")
    #expect(try !plain(try batch("entity IN ('book', 'reader')")), "a reader of a category new in the same batch")
    #expect(try !plain(records + [records[0]]), "a change twice")
    #expect(try !plain([]), "nothing")
    #expect(try !plain(all), "a loan of a book new in the same batch")
    let book = try #require(records.first.flatMap(jsonObject))
    let edit = json([
      "id": RecordID.random().text, "entity": "book", "record_id": book["record_id"] ?? "", "hlc": 1,
      "payload": ["title": "Иная"],
    ])
    #expect(try !plain(records + [edit]), "a change of a book new in the batch")
    #expect(try central.execute("SELECT count(*) FROM change").first?.first == "0", "nothing kept")

    // The whole log, with a change taken before at its end: change by change.
    let outcomes = try central.transaction { () throws(CentralError) in
      try central.execute(
        "SELECT outcome FROM circdesk_push($1::uuid, $2::jsonb)",
        [deskA, "[" + (all + [all[0]]).joined(separator: ",") + "]"])
    }
    #expect(outcomes.count == all.count + 1 && outcomes.allSatisfy { $0.first == "accepted" })
    #expect(try central.execute(log, [deskA]) == sent, "the same log, in the same order")
    #expect(try central.execute(keys) == firstCentral.execute(keys), "the same numbers with the same clocks")

    // Known now: a change of a known book; a new book with a number a live book holds.
    #expect(try !plain([edit]), "a change of a known book")
    var twin = book
    (twin["id"], twin["record_id"]) = (RecordID.random().text, RecordID.random().text)
    #expect(try !plain([json(twin)]), "a new book with a number a live book holds")
    twin["payload"] = (book["payload"] as? [String: Any] ?? [:]).merging(["inventory": "Новый-1"]) { $1 }
    #expect(try plain([json(twin)]), "the same with a number of its own")
  }
}

private func jsonObject(_ text: String) -> [String: Any]? {
  (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
}

private func json(_ object: [String: Any]) -> String {
  (try? JSONSerialization.data(withJSONObject: object)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
}
