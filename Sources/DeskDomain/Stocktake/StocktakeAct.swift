/// Expected and missing copies of one storage place or shelf-code section of a check.
public struct StocktakeTally: Equatable, Sendable {
  public var name: String
  public var expected: Int
  public var missing: Int

  public init(name: String, expected: Int, missing: Int) {
    (self.name, self.expected, self.missing) = (name, expected, missing)
  }
}

/// The act of a check of the stock, for the commission to sign: the library, the check's dates
/// and scope, the totals (with the value of what is missing, for the accountant), the tallies by
/// place and by section, each missing copy, and the lines for the signatures. Plain text of at
/// most `width` columns, to print as it is or to make a PDF of.
public struct StocktakeAct: Sendable {
  public struct Copy: Sendable {
    public var inventory: String
    public var author: String
    public var title: String
    public var place: String
    public var shelfCode: String
    public var price: Money?

    public init(inventory: String, author: String, title: String, place: String, shelfCode: String, price: Money?) {
      (self.inventory, self.author, self.title, self.place, self.shelfCode, self.price) =
        (inventory, author, title, place, shelfCode, price)
    }
  }

  /// A copy or number that surprised the check, as the act lists it.
  public struct Surprise: Sendable {
    public var finding: StocktakeFinding
    /// The number scanned.
    public var code: String
    /// The copy it names, as its record is now; nil for a number the library had no copy with.
    public var copy: Copy?
    /// Where it was scanned.
    public var foundAt: String
    /// Dealt with since: the record moved, the copy returned or made available, the number added.
    public var settled: Bool

    public init(finding: StocktakeFinding, code: String, copy: Copy?, foundAt: String, settled: Bool) {
      (self.finding, self.code, self.copy, self.foundAt, self.settled) = (finding, code, copy, foundAt, settled)
    }
  }

  public var library: LibraryContacts
  public var number: Int
  public var name: String
  /// What the check covered, in words (`StocktakeScope.description`).
  public var scope: StocktakeScope
  public var started: LocalDate
  public var closed: LocalDate?
  public var expected: Int
  public var present: Int
  /// The present copies found on the shelves (the rest were out, on the hold shelf, in processing).
  public var foundOnShelves: Int
  public var surprises: [Surprise]
  /// Scans by their finding's kind (`StocktakeFinding.kinds`).
  public var counts: [String: Int]
  public var byPlace: [StocktakeTally]
  public var bySection: [StocktakeTally]
  public var missing: [Copy]
  /// The day the act is drawn up.
  public var today: LocalDate

  public static let width = 78

  public init(
    library: LibraryContacts, number: Int, name: String, scope: StocktakeScope, started: LocalDate,
    closed: LocalDate?, expected: Int, present: Int, foundOnShelves: Int, surprises: [Surprise],
    counts: [String: Int], byPlace: [StocktakeTally], bySection: [StocktakeTally], missing: [Copy], today: LocalDate
  ) {
    self.foundOnShelves = foundOnShelves
    self.surprises = surprises
    self.library = library
    self.number = number
    self.name = name
    self.scope = scope
    self.started = started
    self.closed = closed
    self.expected = expected
    self.present = present
    self.counts = counts
    self.byPlace = byPlace
    self.bySection = bySection
    self.missing = missing
    self.today = today
  }

  /// The name of a check opened without one: by its day, in the librarian's language.
  public static func defaultName(on day: LocalDate, in language: OverdueNotice.Language) -> String {
    language == .russian ? "Проверка от \(day.iso)" : "Check of \(day.iso)"
  }

  /// The missing copies' value: the sum of the prices known, and how many have none.
  public var missingValue: (sum: Money, unpriced: Int) {
    let minor = missing.compactMap(\.price?.minorUnits).reduce(0, +)
    return (Money(minorUnits: minor), missing.filter { $0.price == nil }.count)
  }

