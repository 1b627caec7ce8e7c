import DeskDomain
import DeskStorage
import DeskSync
import DeskTestSupport
import Foundation
import Testing

/// Holds between desks, through the suite's real PostgreSQL central: a hold placed at one desk
/// and filled at another, copies put aside for one hold at two desks apart, and a hold ended at
/// one desk while another put a copy aside for it.
extension SyncTests {
  /// Desks «A» and «B» of one library: copies M1 and M2 of one title (one ISBN), readers 1001 to
  /// 1004, and both copies out (M1 to 1001, M2 to 1004); everything synced. The desks share a
  /// clock that each act moves on a minute (`minuteLater`), as at a real counter.
  func holdLibrary() throws -> (LibraryStore, LibraryStore, String) {
    let url = try makeCentral()
    let a = try LibraryStore(path: folder.file("holds-a.sqlite"), clock: holdClock)
    try a.books.add(bookDraft("M1", "Мастер и Маргарита", surname: "Булгаков", isbn: "978-5-17-079585-7"))
    try a.books.add(bookDraft("M2", "Мастер и Маргарита", surname: "Булгаков", isbn: "978-5-17-079585-7"))
    for (ticket, surname) in [("1001", "Смирнова"), ("1002", "Иванов"), ("1003", "Петрова"), ("1004", "Сидоров")] {
      try a.readers.add(readerDraft(ticket, surname))
    }
    try Synchronizer.join(store: a, url: url, deskName: "A")
    let b = try LibraryStore(path: folder.file("holds-b.sqlite"), clock: holdClock)
    try Synchronizer.join(store: b, url: url, deskName: "B")
    minuteLater()
    try a.circulation.issue(ticket: "1001", inventories: ["M1"])
    try a.circulation.issue(ticket: "1004", inventories: ["M2"])
    try sync(a)
    try sync(b)
    return (a, b, url)
  }

  /// `holdLibrary` with two readers queueing at A for the title, 1002 first and 1003 a minute
  /// later, synced to B; the first hold is returned.
  func holdLibraryWithQueue() throws -> (LibraryStore, LibraryStore, String, HoldRecord) {
    let (a, b, url) = try holdLibrary()
    minuteLater()
    let first = try a.holds.place(ticket: "1002", on: .titleOf("M1"))
    minuteLater()
    _ = try a.holds.place(ticket: "1003", on: .titleOf("M1"))
    try sync(a)
    try sync(b)
    return (a, b, url, first)
  }

  /// `holdLibraryWithQueue`, then apart each desk takes a copy back and puts it aside for 1002;
  /// synced so that both desks hold the conflict.
  func copiesPutAsideTwice() throws -> (LibraryStore, LibraryStore, String) {
    let (a, b, url, _) = try holdLibraryWithQueue()
    minuteLater()
    _ = try a.circulation.returnBooks(inventories: ["M1"])
    _ = try b.circulation.returnBooks(inventories: ["M2"])
    try sync(a)
    try sync(b)
    try sync(a)
    return (a, b, url)
  }

  func minuteLater() {
    holdClock.instant = holdClock.instant.adding(milliseconds: 60_000)
    // Later by the desks' clocks too: they read the wall clock, and two settlements in one
    // millisecond would tie, the desks' ids (random) saying which is later (seen once, in a
    // clean-clone run of the whole suite).
    usleep(5_000)
  }

  func holdState(_ store: LibraryStore, _ ticket: String) throws -> (HoldState, String?)? {
    try store.holds.list(ofReader: ticket).last.map { ($0.state, $0.waitingCopy) }
  }

