import DeskDomain
import DeskTestSupport
import Testing

@testable import DeskStorage
@testable import DeskUI

/// The Stocktake screen (Home, i): a check scanned at the shelves with a wedge scanner, each scan
/// sorted as it comes, and the surprises dealt with from the list of last scans.
@Suite struct StocktakeScreenTests {
  /// The small library with its copies on shelves: Зал 1 holds all but 100237 (Зал 2); 100239 is
  /// recorded lost; 100300 stands in Зал 1 too and is never scanned.
  static func seedShelves(_ store: LibraryStore) throws {
    try DeskHarness.seedSmallLibrary(store)
    for inventory in ["100234", "100235", "100236", "100238", "100239"] {
      try store.books.update(inventory: inventory) { $0[.place] = "Зал 1" }
    }
    try store.books.update(inventory: "100237") { $0[.place] = "Зал 2" }
    try store.books.update(inventory: "100239") { $0.status = "lost" }
    var draft = bookDraft("100300", "Тихий Дон", surname: "Шолохов", initials: "М. А.")
    draft[.place] = "Зал 1"
    try store.books.add(draft)
  }

  /// The line of the list of last scans that names `code`, and the one below it.
  func scanLines(_ code: String, in screen: String) -> String {
    let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
    guard let index = lines.firstIndex(where: { $0.contains("  \(code) ") || $0.hasSuffix("  \(code)") }) else {
      return ""
    }
    return lines[index...].prefix(3).joined(separator: "\n")
  }

  @Test func aShelfCheckedScanByScanWithEverySurpriseDealtWith() throws {
    let desk = try DeskHarness(seed: Self.seedShelves)
    let check = try #require(
      try desk.store.stocktakes.start(name: "Зал 1, 2026", scope: StocktakeScope(placePrefixes: ["зал 1"])))
    #expect(check.expected == 5)
    desk.press(.character("i"))
    #expect(desk.app.top is StocktakeScreen)
    var screen = desk.text(rows: 40, columns: 120)
    #expect(screen.contains("Stocktaking: Зал 1, 2026"), "\(screen)")
    #expect(screen.contains("Check 1 «Зал 1, 2026», opened 2026-11-30: 5 copies expected"))
    #expect(screen.contains("Place: not said"))
    // Two of the five are out on loan: present, not to be found on the shelves.
    #expect(screen.contains("Found 0 of 3 (0 %) · 2 out, on the hold shelf or in processing"))

    // The shelf's label says the place; a copy where its record says is found, quietly.
    desk.scan("PLACE:Зал 1")
    desk.scan("100234")
    #expect(!desk.app.takeBell())
    screen = desk.text(rows: 40, columns: 120)
    #expect(screen.contains("Place: Зал 1"), "\(screen)")
    #expect(scanLines("100234", in: screen).contains("Лермонтов М. Ю. «Герой нашего времени» — found"), "\(screen)")
    #expect(screen.contains("Found 1 of 3 (33 %)"))

