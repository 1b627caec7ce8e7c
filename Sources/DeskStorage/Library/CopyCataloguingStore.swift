import DeskDomain

/// A target's answer to one query, as the library keeps it: the records as the target sent them
/// (ISO 2709, each ended by 0x1D).
public struct CopyAnswer: Equatable, Sendable {
  public var records: [[UInt8]]
  /// YAZ made the records from an SRU answer's MARCXML: Unicode.
  public var fromXML: Bool
  /// The records the target said it holds: more than it sent when the search was too wide.
  public var hits: Int

  public init(records: [[UInt8]], fromXML: Bool, hits: Int? = nil) {
    self.records = records
    self.fromXML = fromXML
    self.hits = max(hits ?? records.count, records.count)
  }

  /// The records one after another, as `copy_answer.records` holds them.
  var joined: [UInt8] { records.flatMap { $0.last == 0x1D ? $0 : $0 + [0x1D] } }

  init(joined: [UInt8], fromXML: Bool) {
    self.init(records: joined.split(separator: 0x1D).map { Array($0) + [0x1D] }, fromXML: fromXML)
  }
}

/// A search by words that waited for the network.
public struct PendingCopyQuery: Equatable, Sendable {
  public var query: CopyQuery
  public var attempts: Int
  public var lastError: String
}

/// The catalogues of other libraries this desk copies records from, and what they answered.
public struct CopyCataloguingStore: StorePart {
  let store: LibraryStore

  /// Adds a target; false when one of that name is there, in any case (nothing changes then).
  @discardableResult
  public func add(_ target: CatalogueTarget) throws(StoreError) -> Bool {
    try write {
      let taken = try database.queryFirst("SELECT 1 FROM catalogue_target WHERE name = ? COLLATE NOCASE", target.name) {
        _ in true
      }
      guard taken == nil else { return false }
      try database.execute(
        """
        INSERT INTO catalogue_target(name, kind, address, syntax, encoding, user, password_variable, schema, created_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
        """, target.name, target.isSRU ? "sru" : "z3950", target.address, target.syntax.rawValue,
        target.encoding?.rawValue ?? "", target.user ?? "", target.passwordVariable ?? "", target.schema ?? "",
        clock.now().instant.iso)
      return true
    }
  }

  /// Removes the target `name` with the answers it gave; false when there is none.
  @discardableResult
  public func remove(name: String) throws(StoreError) -> Bool {
    try write {
      guard
        let stored = try database.queryFirst(
          "SELECT name FROM catalogue_target WHERE name = ? COLLATE NOCASE", name, read: { $0.string(0) })
      else { return false }
      try database.execute("DELETE FROM copy_answer WHERE target = ?", stored)
      return try database.execute("DELETE FROM catalogue_target WHERE name = ?", stored) > 0
    }
  }

  /// How many answers of `target` the library keeps.
  public func answerCount(of target: String) throws(StoreError) -> Int {
    try read {
      try database.queryFirst("SELECT count(*) FROM copy_answer WHERE target = ?", target) { $0.int(0) } ?? 0
    }
  }

  /// The targets, by name. A row this program did not write (the file edited by hand) is skipped.
  public func targets() throws(StoreError) -> [CatalogueTarget] {
    try read {
      try database.query(
        "SELECT name, kind, address, syntax, encoding, user, password_variable, schema FROM catalogue_target ORDER BY name"
      ) { row -> CatalogueTarget? in
        guard let syntax = CatalogueTarget.Syntax(rawValue: row.string(3)) else { return nil }
        let endpoint: CatalogueTarget.Endpoint
        do throws(TargetError) {
          endpoint =
            row.string(1) == "sru" ? try CatalogueTarget.sru(row.string(2)) : try CatalogueTarget.z3950(row.string(2))
        } catch {
          return nil
        }
        return CatalogueTarget(
          name: row.string(0), endpoint: endpoint, syntax: syntax,
          encoding: CatalogueTarget.Encoding(rawValue: row.string(4)), user: row.optionalString(5).flatMap(\.nonEmpty),
          passwordVariable: row.optionalString(6).flatMap(\.nonEmpty), schema: row.optionalString(7).flatMap(\.nonEmpty)
        )
      }.compactMap { $0 }
    }
  }

  /// The target `name`, in any case.
  public func target(named name: String) throws(StoreError) -> CatalogueTarget? {
    try targets().first { $0.name.lowercased() == name.lowercased() }
  }

  /// What `target` answered to `query` before, if it was asked.
  public func answer(of target: String, to query: CopyQuery) throws(StoreError) -> CopyAnswer? {
    try read {
      try database.queryFirst(
        "SELECT records, from_xml, hits FROM copy_answer WHERE target = ? AND query = ?", target, query.key
      ) { row -> CopyAnswer in
        guard case .blob(let bytes) = row.value(0) else { return CopyAnswer(records: [], fromXML: row.bool(1)) }
        var answer = CopyAnswer(joined: bytes, fromXML: row.bool(1))
        answer.hits = max(answer.hits, row.int(2))
        return answer
      }
    }
  }

  /// Keeps what `target` answered to `query` (no records: it has none) and takes the query off
  /// the queue.
  public func keep(_ answer: CopyAnswer, of target: String, to query: CopyQuery) throws(StoreError) {
    try write {
      try database.execute(
        """
        INSERT OR REPLACE INTO copy_answer(target, query, records, from_xml, hits, fetched_at) VALUES (?, ?, ?, ?, ?, ?)
        """, target, query.key, DatabaseValue.blob(answer.joined), answer.fromXML, answer.hits, clock.now().instant.iso)
    }
  }

  /// Puts a search by words on the queue for when the network is back.
  public func enqueue(_ query: CopyQuery, error: String) throws(StoreError) {
    guard case .words(let title, let author, let year) = query else { return }
    try write {
      try database.execute(
        """
        INSERT INTO copy_query_queue(query, title, author, year, queued_at, attempts, last_error)
        VALUES (?, ?, ?, ?, ?, 1, ?)
        ON CONFLICT(query) DO UPDATE SET attempts = attempts + 1, last_error = excluded.last_error
        """, query.key, title, author, year, clock.now().instant.iso, error)
    }
  }

  /// Takes a query off the queue: every target answered it.
  public func dequeue(_ query: CopyQuery) throws(StoreError) {
    try write { try database.execute("DELETE FROM copy_query_queue WHERE query = ?", query.key) }
  }

  public func pending() throws(StoreError) -> [PendingCopyQuery] {
    try read {
      try database.query("SELECT title, author, year, attempts, last_error FROM copy_query_queue ORDER BY queued_at") {
        PendingCopyQuery(
          query: .words(title: $0.string(0), author: $0.string(1), year: $0.optionalInt(2)), attempts: $0.int(3),
          lastError: $0.string(4))
      }
    }
  }
}

extension LibraryStore {
  public var copyCataloguing: CopyCataloguingStore { CopyCataloguingStore(store: self) }
}

extension String {
  fileprivate var nonEmpty: String? { isEmpty ? nil : self }
}