  public func text(in language: OverdueNotice.Language) -> String {
    let words = Words(language)
    var lines: [String] = []
    func centred(_ text: String) -> String {
      String(repeating: " ", count: max(0, (Self.width - text.displayWidth) / 2)) + text
    }
    if !library.name.isEmpty { lines.append(centred(library.name)) }
    if !library.address.isEmpty { lines.append(centred(library.address)) }
    lines += ["", centred(words.act), centred(words.actSubtitle), ""]
    lines += wrap(words.check(number, name), width: Self.width)
    lines.append(words.dates(started, closed))
    lines += wrap(words.scope(scope), width: Self.width)
    lines.append("")

    let found = foundOnShelves
    let (value, unpriced) = missingValue
    var totals: [(String, String)] = [
      (words.expected, String(expected)), (words.present, String(present)),
      ("  " + words.foundOnShelves, String(found)), ("  " + words.accountedFor, String(max(0, present - found))),
      (words.missingTotal, String(missing.count)),
    ]
    if !missing.isEmpty {
      totals.append((words.missingValue(unpriced), value.description))
    }
    for (kind, label) in words.surprises where (counts[kind] ?? 0) > 0 {
      totals.append((label, String(counts[kind] ?? 0)))
    }
    let labelWidth = totals.map(\.0.displayWidth).max() ?? 0
    lines.append(words.totals)
    for (label, value) in totals {
      lines.append("  " + label.padded(toWidth: labelWidth) + "  " + value.rightAligned(toWidth: 10))
    }
    for (title, tallies) in [(words.byPlace, byPlace), (words.bySection, bySection)] where !tallies.isEmpty {
      lines.append("")
      let nameWidth = min(46, max(title.displayWidth, tallies.map(\.name.displayWidth).max() ?? 0))
      lines.append(
        "  " + title.padded(toWidth: nameWidth) + "  " + words.expectedColumn.rightAligned(toWidth: 12) + "  "
          + words.missingColumn.rightAligned(toWidth: 12))
      for tally in tallies {
        // A long name wraps under itself: an act cuts nothing.
        let names = wrap(tally.name, width: nameWidth)
        lines.append(
          "  " + (names.first ?? "").padded(toWidth: nameWidth) + "  "
            + String(tally.expected).rightAligned(toWidth: 12) + "  " + String(tally.missing).rightAligned(toWidth: 12))
        lines += names.dropFirst().map { "  " + $0 }
      }
    }
    // Each surprise by kind, under the same words as its count.
    for (kind, label) in words.surprises {
      let listed = surprises.filter { $0.finding.kind == kind }
      guard !listed.isEmpty else { continue }
      lines += ["", "\(label) (\(listed.count)):"]
      lines += numbered(
        listed.map { surprise in
          let what =
            surprise.copy.map { copy in
              ([words.inventory(copy.inventory), copy.author, "«\(copy.title)»"]).filter { !$0.isEmpty && $0 != "«»" }
                .joined(separator: ", ")
            } ?? words.number(surprise.code)
          return (what, words.detail(surprise))
        })
    }
    lines.append("")
    if missing.isEmpty {
      lines.append(words.noneMissing)
    } else {
      lines.append(words.missingList(missing.count))
      lines += numbered(
        missing.map { copy in
          (
            [copy.author, "«\(copy.title)»"].filter { !$0.isEmpty }.joined(separator: ", "),
            [words.inventory(copy.inventory), copy.place, copy.shelfCode, copy.price.map { words.price($0) } ?? ""]
              .filter { !$0.isEmpty }.joined(separator: "; ")
          )
        })
    }
    lines += ["", words.commission]
    let blank = String(repeating: "_", count: 24)
    for role in words.roles {
      lines += ["", "  " + role.padded(toWidth: 22) + "  " + blank + "  /" + blank + "/"]
    }
    lines += ["", words.drawnUp(today)]
    // Text that came from outside (names, titles, places) never carries a control character.
    return lines.map { String($0.unicodeScalars.filter { $0.properties.generalCategory != .control }) }
      .joined(separator: "\n") + "\n"
  }

  /// A numbered list, each item's two parts wrapped under its number.
  private func numbered(_ items: [(String, String)]) -> [String] {
    let numberWidth = String(items.count).count + 2
    var lines: [String] = []
    for (index, item) in items.enumerated() {
      let lead = "\(index + 1).".padded(toWidth: numberWidth) + " "
      let indent = String(repeating: " ", count: lead.count + 2)
      let body = [item.0, item.1].filter { !$0.isEmpty }.flatMap { wrap($0, width: Self.width - indent.count) }
      for (number, line) in body.enumerated() {
        lines.append((number == 0 ? "  " + lead : indent) + line)
      }
    }
    return lines
  }

  /// The act's words in each language.
  struct Words {
    let language: OverdueNotice.Language
    init(_ language: OverdueNotice.Language) { self.language = language }

