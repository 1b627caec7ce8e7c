import DeskDomain

/// A check of the stock against the catalogue (`StocktakeScope`, `StocktakeFinding`): opened over
/// a part of the stock with its expected copies frozen then, scanned copy after copy (each scan
/// sorted as it is made), and reported on at any time.
public struct StocktakeStore: StorePart {
  let store: LibraryStore

  /// A check as the library keeps it.
  public struct Check: Equatable, Sendable {
    public var number: Int
    public var id: RecordID
    public var name: String
    public var started: Timestamp
    public var closed: Timestamp?
    public var expected: Int
    /// What it covers (the whole stock, for a scope a later version wrote that this one cannot read).
    public var scope = StocktakeScope()
  }

  /// A scan's outcome: how it was sorted, and the copy it names (nil for an unknown number).
  public struct Scan: Equatable, Sendable {
    public var code: String
    public var finding: StocktakeFinding
    public var book: Book?
    /// Where it was scanned (empty: not said), and when.
    public var place: String
    public var scanned: Timestamp
    /// The desk that made it.
    public var desk = ""
    /// Dealt with since, as its finding asked: a misplaced copy's record moved to where it was
    /// found, a copy recorded as out returned, a lost one available, an unknown number added.
    public var settled = false
  }

  /// What a check has found so far.
  public struct Report: Equatable, Sendable {
    public var check: Check
    /// Scans by their finding's kind (`StocktakeFinding.kind`).
    public var counts: [String: Int]
    /// Expected copies present: scanned, or out on loan, on the hold shelf or in processing.
    public var present: Int
    /// The present copies that were scanned (the rest were out, on the hold shelf or in processing).
    public var scanned: Int
    /// Each copy or number that surprised the check, once, by kind (`StocktakeFinding.kinds`' order)
    /// then as scanned: what the librarian and the commission must see one by one.
    public var surprises: [Scan]
    /// Expected copies neither scanned nor accounted for, by place and shelf code.
    public var missing: [Book]
    /// Expected and missing copies by storage place, and by shelf-code section (the BBK index's
    /// leading digits: 84, 63…; `—` for none), in order.
    public var byPlace: [Tally]
    public var bySection: [Tally]
  }

  public typealias Tally = StocktakeTally

  /// How many copies a part of an expected list names (`stocktake_part`): a change of some 37 KB
  /// when it travels, a thousandth of a million-copy check's changes.
  public static let partSize = 1000

  /// Opens a check named `name` (empty: by its day) over `scope`; the copies it covers now are
  /// the ones it expects. Nil, with nothing written, when it covers no copy.
  public func start(name: String, scope: StocktakeScope) throws(StoreError) -> Check? {
    let given = name.trimmingWhitespace()
    let trimmed = given.isEmpty ? StocktakeAct.defaultName(on: clock.now().date, in: .english) : given
    let now = clock.now().instant.iso
    return try write {
      // The scope's rules are the domain's (places compared without case, in any script): every
      // live copy is read once and the covered ones listed, at the check's opening only.
      var covered: [String] = []
      try database.forEachRow("SELECT uuid, place, bbk, status FROM book WHERE deleted = 0") { row in
        let status = CopyStatus(rawValue: row.string(3)) ?? .available
        if scope.covers(place: row.string(1), shelfCode: row.string(2), status: status) {
          covered.append(row.string(0))
        }
      }
      guard !covered.isEmpty else { return nil }
      let id = RecordID.random()
      try database.execute(
        "INSERT INTO stocktake(uuid, name, scope, started_at, desk, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?4)",
        id.text, trimmed, scope.json, now, try store.policy.deskName())
      let number = database.lastInsertedRowID
      // The list in parts, which a trigger spreads into `stocktake_expected` here as at every desk.
      for first in stride(from: 0, to: covered.count, by: StocktakeStore.partSize) {
        let part = covered[first..<min(covered.count, first + StocktakeStore.partSize)]
        try database.execute(
          "INSERT INTO stocktake_part(uuid, stocktake_id, books, created_at) VALUES (?, ?, ?, ?)",
          RecordID.random().text,
          number, JSON.array(part.map { .string($0) }).compact, now)
      }
      return Check(
        number: Int(number), id: id, name: trimmed, started: clock.now().instant, closed: nil,
        expected: covered.count, scope: scope)
    }
  }