  @Test func aHoldPlacedAtOneDeskIsFilledAtAnotherAndCollectedThere() throws {
    let (a, b, url) = try holdLibrary()
    minuteLater()
    _ = try a.holds.place(ticket: "1002", on: .titleOf("M1"))
    try sync(a)
    try sync(b)
    #expect(try b.holds.queue(forBook: "M1").map(\.readerTicket) == ["1002"], "the hold travelled")

    // The copy comes back at B: B puts it aside, on its own hold shelf, for the reader who asked
    // at A. A knows where it waits, and refuses it to anyone else.
    minuteLater()
    let returned = try b.circulation.returnBooks(inventories: ["M1"])
    #expect(returned.first?.heldFor?.readerTicket == "1002")
    try sync(b)
    try sync(a)
    #expect(try holdState(a, "1002")?.0 == .waiting)
    #expect(try a.holds.list(ofReader: "1002").first?.shelfElsewhere == "B")
    #expect(try b.holds.list(ofReader: "1002").first?.shelfElsewhere == nil)
    #expect(try a.holds.shelfCounts().waiting == 0 && b.holds.shelfCounts().waiting == 1, "each desk counts its shelf")
    #expect(throws: StoreError.self, "another reader is refused at A too") {
      try a.circulation.issue(ticket: "1003", inventories: ["M1"])
    }
    minuteLater()
    try b.circulation.issue(ticket: "1002", inventories: ["M1"])
    try sync(b)
    try sync(a)
    for store in [a, b] {
      #expect(try holdState(store, "1002")?.0 == .fulfilled)
      #expect(try store.holds.shelfCounts().waiting == 0)
      #expect(try store.conflicts.list().isEmpty)
    }
    let (dumpA, dumpB) = (try a.sync.canonicalDump(), try b.sync.canonicalDump())
    let (onlyA, onlyB) = (dumpA.filter { !dumpB.contains($0) }, dumpB.filter { !dumpA.contains($0) })
    #expect(onlyA.isEmpty && onlyB.isEmpty, "\(onlyA) \(onlyB)")
    #expect(try a.sync.canonicalDump() == CentralDump.lines(try CentralConnection(url: url)))
  }

  @Test func copiesPutAsideForOneHoldAtTwoDesksAreAConflictUntilALibrarianSaysWhichOne() throws {
    let (a, b, url, first) = try holdLibraryWithQueue()
    // Apart, each desk takes a copy back and puts it aside for the first of the queue.
    minuteLater()
    #expect(try a.circulation.returnBooks(inventories: ["M1"]).first?.heldFor?.readerTicket == "1002")
    minuteLater()
    #expect(try b.circulation.returnBooks(inventories: ["M2"]).first?.heldFor?.readerTicket == "1002")
    try sync(a)
    #expect(try sync(b).conflictsRaised == 1)
    #expect(try sync(a).conflictsRaised == 1)
    for store in [a, b] {
      let conflicts = try store.conflicts.list()
      #expect(conflicts.count == 1)
      let conflict = try #require(conflicts.first)
      #expect(conflict.kind == .trappedTwice)
      #expect(conflict.choices == ["M1", "M2"])
      #expect(
        conflict.englishSummary
          == "2 copies of Булгаков «Мастер и Маргарита» were put aside for Иванов (ticket 1002), one at each desk")
      #expect(conflict.englishSides.contains { $0.hasPrefix("copy M1 put aside at desk «A»") })
      #expect(conflict.englishSides.contains { $0.hasPrefix("copy M2 put aside at desk «B»") })
    }
    #expect(try a.sync.canonicalDump() == b.sync.canonicalDump(), "the hold itself merged alike")

    // Settled at B: the reader collects M1 (on A's shelf); B passes its own M2 to the next reader
    // in the queue at once, and A, hearing of the settlement, gives the hold its copy again.
    let number = try #require(try b.conflicts.list().first).number
    #expect(throws: StoreError.self) { try b.conflicts.settle(number, .copy(inventory: "X9")) }
    let (settled, moves) = try b.conflicts.settleMoving(number, .copy(inventory: "M1"))
    #expect(
      settled.resolution
        == "the reader collects M1 (at desk «A»); M2 goes to the next hold or back to the shelf at desk «B»")
    #expect(moves.map(\.inventory) == ["M2"] && moves.first?.next?.readerTicket == "1003")
    try sync(b)
    #expect(try sync(a).holdShelfMoves.isEmpty, "A's copy stays on its shelf")
    try sync(b)
    for store in [a, b] {
      #expect(try store.conflicts.list().isEmpty)
      #expect(try holdState(store, "1002")?.1 == "M1")
      #expect(try holdState(store, "1003")?.1 == "M2")
    }
    #expect(try a.holds.list(ofReader: "1002").first?.shelfElsewhere == nil)
    #expect(try a.holds.list(ofReader: "1003").first?.shelfElsewhere == "B")
    #expect(try a.holds.shelfCounts().waiting == 1 && b.holds.shelfCounts().waiting == 1)
    #expect(first.position == 1)
    #expect(try a.sync.canonicalDump() == b.sync.canonicalDump())
    #expect(try a.sync.canonicalDump() == CentralDump.lines(try CentralConnection(url: url)))
  }

  /// Two desks that settle copies put aside twice differently while apart: the later settlement
  /// stands at both, each desk does what it asks of the copies on its own shelf, and no copy waits
  /// for two readers.
  @Test func twoDifferentSettlementsOfCopiesPutAsideTwiceEndWithTheLaterOne() throws {
    let (a, b, url) = try copiesPutAsideTwice()
    let onA = try #require(try a.conflicts.list().first).number
    let onB = try #require(try b.conflicts.list().first).number
    // Apart again: A says the reader collects M1, and a minute later B says M2.
    minuteLater()
    try a.conflicts.settle(onA, .copy(inventory: "M1"))
    minuteLater()
    let (_, movesAtB) = try b.conflicts.settleMoving(onB, .copy(inventory: "M2"))
    #expect(movesAtB.isEmpty, "B keeps its M2 for the reader")
    try sync(a)
    try sync(b)
    let report = try sync(a)
    // B's settlement stands: A passes its M1 on to the next reader, and says so.
    #expect(report.holdShelfMoves.map(\.inventory) == ["M1"])
    #expect(report.holdShelfMoves.first?.next?.readerTicket == "1003")
    try sync(b)
    try sync(a)
    for store in [a, b] {
      #expect(try store.conflicts.list().isEmpty, "no new conflict")
      #expect(try holdState(store, "1002")?.1 == "M2")
      #expect(try holdState(store, "1003")?.1 == "M1")
      #expect(
        try store.conflicts.list(includingSettled: true).first?.resolution.hasPrefix("the reader collects M2") == true)
    }
    #expect(try a.sync.canonicalDump() == b.sync.canonicalDump())
    #expect(try a.sync.canonicalDump() == CentralDump.lines(try CentralConnection(url: url)))
  }

  /// A hold cancelled at one desk while its copy waits on another desk's shelf: the desk that
  /// cancels says where the copy is, and that desk passes it on when it hears of it.
  @Test func aHoldCancelledWhileItsCopyWaitsAtAnotherDeskIsPassedOnThere() throws {
    let (a, b, _, _) = try holdLibraryWithQueue()
    minuteLater()
    _ = try b.circulation.returnBooks(inventories: ["M1"])
    try sync(b)
    try sync(a)
    minuteLater()
    let cancelled = try a.holds.cancel(number: try #require(try a.holds.list(ofReader: "1002").first).number)
    #expect(cancelled.freed == "M1" && cancelled.shelf == "B" && cancelled.next == nil)
    try sync(a)
    let report = try sync(b)
    #expect(report.holdShelfMoves.map(\.inventory) == ["M1"])
    #expect(report.holdShelfMoves.first?.next?.readerTicket == "1003")
    try sync(a)
    for store in [a, b] {
      #expect(try holdState(store, "1002")?.0 == .cancelled)
      #expect(try holdState(store, "1003")?.1 == "M1")
    }
    #expect(try a.sync.canonicalDump() == b.sync.canonicalDump())
  }

  @Test func aHoldCancelledAtOneDeskWhileAnotherPutACopyAsideStaysCancelledAndTheCopyGoesOn() throws {
    let (a, b, url, _) = try holdLibraryWithQueue()
    // Apart: at B 1002 says they no longer want the book; a moment later A, not knowing,
    // puts M1 aside for them.
    minuteLater()
    let cancelled = try b.holds.cancel(number: try #require(try b.holds.list(ofReader: "1002").first).number)
    #expect(cancelled.freed == nil)
    minuteLater()
    #expect(try a.circulation.returnBooks(inventories: ["M1"]).first?.heldFor?.readerTicket == "1002")
    try sync(b)
    let report = try sync(a)
    // A, whose shelf holds the copy, gives it to the next reader and says so.
    #expect(report.holdShelfMoves.map(\.inventory) == ["M1"])
    #expect(report.holdShelfMoves.first?.next?.readerTicket == "1003")
    try sync(b)
    for store in [a, b] {
      #expect(try holdState(store, "1002")?.0 == .cancelled, "the end stands, though the trap came later")
      #expect(try holdState(store, "1003")?.0 == .waiting)
      #expect(try holdState(store, "1003")?.1 == "M1")
      #expect(try store.conflicts.list().isEmpty)
    }
    #expect(try a.sync.canonicalDump() == b.sync.canonicalDump())
    #expect(try a.sync.canonicalDump() == CentralDump.lines(try CentralConnection(url: url)))
  }

  /// Apart, each desk puts its copy aside for the first reader, and each settles the conflict by
  /// keeping the other desk's copy, passing its own to the next reader: the later settlement
  /// stands, each copy waits for exactly one reader, and the second hold's own clash settles
  /// itself without a librarian.
  @Test func settlementsThatEachKeepTheOtherDesksCopyEndWithOneCopyAReader() throws {
    let (a, b, url) = try copiesPutAsideTwice()
    // While the conflict is open, neither copy goes to anyone but the reader put aside for.
    #expect(throws: StoreError.self) { try a.circulation.issue(ticket: "1004", inventories: ["M1"]) }
    let onA = try #require(try a.conflicts.list().first).number
    let onB = try #require(try b.conflicts.list().first).number
    minuteLater()
    #expect(try a.conflicts.settleMoving(onA, .copy(inventory: "M2")).shelfMoves.first?.next?.readerTicket == "1003")
    minuteLater()
    #expect(try b.conflicts.settleMoving(onB, .copy(inventory: "M1")).shelfMoves.first?.next?.readerTicket == "1003")
    for _ in 0..<3 {
      try sync(a)
      try sync(b)
    }
    for store in [a, b] {
      #expect(try store.conflicts.list().isEmpty, "every conflict settled")
      #expect(try holdState(store, "1002")?.1 == "M1", "B's settlement, the later, stands")
      #expect(try holdState(store, "1003")?.1 == "M2")
    }
    #expect(try a.sync.canonicalDump() == b.sync.canonicalDump())
    #expect(try a.sync.canonicalDump() == CentralDump.lines(try CentralConnection(url: url)))
  }

  /// Apart, A puts its copy aside for the first reader while B puts its own aside and the reader
  /// collects it there at once: the hold is fulfilled, no librarian is asked, and A passes its
  /// copy to the next reader and says so.
  @Test func aCopyPutAsideForAHoldCollectedElsewhereMeanwhileGoesOn() throws {
    let (a, b, url, _) = try holdLibraryWithQueue()
    minuteLater()
    _ = try a.circulation.returnBooks(inventories: ["M1"])
    _ = try b.circulation.returnBooks(inventories: ["M2"])
    minuteLater()
    try b.circulation.issue(ticket: "1002", inventories: ["M2"])
    try sync(b)
    let report = try sync(a)
    #expect(report.holdShelfMoves.map(\.inventory) == ["M1"])
    #expect(report.holdShelfMoves.first?.next?.readerTicket == "1003")
    try sync(b)
    try sync(a)
    for store in [a, b] {
      #expect(try store.conflicts.list().isEmpty)
      #expect(try holdState(store, "1002")?.0 == .fulfilled)
      #expect(try holdState(store, "1003")?.1 == "M1")
    }
    #expect(try a.sync.canonicalDump() == b.sync.canonicalDump())
    #expect(try a.sync.canonicalDump() == CentralDump.lines(try CentralConnection(url: url)))
  }
}
