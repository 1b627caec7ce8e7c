import Testing

@testable import DeskDomain

/// Code 128 read from bars and spaces as a scan line measures them: symbols written here from
/// the standard's table, printed with ink spread and read from either end.
@Suite struct Code128Tests {
  /// The line of a symbol of `values` (start, data; the check character and stop added), a
  /// module `module` units wide, bars `spread` units wider and spaces as much narrower, with
  /// quiet zones.
  func line(_ values: [Int], module: Double = 4, spread: Double = 0, check: Int? = nil) -> [Code128.Element] {
    var sum = values[0]
    for (position, value) in values.dropFirst().enumerated() { sum += (position + 1) * value }
    var elements = [Code128.Element(width: 40, isBar: false)]
    for value in values + [check ?? sum % 103, Code128.stop] {
      for (index, modules) in Code128.patterns[value].enumerated() {
        let isBar = index % 2 == 0
        elements.append(.init(width: Double(modules) * module + (isBar ? spread : -spread), isBar: isBar))
      }
    }
    elements.append(.init(width: 40, isBar: false))
    return elements
  }

  @Test func aSymbolIsReadWithInkSpreadAndFromEitherEnd() {
    // Set B «Ab1».
    let values = [Code128.startB, 33, 66, 17]
    #expect(Code128.decode(line(values)) == Array("Ab1".utf8))
    #expect(Code128.decode(line(values, spread: 1.5)) == Array("Ab1".utf8))
    #expect(Code128.decode(line(values, spread: -1.5)) == Array("Ab1".utf8))
    #expect(Code128.decode(line(values).reversed()) == Array("Ab1".utf8))
  }

  @Test func aWrongCheckCharacterIsNoSymbol() {
    let values = [Code128.startB, 33, 66, 17]
    #expect(Code128.decode(line(values, check: 5)) == nil)
    // Half its characters lost in glare.
    #expect(Code128.decode(Array(line(values).prefix(14))) == nil)
  }

  @Test func codeSetsShiftsAndFunctionCharacters() {
    // Start C «1234», to B «x», shift to A for a tab, B «y».
    #expect(Code128.decode(line([Code128.startC, 12, 34, 100, 88, 98, 73, 89])) == Array("1234x\ty".utf8))
    // FNC1 first (GS1) is left out; later it is the group separator.
    #expect(Code128.decode(line([Code128.startC, 102, 1, 23, 102, 45])) == [0x30, 0x31, 0x32, 0x33, 0x1D, 0x34, 0x35])
  }

  @Test func fnc4ShiftsOneCharacterAndTwoLatchTheUpperHalf() {
    // B: FNC4 «s» → «ó» (0xF3), then «a».
    #expect(Code128.decode(line([Code128.startB, 100, 83, 65])) == [0xF3, 0x61])
    // Latched: «ÀÁ», one FNC4 makes the next «b» plain, «Â», two more unlatch for «c».
    let latched = [Code128.startB, 100, 100, 32, 33, 100, 66, 34, 100, 100, 67]
    #expect(Code128.decode(line(latched)) == [0xC0, 0xC1, 0x62, 0xC2, 0x63])
    // In set A, FNC4 is 101.
    #expect(Code128.decode(line([Code128.startA, 101, 33])) == [0xC1])
  }

  /// zbar's read, its FNC4 letters without their high bit, laid over the bars: the letters whole;
  /// a read the bars do not hold, or bars whose check character fails, give nothing.
  @Test func zbarsReadIsConfirmedAgainstTheBars() {
    // «Café 77»: B «Caf», FNC4 «i» (é), « », C «77».
    let cafe = line([Code128.startB, 35, 65, 70, 100, 73, 0, 99, 77], spread: 1)
    #expect(Code128.confirm(Array("Cafi 77".utf8), along: cafe) == Array("Caf".utf8) + [0xE9] + Array(" 77".utf8))
    #expect(Code128.confirm(Array("Cafi 77".utf8), along: cafe.reversed()) != nil)
    #expect(Code128.confirm(Array("Cafe 77".utf8), along: cafe) == nil)
    #expect(
      Code128.confirm(Array("Cafi 77".utf8), along: line([Code128.startB, 35, 65, 70, 100, 73, 0, 99, 77], check: 3))
        == nil)
    // Latched: «ÀÁb» written with two FNC4, then one for a plain «b».
    let latched = line([Code128.startB, 100, 100, 32, 33, 100, 66])
    #expect(Code128.confirm(Array("@Ab".utf8), along: latched) == [0xC0, 0xC1, 0x62])
  }
}