  /// The checks, the latest first.
  public func checks() throws(StoreError) -> [Check] {
    try read {
      try database.query(
        """
        SELECT s.id, s.uuid, s.name, s.started_at, s.closed_at,
          (SELECT count(*) FROM stocktake_expected e WHERE e.stocktake_id = s.id), s.scope
        FROM stocktake s ORDER BY s.id DESC
        """
      ) { row in
        Check(
          number: row.int(0), id: RecordID(row.string(1)), name: row.string(2),
          started: Timestamp(iso: row.string(3)) ?? Timestamp(millisecondsSinceEpoch: 0),
          closed: row.optionalString(4).flatMap(Timestamp.init(iso:)), expected: row.int(5),
          scope: StocktakeScope(json: row.string(6)) ?? StocktakeScope())
      }
    }
  }

  /// The open check with this number, or the latest open one.
  public func openCheck(_ number: Int? = nil) throws(StoreError) -> Check? {
    try checks().first { $0.closed == nil && (number == nil || $0.number == number) }
  }

  /// Sorts and records a scan of `code` in `check`, found at `place` (empty: not said).
  public func scan(_ code: String, in check: Check, at place: String) throws(StoreError) -> Scan {
    let code = code.trimmingWhitespace()
    let now = clock.now().instant
    return try write {
      let book = try store.books.book(inventory: code)
      // A book's barcode scanned for its copy's label: said, and not kept (it names no copy).
      if book == nil, (try? ISBN(code)) != nil {
        return Scan(code: code, finding: .isbn, book: nil, place: place.trimmingWhitespace(), scanned: now)
      }
      var finding = StocktakeFinding.unknown
      var rowID: Int64?
      let desk = try store.policy.deskName()
      if let book {
        // The copy's row, whether the check expects it and whether it was scanned before: one read.
        let facts = try database.queryFirst(
          """
          SELECT b.id,
            EXISTS (SELECT 1 FROM stocktake_expected WHERE stocktake_id = ?1 AND book_id = b.id),
            EXISTS (SELECT 1 FROM stocktake_scan WHERE stocktake_id = ?1 AND book_id = b.id)
          FROM book b WHERE b.uuid = ?2
          """, check.number, book.id.text
        ) { (row: $0.int64(0), expected: $0.int(1) == 1, before: $0.int(2) == 1) }
        rowID = facts?.row
        let expected = facts?.expected ?? false
        let before = facts?.before ?? false
        let loan = try store.books.currentLoan(bookID: book.id).map {
          (reader: $0.readerName, ticket: $0.readerTicket, since: clock.local($0.loan.issued).date)
        }
        finding = StocktakeCopy(
          place: book.place, status: book.status, loan: loan, expected: expected, scannedBefore: before
        ).finding(at: place)
      }
      try database.execute(
        """
        INSERT INTO stocktake_scan(uuid, stocktake_id, code, book_id, place, finding, scanned_at, desk, created_at)
        VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?7)
        """, RecordID.random().text, check.number, code, rowID.map { DatabaseValue.integer($0) } ?? .null,
        place.trimmingWhitespace(), finding.kind, now.iso, desk)
      return Scan(
        code: code, finding: finding, book: book, place: place.trimmingWhitespace(), scanned: now, desk: desk)
    }
  }

