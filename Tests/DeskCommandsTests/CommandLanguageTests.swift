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

  /// What `sync`, `conflicts resolve` and `book show` add about holds and sync is said in the
  /// locale's language too.
  @Test func holdMovesAndSyncMarksAreSaidInEachLanguage() {
    let next = HoldTrap(
      hold: 2, inventory: "M1", readerTicket: "19", readerName: "Sidorova A.", pickupBy: LocalDate(iso: "2026-12-07")!)
    for cause in [HoldMove.Cause.notCollected, .endedElsewhere, .settled] {
      for move in [
        HoldMove(inventory: "M1", label: "Master", fromReader: "Petrov I.", next: next, cause: cause),
        HoldMove(inventory: "M1", label: "Master", fromReader: "Petrov I.", next: nil, cause: cause),
      ] {
        #expect(EnglishWords().line(move).hasPrefix("M1 Master: "))
        #expect(RussianWords().line(move).contains { ("а"..."я").contains($0) }, "\(RussianWords().line(move))")
      }
    }
    let mark = SyncMark(unsynced: 2, conflicts: [])
    #expect(EnglishWords().lines(mark) == ["Not yet at the central: 2 changes made here"])
    #expect(RussianWords().lines(mark) == ["Ещё не на сервере: изменений, сделанных здесь, — 2"])
    #expect(EnglishWords().lines(SyncMark(unsynced: 0, conflicts: [])).isEmpty)
  }
}
