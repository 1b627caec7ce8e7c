import DeskDomain

/// A reader as lists show them: the record, how many books they hold and how many are overdue.
public struct ReaderListing: Hashable, Sendable {
  public var reader: Reader
  public var booksOut: Int
  public var overdue: Int

  public init(reader: Reader, booksOut: Int, overdue: Int) {
    self.reader = reader
    self.booksOut = booksOut
    self.overdue = overdue
  }
}

/// The columns of a reader, `reader r`, in the order `readerColumns` selects them.
enum ReaderColumn: Int32, SelectedColumn {
  case id, uuid, ticket, surname, firstName, patronymic, birthYear, phone, email, category, registered, createdAt
  case updatedAt

  var sql: String { column(of: "r") }
}

/// The columns of a reader's address, `address a`, after the reader's.
enum AddressColumn: Int32, SelectedColumn {
  case uuid, phone, postcode, city, street, house, flat

  var sql: String { column(of: "a") }
}

extension ReaderStore {
  static let readerColumns = ReaderColumn.list + ", " + AddressColumn.list
  /// Where the columns a query selects after a reader's begin.
  static let readerColumnCount = ReaderColumn.count + AddressColumn.count
  static let readerFrom = "reader r LEFT JOIN address a ON a.id = r.address_id"

  static func decodeReader(_ row: Row, from start: Int32 = 0) throws -> Reader {
    let at = start + ReaderColumn.count
    let address =
      row.isNull(AddressColumn.uuid, from: at)
      ? nil
      : Address(
        id: RecordID(row.string(AddressColumn.uuid, from: at)), phone: row.string(AddressColumn.phone, from: at),
        postcode: row.string(AddressColumn.postcode, from: at), city: row.string(AddressColumn.city, from: at),
        street: row.string(AddressColumn.street, from: at), house: row.string(AddressColumn.house, from: at),
        flat: row.string(AddressColumn.flat, from: at))
    return Reader(
      id: RecordID(row.string(ReaderColumn.uuid, from: start)), ticket: row.string(ReaderColumn.ticket, from: start),
      surname: row.string(ReaderColumn.surname, from: start),
      firstName: row.string(ReaderColumn.firstName, from: start),
      patronymic: row.string(ReaderColumn.patronymic, from: start),
      birthYear: row.optionalInt(ReaderColumn.birthYear, from: start),
      phone: row.string(ReaderColumn.phone, from: start),
      email: row.string(ReaderColumn.email, from: start), category: row.string(ReaderColumn.category, from: start),
      registered: try row.date(ReaderColumn.registered, from: start), address: address,
      created: try row.timestamp(ReaderColumn.createdAt, from: start),
      updated: try row.timestamp(ReaderColumn.updatedAt, from: start))
  }

  /// Up to `limit` tickets that begin with `prefix`, in order: what a shell's completion offers.
  public func tickets(startingWith prefix: String, limit: Int) throws(StoreError) -> [String] {
    try read {
      try database.query(
        "SELECT ticket FROM reader WHERE ticket >= ? AND ticket < ? AND deleted = 0 ORDER BY ticket LIMIT ?",
        prefix, prefix + "\u{10FFFF}", limit
      ) { $0.string(0) }
    }
  }

  public func reader(ticket: String) throws(StoreError) -> Reader? {
    try read { try findReader(ticket: ticket.identifierForm) }
  }

  /// The reader with this identity: the one meant even while two desks' readers share a ticket.
  public func reader(id: RecordID) throws(StoreError) -> Reader? {
    try read {
      try database.queryFirst(
        "SELECT \(ReaderStore.readerColumns) FROM \(ReaderStore.readerFrom) WHERE r.uuid = ? AND r.deleted = 0",
        id.text
      ) { try ReaderStore.decodeReader($0) }
    }
  }

  func findReader(ticket: String) throws -> Reader? {
    try database.queryFirst(
      "SELECT \(ReaderStore.readerColumns) FROM \(ReaderStore.readerFrom) WHERE r.ticket = ? AND r.deleted = 0",
      ticket
    ) { try ReaderStore.decodeReader($0) }
  }

  /// The address already kept for this phone number, if any: a new reader of the same household
  /// can take it as it is.
  public func address(phone: String) throws(StoreError) -> Address? {
    try read { try findAddress(phoneKey: Address.phoneKey(phone))?.address }
  }