  /// What `check` has found so far: the scans by finding, and the expected copies missing.
  public func report(_ check: Check) throws(StoreError) -> Report {
    try read {
      let counts = try counts(check)
      // Accounted for without a scan: out on loan, on the hold shelf, or in processing.
      let scannedHere =
        "EXISTS (SELECT 1 FROM stocktake_scan s WHERE s.stocktake_id = e.stocktake_id AND s.book_id = b.id)"
      let accounted = "(\(scannedHere) OR \(StocktakeStore.away))"
      // Each expected copy read once, with whether it is missing: the missing decoded whole, every
      // one tallied by place and section (one pass: a hall of 100,000 copies in well under a second).
      var missing: [Book] = []
      var rows: [(place: String, section: String, missing: Bool)] = []
      var scanned = 0
      try database.forEachRow(
        """
        SELECT NOT \(accounted), b.place, b.bbk, \(scannedHere), \(LibraryStore.bookColumns)
        FROM stocktake_expected e JOIN book b ON b.id = e.book_id
        WHERE e.stocktake_id = ?
        ORDER BY b.place, b.bbk, b.sort_key, b.inventory
        """, check.number
      ) { row in
        let isMissing = row.int(0) == 1
        if isMissing { missing.append(try LibraryStore.decodeBook(row, from: 4)) }
        if row.int(3) == 1 { scanned += 1 }
        rows.append((row.string(1), StocktakeStore.section(of: row.string(2)), isMissing))
      }
      let present = rows.count - missing.count
      func tallies(_ key: ((place: String, section: String, missing: Bool)) -> String) -> [Tally] {
        var found: [String: Tally] = [:]
        for row in rows {
          let name = key(row)
          found[name, default: Tally(name: name, expected: 0, missing: 0)].expected += 1
          if row.missing { found[name]?.missing += 1 }
        }
        return found.values.sorted { $0.name < $1.name }
      }
      return Report(
        check: check, counts: counts, present: present, scanned: scanned, surprises: try surprises(check),
        missing: missing,
        byPlace: tallies { $0.place.isEmpty ? "—" : $0.place }, bySection: tallies { $0.section })
    }
  }

  /// Whether the copy `book b` is away from its shelf, yet present: out on loan, on the hold shelf,
  /// or in processing.
  static let away = """
    (EXISTS (SELECT 1 FROM loan l WHERE l.book_id = b.id AND l.returned_at IS NULL AND l.deleted = 0)
      OR EXISTS (SELECT 1 FROM hold h WHERE h.trapped_book_id = b.id AND h.state = 'waiting')
      OR b.status = 'processing')
    """

  /// The copies `check` expects that are away (out, on the hold shelf, in processing) and not
  /// scanned: present, yet not to be found on the shelves.
  public func awayUnscanned(_ check: Check) throws(StoreError) -> Int {
    try read {
      try database.scalarInt(
        """
        SELECT count(*) FROM stocktake_expected e JOIN book b ON b.id = e.book_id
        WHERE e.stocktake_id = ?1 AND \(StocktakeStore.away)
          AND NOT EXISTS (SELECT 1 FROM stocktake_scan s WHERE s.stocktake_id = ?1 AND s.book_id = b.id)
        """, check.number)
    }
  }

  /// What a check's counter shows, and the last scan it has counted: kept up to date by the scans
  /// made since (`counter(_:since:)`), so that neither a scan nor another desk's scans arriving
  /// count everything again (0.3 s at 100,000 scans and 100,000 copies expected).
  public struct Counter: Equatable, Sendable {
    /// Scans by their finding's kind, a copy once (`counts`).
    public var counts: [String: Int]
    /// Expected copies away from their shelves and not scanned (`awayUnscanned`).
    public var away: Int
    /// The row of the last scan counted.
    public var lastScan: Int64
  }

  /// The whole counter of `check`, every desk's scans.
  public func counter(_ check: Check) throws(StoreError) -> Counter {
    try read {
      Counter(
        counts: try counts(check), away: try awayUnscanned(check),
        lastScan: Int64(
          try database.scalarInt("SELECT coalesce(max(id), 0) FROM stocktake_scan WHERE stocktake_id = ?", check.number)
        ))
    }
  }

  /// `counter` with the scans kept since its last one (this desk's, and others' that arrived) counted
  /// in: each by the same rules as the whole count, read by its row and the index of the copy.
  public func counter(_ counter: Counter, since check: Check) throws(StoreError) -> Counter {
    try read {
      var next = counter
      try database.forEachRow(
        """
        SELECT s.id,
          CASE WHEN s.book_id IS NOT NULL AND EXISTS (SELECT 1 FROM stocktake_scan t
              WHERE t.stocktake_id = s.stocktake_id AND t.book_id = s.book_id AND t.id < s.id)
            THEN 'scanned-again' ELSE s.finding END,
          s.book_id IS NOT NULL AND EXISTS (SELECT 1 FROM stocktake_expected e
              WHERE e.stocktake_id = s.stocktake_id AND e.book_id = s.book_id)
            AND NOT EXISTS (SELECT 1 FROM stocktake_scan t
              WHERE t.stocktake_id = s.stocktake_id AND t.book_id = s.book_id AND t.id < s.id)
            AND \(StocktakeStore.away)
        FROM stocktake_scan s LEFT JOIN book b ON b.id = s.book_id
        WHERE s.stocktake_id = ? AND s.id > ? ORDER BY s.id
        """, check.number, counter.lastScan
      ) { row in
        next.lastScan = row.int64(0)
        next.counts[row.string(1), default: 0] += 1
        if row.int(2) == 1 { next.away = max(0, next.away - 1) }
      }
      return next
    }
  }

