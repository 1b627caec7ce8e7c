import DeskTestSupport
import Foundation
import Testing

/// `circdesk hold …` and what holds do to return, issue and renew at the command line.
@Suite struct HoldCommandTests {
  let folder = TemporaryFolder()
  var db: [String] { ["--db", folder.file("library.sqlite")] }

  func run(_ arguments: [String], now: String = "2026-11-30T10:00:00Z") -> CommandResult {
    runInProcess(arguments + db, now: now)
  }

  @Test func aReturnedCopyIsPutAsideForTheFirstHoldAndCollected() throws {
    for (inventory, title) in [("1", "Мастер и Маргарита"), ("2", "Мастер и Маргарита")] {
      #expect(
        run([
          "book", "add", "--inventory", inventory, "--title", title, "--author-surname", "Булгаков",
          "--isbn", "978-5-17-079585-7",
        ]).status == 0)
    }
    for (ticket, surname) in [("1001", "Иванова"), ("1007", "Смирнова"), ("1010", "Петров")] {
      #expect(run(["reader", "add", "--ticket", ticket, "--surname", surname]).status == 0)
    }
    #expect(run(["issue", "1001", "1", "2"]).status == 0)
    let onShelf = run(["hold", "place", "1007", "--title-of", "1"])
    #expect(onShelf.status == 0, "\(onShelf.errors)")
    #expect(
      onShelf.output == "Hold 1: Смирнова (1007) waits for Булгаков «Мастер и Маргарита», number 1 in the queue\n")
    #expect(run(["hold", "place", "1010", "--isbn", "9785170795857"]).output.hasSuffix("number 2 in the queue\n"))
    #expect(run(["hold", "place", "1010", "2"]).errors.hasPrefix("Петров already has a hold"))
    #expect(run(["hold", "place", "1010"]).status == 64)

    let returned = run(["return", "2"])
    #expect(returned.status == 0)
    #expect(
      returned.output.contains("Hold for Смирнова (ticket 1007): put 2 on the hold shelf, until 2026-12-07"),
      "\(returned.output)")
    // IRBIS calls a copy put aside for a reader «reserved»: 910 ^A 9.
    let exported = try runProgram(
      circdeskPath, ["export", "irbis", "books", "--all", "--stdout", "--encoding", "utf8"] + db)
    #expect(exported.output.contains("#910: ^A9^B2"), "\(exported.output)")
    #expect(exported.output.contains("#910: ^A1^B1"))
    let letters = folder.file("letters")
    let written = run(["notices", "holds", "-o", letters, "--lang", "ru"])
    #expect(written.output.hasSuffix("1 letter\n"), "\(written.output) \(written.errors)")
    let letter = try String(contentsOfFile: letters + "/1007.txt", encoding: .utf8)
    #expect(letter.contains("Книга, которую вы заказывали, ждёт вас в библиотеке (читательский билет 1007):"))
    #expect(letter.contains("  1. Булгаков «Мастер и Маргарита» (инв. № 2): до 7 декабря 2026"), "\(letter)")
    let waiting = run(["hold", "list", "--waiting"])
    #expect(waiting.output.contains("waiting: 2 on the hold shelf until 2026-12-07"), "\(waiting.output)")
    let refused = run(["issue", "1010", "2"])
    #expect(refused.status == 1)
    #expect(refused.errors.contains("waits on the hold shelf for Смирнова (ticket 1007)"))
    #expect(run(["renew", "1"]).errors.contains("Петров (ticket 1010) is waiting for it"))
    #expect(run(["issue", "1007", "2"]).status == 0)
    #expect(run(["hold", "list", "--reader", "1007"]).output.contains("fulfilled"))
    let shown = run(["reader", "show", "1010"])
    #expect(
      shown.output.contains("Holds:\n  2  Петров (1010)  Булгаков «Мастер и Маргарита»  queued, number 1"),
      "\(shown.output)")

    // The next copy back waits for Петров; uncollected, it goes back to the shelf.
    #expect(run(["return", "1"]).output.contains("Hold for Петров (ticket 1010)"))
    let json = run(["hold", "list", "--json"])
    #expect(json.output.contains("\"state\": \"waiting\"") && json.output.contains("\"pickup_by\": \"2026-12-07\""))
    #expect(run(["hold", "list", "--expired"], now: "2026-12-09T10:00:00Z").output.contains("Петров"))
    let expired = run(["hold", "expire"], now: "2026-12-09T10:00:00Z")
    #expect(expired.output == "1 Булгаков «Мастер и Маргарита», not collected by Петров: back to the shelf\n")
    #expect(run(["hold", "list"], now: "2026-12-09T10:00:00Z").output == "No holds.\n")
    #expect(run(["issue", "1001", "1"], now: "2026-12-09T10:00:00Z").status == 0)
  }

  @Test func policySetsTheLimitAndThePickupDays() throws {
    #expect(run(["policy", "set", "--hold-pickup-days", "3"]).status == 0)
    #expect(run(["policy", "category", "adult", "--hold-limit", "1"]).output.contains("2 renewals, 1 hold\n"))
    let shown = run(["policy", "show"])
    #expect(shown.output.contains("a copy waits 3 days on the hold shelf"))
    #expect(run(["policy", "set", "--hold-pickup-days", "0"]).errors.contains("must be 1 to 365"))
  }

  /// What the command line says of the hold shelf: a scanned return names the hold, a cancel
  /// says where the copy goes, expiry names the holds that lapsed, and letters are not written
  /// for copies past their pickup date.
  @Test func theCommandLineSaysWhereEachCopyGoes() throws {
    #expect(run(["book", "add", "--inventory", "1", "--title", "Книга"]).status == 0)
    for ticket in ["7", "8", "9"] {
      #expect(run(["reader", "add", "--ticket", ticket, "--surname", "Читатель\(ticket)"]).status == 0)
    }
    #expect(run(["issue", "7", "1"]).status == 0)
    #expect(run(["hold", "place", "8", "1"]).status == 0)
    #expect(run(["hold", "place", "9", "--title-of", "1", "--until", "2026-12-02"]).status == 0)
    let scanned = try runProgram(
      circdeskPath, ["scan", "--stdin", "--return", "--db", folder.file("library.sqlite")],
      input: try input("1\n"))
    #expect(scanned.output.contains("; Hold for Читатель8 (ticket 8): put 1 on the hold shelf"), "\(scanned.output)")
    let cancelled = run(["hold", "cancel", "1"])
    #expect(cancelled.output.contains("Hold for Читатель9 (ticket 9)"), "the next hold gets it: \(cancelled.output)")
    #expect(run(["hold", "list", "--reader", "404"]).errors.hasPrefix("No reader has ticket 404"))
    #expect(run(["hold", "place", " ", "1"]).status == 64)
    let letters = folder.file("late")
    #expect(run(["notices", "holds", "-o", letters], now: "2026-12-20T10:00:00Z").output == "0 letters\n")
    let expired = run(["hold", "expire"], now: "2026-12-20T10:00:00Z")
    #expect(expired.output.contains("not collected by Читатель9: back to the shelf"), "\(expired.output)")
    #expect(run(["hold", "cancel", "2"], now: "2026-12-20T10:00:00Z").errors.contains("is expired already"))
  }

  func input(_ text: String) throws -> String {
    let path = folder.file("input.txt")
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }
}