  func findAddress(phoneKey: String) throws -> (rowID: Int64, address: Address)? {
    guard !phoneKey.isEmpty else { return nil }
    return try database.queryFirst(
      "SELECT id, uuid, phone, postcode, city, street, house, flat FROM address WHERE phone_key = ? AND deleted = 0",
      phoneKey
    ) { row in
      (
        row.int64(0),
        Address(
          id: RecordID(row.string(1)), phone: row.string(2), postcode: row.string(3), city: row.string(4),
          street: row.string(5), house: row.string(6), flat: row.string(7))
      )
    }
  }

  @discardableResult
  public func add(_ draft: ReaderDraft) throws(StoreError) -> Reader {
    try saveReader(draft, base: nil)
  }

  @discardableResult
  public func update(ticket: String, _ edit: (inout ReaderDraft) -> Void) throws(StoreError) -> Reader {
    let current: Reader
    do {
      guard let found = try findReader(ticket: ticket.identifierForm) else {
        throw StoreError.readerNotFound(ticket)
      }
      current = found
    } catch let error as StoreError {
      throw error
    } catch {
      throw .database(error as? DatabaseError ?? DatabaseError(extendedCode: 1, message: "\(error)"))
    }
    var draft = ReaderDraft(current)
    edit(&draft)
    return try saveReader(draft, base: current)
  }

  private func saveReader(_ draft: ReaderDraft, base: Reader?) throws(StoreError) -> Reader {
    let moment = clock.now()
    return try write {
      let policy = try store.policy.current()
      let codes = try store.policy.categories().map(\.code)
      // Every problem at once: the fields', and a ticket that another reader already has.
      var errors: [ValidationError] = []
      let ticket = draft.ticket.identifierForm
      if !ticket.isEmpty,
        let other = try database.queryFirst(
          "SELECT surname, first_name, patronymic FROM reader WHERE ticket = ? AND deleted = 0 AND uuid <> ?",
          ticket, base?.id.text ?? "",
          read: { Reader.shortName(surname: $0.string(0), firstName: $0.string(1), patronymic: $0.string(2)) })
      {
        errors.append(.duplicateTicket(ticket, reader: other))
      }
      var reader: Reader
      do throws(ValidationErrors) {
        reader = try draft.validated(
          base: base, categories: codes, defaultCategory: policy.defaultCategory, today: moment.date,
          now: moment.instant)
      } catch {
        throw StoreError.invalid(ValidationErrors(errors + error.errors))
      }
      guard errors.isEmpty else { throw StoreError.invalid(ValidationErrors(errors)) }
      let addressRowID = try saveAddress(of: &reader, base: base, now: moment.instant)
      let values: [any DatabaseValueConvertible] = [
        reader.ticket, reader.surname, reader.firstName, reader.patronymic, reader.birthYear, reader.phone,
        reader.email, reader.category, reader.registered.iso, addressRowID, reader.sortKey, reader.searchText,
        reader.updated.iso,
      ]
      if base == nil {
        try database.execute(
          """
          INSERT INTO reader(ticket, surname, first_name, patronymic, birth_year, phone, email, category,
            registered, address_id, sort_key, search_text, updated_at, uuid, created_at)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
          """, arguments: values + [reader.id.text, reader.created.iso])
      } else {
        try database.execute(
          """
          UPDATE reader SET ticket = ?, surname = ?, first_name = ?, patronymic = ?, birth_year = ?,
            phone = ?, email = ?, category = ?, registered = ?, address_id = ?, sort_key = ?,
            search_text = ?, updated_at = ?
          WHERE uuid = ?
          """, arguments: values + [reader.id.text])
      }
      return reader
    }
  }