  /// The scans of `check` by their finding's kind (`StocktakeFinding.kind`), every desk's. A copy
  /// counts once, by its first scan: two desks that each scanned it before hearing of the other's
  /// scan each sorted it as the first; the later is a scan again.
  public func counts(_ check: Check) throws(StoreError) -> [String: Int] {
    try read {
      var counts: [String: Int] = [:]
      try database.forEachRow(
        """
        SELECT CASE WHEN s.book_id IS NULL OR s.id = (SELECT min(t.id) FROM stocktake_scan t
            WHERE t.stocktake_id = s.stocktake_id AND t.book_id = s.book_id)
          THEN s.finding ELSE 'scanned-again' END AS kind, count(*)
        FROM stocktake_scan s WHERE s.stocktake_id = ? GROUP BY kind
        """, check.number
      ) { counts[$0.string(0)] = $0.int(1) }
      return counts
    }
  }

  /// The last `limit` scans of `check`, the latest first, each told as it was sorted. What a
  /// finding names beyond its kind is as the library has it now: the record's place, the loan.
  public func recentScans(_ check: Check, limit: Int) throws(StoreError) -> [Scan] {
    try read { try scans("WHERE s.stocktake_id = ?1 ORDER BY s.id DESC LIMIT ?2", check.number, limit) }
  }

  /// The copies and numbers that surprised `check`, each once (its first scan, an unknown number
  /// by its first), by kind in `StocktakeFinding.kinds`' order, then as scanned.
  public func surprises(_ check: Check) throws(StoreError) -> [Scan] {
    let kinds = ["misplaced", "on-loan", "not-in-stock", "outside-check", "unknown"]
    return try read {
      let all = try scans(
        """
        WHERE s.stocktake_id = ?1 AND s.finding IN (\(kinds.map { "'\($0)'" }.joined(separator: ", ")))
          AND (s.book_id IS NULL OR s.id = (SELECT min(t.id) FROM stocktake_scan t
            WHERE t.stocktake_id = s.stocktake_id AND t.book_id = s.book_id))
        ORDER BY s.id
        """, check.number)
      // An unknown number scanned twice is one surprise.
      var numbers: Set<String> = []
      let once = all.filter { $0.book != nil || $0.finding.kind != "unknown" || numbers.insert($0.code).inserted }
      return kinds.flatMap { kind in once.filter { $0.finding.kind == kind } }
    }
  }

  /// Scans read back with their copies, `condition` on `stocktake_scan s`.
  private func scans(_ condition: String, _ arguments: any DatabaseValueConvertible...) throws -> [Scan] {
    let rows = try database.query(
      """
      SELECT s.code, s.finding, s.place, s.scanned_at, s.desk, b.id IS NOT NULL, \(LibraryStore.bookColumns)
      FROM stocktake_scan s LEFT JOIN book b ON b.id = s.book_id
      \(condition)
      """, arguments: arguments
    ) { row in
      (
        code: row.string(0), kind: row.string(1), place: row.string(2),
        scanned: Timestamp(iso: row.string(3)) ?? Timestamp(millisecondsSinceEpoch: 0), desk: row.string(4),
        book: row.int(5) == 1 ? try LibraryStore.decodeBook(row, from: 6) : nil
      )
    }
    return try rows.map { row in
      let (finding, settled) = try finding(kind: row.kind, book: row.book, code: row.code, place: row.place)
      return Scan(
        code: row.code, finding: finding, book: row.book, place: row.place, scanned: row.scanned, desk: row.desk,
        settled: settled)
    }
  }