    var russian: Bool { language == .russian }
    var act: String { russian ? "АКТ" : "STOCKTAKING REPORT" }
    var actSubtitle: String {
      russian ? "о результатах проверки библиотечного фонда" : "of a check of the library stock"
    }
    func check(_ number: Int, _ name: String) -> String {
      russian ? "Проверка № \(number) «\(name)»" : "Check no. \(number) «\(name)»"
    }
    func dates(_ started: LocalDate, _ closed: LocalDate?) -> String {
      if russian {
        return "Начата: \(OverdueNotice.russianDate(started)); "
          + (closed.map { "окончена: \(OverdueNotice.russianDate($0))" } ?? "не окончена")
      }
      return "Started: \(OverdueNotice.englishDate(started)); "
        + (closed.map { "closed: \(OverdueNotice.englishDate($0))" } ?? "not closed")
    }
    func scope(_ scope: StocktakeScope) -> String {
      let places = scope.placePrefixes.isEmpty ? nil : scope.placePrefixes.map { "«\($0)»" }.joined(separator: ", ")
      let codes = scope.shelfCodes.map { range in
        range.lowerBound + "…" + (range.upperBound == "\u{10FFFF}" ? "" : range.upperBound)
      }
      let parts =
        russian
        ? [places.map { "места хранения, названия которых начинаются с \($0)" }, codes.map { "шифры \($0)" }]
        : [places.map { "storage places whose names begin with \($0)" }, codes.map { "shelf codes \($0)" }]
      let said = parts.compactMap { $0 }.joined(separator: "; ")
      if russian { return "Проверено: " + (said.isEmpty ? "весь фонд" : said) }
      return "Covered: " + (said.isEmpty ? "the whole stock" : said)
    }
    var totals: String { russian ? "Итоги" : "Totals" }
    var expected: String { russian ? "Числится по каталогу" : "Expected by the catalogue" }
    var present: String { russian ? "В наличии" : "Present" }
    var foundOnShelves: String { russian ? "найдено на полках" : "found on the shelves" }
    var accountedFor: String {
      russian ? "выдано, на полке броней, в обработке" : "on loan, on the hold shelf, in processing"
    }
    var missingTotal: String { russian ? "Недостаёт" : "Missing" }
    func missingValue(_ unpriced: Int) -> String {
      let base = russian ? "на сумму" : "to the value of"
      guard unpriced > 0 else { return "  " + base }
      return "  " + base + (russian ? " (без цены: \(unpriced))" : " (\(unpriced) without a price)")
    }
    var surprises: [(String, String)] {
      russian
        ? [
          ("misplaced", "Найдено не на своём месте"), ("on-loan", "Числились выданными, найдены"),
          ("not-in-stock", "Числились утерянными или списанными, найдены"),
          ("outside-check", "Экземпляры других отделов"), ("unknown", "Номера, которых нет в каталоге"),
        ]
        : [
          ("misplaced", "Found in another place"), ("on-loan", "Recorded as out, found"),
          ("not-in-stock", "Recorded as lost or written off, found"), ("outside-check", "Other sections' copies"),
          ("unknown", "Numbers not in the catalogue"),
        ]
    }
    var byPlace: String { russian ? "По местам хранения" : "By storage place" }
    var bySection: String { russian ? "По разделам шифров" : "By shelf-code section" }
    var expectedColumn: String { russian ? "Числится" : "Expected" }
    var missingColumn: String { russian ? "Недостаёт" : "Missing" }
    var noneMissing: String { russian ? "Недостающих экземпляров нет." : "No copy is missing." }
    func missingList(_ count: Int) -> String {
      russian ? "Список недостающих экземпляров (\(count)):" : "The missing copies (\(count)):"
    }
    func inventory(_ number: String) -> String { russian ? "инв. № \(number)" : "inv. no. \(number)" }
    func number(_ code: String) -> String { russian ? "номер \(code)" : "number \(code)" }
    /// What a surprise was, and what became of it.
    func detail(_ surprise: Surprise) -> String {
      let place = surprise.foundAt.isEmpty ? (russian ? "место не указано" : "place not said") : surprise.foundAt
      switch surprise.finding {
      case .misplaced(let recorded, let actual):
        if surprise.settled {
          return russian ? "найден: \(actual); запись перенесена туда" : "found in \(actual); its record moved there"
        }
        return russian ? "по записи: \(recorded); найден: \(actual)" : "its record: \(recorded); found in \(actual)"
      case .onLoan(let reader, let ticket, let since):
        if surprise.settled { return russian ? "найден: \(place); возвращён" : "found in \(place); returned" }
        return russian
          ? "найден: \(place); по каталогу выдан: \(reader) (билет \(ticket)) с \(since.iso)"
          : "found in \(place); recorded as out to \(reader) (ticket \(ticket)) since \(since.iso)"
      case .notInStock(let status):
        if surprise.settled {
          return russian ? "найден: \(place); сделан доступным" : "found in \(place); made available"
        }
        let said = status == .writtenOff ? (russian ? "списан" : "written off") : (russian ? "утерян" : "lost")
        return russian ? "найден: \(place); по каталогу \(said)" : "found in \(place); recorded as \(said)"
      case .outsideCheck:
        let recorded = surprise.copy?.place ?? ""
        return russian ? "найден: \(place); его место: \(recorded)" : "found in \(place); its place: \(recorded)"
      case .unknown:
        if surprise.settled {
          return russian ? "найден: \(place); добавлен в каталог" : "found in \(place); added to the catalogue"
        }
        return russian ? "найден: \(place)" : "found in \(place)"
      default: return ""
      }
    }
    func price(_ price: Money) -> String { russian ? "цена \(price)" : "price \(price)" }
    var commission: String { russian ? "Комиссия:" : "The commission:" }
    var roles: [String] {
      russian
        ? ["Председатель", "Члены комиссии", "", "Бухгалтер"]
        : ["Chair", "Members", "", "Accountant"]
    }
    func drawnUp(_ day: LocalDate) -> String {
      russian
        ? "Акт составлен \(OverdueNotice.russianDate(day))" : "Drawn up on \(OverdueNotice.englishDate(day))"
    }
  }
}
