/// Code 128 (ISO/IEC 15417) read from the widths of a line's bars and spaces. zbar reads Code 128
/// but drops the FNC4 that shifts a character into Latin-1's upper half («óóóó1234» comes back
/// «ssss1234»), and says nothing of it; this reads the same symbol characters and keeps them.
public enum Code128 {
  /// One bar or space along a scan line.
  public struct Element: Equatable, Sendable {
    public var width: Double
    public var isBar: Bool

    public init(width: Double, isBar: Bool) {
      (self.width, self.isBar) = (width, isBar)
    }
  }

  /// The bytes of the first Code 128 symbol along the line, read either way, whose check
  /// character holds; nil when none does. FNC4 sets a byte's high bit (Latin-1); FNC1 at the
  /// start (GS1) is left out and elsewhere is the group separator, 0x1D; FNC2 and FNC3 are left out.
  public static func decode(_ line: [Element]) -> [UInt8]? {
    if let forward = symbolValues(in: line) { return bytes(of: forward) }
    if let backward = symbolValues(in: line.reversed()) { return bytes(of: backward) }
    return nil
  }

  /// Each symbol character's modules, bar first; the stop (106) has a seventh element.
  static let patterns: [[Int]] = [
    "212222", "222122", "222221", "121223", "121322", "131222", "122213", "122312", "132212", "221213",
    "221312", "231212", "112232", "122132", "122231", "113222", "123122", "123221", "223211", "221132",
    "221231", "213212", "223112", "312131", "311222", "321122", "321221", "312212", "322112", "322211",
    "212123", "212321", "232121", "111323", "131123", "131321", "112313", "132113", "132311", "211313",
    "231113", "231311", "112133", "112331", "132131", "113123", "113321", "133121", "313121", "211331",
    "231131", "213113", "213311", "213131", "311123", "311321", "331121", "312113", "312311", "332111",
    "314111", "221411", "431111", "111224", "111422", "121124", "121421", "141122", "141221", "112214",
    "112412", "122114", "122411", "142112", "142211", "241211", "221114", "413111", "241112", "134111",
    "111242", "121142", "121241", "114212", "124112", "124211", "411212", "421112", "421211", "212141",
    "214121", "412121", "111143", "111341", "131141", "114113", "114311", "411113", "411311", "113141",
    "114131", "311141", "411131", "211412", "211214", "211232", "2331112",
  ].map { $0.compactMap(\.wholeNumberValue) }

  static let startA = 103, startB = 104, startC = 105, stop = 106

  /// The symbol characters from a start to the stop, the check character checked and dropped.
  static func symbolValues<Line: Collection>(in line: Line) -> [Int]? where Line.Element == Element {
    let elements = Array(line)
    var index = 0
    while index + 6 <= elements.count {
      defer { index += 1 }
      guard elements[index].isBar, let start = value(at: index, in: elements), (startA...startC).contains(start)
      else { continue }
      var values = [start]
      var next = index + 6
      while next + 6 <= elements.count, let read = value(at: next, in: elements) {
        if read == stop {
          guard values.count >= 3, check(values) else { break }
          return Array(values.dropLast())
        }
        values.append(read)
        next += 6
      }
    }
    return nil
  }

  /// The check character (the last value) against the start's and each character's weighted sum.
  static func check(_ values: [Int]) -> Bool {
    guard let checkValue = values.last else { return false }
    var sum = values[0]
    for (position, value) in values.dropFirst().dropLast().enumerated() { sum += (position + 1) * value }
    return sum % 103 == checkValue
  }

  /// The symbol character starting at `index`: the pattern whose edge-to-similar-edge distances
  /// (a bar and the space after it, and so on) lie nearest, as printed widths are measured:
  /// ink spread and blur widen bars and narrow spaces alike, and those sums cancel it.
  static func value(at index: Int, in elements: [Element]) -> Int? {
    guard let errors = errors(at: index, in: elements),
      let best = errors.indices.min(by: { errors[$0] < errors[$1] })
    else { return nil }
    // Half a module out on average is another character.
    return errors[best] < 0.5 ? best : nil
  }

  /// How far the elements at `index` lie from each symbol character's pattern, in modules on
  /// average over its edge-to-similar-edge distances (the stop's over its seven elements); nil
  /// where too few elements are left.
  static func errors(at index: Int, in elements: [Element]) -> [Double]? {
    guard index + 6 <= elements.count else { return nil }
    let widths = elements[index..<min(elements.count, index + 7)].map(\.width)
    let six = widths[0..<6].reduce(0, +)
    guard six > 0 else { return nil }
    return patterns.map { modules in
      guard modules.count <= widths.count else { return .infinity }
      let total = modules.count == 6 ? six : six + widths[6]
      let scale = Double(modules.count == 6 ? 11 : 13) / total
      var error = 0.0
      for i in 0..<(modules.count - 2) {
        error += abs((widths[i] + widths[i + 1]) * scale - Double(modules[i] + modules[i + 1]))
      }
      return error / Double(modules.count - 2)
    }
  }

  /// The values (the start, then the data, without the check character) as bytes, through the
  /// code sets, shifts and FNC4.
  static func bytes(of values: [Int]) -> [UInt8] {
    enum CodeSet { case a, b, c }
    var set: CodeSet = values[0] == startA ? .a : values[0] == startB ? .b : .c
    var result: [UInt8] = []
    var (shiftNext, upperNext, upperLatched) = (false, false, false)
    var previousWasFNC4 = false
    for (position, value) in values.dropFirst().enumerated() {
      let current = shiftNext ? (set == .a ? CodeSet.b : .a) : set
      shiftNext = false
      let isFNC4 = (current == .a && value == 101) || (current == .b && value == 100)
      defer { previousWasFNC4 = isFNC4 && !previousWasFNC4 }
      if isFNC4 {
        // Two in a row latch the upper half (and unlatch it); one shifts the next character.
        if previousWasFNC4 {
          upperLatched.toggle()
          upperNext = false
        } else {
          upperNext = true
        }
        continue
      }
      func append(_ byte: Int) {
        let upper = upperLatched != upperNext
        result.append(UInt8(truncatingIfNeeded: upper ? byte | 0x80 : byte))
        upperNext = false
      }
      switch (current, value) {
      case (.c, 0..<100): result += Array(String(value / 10).utf8) + Array(String(value % 10).utf8)
      case (.a, 0..<64): append(value + 32)
      case (.a, 64..<96): append(value - 64)
      case (.b, 0..<96): append(value + 32)
      case (_, 102): if position > 0 { result.append(0x1D) }
      case (.a, 98), (.b, 98): shiftNext = true
      case (.a, 99), (.b, 99): set = .c
      case (.a, 100), (.c, 100): set = .b
      case (.b, 101), (.c, 101): set = .a
      default: break  // FNC2, FNC3
      }
    }
    return result
  }
}