  /// Links the reader to the address kept for their phone. A phone with no address yet gets the
  /// one typed; a phone that has one keeps it when nothing (or the same) was typed, and takes
  /// the change when this reader already lives there (the household moved). Another household's
  /// address is never overwritten: that is a conflict the librarian must resolve.
  private func saveAddress(of reader: inout Reader, base: Reader?, now: Timestamp) throws -> Int64? {
    guard let typed = reader.address else { return nil }
    if let (rowID, existing) = try findAddress(phoneKey: typed.phoneKey) {
      if !typed.hasLocation || typed.sameLocation(as: existing) {
        reader.address = existing
        return rowID
      }
      guard base?.address?.id == existing.id else {
        throw StoreError.invalid(
          ValidationErrors([.addressConflict(phone: typed.phone, existing: existing.singleLine)]))
      }
      var changed = typed
      changed.id = existing.id
      try database.execute(
        """
        UPDATE address SET phone = ?, postcode = ?, city = ?, street = ?, house = ?, flat = ?, updated_at = ?
        WHERE id = ?
        """, changed.phone, changed.postcode, changed.city, changed.street, changed.house, changed.flat, now.iso,
        rowID)
      reader.address = changed
      return rowID
    }
    guard typed.hasLocation else {
      reader.address = nil
      return nil
    }
    var fresh = typed
    fresh.id = .random()
    try database.execute(
      """
      INSERT INTO address(uuid, phone, phone_key, postcode, city, street, house, flat, created_at, updated_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      """, fresh.id.text, fresh.phone, fresh.phoneKey, fresh.postcode, fresh.city, fresh.street, fresh.house,
      fresh.flat, now.iso, now.iso)
    reader.address = fresh
    return database.lastInsertedRowID
  }

  /// Marks a reader deleted. Refused while they hold books; their loan history stays.
  public func delete(ticket: String) throws(StoreError) {
    let now = clock.now().instant
    try write {
      guard let reader = try findReader(ticket: ticket.identifierForm) else {
        throw StoreError.readerNotFound(ticket)
      }
      let out = try database.scalarInt(
        """
        SELECT count(*) FROM loan l JOIN reader r ON r.id = l.reader_id
        WHERE r.uuid = ? AND l.returned_at IS NULL AND l.deleted = 0
        """, reader.id.text)
      guard out == 0 else { throw StoreError.readerHasBooks(reader: reader.fullName, count: out) }
      try store.holds.cancelHolds(ofReader: reader.id.text)
      try database.execute("UPDATE reader SET deleted = 1, updated_at = ? WHERE uuid = ?", now.iso, reader.id.text)
    }
  }

  /// One page of the reader list, sorted by surname, first name and patronymic.
  public func page(
    filter: ReaderFilter = .all, search: String = "", position: PagePosition = .first, limit: Int = 40
  ) throws(StoreError) -> [ReaderListing] {
    var conditions = ["r.deleted = 0"]
    var arguments: [any DatabaseValueConvertible] = [today.iso]
    if filter == .overdue { conditions.append(ReaderStore.holdsOverdue) }
    if let (condition, values) = try store.searchCondition(search, table: "reader", alias: "r", capped: true) {
      conditions.append(condition)
      arguments += values
    }
    let descending = BookStore.keyset(position, alias: "r", conditions: &conditions, arguments: &arguments)
    arguments.append(max(0, limit))
    let sql = """
      SELECT \(ReaderStore.readerColumns),
        (SELECT count(*) FROM loan l WHERE l.reader_id = r.id AND l.returned_at IS NULL AND l.deleted = 0),
        (SELECT count(*) FROM loan l WHERE l.reader_id = r.id AND l.returned_at IS NULL AND l.deleted = 0
           AND l.due_date < ?1)
      FROM \(ReaderStore.readerFrom)
      WHERE \(conditions.joined(separator: " AND "))
      ORDER BY r.sort_key \(descending ? "DESC" : "ASC") LIMIT ?
      """
    let rows = try read {
      try database.query(sql, arguments: arguments) { row in
        ReaderListing(
          reader: try ReaderStore.decodeReader(row), booksOut: row.int(ReaderStore.readerColumnCount),
          overdue: row.int(ReaderStore.readerColumnCount + 1))
      }
    }
    return descending ? rows.reversed() : rows
  }

  /// The condition that reader `r` holds a book due before the first argument.
  static let holdsOverdue = """
    EXISTS (SELECT 1 FROM loan l WHERE l.reader_id = r.id AND l.returned_at IS NULL AND l.deleted = 0
      AND l.due_date < ?1)
    """

  public func count() throws(StoreError) -> Int {
    try read { try database.scalarInt("SELECT value FROM counter WHERE name = 'readers'") }
  }
}
