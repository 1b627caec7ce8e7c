import DeskDomain
import DeskStorage

/// Writes books as ISO 2709 records, page by page from the database: RUSMARC (the IRBIS
/// catalogue record's fields, which share RUSMARC's tags) or MARC 21 with Koha's 952 items.
public enum ISO2709Export {
  public struct Report: Sendable {
    /// Records that could not be written (over ISO 2709's lengths): their books' numbers, and why.
    public var problems: [(inventories: [String], problem: ISO2709Record.Problem)] = []
    /// Fields tagged over 999, which the directory cannot hold.
    public var fieldsLeftOut = 0
    public var replacedCharacters = 0
    /// MARC 21 items (952) written without a home branch ($a), which Koha refuses.
    public var itemsWithoutBranch = 0

    public init() {}
  }

  /// Writes the books; returns how many records were written.
  /// `items`: the branch and item type a MARC 21 export gives Koha's items.
  public static func books(
    _ selection: IRBISExport.BookSelection, from store: LibraryStore, to writer: TextWriter, format: ISO2709.Format,
    items: MARC21Books.KohaItems = MARC21Books.KohaItems(), report: inout Report
  ) throws(StoreError) -> Int {
    let utf8 = format == .marc21 || writer.encoding == .utf8
    var written = 0
    var problems: [(inventories: [String], problem: ISO2709Record.Problem)] = []
    var leftOut = 0
    var replaced = 0
    var withoutBranch = 0
    let encode: (String) -> [UInt8] = { text in
      let clean = text.withoutControlCharacters
      guard !utf8 else { return Array(clean.utf8) }
      let (bytes, count) = Windows1251.encodeLossy(clean)
      replaced += count
      return bytes
    }
    _ = try IRBISExport.forEachRecord(selection, from: store, asMARC: true) { record, copies, whole in
      let iso: ISO2709Record
      if format == .marc21 {
        iso = MARC21Books.marcRecord(for: copies, items: items, whole: whole)
        withoutBranch += iso.fields.count { $0.tag == 952 && !$0.subfields.contains { $0.0 == "a" && !$0.1.isEmpty } }
      } else {
        iso = .rusmarc(fields: record.fields.map { ISO2709Record.Field($0) }, utf8: utf8, leader: record.marcLeader)
      }
      do throws(ISO2709Record.Problem) {
        writer.write(bytes: try iso.bytes(encode: encode, skipped: &leftOut))
        written += 1
      } catch {
        problems.append((copies.map(\.book.inventoryNumber), error))
      }
    }
    report.problems += problems
    report.fieldsLeftOut += leftOut
    report.replacedCharacters += replaced
    report.itemsWithoutBranch += withoutBranch
    return written
  }
}
