import CImaging

/// One code's reads that lie one above the other are one code.
extension ImageScanner {
  /// Two reads of one EAN or UPC code lying one above the other, its bars read two ways on
  /// different lines (a tilted, blurred code gave «721113001202» above «8711253001202»): where
  /// the bars run on between them (the line half way is the line at the edge of one read, maybe
  /// shifted a little by a tilt), they are one code, and a read that runs as much of its length
  /// and was read on more of zbar's lines, or runs more of it on as many, stands alone. Neither
  /// tells alone: in ZXing's photos a wrong read ran the code's whole length and the right one
  /// half of it on twice the lines, and the other way round; such reads are all kept, as before.
  /// Codes printed one above the other (a sheet of labels) have white or their digits between.
  static func oneReadPerCode(_ found: [ScannedSymbol], image: cimg_gray) -> [ScannedSymbol] {
    let isFullCode = { (code: ScannedSymbol) in
      ScannedSymbol.productCodes.contains(code.symbology) && !ScannedSymbol.shortProductCodes.contains(code.symbology)
    }
    var dropped = Set<Int>()
    for first in found.indices where isFullCode(found[first]) {
      for second in found.indices where second > first && isFullCode(found[second]) {
        guard found[first].text != found[second].text,
          let between = lineBetween(found[first].box, found[second].box),
          barsRunOn(in: image, between)
        else { continue }
        let (one, other) = (found[first], found[second])
        let length = { (code: ScannedSymbol) in
          between.vertical ? code.box.bottom - code.box.top : code.box.right - code.box.left
        }
        // +1 where the first is ahead (its length by a tenth or more), -1 where the second is.
        let longer = length(other) * 10 < length(one) * 9 ? 1 : length(one) * 10 < length(other) * 9 ? -1 : 0
        let moreLines = one.lines > other.lines ? 1 : one.lines < other.lines ? -1 : 0
        if longer >= 0, moreLines >= 0, longer + moreLines > 0 { dropped.insert(second) }
        if longer <= 0, moreLines <= 0, longer + moreLines < 0 { dropped.insert(first) }
      }
    }
    return found.indices.filter { !dropped.contains($0) }.map { found[$0] }
  }

  /// A line half way between two codes' boxes that lie one above the other (beside each other,
  /// for codes whose bars run across the picture), over the length they share, and the line at
  /// the near edge of the first box: nil unless they share most of their length and lie apart
  /// by less than it.
  struct LineAcross {
    var line: Int
    var edge: Int
    var vertical: Bool
    var from: Int
    var to: Int
    var gap: Int
  }

  static func lineBetween(_ a: ScannedSymbol.Box, _ b: ScannedSymbol.Box) -> LineAcross? {
    let wide = { (box: ScannedSymbol.Box) in box.right - box.left >= box.bottom - box.top }
    guard wide(a) == wide(b) else { return nil }
    // Along the code, and across it, for either way a code lies.
    let along = wide(a) ? [(a.left, a.right), (b.left, b.right)] : [(a.top, a.bottom), (b.top, b.bottom)]
    let across = wide(a) ? [(a.top, a.bottom), (b.top, b.bottom)] : [(a.left, a.right), (b.left, b.right)]
    let (from, to) = (max(along[0].0, along[1].0), min(along[0].1, along[1].1))
    let shorter = min(along[0].1 - along[0].0, along[1].1 - along[1].0)
    guard shorter > 0, (to - from) * 5 >= shorter * 4 else { return nil }
    let (upper, lower) = across[0].0 <= across[1].0 ? (across[0], across[1]) : (across[1], across[0])
    let gap = lower.0 - upper.1
    guard gap > 1, gap <= shorter else { return nil }
    return LineAcross(
      line: (upper.1 + lower.0) / 2, edge: upper.1, vertical: !wide(a), from: from, to: to, gap: gap)
  }

  /// Whether the pixels of the line half way are those of the line at the box's edge, shifted by
  /// at most an eighth of the gap (a tilt): their correlation 0.7 or more at the best shift. The
  /// same bars correlate at 0.9 and more however blurred; white does not correlate, nor do
  /// digits printed under a code.
  static func barsRunOn(in image: cimg_gray, _ line: LineAcross) -> Bool {
    guard let pixels = image.pixels else { return false }
    let (width, height) = (Int(image.width), Int(image.height))
    let lines = line.vertical ? width : height
    guard line.line >= 0, line.line < lines, line.edge >= 0, line.edge < lines else { return false }
    let length = line.vertical ? height : width
    let pixel = { (across: Int, along: Int) -> Double in
      Double(line.vertical ? pixels[along * width + across] : pixels[across * width + along])
    }
    let shift = max(2, line.gap / 8)
    let (from, to) = (max(0, line.from) + shift, min(length, line.to) - shift)
    guard to - from > 20 else { return false }
    var best = -1.0
    for offset in -shift...shift {
      var (sumA, sumB, sumAA, sumBB, sumAB) = (0.0, 0.0, 0.0, 0.0, 0.0)
      for along in from..<to {
        let (a, b) = (pixel(line.line, along), pixel(line.edge, along + offset))
        (sumA, sumB, sumAA, sumBB, sumAB) = (sumA + a, sumB + b, sumAA + a * a, sumBB + b * b, sumAB + a * b)
      }
      let count = Double(to - from)
      let spreadA = sumAA - sumA * sumA / count
      let spreadB = sumBB - sumB * sumB / count
      guard spreadA > 0, spreadB > 0 else { continue }
      best = max(best, (sumAB - sumA * sumB / count) / (spreadA * spreadB).squareRoot())
    }
    return best >= 0.7
  }
}
