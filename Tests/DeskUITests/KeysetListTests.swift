import DeskStorage
import Testing

@testable import DeskUI

@Suite struct KeysetListTests {
  /// A sorted list of 1,000 keys served the way the store serves pages.
  let keys = (0..<1_000).map { String(format: "k%04d", $0) }

  func fetch(_ position: PagePosition, _ limit: Int) -> [String] {
    switch position {
    case .first: return Array(keys.prefix(limit))
    case .last: return Array(keys.suffix(limit))
    case .after(let key): return Array(keys.filter { $0 > key }.prefix(limit))
    case .from(let key): return Array(keys.filter { $0 >= key }.prefix(limit))
    case .before(let key): return Array(keys.filter { $0 < key }.suffix(limit))
    }
  }

  @Test func pagesDownAndUpByExactlyAPage() {
    var list = KeysetList<String>(key: { $0 })
    list.load(fetch, pageSize: 19)
    for step in 1...50 {
      list.move(by: 19, fetch: fetch, pageSize: 19)
      #expect(list.selectedRow == keys[min(999, step * 19)], "step \(step)")
    }
    for step in 1...60 {
      list.move(by: -19, fetch: fetch, pageSize: 19)
      #expect(list.selectedRow == keys[max(0, 950 - step * 19)], "step \(step)")
    }
    #expect(list.rows.count <= 450)
  }

  /// Opening a list reads only the page it shows; the next comes when the selection needs it,
  /// or ahead while the desk is idle.
  @Test func opensOnOnePageAndReadsTheNextWhenNeeded() {
    var limits: [Int] = []
    let recorded: KeysetList<String>.Fetch = { position, limit in
      limits.append(limit)
      return self.fetch(position, limit)
    }
    var list = KeysetList<String>(key: { $0 })
    list.load(recorded, pageSize: 19)
    #expect(limits == [19])
    #expect(list.rows == Array(keys.prefix(19)))
    list.readAhead(recorded, pageSize: 19)
    #expect(list.rows == Array(keys.prefix(38)))
    list.move(by: 19, fetch: recorded, pageSize: 19)
    #expect(list.selectedRow == "k0019")
    #expect(limits == [19, 19])
  }

  @Test func jumpsToBothEndsAndStepsOneByOne() {
    var list = KeysetList<String>(key: { $0 })
    list.load(fetch, pageSize: 19)
    list.moveToEnd(fetch: fetch, pageSize: 19)
    #expect(list.selectedRow == "k0999")
    list.move(by: -1, fetch: fetch, pageSize: 19)
    #expect(list.selectedRow == "k0998")
    for _ in 0..<100 { list.move(by: -1, fetch: fetch, pageSize: 19) }
    #expect(list.selectedRow == "k0898")
    list.moveToStart(fetch: fetch, pageSize: 19)
    #expect(list.selectedRow == "k0000")
    list.move(by: -1, fetch: fetch, pageSize: 19)
    #expect(list.selectedRow == "k0000")
  }

  @Test func loadsAroundARecord() {
    var list = KeysetList<String>(key: { $0 })
    list.load(fetch, pageSize: 19, around: "k0500")
    #expect(list.selectedRow == "k0500")
    list.move(by: -19, fetch: fetch, pageSize: 19)
    #expect(list.selectedRow == "k0481")
    list.move(by: -30, fetch: fetch, pageSize: 19)
    #expect(list.selectedRow == "k0451")
  }
}
