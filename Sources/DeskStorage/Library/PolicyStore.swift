import DeskDomain

/// The keys of the library's settings.
enum SettingKey: String, CaseIterable {
  case dueDateMode = "due_date_mode"
  case closedWeekdays = "closed_weekdays"
  case blockOnOverdue = "block_on_overdue"
  case renewalBase = "renewal_base"
  case defaultCategory = "default_category"
  case deskName = "desk_name"
  case demo = "demo_library"
  case readerCodePrefix = "reader_code_prefix"
  case bookCodePrefix = "book_code_prefix"
  case scannerMaximumGap = "scanner_max_gap_ms"
  case scannerMinimumLength = "scanner_min_length"
  case scannerPrefix = "scanner_prefix"
  case scannerSuffix = "scanner_suffix"
  case bell = "bell"
  case syncInterval = "sync_interval_s"
  case holdPickupDays = "hold_pickup_days"
}

/// The circulation policy: reader categories, library-wide settings and the holiday calendar,
/// all kept in the database so that every desk on the file follows the same rules.
extension PolicyStore {
  /// True for a library made by `circdesk demo`, which may be replaced by a fresh demo.
  public func isDemoLibrary() throws(StoreError) -> Bool {
    try read {
      try database.scalarInt("SELECT count(*) FROM setting WHERE key = ? AND value = '1'", SettingKey.demo.rawValue) > 0
    }
  }

  public func markAsDemoLibrary() throws(StoreError) {
    try write {
      try database.execute(
        "INSERT INTO setting(key, value) VALUES (?, '1') ON CONFLICT(key) DO UPDATE SET value = '1'",
        SettingKey.demo.rawValue)
    }
  }

  func seedPolicy() throws {
    for category in ReaderCategory.defaults {
      try save(category)
    }
    try save(CirculationPolicy())
  }

  public func categories() throws(StoreError) -> [ReaderCategory] {
    try read {
      try database.query("SELECT \(CategoryColumn.list) FROM category ORDER BY code") {
        ReaderCategory(
          code: $0.string(CategoryColumn.code), name: $0.string(CategoryColumn.name),
          loanDays: $0.int(CategoryColumn.loanDays), loanLimit: $0.int(CategoryColumn.loanLimit),
          renewalLimit: $0.int(CategoryColumn.renewalLimit), holdLimit: $0.int(CategoryColumn.holdLimit),
          writtenAs: ReaderCategory.writtenNames($0.string(CategoryColumn.writtenAs)))
      }
    }
  }

  public func category(code: String) throws(StoreError) -> ReaderCategory? {
    try categories().first { $0.code == code }
  }

  /// This desk's name, alone: what a loan, a visit or a hold records without the whole policy.
  public func deskName() throws(StoreError) -> String {
    if let acting = store.actingDesk { return acting }
    return try read {
      try database.queryFirst("SELECT value FROM setting WHERE key = ?", SettingKey.deskName.rawValue) {
        $0.string(0)
      } ?? CirculationPolicy().deskName
    }
  }

