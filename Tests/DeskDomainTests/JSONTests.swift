import Testing

@testable import DeskDomain

/// One JSON for what the program writes and what it reads.
@Suite struct JSONTests {
  /// What is written reads back the same, members in the order written.
  @Test func whatIsWrittenReadsBackInItsOrder() throws {
    let written = JSON.object([
      ("zeta", .int(3)), ("alpha", .string("«Мастер» \"и\"\n\u{1}\u{2028}😀")), ("price", .number(254.5)),
      ("list", .array([.null, .bool(true), .object([])])), ("big", .int(-9_007_199_254)),
    ])
    let read = try JSON.parse(Array(written.rendered().utf8))
    #expect(read == written)
    guard case .object(let members) = read else { throw JSONError.unexpected(0) }
    #expect(members.map(\.0) == ["zeta", "alpha", "price", "list", "big"])
    #expect(read["alpha"]?.string == "«Мастер» \"и\"\n\u{1}\u{2028}😀")
    #expect(read["zeta"]?.int == 3)
    #expect(try JSON.parse(Array(written.compact.utf8)) == written)
    #expect(!written.compact.contains("\n") && !written.compact.contains(": "))
    #expect(JSON.object([("a", .array([.int(1), .string("b")]))]).compact == #"{"a":[1,"b"]}"#)
  }

  /// A key given twice is read as the last one (as a dictionary read it before), whole numbers
  /// written with a point are whole numbers, and malformed text is refused.
  @Test func readingIsStrictAndTakesTheLastOfAKey() throws {
    let read = try JSON.parse(Array(#"{"a": 1, "b": 2.0, "a": "x"}"#.utf8))
    #expect(read["a"]?.string == "x")
    #expect(read["b"]?.int == 2)
    for bad in [#"{"a": }"#, "[1, 2", #"{"a" 1}"#, "01x"] {
      #expect(throws: JSONError.self, "\(bad)") { try JSON.parse(Array(bad.utf8)) }
    }
  }
}
