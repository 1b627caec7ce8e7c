import DeskDomain
import DeskTestSupport
import Testing

@testable import DeskStorage
@testable import DeskUI

/// Holds at the Desk: a returned copy that a reader waits for is announced loudly and put aside;
/// the next reader is refused it, and its own reader takes it.
@Suite struct HoldScenarioTests {
  @Test func aReturnedCopyGoesToTheHoldShelfAndToItsReaderOnly() throws {
    let desk = try DeskHarness()
    let hold = try desk.store.placeHold(ticket: "18", on: .copy("100235"))
    desk.press(.character("d"))
    desk.scan("100235")
    #expect(desk.app.dialog != nil)
    let alert = desk.text(rows: 24, columns: 80)
    #expect(alert.contains("Hold shelf"), "\(alert)")
    #expect(alert.contains("Hold for Петров И. (ticket 18): put «Мастер и Маргарита» (100235)"), "\(alert)")
    desk.press(.enter)
    #expect(desk.app.dialog == nil)
    #expect(desk.shown.contains("to the hold shelf for Петров И. (18)"), "the log says where it went")

    desk.scan("17")
    desk.scan("100235")
    #expect(desk.text(rows: 24, columns: 80).contains("waits on the hold shelf for Петров И."))
    #expect(try desk.store.hold(number: hold.number).state == .waiting)
    desk.press(.enter, .escape)
    desk.scan("18")
    desk.scan("100236")  // his overdue book back first: it blocks an issue
    desk.scan("100235")
    #expect(desk.app.dialog == nil, "\(desk.text(rows: 24, columns: 80))")
    #expect(try desk.store.hold(number: hold.number).state == .fulfilled)
  }
}
