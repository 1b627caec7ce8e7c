import DeskWords
import Testing

@testable import DeskDomain

@Suite struct ValidationTests {
  let today = LocalDate(iso: "2026-11-30")!
  let now = Timestamp(iso: "2026-11-30T10:00:00Z")!

  /// Inventory numbers and tickets are what scanners and people type and other systems match
  /// on: a control or invisible character, or a leading «-», is refused with what it is.
  @Test(arguments: [
    ("K\t1", "Inventory number «K·1» holds an invisible or control character (U+0009): type or scan it again"),
    (
      "K\u{1B}[31m1",
      "Inventory number «K·[31m1» holds an invisible or control character (U+001B): type or scan it again"
    ),
    ("K\u{200B}1", "Inventory number «K·1» holds an invisible or control character (U+200B): type or scan it again"),
    ("K\u{202E}1", "Inventory number «K·1» holds an invisible or control character (U+202E): type or scan it again"),
    (
      "100\u{0}102",
      "Inventory number «100·102» holds an invisible or control character (U+0000): type or scan it again"
    ),
    ("-5", "Inventory number «-5» begins with «-»: numbers and tickets may not"),
  ])
  func identifiersWithInvisibleCharactersAreRefused(number: String, message: String) {
    var draft = BookDraft()
    draft.inventoryNumber = number
    draft.title = "Книга"
    let today = LocalDate(iso: "2026-12-01")!
    let now = Timestamp(iso: "2026-12-01T10:00:00Z")!
    do {
      _ = try draft.validated(base: nil, today: today, now: now)
      Issue.record("accepted «\(number)»")
    } catch {
      #expect(error.errors.map(EnglishWords().message) == [message])
    }
    draft.inventoryNumber = "  K-1 "
    #expect(
      (try? draft.validated(base: nil, today: today, now: now))?.inventoryNumber == "K-1",
      "trimmed; a dash inside is fine")
    var reader = ReaderDraft()
    reader.ticket = "R\u{200B}1"
    reader.surname = "Иванова"
    #expect(throws: ValidationErrors.self) {
      try reader.validated(base: nil, categories: ["adult"], defaultCategory: "adult", today: today, now: now)
    }
  }

  @Test func aBookNeedsAnInventoryNumberAndATitle() {
    let draft = BookDraft()
    #expect(throws: ValidationErrors.self) { try draft.validated(base: nil, today: today, now: now) }
    do {
      _ = try draft.validated(base: nil, today: today, now: now)
    } catch {
      #expect(error.errors == [.required(.inventoryNumber), .required(.title)])
      #expect(error.errors.map(EnglishWords().message) == ["Inventory number is required", "Title is required"])
      #expect(error.errors.first?.field == .inventoryNumber)
    }
  }

  @Test func reportsEveryBadFieldAtOnce() {
    var draft = BookDraft()
    draft.inventoryNumber = "  100234 "
    draft.title = "Герой нашего времени"
    draft.isbn = "978-5-17-079585-0"
    draft.year = "20l8"
    draft.pages = "0"
    draft.price = "254,555"
    draft.received = "2026-13-01"
    do {
      _ = try draft.validated(base: nil, today: today, now: now)
      Issue.record("the draft should be refused")
    } catch {
      #expect(error.errors.map(\.field) == [.isbn, .year, .pages, .price, .received])
      #expect(EnglishWords().message(error.errors[0]) == "ISBN 978-5-17-079585-0 has a wrong check digit (expected 7)")
    }
  }

  @Test func trimsAndKeepsIdentityOnEdit() throws {
    var draft = BookDraft()
    draft.inventoryNumber = "\t100234\n"
    draft.title = " Герой нашего времени "
    draft.isbn = "5-17-079585-8"
    draft.price = "254.50"
    let book = try draft.validated(base: nil, today: today, now: now)
    #expect(book.inventoryNumber == "100234")
    #expect(book.title == "Герой нашего времени")
    #expect(book.isbn?.digits == "5170795858")
    #expect(book.price == Money(minorUnits: 25450))
    #expect(book.received == today)

    var edit = BookDraft(book)
    edit.title = "Герой нашего времени (изд. 2)"
    let later = Timestamp(iso: "2026-12-01T10:00:00Z")!
    let edited = try edit.validated(base: book, today: today, now: later)
    #expect(edited.id == book.id)
    #expect(edited.created == book.created)
    #expect(edited.updated == later)
    #expect(BookDraft(edited).price == "254.50")
  }

  @Test func aReaderNeedsTicketSurnameAndAKnownCategory() {
    var draft = ReaderDraft()
    draft.category = "vip"
    draft.email = "not-an-address"
    draft.street = "ул. Ленина"
    do {
      _ = try draft.validated(
        base: nil, categories: ["adult", "child"], defaultCategory: "adult", today: today, now: now)
      Issue.record("the draft should be refused")
    } catch {
      #expect(
        error.errors == [
          .required(.ticket), .required(.surname), .invalidEmail("not-an-address"),
          .unknownCategory("vip", known: ["adult", "child"]), .phoneNeededForAddress,
        ])
    }
  }

  @Test func aReaderTakesTheDefaultCategory() throws {
    var draft = ReaderDraft()
    draft.ticket = "17"
    draft.surname = "Иванова"
    draft.firstName = "Мария"
    draft.patronymic = "Петровна"
    let reader = try draft.validated(base: nil, categories: ["adult"], defaultCategory: "adult", today: today, now: now)
    #expect(reader.category == "adult")
    #expect(reader.registered == today)
    #expect(reader.shortName == "Иванова М. П.")
    #expect(reader.address == nil)
  }

  @Test func circulationLimitsArePerCategory() {
    let child = ReaderCategory(code: "child", name: "Child", loanDays: 14, loanLimit: 5, renewalLimit: 1)
    let adult = ReaderCategory(code: "adult", name: "Adult", loanDays: 14, loanLimit: 10, renewalLimit: 2)
    let policy = CirculationPolicy()
    #expect(
      CirculationRules.issueRefusals(
        readerName: "R", category: child, openLoans: 5, overdueLoans: 0, adding: 1, policy: policy)
        == [.limitReached(reader: "R", limit: 5, category: child)])
    #expect(
      CirculationRules.issueRefusals(
        readerName: "R", category: adult, openLoans: 5, overdueLoans: 0, adding: 1, policy: policy
      )
      .isEmpty)
    #expect(
      CirculationRules.issueRefusals(
        readerName: "R", category: adult, openLoans: 1, overdueLoans: 1, adding: 1, policy: policy)
        == [.hasOverdue(reader: "R", count: 1)])
    var lenient = policy
    lenient.blockOnOverdue = false
    #expect(
      CirculationRules.issueRefusals(
        readerName: "R", category: adult, openLoans: 1, overdueLoans: 1, adding: 1, policy: lenient
      )
      .isEmpty)
  }
}
