import DeskDomain
import DeskTestSupport
import DeskWords
import Foundation
import Testing

@testable import DeskStorage

/// The library's refusals and errors in the librarian's language, at the command line as at the
/// desk: one set of words for both.
@Suite struct CommandLanguageTests {
  /// Under a Russian locale the real program says a refusal in Russian; under another, in English.
  @Test func aRefusalIsSaidInTheLanguageOfTheLocale() throws {
    let folder = TemporaryFolder()
    let db = ["--db", folder.file("library.sqlite")]
    for arguments in [
      ["book", "add", "--inventory", "1", "--title", "Азбука"],
      ["reader", "add", "--ticket", "17", "--surname", "Иванова"],
      ["reader", "add", "--ticket", "18", "--surname", "Петров"], ["issue", "17", "1"],
    ] {
      #expect(try runProcess(arguments + db).status == 0)
    }
    let russian = try runProcess(["issue", "18", "1"] + db, environment: ["LANG": "ru_RU.UTF-8"])
    #expect(russian.status == 1)
    #expect(russian.errors.contains("«Азбука» (1) уже выдана: Иванова"), "\(russian.errors)")
    let english = try runProcess(["issue", "18", "1"] + db, environment: ["LANG": "C.UTF-8"])
    #expect(english.errors.contains("«Азбука» (1) is already issued to Иванова"), "\(english.errors)")
    // LC_ALL outranks LANG, as everywhere on the system.
    let overruled = try runProcess(
      ["issue", "18", "1"] + db, environment: ["LANG": "ru_RU.UTF-8", "LC_ALL": "C.UTF-8"])
    #expect(overruled.errors.contains("is already issued"), "\(overruled.errors)")
  }

  /// One of every error the library gives, with refusals, field errors and settings inside.
  static let everyError: [StoreError] = [
    .notADatabase(path: "a.sqlite"), .newerSchema(path: "a.sqlite", found: 30, supported: 20),
    .readOnly(path: "a.sqlite"), .cannotUpgradeReadOnly(path: "a.sqlite", found: 3, latest: 20),
    .notALibrary(path: "a.sqlite", tables: ["t"], version: 0), .busy(path: "a.sqlite"),
    .cannotOpen(path: "a.sqlite", reason: "x"),
    .invalid(ValidationErrors([.required(.title), .invalidEmail("x"), .duplicateTicket("17", reader: "Ivanova")])),
    .refused([.unknownBook("1"), .notOnLoan(book: "Azbuka", inventory: "1"), .unknownHold(3)]),
    .bookNotFound("1"), .readerNotFound("17"), .bookOnLoan(book: "Azbuka", inventory: "1", reader: "Ivanova"),
    .readerHasBooks(reader: "Ivanova", count: 2), .categoryInUse(code: "s", readers: 3), .categoryNotFound("s"),
    .invalidSetting([.closedEveryDay, .syncInterval]), .loanChanged, .badChange("x"), .syncRefused("x"),
    .conflictNotFound(4), .settlementRefused(number: 4, kind: .doubleIssue, .recordGone),
    .unreadableValue(UnreadableValue(column: "loan.due", value: "x", kind: .date)),
    .database(DatabaseError(extendedCode: 1, message: "x")),
  ]

  /// Every language has words for every error (the compiler sees that each switch is whole); this
  /// checks the Russian ones are Russian, not English passed through.
  @Test func everyErrorIsSaidInEachLanguage() {
    for error in Self.everyError {
      let english = EnglishWords().messages(error)
      let russian = RussianWords().messages(error)
      #expect(!english.isEmpty && english.allSatisfy { !$0.isEmpty }, "\(error)")
      #expect(russian.count == english.count, "one line per problem in each language: \(error)")
      #expect(
        russian.allSatisfy { $0.unicodeScalars.contains { (0x400...0x4FF).contains($0.value) } },
        "Russian words for \(english)")
    }
  }
}