  public func current() throws(StoreError) -> CirculationPolicy {
    try read {
      let settings = Dictionary(
        try database.query("SELECT key, value FROM setting") { ($0.string(0), $0.string(1)) },
        uniquingKeysWith: { first, _ in first })
      let holidays = try database.query("SELECT day FROM holiday") { LocalDate(iso: $0.string(0)) }
      var policy = CirculationPolicy()
      if let mode = settings[SettingKey.dueDateMode.rawValue].flatMap(DueDateMode.init(rawValue:)) {
        policy.dueDateMode = mode
      }
      if let days = settings[SettingKey.closedWeekdays.rawValue] {
        policy.calendar.closedWeekdays = Set(days.split(separator: ",").compactMap { Weekday(name: String($0)) })
      }
      policy.calendar.holidays = Set(holidays.compactMap { $0 })
      if let block = settings[SettingKey.blockOnOverdue.rawValue] { policy.blockOnOverdue = block == "1" }
      if let base = settings[SettingKey.renewalBase.rawValue].flatMap(RenewalBase.init(rawValue:)) {
        policy.renewalBase = base
      }
      if let category = settings[SettingKey.defaultCategory.rawValue] { policy.defaultCategory = category }
      if let desk = store.actingDesk ?? settings[SettingKey.deskName.rawValue] { policy.deskName = desk }
      policy.readerCodePrefix = settings[SettingKey.readerCodePrefix.rawValue] ?? ""
      policy.bookCodePrefix = settings[SettingKey.bookCodePrefix.rawValue] ?? ""
      if let gap = settings[SettingKey.scannerMaximumGap.rawValue].flatMap(Int.init) {
        policy.scannerMaximumGapMilliseconds = gap
      }
      if let length = settings[SettingKey.scannerMinimumLength.rawValue].flatMap(Int.init) {
        policy.scannerMinimumLength = length
      }
      policy.scannerPrefix = settings[SettingKey.scannerPrefix.rawValue] ?? ""
      policy.scannerSuffix = settings[SettingKey.scannerSuffix.rawValue] ?? ""
      if let bell = settings[SettingKey.bell.rawValue] { policy.bell = bell == "1" }
      if let days = settings[SettingKey.holdPickupDays.rawValue].flatMap(Int.init) { policy.holdPickupDays = days }
      if let interval = settings[SettingKey.syncInterval.rawValue].flatMap(Int.init) {
        policy.syncIntervalSeconds = interval
      }
      return policy
    }
  }

  /// Saves the library-wide settings. Holidays are saved with `addHoliday`/`removeHoliday`.
  public func setCurrent(_ policy: CirculationPolicy) throws(StoreError) {
    try write {
      guard try database.scalarInt("SELECT count(*) FROM category WHERE code = ?", policy.defaultCategory) > 0 else {
        throw StoreError.categoryNotFound(policy.defaultCategory)
      }
      guard policy.calendar.closedWeekdays.count < 7 else {
        throw StoreError.invalidSetting([.closedEveryDay])
      }
      guard (1...1000).contains(policy.scannerMaximumGapMilliseconds), (1...100).contains(policy.scannerMinimumLength)
      else {
        throw StoreError.invalidSetting([.scannerLimits])
      }
      guard (1...3600).contains(policy.syncIntervalSeconds) else {
        throw StoreError.invalidSetting([.syncInterval])
      }
      guard (1...365).contains(policy.holdPickupDays) else { throw StoreError.invalidSetting([.holdPickupDays]) }
      try save(policy)
    }
  }

  private func save(_ policy: CirculationPolicy) throws {
    let closed = Weekday.allCases.filter(policy.calendar.closedWeekdays.contains).map(\.shortName)
    let values: [(SettingKey, String)] = [
      (.dueDateMode, policy.dueDateMode.rawValue), (.closedWeekdays, closed.joined(separator: ",")),
      (.blockOnOverdue, policy.blockOnOverdue ? "1" : "0"), (.renewalBase, policy.renewalBase.rawValue),
      (.defaultCategory, policy.defaultCategory), (.deskName, policy.deskName),
      (.readerCodePrefix, policy.readerCodePrefix), (.bookCodePrefix, policy.bookCodePrefix),
      (.scannerMaximumGap, String(policy.scannerMaximumGapMilliseconds)),
      (.scannerMinimumLength, String(policy.scannerMinimumLength)),
      (.scannerPrefix, policy.scannerPrefix), (.scannerSuffix, policy.scannerSuffix),
      (.bell, policy.bell ? "1" : "0"), (.syncInterval, String(policy.syncIntervalSeconds)),
      (.holdPickupDays, String(policy.holdPickupDays)),
    ]
    for (key, value) in values {
      try database.execute(
        "INSERT INTO setting(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
        key.rawValue, value)
    }
  }

  /// Adds or changes a category.
  public func setCategory(_ category: ReaderCategory) throws(StoreError) {
    var problems: [SettingProblem] = []
    if category.code.trimmingWhitespace().isEmpty { problems.append(.categoryWithoutCode) }
    if !(1...3650).contains(category.loanDays) { problems.append(.loanDays) }
    if category.loanLimit < 0 { problems.append(.negativeLoanLimit) }
    if category.renewalLimit < 0 { problems.append(.negativeRenewalLimit) }
    if category.holdLimit < 0 { problems.append(.negativeHoldLimit) }
    guard problems.isEmpty else { throw .invalidSetting(problems) }
    try write { try save(category) }
  }

