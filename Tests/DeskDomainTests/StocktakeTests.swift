import DeskDomain
import Testing

/// A check's scope and how a scan is sorted, without a library.
@Suite struct StocktakeTests {
  @Test func aScopeCoversPlacesByTheirBeginningShelfCodesAndStatuses() throws {
    let scope = StocktakeScope(placePrefixes: ["Зал 1"], shelfCodes: StocktakeScope.shelfCodes(parsing: "63..84"))
    #expect(scope.covers(place: "зал 1, стеллаж 4", shelfCode: "84(2Рос=Рус)6", status: .available))
    #expect(scope.covers(place: "Зал 1", shelfCode: "63.3", status: .damaged))
    #expect(!scope.covers(place: "Зал 2", shelfCode: "84", status: .available), "another place")
    #expect(!scope.covers(place: "Зал 1", shelfCode: "85.1", status: .available), "past the last code")
    #expect(!scope.covers(place: "Зал 1", shelfCode: "22.1", status: .available), "before the first")
    #expect(!scope.covers(place: "Зал 1", shelfCode: "84", status: .lost), "lost copies are not expected")
    #expect(StocktakeScope.shelfCodes(parsing: "75..") == "75"..."\u{10FFFF}")
    #expect(StocktakeScope.shelfCodes(parsing: "..63")?.lowerBound == "")
    for wrong in ["84", "..", "9..1", "1..2..3"] {
      #expect(StocktakeScope.shelfCodes(parsing: wrong) == nil, "\(wrong)")
    }
  }

  @Test func aScanIsSortedAsItHappens() throws {
    let since = try #require(LocalDate(iso: "2026-11-20"))
    func copy(
      place: String = "Зал 1", status: CopyStatus = .available, out: Bool = false, expected: Bool = true,
      again: Bool = false
    ) -> StocktakeCopy {
      StocktakeCopy(
        place: place, status: status, loan: out ? ("Иванова А. С.", "1001", since) : nil, expected: expected,
        scannedBefore: again)
    }
    #expect(copy().finding(at: "зал 1 ") == .found)
    #expect(copy().finding(at: "") == .found, "no place said: where it is is not known")
    #expect(copy().finding(at: "Зал 2") == .misplaced(recorded: "Зал 1", actual: "Зал 2"))
    #expect(copy(out: true).finding(at: "Зал 1") == .onLoan(reader: "Иванова А. С.", ticket: "1001", since: since))
    #expect(copy(status: .lost, expected: false).finding(at: "Зал 1") == .notInStock(.lost))
    #expect(copy(expected: false).finding(at: "Зал 1") == .outsideCheck)
    #expect(copy(again: true).finding(at: "Зал 2") == .scannedAgain)
    #expect(StocktakeFinding.found.isPresent && !StocktakeFinding.outsideCheck.isPresent)
  }

  /// A copy's last check is written as IRBIS writes the day of a check of the stock: 910 ^S.
  @Test func theLastCheckIsWrittenIn910S() throws {
    let stamp = Timestamp(millisecondsSinceEpoch: 0)
    var book = Book(
      inventoryNumber: "100234", title: "Герой нашего времени", place: "Зал 1", created: stamp, updated: stamp)
    #expect(IRBISBooks.record(for: book, onLoan: false).first(910)?.subfield("S") == "")
    book.lastChecked = LocalDate(iso: "2026-12-03")
    #expect(IRBISBooks.record(for: book, onLoan: false).first(910)?.subfield("S") == "20261203")
  }

  /// A shelf's label names the place in any case of its prefix; other codes are no label.
  @Test func aShelfLabelNamesItsPlace() {
    #expect(ShelfLabel.place(in: "PLACE:Зал 1, стеллаж 4") == "Зал 1, стеллаж 4")
    #expect(ShelfLabel.place(in: "place: Зал 2 ") == "Зал 2")
    #expect(ShelfLabel.place(in: "100234") == nil)
    #expect(ShelfLabel.place(in: "PLAC") == nil)
    #expect(ShelfLabel.code(for: " Зал 3 ") == "PLACE:Зал 3")
  }
}
