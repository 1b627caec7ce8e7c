/// Registration group and registrant ranges from the ISBN International range message, for
/// the groups a Russian or European library meets most. Each entry lists, for a group, the
/// ranges of the registrant element; the length of the range bounds is the element's length.
enum ISBNRanges {
  private static let groups: [String: [String: String]] = [
    "978": [
      "0": "00-19,200-699,7000-8499,85000-89999,900000-949999,9500000-9999999",
      "1": "00-09,100-399,4000-5499,55000-86979,869800-998999,9990000-9999999",
      "2": "00-19,200-349,35000-39999,400-699,7000-8399,84000-89999,900000-949999,9500000-9999999",
      "3": "00-02,030-033,0340-0369,03700-03999,04-19,200-699,7000-8499,85000-89999,"
        + "900000-949999,9500000-9539999,95400-96999,9700000-9899999,99000-99499,99500-99999",
      "4": "00-19,200-699,7000-8499,85000-89999,900000-949999,9500000-9999999",
      "5": "00000-00499,0050-0099,01-19,200-420,4210-4299,430-430,4310-4399,440-440,"
        + "4410-4499,450-699,7000-8499,85000-89999,900000-909999,91000-91999,9200-9299,"
        + "93000-94999,9500000-9500999,9501-9799,98000-98999,9900000-9909999,9910-9999",
      "7": "00-09,100-499,5000-7999,80000-89999,900000-999999",
      "80": "00-19,200-699,7000-8499,85000-89999,900000-999999",
      "83": "00-19,200-599,60000-69999,7000-8499,85000-89999,900000-999999",
      "84": "00-13,140-149,15000-19999,200-699,7000-8499,85000-89999,9000-9199,"
        + "920000-923999,92400-92999,930000-949999,95000-96999,9700-9999",
      "88": "00-19,200-599,6000-8499,85000-89999,900000-909999,910-929,9300-9399,"
        + "940000-949999,95000-99999",
      "601": "00-19,200-699,7000-7999,80000-84999,85-99",
      "617": "00-49,500-699,7000-8999,90000-99999",
      "966": "00-12,130-139,14-14,1500-1699,170-199,2000-2789,279-289,2900-2999,300-699,"
        + "7000-8999,90000-90999,910-949,95000-97999,980-999",
      "985": "00-39,400-599,6000-8999,90000-99999",
    ],
    "979": [
      "10": "00-19,200-699,7000-8999,90000-97599,976000-999999",
      "11": "00-24,250-549,5500-8499,85000-94999,950000-999999",
    ],
  ]

  /// `978-5-17-079585-7` for the digits 9785170795857; an ISBN-10 keeps its 10-digit shape.
  static func hyphenate(_ isbn: ISBN) -> String? {
    let thirteen = Array(isbn.isbn13)
    let prefix = String(thirteen[0..<3])
    guard let groups = groups[prefix] else { return nil }
    let rest = thirteen[3..<12]
    for groupLength in 1...5 {
      let group = String(rest.prefix(groupLength))
      guard let ranges = groups[group] else { continue }
      let afterGroup = Array(rest.dropFirst(groupLength))
      guard let registrantLength = registrantLength(afterGroup, ranges: ranges),
        registrantLength < afterGroup.count
      else { return nil }
      let registrant = String(afterGroup.prefix(registrantLength))
      let publication = String(afterGroup.dropFirst(registrantLength))
      let check = String(isbn.digits.last ?? "0")
      let parts =
        isbn.digits.count == 10
        ? [group, registrant, publication, check]
        : [prefix, group, registrant, publication, check]
      return parts.joined(separator: "-")
    }
    return nil
  }

  private static func registrantLength(_ digits: [Character], ranges: String) -> Int? {
    for range in ranges.split(separator: ",") {
      let bounds = range.split(separator: "-")
      guard bounds.count == 2, let low = Int(bounds[0]), let high = Int(bounds[1]) else { continue }
      let length = bounds[0].count
      guard let value = Int(String(digits.prefix(length))) else { continue }
      if (low...high).contains(value) { return length }
    }
    return nil
  }
}