  private func save(_ category: ReaderCategory) throws {
    try database.execute(
      """
      INSERT INTO category(code, name, loan_days, loan_limit, renewal_limit, hold_limit, written_as)
      VALUES (?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT(code) DO UPDATE SET name = excluded.name, loan_days = excluded.loan_days,
        loan_limit = excluded.loan_limit, renewal_limit = excluded.renewal_limit, hold_limit = excluded.hold_limit,
        written_as = excluded.written_as
      """, category.code, category.name, category.loanDays, category.loanLimit, category.renewalLimit,
      category.holdLimit, category.writtenAsText)
  }

  /// Removes a category no reader belongs to.
  public func removeCategory(code: String) throws(StoreError) {
    try write {
      guard try database.scalarInt("SELECT count(*) FROM category WHERE code = ?", code) > 0 else {
        throw StoreError.categoryNotFound(code)
      }
      let readers = try database.scalarInt("SELECT count(*) FROM reader WHERE category = ? AND deleted = 0", code)
      guard readers == 0 else { throw StoreError.categoryInUse(code: code, readers: readers) }
      let isDefault = try database.scalarInt(
        "SELECT count(*) FROM setting WHERE key = ? AND value = ?", SettingKey.defaultCategory.rawValue, code)
      guard isDefault == 0 else {
        throw StoreError.invalidSetting([.removingDefaultCategory(code)])
      }
      try database.execute("DELETE FROM category WHERE code = ?", code)
    }
  }

  public func addHoliday(_ day: LocalDate, name: String = "") throws(StoreError) {
    try write {
      try database.execute(
        "INSERT INTO holiday(day, name) VALUES (?, ?) ON CONFLICT(day) DO UPDATE SET name = excluded.name",
        day.iso, name)
    }
  }

  public func removeHoliday(_ day: LocalDate) throws(StoreError) {
    try write { try database.execute("DELETE FROM holiday WHERE day = ?", day.iso) }
  }

  public func holidays() throws(StoreError) -> [(day: LocalDate, name: String)] {
    try read {
      try database.query("SELECT \(HolidayColumn.list) FROM holiday ORDER BY day") { row in
        (try row.date(HolidayColumn.day), row.string(HolidayColumn.name))
      }
    }
  }

  /// A setting of the library by its key, or nil.
  public func setting(_ key: String) throws(StoreError) -> String? {
    try read { try database.queryFirst("SELECT value FROM setting WHERE key = ?", key) { $0.string(0) } }
  }

  public func setSetting(_ key: String, _ value: String) throws(StoreError) {
    try write {
      try database.execute(
        "INSERT INTO setting(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value", key,
        value)
    }
  }

  /// The library's own name and contacts, printed on notices and receipts.
  enum ContactKey: String {
    case name = "library_name"
    case address = "library_address"
    case phone = "library_phone"
    case email = "library_email"
  }

  public func libraryContacts() throws(StoreError) -> LibraryContacts {
    LibraryContacts(
      name: try setting(ContactKey.name.rawValue) ?? "", address: try setting(ContactKey.address.rawValue) ?? "",
      phone: try setting(ContactKey.phone.rawValue) ?? "", email: try setting(ContactKey.email.rawValue) ?? "")
  }

  public func setLibraryContacts(_ contacts: LibraryContacts) throws(StoreError) {
    try write {
      try setSetting(ContactKey.name.rawValue, contacts.name)
      try setSetting(ContactKey.address.rawValue, contacts.address)
      try setSetting(ContactKey.phone.rawValue, contacts.phone)
      try setSetting(ContactKey.email.rawValue, contacts.email)
    }
  }
}

/// The columns of `holiday`.
enum HolidayColumn: Int32, SelectedColumn {
  case day, name

  var sql: String { columnName }
}

/// The columns of `category`.
enum CategoryColumn: Int32, SelectedColumn {
  case code, name, loanDays, loanLimit, renewalLimit, holdLimit, writtenAs

  var sql: String { columnName }
}