  /// A kept scan's finding from its kind, with what it names read again, and whether it was dealt
  /// with since (its record moved, the copy returned or made available, the number added).
  private func finding(kind: String, book: Book?, code: String, place: String) throws -> (StocktakeFinding, Bool) {
    switch kind {
    case "found": return (.found, false)
    case "misplaced":
      let recorded = book?.place ?? ""
      return (
        .misplaced(recorded: recorded, actual: place), StocktakeScope.fold(recorded) == StocktakeScope.fold(place)
      )
    case "on-loan":
      guard let book, let loan = try store.books.currentLoan(bookID: book.id) else {
        return (.onLoan(reader: "", ticket: "", since: clock.now().date), true)
      }
      return (
        .onLoan(reader: loan.readerName, ticket: loan.readerTicket, since: clock.local(loan.loan.issued).date), false
      )
    case "not-in-stock":
      let status = book?.status ?? .lost
      return (.notInStock(status), status != .lost && status != .writtenOff)
    case "outside-check": return (.outsideCheck, false)
    case "scanned-again": return (.scannedAgain, false)
    default: return (.unknown, try store.books.findBook(inventory: code.identifierForm) != nil)
    }
  }

  /// True when some live copy's record names this storage place (in any case).
  public func isRecordedPlace(_ place: String) throws(StoreError) -> Bool {
    try read {
      if try database.scalarInt("SELECT EXISTS (SELECT 1 FROM book WHERE place = ? AND deleted = 0)", place) == 1 {
        return true
      }
      // Another case or spacing: the places compared as a check compares them (read only then).
      let folded = StocktakeScope.fold(place)
      var found = false
      try database.forEachRow("SELECT DISTINCT place FROM book WHERE deleted = 0") { row in
        if !found, StocktakeScope.fold(row.string(0)) == folded { found = true }
      }
      return found
    }
  }

  /// The act of `check` as it stands, for the commission to sign on `today`.
  public func act(_ check: Check) throws(StoreError) -> StocktakeAct {
    let report = try report(check)
    func copy(_ book: Book) -> StocktakeAct.Copy {
      StocktakeAct.Copy(
        inventory: book.inventoryNumber,
        author: book.author,
        title: book.title, place: book.place, shelfCode: book.bbk, price: book.price)
    }
    return StocktakeAct(
      library: try store.policy.libraryContacts(), number: check.number, name: check.name, scope: check.scope,
      started: clock.local(check.started).date, closed: check.closed.map { clock.local($0).date },
      expected: check.expected, present: report.present, foundOnShelves: report.scanned,
      surprises: report.surprises.map {
        StocktakeAct.Surprise(
          finding: $0.finding, code: $0.code, copy: $0.book.map(copy), foundAt: $0.place, settled: $0.settled)
      }, counts: report.counts, byPlace: report.byPlace, bySection: report.bySection, missing: report.missing.map(copy),
      today: clock.now().date)
  }

  /// The shelf-code section of a BBK index: its leading digits (`84` of `84(2Рос=Рус)6`).
  static func section(of index: String) -> String {
    let digits = index.trimmingWhitespace().prefix { $0.isASCII && $0.isNumber }
    return digits.isEmpty ? "—" : String(digits)
  }

  /// Closes `check`: no more scans go into it, and each copy it found in hand keeps the day as its
  /// last check. With `markingMissingLost` (the librarian has confirmed it) the copies missing
  /// then are recorded as lost. Returns how many were missing.
  @discardableResult
  public func close(_ check: Check, markingMissingLost: Bool = false) throws(StoreError) -> Int {
    try write {
      // Counted in the close's own transaction: a scan made meanwhile is never taken for missing.
      let missing = try report(check).missing
      let now = clock.now().instant.iso
      try database.execute("UPDATE stocktake SET closed_at = ? WHERE id = ? AND closed_at IS NULL", now, check.number)
      try database.execute(
        """
        UPDATE book SET last_checked = ?1, updated_at = ?2
        WHERE id IN (SELECT book_id FROM stocktake_scan WHERE stocktake_id = ?3 AND book_id IS NOT NULL
            AND finding IN ('found', 'misplaced', 'on-loan', 'not-in-stock'))
          AND last_checked IS NOT ?1
        """, clock.now().date.iso, now, check.number)
      for book in missing where markingMissingLost {
        try database.execute(
          "UPDATE book SET status = 'lost', updated_at = ? WHERE uuid = ? AND status <> 'lost'", now, book.id.text)
      }
      return missing.count
    }
  }
}

extension LibraryStore {
  public var stocktakes: StocktakeStore { StocktakeStore(store: self) }
}
