import DeskDomain
import DeskTestSupport
import Testing

@_spi(Connection) @testable import DeskStorage

/// Holds on a real SQLite file: the queue, its limits, the copy put aside on return, the issue
/// and renewal rules that follow from it, cancelling, suspending and expiry.
@Suite struct HoldTests {
  let folder = TemporaryFolder()
  let clock = TestClock()
  let store: LibraryStore

  /// Two copies of «Мастер и Маргарита» (one ISBN), one of «Идиот» without an ISBN, and readers
  /// 1 to 4 (4 a child).
  init() throws {
    store = try LibraryStore(path: folder.file("library.sqlite"), clock: clock)
    try store.books.add(bookDraft("M1", "Мастер и Маргарита", surname: "Булгаков", isbn: "978-5-17-079585-7"))
    try store.books.add(bookDraft("M2", "Мастер и Маргарита", surname: "Булгаков", isbn: "978-5-17-079585-7"))
    try store.books.add(bookDraft("I1", "Идиот", surname: "Достоевский"))
    try store.books.add(bookDraft("I2", "Идиот", surname: "Достоевский"))
    try store.readers.add(readerDraft("1", "Первова"))
    try store.readers.add(readerDraft("2", "Вторая"))
    try store.readers.add(readerDraft("3", "Третьякова"))
    try store.readers.add(readerDraft("4", "Четвертак", category: "child"))
  }

  func refusal(_ body: () throws -> Void) -> [String] {
    do {
      try body()
      return []
    } catch let error as StoreError {
      return error.englishLines
    } catch {
      return ["\(error)"]
    }
  }

  /// Holds on a title queue in the order placed; each return puts the copy aside for the first,
  /// the copy goes to that reader only, and collecting it fulfils the hold.
  @Test func theQueueIsServedInOrderAndAWaitingCopyGoesToItsReaderOnly() throws {
    try store.circulation.issue(ticket: "1", inventories: ["M1"])
    try store.circulation.issue(ticket: "1", inventories: ["M2"])
    let second = try store.holds.place(ticket: "2", on: .isbn(try ISBN("9785170795857")))
    clock.instant = clock.instant.adding(milliseconds: 1000)
    let third = try store.holds.place(ticket: "3", on: .titleOf("M1"))
    #expect(second.position == 1 && third.position == 2)
    #expect(try store.holds.queue(forBook: "M2").map(\.readerTicket) == ["2", "3"])

    let returned = try store.circulation.returnBooks(inventories: ["M2"])
    let trap = try #require(returned.first?.heldFor)
    #expect(trap.readerTicket == "2" && trap.inventory == "M2")
    #expect(trap.pickupBy == LocalDate(iso: "2026-12-07"), "seven days on the hold shelf")
    #expect(try store.holds.hold(number: second.number).state == .waiting)
    #expect(try store.holds.hold(number: third.number).position == 1)

    #expect(
      refusal { try store.circulation.issue(ticket: "3", inventories: ["M2"]) } == [
        "«Мастер и Маргарита» (M2) waits on the hold shelf for Вторая (ticket 2): it is issued to them only"
      ])
    try store.circulation.issue(ticket: "2", inventories: ["M2"])
    #expect(try store.holds.hold(number: second.number).state == .fulfilled)
    #expect(try store.holds.shelfCounts() == (0, 0))

