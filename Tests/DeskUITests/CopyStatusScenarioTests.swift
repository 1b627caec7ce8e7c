import DeskDomain
import DeskStorage
import DeskTestSupport
import Testing

@testable import DeskUI

/// A copy's status on the desk: changed from the book's screen, shown in the list with a mark
/// and a filter, and a copy not for loan refused at issue with the reason.
@Suite struct CopyStatusScenarioTests {
  @Test func aLostCopyIsMarkedFilteredAndRefusedAtIssue() throws {
    let desk = try DeskHarness()
    desk.press(.character("b"))
    desk.type("Азбука")
    desk.press(.enter, .enter)
    #expect(desk.app.top is BookDetailScreen)
    #expect(desk.shown.contains("On the shelf: available"))
    desk.press(.character("s"))
    #expect(desk.shown.contains("Copy status"))
    #expect(desk.shown.contains("reference only"))
    desk.press(.down, .down, .down, .down, .enter)
    #expect(try desk.store.books.book(inventory: "100239")?.status == .lost)
    var screen = desk.shown
    #expect(screen.contains("100239 is now lost"))
    #expect(screen.contains("x Not for loan: lost (s changes the status)"))
    desk.press(.character("i"))
    desk.type("17")
    desk.press(.enter)
    screen = desk.shown
    #expect(screen.contains("«Азбука» (100239) is lost and cannot be issued"), "\(screen)")
    #expect(try desk.store.circulation.loans(ofBook: #require(try desk.store.books.book(inventory: "100239"))).isEmpty)
    desk.press(.enter, .escape)
    // The list marks it and says why where a loan would be.
    desk.press(.escape)
    desk.press(.escape)
    desk.press(.character("b"))
    let row = try #require(desk.shown.split(separator: "\n").first { $0.contains("100239") })
    #expect(row.hasPrefix(" x 100239"), "the mark: \(row)")
    #expect(row.contains("lost"))
    // The filter: all → issued → available → overdue → not for loan.
    desk.press(.character("f"), .character("f"), .character("f"), .character("f"))
    screen = desk.shown
    #expect(screen.contains("Books: not for loan"))
    #expect(screen.contains("100239") && !screen.contains("100234"))
  }

  @Test func russianNamesTheStatuses() throws {
    let desk = try DeskHarness(language: .russian)
    try desk.store.books.update(inventory: "100239") { $0.status = "written-off" }
    desk.press(.character("b"))
    desk.type("Азбука")
    desk.press(.enter, .enter)
    #expect(desk.shown.contains("Не выдаётся: экземпляр списан (s — сменить статус)"), "\(desk.shown)")
  }
}
