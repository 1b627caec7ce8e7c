import Testing

@testable import DeskDomain

/// Page counts from statements of extent as catalogues write them (RUSMARC and IRBIS 215 ^a).
@Suite struct ExtentTests {
  @Test(arguments: [
    ("328 с.", "328"), ("V, 201 p.", "201"), ("[4], 256 с.", "256"), ("XII, 340, [4] с.", "340"),
    ("528 с. : ил.", "528"), ("", ""), ("Без пагинации", ""),
  ])
  func readsThePageCount(extent: String, pages: String) {
    #expect(IRBISBooks.pageCount(extent) == pages)
  }
}