    // The next copy back goes to the next reader.
    let next = try store.circulation.returnBooks(inventories: ["M1"])
    #expect(next.first?.heldFor?.readerTicket == "3")
  }

  @Test func aHoldIsRefusedWhenItCannotHelp() throws {
    #expect(
      refusal { try store.holds.place(ticket: "2", on: .titleOf("M1")) } == [
        "«Мастер и Маргарита» (M1) is on the shelf: issue it instead of placing a hold"
      ])
    try store.circulation.issue(ticket: "1", inventories: ["M1", "M2"])
    #expect(
      refusal { try store.holds.place(ticket: "1", on: .titleOf("M1")) } == [
        "Первова already has «Мастер и Маргарита» (M1) on loan",
        "Первова already has «Мастер и Маргарита» (M2) on loan",
      ])
    try store.holds.place(ticket: "2", on: .titleOf("M1"))
    #expect(
      refusal { try store.holds.place(ticket: "2", on: .isbn(try ISBN("9785170795857"))) } == [
        "Вторая already has a hold on Булгаков «Мастер и Маргарита»"
      ])
    #expect(
      refusal { try store.holds.place(ticket: "3", on: .titleOf("M1"), until: LocalDate(iso: "2026-11-01")) } == [
        "The date 2026-11-01 after which the hold is not wanted is in the past"
      ])
    #expect(refusal { try store.holds.place(ticket: "9", on: .titleOf("M1")) }.first?.hasPrefix("No reader") == true)
    #expect(refusal { try store.holds.cancel(number: 99) } == ["No hold number 99: see circdesk hold list"])
  }

  /// A category limits its readers' holds (a child 3 by default).
  @Test func aCategoryLimitsHolds() throws {
    for index in 1...4 {
      try store.books.add(bookDraft("B\(index)", "Книга \(index)"))
      try store.circulation.issue(ticket: "1", inventories: ["B\(index)"])
    }
    for index in 1...3 { try store.holds.place(ticket: "4", on: .copy("B\(index)")) }
    #expect(
      refusal { try store.holds.place(ticket: "4", on: .copy("B4")) } == [
        "Четвертак already has 3 holds, the limit for category «Child»: cancel one first, or issue a book that is on the shelf"
      ])
    try store.holds.cancel(number: 1)
    try store.holds.place(ticket: "4", on: .copy("B4"))
  }

  /// A title without an ISBN is its author, title and year: both copies of «Идиот» fill a hold
  /// on either.
  @Test func aTitleWithoutAnISBNIsItsAuthorTitleAndYear() throws {
    try store.circulation.issue(ticket: "1", inventories: ["I1", "I2"])
    try store.holds.place(ticket: "2", on: .titleOf("I1"))
    #expect(try store.circulation.returnBooks(inventories: ["I2"]).first?.heldFor?.readerTicket == "2")
  }

  /// A hold on one copy waits for that copy only.
  @Test func aHoldOnACopyWaitsForThatCopy() throws {
    try store.circulation.issue(ticket: "1", inventories: ["M1", "M2"])
    try store.holds.place(ticket: "2", on: .copy("M1"))
    #expect(try store.circulation.returnBooks(inventories: ["M2"]).first?.heldFor == nil)
    #expect(try store.circulation.returnBooks(inventories: ["M1"]).first?.heldFor?.readerTicket == "2")
  }

  /// Koha's rule: no renewal while another reader waits for the title and no other copy is free.
  @Test func aRenewalIsRefusedWhileAnotherReaderWaits() throws {
    try store.circulation.issue(ticket: "1", inventories: ["M1", "M2"])
    try store.holds.place(ticket: "2", on: .titleOf("M1"))
    #expect(
      refusal { try store.circulation.renew(inventories: ["M1"]) } == [
        "«Мастер и Маргарита» (M1) cannot be renewed: Вторая (ticket 2) is waiting for it and no other copy is free; "
          + "take it back"
      ])
    try store.books.add(bookDraft("M3", "Мастер и Маргарита", surname: "Булгаков", isbn: "978-5-17-079585-7"))
    #expect(try store.circulation.renew(inventories: ["M1"]).count == 1, "a copy on the shelf serves the hold")
  }

  /// A suspended hold keeps its place and is passed over until its date; cancelling a waiting
  /// hold puts its copy aside for the next.
  @Test func suspendedHoldsArePassedOverAndACancelledOnesCopyMovesOn() throws {
    try store.circulation.issue(ticket: "1", inventories: ["M1", "M2"])
    let first = try store.holds.place(ticket: "2", on: .titleOf("M1"))
    clock.instant = clock.instant.adding(milliseconds: 1000)
    let second = try store.holds.place(ticket: "3", on: .titleOf("M1"))
    try store.holds.suspend(number: first.number, until: LocalDate(iso: "2026-12-10"))
    #expect(try store.circulation.returnBooks(inventories: ["M1"]).first?.heldFor?.readerTicket == "3")
    #expect(try store.holds.hold(number: first.number).state == .queued, "still queued, first in line")
    try store.holds.cancel(number: second.number)
    #expect(try store.holds.hold(number: second.number).state == .cancelled)
    #expect(try store.holds.list(.waiting).isEmpty, "the suspended hold does not take the copy")
    try store.holds.suspend(number: first.number, until: nil)
    #expect(try store.circulation.returnBooks(inventories: ["M2"]).first?.heldFor?.readerTicket == "2")
  }

  /// A copy not collected by its pickup date: the hold expires and the copy goes to the next
  /// hold, or back to the shelf; the list says where each copy goes.
  @Test func uncollectedCopiesMoveOnWhenTheirHoldsExpire() throws {
    try store.circulation.issue(ticket: "1", inventories: ["M1", "M2"])
    let first = try store.holds.place(ticket: "2", on: .titleOf("M1"))
    clock.instant = clock.instant.adding(milliseconds: 1000)
    try store.holds.place(ticket: "3", on: .titleOf("M1"))
    let waitingOne = try store.holds.place(ticket: "4", on: .copy("M2"), until: LocalDate(iso: "2026-12-03"))
    try store.circulation.returnBooks(inventories: ["M1"])
    #expect(try store.holds.shelfCounts() == (1, 0))
    clock.advance(days: 8)
    #expect(try store.holds.shelfCounts() == (1, 1), "waiting too long")
    #expect(try store.holds.list(.waitingTooLong).map(\.readerTicket) == ["2", "4"], "and a hold no longer wanted")
    let (moves, lapsed) = try store.holds.expire()
    #expect(lapsed.map(\.number) == [waitingOne.number])
    #expect(moves.map(\.inventory) == ["M1"])
    #expect(moves.first?.fromReader == "Вторая")
    #expect(moves.first?.next?.readerTicket == "3")
    #expect(try store.holds.hold(number: first.number).state == .expired)
    #expect(try store.holds.hold(number: waitingOne.number).state == .expired, "no longer wanted after its date")
    clock.advance(days: 8)
    let last = try store.holds.expire().moves
    #expect(last.count == 1 && last.first?.next == nil, "back to the shelf")
    #expect(try store.holds.shelfCounts() == (0, 0))
  }

  /// The hold shelf's counts read the index of waiting holds (this desk's part of it), not the
  /// table: the statements the store runs, each asked for its plan.
  @Test func theHoldShelfCountsReadNoTable() throws {
    let statements = try store.database.recordingStatements { try store.holds.shelfCounts() }.statements
      .filter { $0.contains("hold") }
    #expect(statements.count == 2)
    for sql in statements {
      let plan = try store.database.query(
        "EXPLAIN QUERY PLAN " + sql, arguments: sql.contains("?") ? ["2026-12-01"] : [], read: { $0.string(3) })
      #expect(plan.contains { $0.contains("SEARCH hold USING COVERING INDEX hold_waiting (pickup_desk=?") }, "\(plan)")
      #expect(!plan.contains { $0.hasPrefix("SCAN") }, "\(plan)")
    }
  }
  /// Undoing a return that put the copy aside puts the hold back in its queue; undoing the issue
  /// that fulfilled a hold makes it wait again.
  @Test func undoPutsHoldsBackAsTheyWere() throws {
    try store.circulation.issue(ticket: "1", inventories: ["M1", "M2"])
    let hold = try store.holds.place(ticket: "2", on: .titleOf("M1"))
    let returned = try #require(try store.circulation.returnBooks(inventories: ["M1"]).first)
    #expect(try store.holds.hold(number: hold.number).state == .waiting)
    try store.circulation.undo(.returned(returned))
    #expect(try store.holds.hold(number: hold.number).state == .queued)
    #expect(try store.holds.hold(number: hold.number).position == 1)
    try store.circulation.returnBooks(inventories: ["M1"])
    let issued = try #require(try store.circulation.issue(ticket: "2", inventories: ["M1"]).first)
    #expect(try store.holds.hold(number: hold.number).state == .fulfilled)
    try store.circulation.undo(.issued(issued))
    #expect(try store.holds.hold(number: hold.number).state == .waiting)
    #expect(
      refusal { try store.circulation.issue(ticket: "3", inventories: ["M1"]) }.first?.contains(
        "waits on the hold shelf") == true)
  }

  /// A reader who leaves ends their holds (a copy waiting for them goes to the next hold); a
  /// copy lost or deleted while it waited no longer waits, and its hold queues again.
  @Test func leavingReadersAndLostCopiesReleaseTheHoldShelf() throws {
    try store.circulation.issue(ticket: "1", inventories: ["M1", "M2"])
    let first = try store.holds.place(ticket: "2", on: .titleOf("M1"))
    clock.instant = clock.instant.adding(milliseconds: 1000)
    let second = try store.holds.place(ticket: "3", on: .titleOf("M1"))
    try store.circulation.returnBooks(inventories: ["M1"])
    try store.readers.delete(ticket: "2")
    #expect(try store.holds.hold(number: first.number).state == .cancelled)
    #expect(try store.holds.hold(number: second.number).state == .waiting, "the copy went to the next hold")
    try store.books.update(inventory: "M1") { $0.status = CopyStatus.lost.rawValue }
    #expect(try store.holds.hold(number: second.number).state == .queued)
    #expect(try store.holds.shelfCounts() == (0, 0))
    try store.circulation.returnBooks(inventories: ["M2"])
    #expect(try store.holds.hold(number: second.number).state == .waiting)
    try store.books.delete(inventory: "M2")
    #expect(try store.holds.hold(number: second.number).state == .queued, "still wants the title")
  }

  /// A queue's places count the holds of that title only.
  @Test func aPlaceInTheQueueCountsItsOwnTitleOnly() throws {
    try store.circulation.issue(ticket: "1", inventories: ["M1", "M2", "I1", "I2"])
    try store.holds.place(ticket: "2", on: .titleOf("I1"))
    let alone = try store.holds.place(ticket: "3", on: .titleOf("M1"))
    #expect(alone.position == 1)
    let copy = try store.holds.place(ticket: "2", on: .copy("M2"))
    #expect(copy.position == 2, "behind the title's hold placed before it")
    // A title's holds are one list, as Koha ranks them: a hold on the title placed after a copy's
    // hold is behind it.
    let later = try store.holds.place(ticket: "4", on: .titleOf("M1"))
    #expect(later.position == 3)
  }

  /// A suspension is for a queued hold, ends by the date the hold is wanted until, and a resume
  /// is for a suspended hold: each refusal says why.
  @Test func aSuspensionIsRefusedWhereItMeansNothing() throws {
    try store.circulation.issue(ticket: "1", inventories: ["M1", "M2"])
    let hold = try store.holds.place(ticket: "2", on: .titleOf("M1"), until: LocalDate(iso: "2026-12-03"))
    #expect(
      refusal { try store.holds.suspend(number: hold.number, until: LocalDate(iso: "2026-12-20")) } == [
        "The hold is not wanted after 2026-12-03: a suspension until 2026-12-20 would outlast it"
      ])
    #expect(
      refusal { try store.holds.suspend(number: hold.number, until: nil) } == [
        "Hold \(hold.number) is not suspended: nothing to resume"
      ])
    try store.circulation.returnBooks(inventories: ["M1"])
    #expect(
      refusal { try store.holds.suspend(number: hold.number, until: LocalDate(iso: "2026-12-02")) } == [
        "Hold \(hold.number) cannot be suspended: its copy M1 already waits on the hold shelf "
          + "(let the reader collect it, or cancel the hold)"
      ])
  }

  /// One hold a title for a reader, on the title or on a copy; a copy hold is refused to a reader
  /// who has the title on loan and for a copy that does not circulate; taking any copy of the
  /// title fulfils the reader's hold, copy hold included.
  @Test func oneHoldATitleAndAnyCopyFulfilsIt() throws {
    try store.circulation.issue(ticket: "1", inventories: ["M1"])
    try store.circulation.issue(ticket: "3", inventories: ["M2"])
    let copy = try store.holds.place(ticket: "2", on: .copy("M1"))
    #expect(
      refusal { try store.holds.place(ticket: "2", on: .titleOf("M1")) }.first?.contains("already has a hold") == true)
    #expect(refusal { try store.holds.place(ticket: "1", on: .copy("M2")) }.first?.contains("on loan") == true)
    try store.books.add(bookDraft("R1", "Словарь"))
    try store.books.update(inventory: "R1") { $0.status = CopyStatus.referenceOnly.rawValue }
    #expect(
      refusal { try store.holds.place(ticket: "2", on: .copy("R1")) } == [
        "«Словарь» (R1) is for reference only: it is read here, not lent"
      ])
    try store.circulation.returnBooks(inventories: ["M2"])
    #expect(try store.holds.hold(number: copy.number).state == .queued, "a copy hold waits for its copy")
    try store.circulation.issue(ticket: "2", inventories: ["M2"])
    #expect(try store.holds.hold(number: copy.number).state == .fulfilled, "another copy of the title serves too")
  }

  /// A copy on the hold shelf is not among the available ones; a copy back from repair fills the
  /// first hold as a return does; the day a suspension ends is passed over too.
  @Test func theHoldShelfIsNotTheShelf() throws {
    try store.circulation.issue(ticket: "1", inventories: ["M1", "M2"])
    let hold = try store.holds.place(ticket: "2", on: .titleOf("M1"))
    try store.circulation.returnBooks(inventories: ["M1"])
    #expect(!(try store.books.page(filter: .available).map(\.book.inventoryNumber).contains("M1")))
    #expect(try store.books.count(filter: .available) == 2, "I1 and I2")
    try store.circulation.issue(ticket: "2", inventories: ["M1"])
    #expect(try store.holds.hold(number: hold.number).state == .fulfilled)

    try store.books.update(inventory: "I1") { $0.status = CopyStatus.damaged.rawValue }
    try store.circulation.issue(ticket: "1", inventories: ["I2"])
    let idiot = try store.holds.place(ticket: "3", on: .titleOf("I2"))
    try store.books.update(inventory: "I1") { $0.status = CopyStatus.available.rawValue }
    #expect(try store.holds.hold(number: idiot.number).state == .waiting, "back from repair, to the hold shelf")
    #expect(try store.holds.waiting(forBook: "I1")?.readerTicket == "3")

    let suspended = try store.holds.place(ticket: "4", on: .titleOf("M1"))
    try store.holds.suspend(number: suspended.number, until: LocalDate(iso: "2026-11-30"))
    try store.circulation.returnBooks(inventories: ["M2"])
    #expect(
      try store.holds.hold(number: suspended.number).state == .queued, "the last day of a suspension is passed over")
    #expect(
      refusal { try store.holds.suspend(number: suspended.number, until: LocalDate(iso: "2026-11-01")) } == [
        "The last day 2026-11-01 of the suspension is in the past: suspend until today or later"
      ])
  }

  /// A loan recorded from elsewhere (a Koha offline file) of a copy on the hold shelf: the hold
  /// queues again, since the copy is out; a recorded return puts the copy aside like any return.
  @Test func recordedCirculationKeepsTheHoldShelfTrue() throws {
    try store.circulation.issue(ticket: "1", inventories: ["M1", "M2"])
    let hold = try store.holds.place(ticket: "2", on: .titleOf("M1"))
    try store.circulation.returnRecorded(inventory: "M1", at: clock.instant)
    #expect(try store.holds.hold(number: hold.number).state == .waiting)
    try store.circulation.issueRecorded(ticket: "3", inventory: "M1", at: clock.instant)
    #expect(try store.holds.hold(number: hold.number).state == .queued)
    #expect(try store.holds.shelfCounts() == (0, 0))
  }

  /// Correcting a book's ISBN or title takes its holds along: the copy's own, and the title's when
  /// no copy is left with the old one.
  @Test func holdsFollowACorrectedTitle() throws {
    try store.circulation.issue(ticket: "1", inventories: ["I1", "I2"])
    let hold = try store.holds.place(ticket: "2", on: .titleOf("I1"))
    try store.books.update(inventory: "I1") { $0.year = "1869" }
    #expect(try store.holds.queue(forBook: "I2").map(\.number) == [hold.number], "I2 still has the old title")
    try store.books.update(inventory: "I2") { $0.year = "1869" }
    #expect(try store.holds.queue(forBook: "I1").map(\.number) == [hold.number], "the title itself was corrected")
    #expect(try store.circulation.returnBooks(inventories: ["I1"]).first?.heldFor?.readerTicket == "2")
  }
}
