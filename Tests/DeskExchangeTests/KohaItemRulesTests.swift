import DeskDomain
import DeskStorage
import DeskTestSupport
import Foundation
import Testing

/// The MARC 21 export read by the rules Koha takes items by: its default MARC 21 framework
/// (`installer/data/mysql/en/marcflavour/marc21/mandatory/marc21_framework_DEFAULT.sql`, the
/// `marc_subfield_structure` rows of 952 and 942) maps each subfield of an item to a column of
/// `items`, and `C4::Items` stores what it maps. The export is read by yaz-marcdump, not by the
/// desk.
@Suite struct KohaItemRulesTests {
  let folder = TemporaryFolder()

  func run(_ arguments: [String], db: String) throws -> CommandResult {
    try runProgram(circdeskPath, arguments + ["--db", db])
  }

  /// Koha's column for each subfield of 952 in the default framework, and what the column holds:
  /// a branch code, a date (`dateaccessioned.pl` writes YYYY-MM-DD), a decimal price, one of
  /// the authorised values Koha's sample data gives (LOST, WITHDRAWN, DAMAGED: 1; NOT_LOAN: 1
  /// not for loan, -1 ordered), or text.
  enum Holds { case branch, date, price, flag([String]), text }
  static let framework: [Character: (column: String, holds: Holds)] = [
    "0": ("items.withdrawn", .flag(["1"])), "1": ("items.itemlost", .flag(["1"])),
    "4": ("items.damaged", .flag(["1"])), "7": ("items.notforloan", .flag(["1", "-1"])),
    "a": ("items.homebranch", .branch), "b": ("items.holdingbranch", .branch), "c": ("items.location", .text),
    "d": ("items.dateaccessioned", .date), "g": ("items.price", .price), "o": ("items.itemcallnumber", .text),
    "p": ("items.barcode", .text), "y": ("items.itype", .text),
  ]

  /// The 952s of a file as yaz-marcdump reads them: each a list of (code, value).
  func items(_ path: String) throws -> [[(Character, String)]] {
    let dump = try runProgram(MARCExchangeTests.yaz, ["-f", "UTF-8", "-t", "UTF-8", path])
    #expect(dump.status == 0, "\(dump.errors)")
    return dump.output.split(separator: "\n").filter { $0.hasPrefix("952 ") }.map { line in
      line.dropFirst(7).components(separatedBy: " $").map { part in
        let text = part.hasPrefix("$") ? String(part.dropFirst()) : part
        return (text.first ?? " ", String(text.dropFirst(2)))
      }
    }
  }

  /// Every status, a price, a date, a place and a call number, written for branch MAIN: each
  /// item has a barcode of its own, both branches and a type, and every subfield maps to a
  /// column and holds what the column takes. Each record says its default item type (942 $c,
  /// mandatory in the framework).
  @Test func everyItemIsWhatKohaTakes() throws {
    let db = folder.file("library.sqlite")
    for (number, status) in [
      ("1", "available"), ("2", "lost"), ("3", "written-off"), ("4", "damaged"), ("5", "reference"),
      ("6", "processing"),
    ] {
      let added = try run(
        [
          "book", "add", "--inventory", "K-\(number)", "--title", "Книга \(number)", "--status", status,
          "--price", "254.50", "--received", "2026-03-0\(number)", "--place", "Абонемент", "--bbk", "84(2Рос=Рус)1",
          "--author-mark", "Л49",
        ], db: db)
      #expect(added.status == 0, "\(added.errors)")
    }
    let file = folder.file("koha.mrc")
    let written = try run(
      ["export", "iso2709", "books", "--all", "--format", "marc21", "--branch", "MAIN", "-o", file], db: db)
    #expect(written.status == 0, "\(written.errors)")
    let all = try items(file)
    #expect(all.count == 6)
    var barcodes = Set<String>()
    for item in all {
      let codes = item.map(\.0)
      #expect(Set(codes).count == codes.count, "a subfield once: \(item)")
      for required: Character in ["a", "b", "p", "y"] { #expect(codes.contains(required), "$\(required): \(item)") }
      for (code, value) in item {
        guard let (column, holds) = Self.framework[code] else {
          Issue.record("952 $\(code) maps to no column of items: \(item)")
          continue
        }
        switch holds {
        case .branch: #expect(value == "MAIN", "\(column)")
        case .date:
          #expect(
            (try? Regex(#"\d{4}-\d{2}-\d{2}"#)).flatMap { value.wholeMatch(of: $0) } != nil, "\(column): \(value)")
        case .price:
          #expect(
            Decimal(string: value) != nil && (try? Regex(#"\d+(\.\d+)?"#)).flatMap { value.wholeMatch(of: $0) } != nil,
            "\(column)")
        case .flag(let values): #expect(values.contains(value), "\(column): \(value)")
        case .text: #expect(!value.isEmpty, "\(column)")
        }
        if code == "p" { #expect(barcodes.insert(value).inserted, "barcodes are unique") }
      }
    }
    let flags = all.map { item in item.filter { "0147".contains($0.0) }.map { "\($0.0)=\($0.1)" } }
    #expect(flags.sorted { $0.joined() < $1.joined() } == [[], ["0=1"], ["1=1"], ["4=1"], ["7=-1"], ["7=1"]])
    let dump = try runProgram(MARCExchangeTests.yaz, ["-f", "UTF-8", "-t", "UTF-8", file]).output
    #expect(dump.split(separator: "\n").filter { $0.hasPrefix("942    $c BK") }.count == 6, "\(dump)")
  }
}