    // Out to Иванова, yet in hand: it rings, and r returns it now.
    desk.scan("100235")
    #expect(desk.app.takeBell())
    screen = desk.text(rows: 40, columns: 120)
    #expect(
      scanLines("100235", in: screen).contains(
        "the catalogue says it is out to Иванова М. (ticket 17) since 2026-11-27"),
      "\(screen)")
    desk.press(.down)
    #expect(desk.text(rows: 40, columns: 120).contains("r Return now"))
    desk.press(.character("r"))
    let returned = try #require(try desk.store.books.book(inventory: "100235"))
    #expect(try desk.store.books.currentLoan(ofBook: returned) == nil)
    // Back to the field: the next scan goes on.
    desk.press(.escape)

    // On the shelf of Зал 2, a copy of Зал 1: misplaced, and m moves its record.
    desk.scan("PLACE:Зал 2")
    desk.scan("100238")
    #expect(desk.app.takeBell())
    screen = desk.text(rows: 40, columns: 120)
    #expect(scanLines("100238", in: screen).contains("misplaced: its record says Зал 1, found in Зал 2"), "\(screen)")
    desk.press(.down, .character("m"))
    #expect(try desk.store.books.book(inventory: "100238")?.place == "Зал 2")
    #expect(
      scanLines("100238", in: desk.text(rows: 40, columns: 120)).contains(
        "(100238: its record's place is now Зал 2)"))
    desk.press(.escape)

    // Зал 2's own copy: not part of this check. A lost copy in hand: a makes it available.
    desk.scan("100237")
    #expect(desk.app.takeBell())
    desk.scan("100239")
    #expect(desk.app.takeBell())
    screen = desk.text(rows: 40, columns: 120)
    #expect(scanLines("100237", in: screen).contains("another section's copy: not part of this check"))
    #expect(scanLines("100239", in: screen).contains("the catalogue says it is lost"), "\(screen)")
    desk.press(.down, .character("a"))
    #expect(try desk.store.books.book(inventory: "100239")?.status == .available)
    desk.press(.escape)

    // Scanned again: counted once, no ring. An unknown number: n opens a New Book form with it.
    desk.scan("100234")
    #expect(!desk.app.takeBell())
    desk.scan("555001")
    #expect(desk.app.takeBell())
    screen = desk.text(rows: 40, columns: 120)
    // The copy out to Иванова was found in hand: one fewer away, one more to find.
    #expect(screen.contains("Found 3 of 4 (75 %) · 1 out, on the hold shelf or in processing"), "\(screen)")
    #expect(screen.contains("unknown 1 · scanned"))
    #expect(scanLines("555001", in: screen).contains("no copy with this number in the library"))
    desk.press(.down, .character("n"))
    #expect(desk.app.top is BookFormScreen)
    #expect(desk.text(rows: 40, columns: 120).contains("555001"))
    desk.press(.escape)
    #expect(desk.app.top is StocktakeScreen)

    // The report: 100236 is out on loan, so present; 100300 was never scanned, so missing.
    desk.press(.function(5))
    #expect(desk.app.top is StocktakeReportScreen)
    screen = desk.text(rows: 40, columns: 120)
    #expect(screen.contains("Expected 5, present 4, missing 1"), "\(screen)")
    #expect(screen.contains("100300  Шолохов М. А. «Тихий Дон»  Зал 1"))
    #expect(screen.contains("By storage place"))

    // c closes it: asked first, then whether the one missing copy is lost (the act is signed).
    desk.press(.character("c"))
    #expect(desk.app.dialog?.lines.joined().contains("1 copy is missing") == true)
    desk.press(.character("y"))
    #expect(desk.app.dialog?.lines.joined().contains("Record the 1 missing copy as lost?") == true)
    desk.press(.character("y"))
    #expect(desk.app.top is StocktakeScreen)
    #expect(desk.text(rows: 40, columns: 120).contains("No check of the stock is open."))
    #expect(try desk.store.books.book(inventory: "100300")?.status == .lost)
    #expect(try desk.store.books.book(inventory: "100234")?.lastChecked == LocalDate(iso: "2026-11-30"))
  }

  /// A check opened from the screen, over the places named; places no copy is kept in open none.
  @Test func aCheckOpenedFromTheScreen() throws {
    let desk = try DeskHarness(seed: Self.seedShelves)
    desk.press(.character("i"))
    #expect(desk.text(rows: 30, columns: 100).contains("No check of the stock is open."))
    desk.press(.character("n"))
    desk.type("Зал 9")
    desk.press(.enter)
    desk.type("Зал 9")
    desk.press(.enter)
    #expect(desk.app.dialog?.lines.joined().contains("No copy is kept in those places") == true)
    desk.press(.enter)
    #expect(try desk.store.stocktakes.checks().isEmpty)
    desk.press(.character("n"))
    desk.type("Зал 2")
    desk.press(.enter)
    desk.type("зал 2")
    desk.press(.enter)
    let screen = desk.text(rows: 30, columns: 100)
    #expect(screen.contains("Check 1 «Зал 2», opened 2026-11-30: 1 copy expected"), "\(screen)")
    // The wedge's scan goes into it at once.
    desk.scan("100237")
    let check = try #require(try desk.store.stocktakes.openCheck())
    #expect(try desk.store.stocktakes.counts(check)["found"] == 1)
  }

  /// A photo of a shelf (two spines' Code 128 labels side by side, a gap between) read with F3: both copies go into
  /// the check at once, and the photo rings once for its surprise.
  @Test func aPhotoOfAShelfGoesIntoTheCheck() throws {
    let desk = try DeskHarness(seed: Self.seedShelves)
    _ = try desk.store.stocktakes.start(name: "Зал 1", scope: StocktakeScope(placePrefixes: ["Зал 1"]))
    let folder = TemporaryFolder()
    let (a, b, photo) = (folder.file("a.png"), folder.file("b.png"), folder.file("shelf.png"))
    for (code, file) in [("100234", a), ("100237", b)] {
      #expect(try runProgram("/usr/bin/env", ["zint", "-b", "20", "--scale", "2", "-d", code, "-o", file]).status == 0)
    }
    #expect(
      try runProgram(
        "/usr/bin/env", ["/usr/bin/convert", a, b, "-background", "white", "-splice", "40x0", "+append", photo]
      ).status == 0)
    desk.press(.character("i"))
    desk.scan("PLACE:Зал 1")
    desk.press(.function(3))
    #expect(desk.app.top is ScanImageScreen)
    desk.type(photo)
    desk.press(.enter)
    #expect(desk.app.top is StocktakeScreen)
    #expect(desk.app.takeBell(), "100237 is another hall's")
    let screen = desk.text(rows: 40, columns: 120)
    #expect(
      screen.contains("Found 1 of 3 (33 %) · 2 out, on the hold shelf or in processing · other sections' 1"),
      "\(screen)")
    #expect(scanLines("100237", in: screen).contains("not part of this check"))
  }

  /// F2's box answered by a shelf label's scan at once; a copy's number scanned into it counted as
  /// a copy with the place kept; a place no record names rings and says so.
  @Test func thePlaceBoxTakesALabelAndCountsACopy() throws {
    let desk = try DeskHarness(seed: Self.seedShelves)
    _ = try desk.store.stocktakes.start(name: "Зал 1", scope: StocktakeScope(placePrefixes: ["Зал 1"]))
    desk.press(.character("i"), .function(2))
    desk.scan("PLACE:Зал 1")
    #expect(desk.app.dialog == nil, "the label's scan answered the box")
    #expect(desk.text(rows: 40, columns: 120).contains("Place: Зал 1"))
    desk.press(.function(2))
    desk.scan("100234")
    #expect(desk.app.dialog == nil)
    var screen = desk.text(rows: 40, columns: 120)
    #expect(screen.contains("Place: Зал 1"), "\(screen)")
    #expect(screen.contains("Found 1 of 3"))
    #expect(screen.contains("100234 is a copy's number, not a place: counted as a copy; the place stays Зал 1"))
    desk.scan("PLACE:Нигде")
    #expect(desk.app.takeBell())
    screen = desk.text(rows: 40, columns: 120)
    #expect(screen.contains("No copy's record names the place «Нигде»"), "\(screen)")
    // An ISBN on the book's back is said, rings, and is not kept.
    desk.scan("9780141439518")
    #expect(desk.app.takeBell())
    #expect(desk.text(rows: 40, columns: 120).contains("an ISBN, not a copy's number (not kept)"))
    let check = try #require(try desk.store.stocktakes.openCheck())
    #expect(try desk.store.stocktakes.counts(check) == ["found": 1])
  }

  /// Surprises dealt with stay dealt with when the screen opens again (after a restart, or at
  /// another desk): no mark, no key, and what was done; the place is this desk's last.
  @Test func dealtWithSurprisesStayDealtWith() throws {
    let desk = try DeskHarness(seed: Self.seedShelves)
    _ = try desk.store.stocktakes.start(name: "Зал 1", scope: StocktakeScope(placePrefixes: ["Зал 1"]))
    desk.press(.character("i"))
    desk.scan("PLACE:Зал 2")
    for code in ["100238", "100235", "100239", "555001"] { desk.scan(code) }
    // n adds the unknown number; its row says so at once.
    desk.press(.down, .character("n"), .function(2))
    desk.type("Новая книга")
    desk.press(.function(2))
    #expect(desk.app.top is StocktakeScreen)
    #expect(scanLines("555001", in: desk.text(rows: 40, columns: 120)).contains("(555001: added as a new book)"))
    desk.press(.escape)
    desk.press(.down, .down, .character("a"), .escape)
    desk.press(.down, .down, .down, .character("r"), .escape)
    desk.press(.down, .down, .down, .down, .character("m"), .escape)
    desk.press(.escape, .character("i"))
    let screen = desk.text(rows: 40, columns: 120)
    #expect(screen.contains("Place: Зал 2"), "\(screen)")
    #expect(!screen.contains("! "), "\(screen)")
    #expect(scanLines("100238", in: screen).contains("misplaced: its record has been moved to Зал 2"))
    #expect(scanLines("100235", in: screen).contains("was recorded as out: returned since"))
    #expect(scanLines("100239", in: screen).contains("was recorded as lost or written off: available since"))
    #expect(scanLines("555001", in: screen).contains("was not in the library: added as a new book since"))
    // A narrow window puts what was done under the copy, never drops it.
    #expect(scanLines("100238", in: desk.text(rows: 40, columns: 60)).contains("its record has been moved to"))
    // The book added from the scan stands where it was found.
    #expect(try desk.store.books.book(inventory: "555001")?.place == "Зал 2")
    desk.press(.down)
    #expect(!desk.text(rows: 40, columns: 120).contains("n New book"))
    // The report lists each once, dealt with.
    desk.press(.escape, .function(5))
    let report = desk.text(rows: 40, columns: 120)
    #expect(report.contains("Surprises, each copy or number once (4)"), "\(report)")
  }

  /// A desk joined to a central that it does not reach closes a check without recording the
  /// missing copies lost: other desks' scans of them may not be here yet.
  @Test func anOfflineDeskRecordsNoCopyLost() throws {
    let desk = try DeskHarness(seed: Self.seedShelves)
    _ = try desk.store.stocktakes.start(name: "Зал 1", scope: StocktakeScope(placePrefixes: ["Зал 1"]))
    desk.app.context.sync.tie = DeskTie(
      deskID: "d", deskName: "Desk", central: "host=central", libraryID: "l", cursor: 0, lastError: "")
    desk.app.context.sync.offlineSince = desk.clock.now().instant
    desk.press(.character("i"), .function(5), .character("c"), .character("y"))
    #expect(desk.app.dialog?.lines.joined().contains("not recorded as lost") == true, "\(desk.shown)")
    #expect(try desk.store.stocktakes.openCheck() == nil)
    #expect(try desk.store.books.book(inventory: "100300")?.status == .available)
  }

  /// A copy a closed check found shows the day on its record.
  @Test func aBooksRecordShowsItsLastCheck() throws {
    let desk = try DeskHarness(seed: Self.seedShelves)
    let check = try #require(
      try desk.store.stocktakes.start(name: "Зал 2", scope: StocktakeScope(placePrefixes: ["Зал 2"])))
    _ = try desk.store.stocktakes.scan("100237", in: check, at: "Зал 2")
    try desk.store.stocktakes.close(check)
    desk.scan("100237")
    #expect(desk.app.top is BookDetailScreen)
    #expect(desk.text(rows: 40, columns: 100).contains("Last checked"), "\(desk.text(rows: 40, columns: 100))")
    #expect(desk.text(rows: 40, columns: 100).contains("2026-11-30"))
  }

  /// The screen and its report in Russian.
  @Test func inRussian() throws {
    let desk = try DeskHarness(language: .russian, seed: Self.seedShelves)
    _ = try desk.store.stocktakes.start(name: "Зал 1", scope: StocktakeScope(placePrefixes: ["Зал 1"]))
    desk.press(.character("i"))
    desk.scan("PLACE:Зал 2")
    desk.scan("100238")
    let screen = desk.text(rows: 30, columns: 100)
    #expect(screen.contains("Проверка 1 «Зал 1»"), "\(screen)")
    #expect(screen.contains("не на месте: по записи — Зал 1, найден — Зал 2"))
    #expect(screen.contains("Найдено 1 из 3 (33 %) · выдано, на полке броней, в обработке: 2 · не на месте 1"))
    desk.press(.function(5))
    #expect(desk.text(rows: 30, columns: 100).contains("Ожидалось 5, в наличии 3, недостаёт 2"))
  }
}
