import DeskDomain
import DeskTestSupport
import Testing

@testable import DeskStorage
@testable import DeskUI

/// Holds at the Desk: a returned copy that a reader waits for is announced loudly and put aside;
/// the next reader is refused it, and its own reader takes it.
@Suite struct HoldScenarioTests {
  @Test func aReturnedCopyGoesToTheHoldShelfAndToItsReaderOnly() throws {
    let desk = try DeskHarness()
    let hold = try desk.store.holds.place(ticket: "18", on: .copy("100235"))
    desk.press(.character("d"))
    desk.scan("100235")
    #expect(desk.app.dialog != nil)
    let alert = desk.text(rows: 24, columns: 80)
    #expect(alert.contains("Hold shelf"), "\(alert)")
    #expect(alert.contains("Hold for Петров И. (ticket 18): put «Мастер и Маргарита» (100235)"), "\(alert)")
    desk.press(.enter)
    #expect(desk.app.dialog == nil)
    #expect(desk.shown.contains("to the hold shelf for Петров И. (18)"), "the log says where it went")

    desk.scan("17")
    desk.scan("100235")
    #expect(desk.text(rows: 24, columns: 80).contains("waits on the hold shelf for Петров И."))
    #expect(try desk.store.holds.hold(number: hold.number).state == .waiting)
    desk.press(.enter, .escape)
    #expect(desk.shown.contains("1 hold waiting on the shelf"), "the status line: \(desk.shown)")
    desk.scan("18")
    #expect(
      desk.text(rows: 24, columns: 120).contains(
        "! 1 book waiting for them on the hold shelf: 100235 Булгаков М. А. «Мастер и Маргарита»"),
      "\(desk.text(rows: 24, columns: 120))")
    desk.scan("100236")  // his overdue book back first: it blocks an issue
    desk.scan("100235")
    #expect(desk.app.dialog == nil, "\(desk.text(rows: 24, columns: 80))")
    #expect(try desk.store.holds.hold(number: hold.number).state == .fulfilled)
  }

  /// A book's screen shows its queue in order; a reader's screen shows their holds; Home counts
  /// the hold shelf and what waited on it too long.
  @Test func screensShowTheQueueAndTheHoldShelf() throws {
    let desk = try DeskHarness()
    try desk.store.readers.add(readerDraft("19", "Сидорова", firstName: "Анна"))
    try desk.store.holds.place(ticket: "18", on: .titleOf("100235"))
    try desk.store.holds.place(ticket: "19", on: .titleOf("100235"))
    let book = desk.text(rows: 30, columns: 100, opening: BookDetailScreen(inventory: "100235"))
    #expect(book.contains("Holds (2)"), "\(book)")
    #expect(book.contains("1. Петров И. (18): queued since 2026-11-30"), "\(book)")
    #expect(book.contains("2. Сидорова А. (19): queued since 2026-11-30"), "\(book)")
    try desk.store.circulation.returnBooks(inventories: ["100235"])
    let reader = desk.text(rows: 30, columns: 100, opening: ReaderDetailScreen(ticket: "18"))
    #expect(reader.contains("! Булгаков М. А. «Мастер и Маргарита»: 100235 waits on the hold shelf until 2026-12-07"))
    let second = desk.text(rows: 30, columns: 100, opening: ReaderDetailScreen(ticket: "19"))
    #expect(second.contains("1. Булгаков М. А. «Мастер и Маргарита»: queued since 2026-11-30"), "\(second)")
    (desk.store.clock as? TestClock)?.advance(days: 8)
    let home = desk.text(rows: 30, columns: 100, opening: HomeScreen())
    #expect(home.contains("1 hold waiting on the shelf, 1 waiting too long"), "\(home)")
  }

  /// h on a book's screen places a hold for the reader whose ticket is typed; a copy on the shelf
  /// is issued, not held.
  @Test func hOnABooksScreenPlacesAHold() throws {
    let desk = try DeskHarness()
    _ = desk.text(rows: 24, columns: 100, opening: BookDetailScreen(inventory: "100235"))
    desk.press(.character("h"))
    desk.type("18")
    desk.press(.enter)
    #expect(
      desk.shown.contains("Hold placed: Петров И. waits for Булгаков М. А. «Мастер и Маргарита», number 1"),
      "\(desk.shown)")
    #expect(try desk.store.holds.list(ofReader: "18").map(\.state) == [.queued])
    _ = desk.text(rows: 24, columns: 100, opening: BookDetailScreen(inventory: "100234"))
    desk.press(.character("h"))
    desk.type("18")
    desk.press(.enter)
    #expect(desk.text(rows: 24, columns: 100).contains("(100234) is on the shelf: issue it instead of"))
  }

  /// The hold shelf from Home (w): its copies, the soonest due first; x cancels the chosen hold
  /// and its copy goes to the next; e expires what waited too long and says where each copy goes.
  @Test func theHoldShelfScreenListsCancelsAndExpires() throws {
    let desk = try DeskHarness()
    try desk.store.readers.add(readerDraft("19", "Сидорова", firstName: "Анна"))
    let first = try desk.store.holds.place(ticket: "18", on: .titleOf("100235"))
    try desk.store.holds.place(ticket: "19", on: .titleOf("100235"))
    try desk.store.circulation.returnBooks(inventories: ["100235"])
    desk.press(.character("w"))
    #expect(desk.app.top is HoldShelfScreen)
    var shown = desk.text(rows: 24, columns: 100)
    #expect(shown.contains("Hold shelf (1)"), "\(shown)")
    #expect(
      shown.contains("100235  Булгаков М. А. «Мастер и Маргарита» — Петров И. (18), until 2026-12-07"), "\(shown)")
    desk.press(.character("x"))
    #expect(desk.text(rows: 24, columns: 100).contains("Cancel the hold of Петров И. (ticket 18)"))
    desk.press(.character("y"))
    #expect(try desk.store.holds.hold(number: first.number).state == .cancelled)
    shown = desk.text(rows: 24, columns: 100)
    #expect(shown.contains("Сидорова А. (19), until 2026-12-07"), "the copy went to the next hold: \(shown)")
    (desk.store.clock as? TestClock)?.advance(days: 8)
    desk.press(.character("e"))
    shown = desk.text(rows: 24, columns: 100)
    #expect(shown.contains("not collected by") && shown.contains("Сидорова А.: back to the shelf"), "\(shown)")
    desk.press(.enter)
    #expect(desk.text(rows: 24, columns: 100).contains("No copy waits on the hold shelf."))
  }

  /// h on a reader's screen: their holds to choose from, then cancel, suspend until a date (a
  /// date that is not one is refused and kept to correct) or resume.
  @Test func hOnAReadersScreenCancelsSuspendsAndResumesAHold() throws {
    let desk = try DeskHarness()
    let first = try desk.store.holds.place(ticket: "18", on: .titleOf("100235"))
    try desk.store.circulation.issue(ticket: "17", inventories: ["100237"])
    let second = try desk.store.holds.place(ticket: "18", on: .copy("100237"))
    _ = desk.text(rows: 24, columns: 100, opening: ReaderDetailScreen(ticket: "18"))
    #expect(desk.text(rows: 24, columns: 100).contains("h Holds"))
    desk.press(.character("h"))
    var shown = desk.text(rows: 24, columns: 100)
    #expect(shown.contains("Which hold?") && shown.contains("queued since 2026-11-30"), "\(shown)")
    desk.press(.enter)
    shown = desk.text(rows: 24, columns: 100)
    #expect(shown.contains("Cancel hold") && shown.contains("Suspend until a date"), "\(shown)")
    desk.press(.down, .enter)
    desk.type("2026-12-40")
    desk.press(.enter)
    shown = desk.text(rows: 24, columns: 100)
    #expect(shown.contains("«2026-12-40» is not a date"), "\(shown)")
    desk.press(.enter)
    #expect(desk.text(rows: 24, columns: 100).contains("2026-12-40"), "what was typed comes back to be corrected")
    for _ in 0..<2 { desk.press(.backspace) }
    desk.type("20")
    desk.press(.enter)
    #expect(try desk.store.holds.hold(number: first.number).suspendedUntil == LocalDate(iso: "2026-12-20"))
    #expect(desk.shown.contains("suspended until 2026-12-20: it keeps its place"), "\(desk.shown)")
    #expect(desk.text(rows: 24, columns: 100).contains("suspended until 2026-12-20"))

    // Resumed: the third action of a suspended hold.
    desk.press(.character("h"), .enter, .down, .down, .enter)
    #expect(try desk.store.holds.hold(number: first.number).suspendedUntil == nil)
    // The second hold cancelled, after the question.
    desk.press(.character("h"), .down, .enter, .enter)
    #expect(desk.text(rows: 24, columns: 100).contains("Cancel the hold of Петров И. (ticket 18)"))
    desk.press(.character("y"))
    #expect(try desk.store.holds.hold(number: second.number).state == .cancelled)
    #expect(try desk.store.holds.hold(number: first.number).state == .queued)
  }
}
