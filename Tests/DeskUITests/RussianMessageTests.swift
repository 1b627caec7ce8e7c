import CSQLite
import DeskDomain
import DeskScanning
import DeskStorage
import DeskWords
import Testing

@testable import DeskUI

/// The Russian desk says every error in Russian: none falls back to the English text.
@Suite struct RussianMessageTests {
  let russian = RussianStrings()

  static let storeErrors: [StoreError] = [
    .notADatabase(path: "a.db"), .newerSchema(path: "a.db", found: 99, supported: 12), .readOnly(path: "a.db"),
    .cannotUpgradeReadOnly(path: "a.db", found: 9, latest: 12),
    .notALibrary(path: "a.db", tables: ["customers"], version: 0), .busy(path: "a.db"),
    .cannotOpen(path: "a.db", reason: "disk I/O error"), .invalid(ValidationErrors([.required(.title)])),
    .refused([.unknownBook("404")]), .bookNotFound("404"), .readerNotFound("17"),
    .bookOnLoan(book: "Книга", inventory: "1", reader: "Иванова М."), .readerHasBooks(reader: "Иванова М.", count: 2),
    .categoryInUse(code: "adult", readers: 3), .categoryNotFound("kids"), .invalidSetting([.syncInterval, .loanDays]),
    .loanChanged, .badChange("change 7: no such record"), .syncRefused("run circdesk sync first"),
    .conflictNotFound(4), .settlementRefused(number: 3, kind: .inventory, .numberTaken("17")),
    .settlementRefused(number: 3, kind: .editAfterDelete, .readerHoldsBooks(2)),
    .settlementRefused(number: 5, kind: .trappedTwice, .notOneOfTheCopies("X9", copies: ["M1", "M2"])),
    .database(DatabaseError(extendedCode: SQLITE_BUSY, message: "database is locked")),
    .database(DatabaseError(extendedCode: SQLITE_IOERR, message: "disk I/O error")),
  ]

  @Test(arguments: storeErrors)
  func everyStoreErrorIsSaidInRussian(error: StoreError) {
    let lines = russian.messages(error)
    #expect(!lines.isEmpty)
    for line in lines {
      #expect(line.contains { ("а"..."я").contains($0) || ("А"..."Я").contains($0) }, "\(line)")
      #expect(!EnglishWords().messages(error).contains(line), "English text in the Russian desk: \(line)")
    }
  }

  @Test(arguments: [
    ImageError.missing("a.png"), .unreadable("a.png"), .empty("a.png"), .noPixels("a.png"), .notAnImage("a.png"),
    .truncated("a.png", detail: "Read Error"), .corrupt("a.png", detail: "bad huffman"),
    .tooLarge("a.png", maximumPixels: 40_000_000), .outOfMemory("a.png"),
  ])
  func everyImageErrorIsSaidInRussian(error: ImageError) {
    let line = russian.message(error)
    #expect(line != error.description)
    #expect(line.contains { ("а"..."я").contains($0) }, "\(line)")
  }
}
