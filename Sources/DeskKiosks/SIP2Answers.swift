import DeskDomain
import DeskStorage

/// The answer to one request of a logged-in kiosk, from the library's store.
struct SIP2Answers {
  let store: LibraryStore
  let account: KioskAccount
  let message: SIP2Message

  private var now: String { SIP2Date.text(store.clock.now()) }

  /// The language a request names (three digits), given back in its reply; 000 (unknown) for
  /// anything else.
  private var requestLanguage: String {
    let sent = message.fixed(0, 3)
    return sent.allSatisfy(\.isASCIIDigit) ? String(sent) : "000"
  }

  /// The readers of the library keep no PIN: a kiosk that sends one (AD) is told it is not valid
  /// (CQ N), never that it is; one that sends none identifies its reader by the card alone.
  private func addPasswordValidity(to reply: inout SIP2Reply) {
    if let pin = message.field("AD"), !pin.isEmpty { reply.add("CQ", "N") }
  }
  private var patron: String { message.field("AA") ?? "" }
  private var item: String { message.field("AB") ?? "" }

  /// The kiosk's institution as it sent it, else its account's location.
  private var institution: String {
    if let sent = message.field("AO"), !sent.isEmpty { return sent }
    return account.location
  }

  /// What the store said, as the kiosk's screen shows it. A refusal that names another reader
  /// (the copy is out to them, or waits for them) is said without them: a kiosk's screen is
  /// public.
  private func screenMessage(_ error: StoreError) -> String {
    let kiosk = KioskWords(account.language)
    switch error {
    case .refused(let refusals):
      // Each reason once, in the order found.
      var lines: [String] = []
      for line in refusals.map(kiosk.message) where !lines.contains(line) { lines.append(line) }
      return lines.joined(separator: " ")
    case .readerNotFound(let ticket): return kiosk.message(.unknownReader(ticket))
    case .bookNotFound(let inventory): return kiosk.message(.unknownBook(inventory))
    default: return kiosk.atTheDesk
    }
  }

  /// The messages this server answers, one Y or N each, in the order the specification lists
  /// them: patron status, checkout, checkin, block patron, SC status, resend, login, patron
  /// information, end session, fee paid, item information, item status update, patron enable,
  /// hold, renew, renew all.
  static let supported = "YYYNYYYYYNYNNYYY"

  // MARK: 99 → 98

  func status() -> SIP2Reply {
    // Online, checkin and checkout allowed, renewals by the kiosk, no status updates or offline
    // transactions, a time-out of 30 tenths of a second, three retries.
    var reply = SIP2Reply(code: "98", fixed: "YYYYNN" + "030" + "003" + now + "2.00")
    reply.add("AO", institution)
    reply.add("BX", SIP2Answers.supported)
    reply.add("AN", account.name)
    return reply
  }

  // MARK: 23 → 24, 63 → 64

  /// A reader's standing: the fourteen flags of the patron status, and the counts.
  private struct Standing {
    var reader: Reader?
    var refusals: [CirculationRefusal] = []
    var loans: [LoanRecord] = []
    var holds: [HoldRecord] = []
    var overdue: [LoanRecord] = []

    /// Charge privileges denied; renewal, recall and hold privileges; card lost; too many items
    /// charged; too many overdue; and seven more the desk does not keep (space).
    var flags: String {
      guard reader != nil else { return "Y" + String(repeating: " ", count: 13) }
      let denied = !refusals.isEmpty
      let tooMany = refusals.contains { if case .limitReached = $0 { return true } else { return false } }
      let overdueBlock = refusals.contains { if case .hasOverdue = $0 { return true } else { return false } }
      return (denied ? "Y" : " ") + "    " + (tooMany ? "Y" : " ") + (overdueBlock ? "Y" : " ")
        + String(repeating: " ", count: 7)
    }
  }

  private func standing() -> Standing {
    var standing = Standing()
    guard let reader = try? store.readers.reader(ticket: patron.identifierForm) else { return standing }
    standing.reader = reader
    standing.refusals = (try? store.circulation.borrowingRefusals(ticket: reader.ticket)) ?? []
    standing.loans = ((try? store.circulation.loans(ofReader: reader)) ?? []).filter(\.loan.isOpen)
    let today = store.clock.now().date
    standing.overdue = standing.loans.filter { $0.loan.isOverdue(on: today) }
    standing.holds = ((try? store.holds.list(ofReader: reader.ticket)) ?? []).filter {
      $0.state == .queued || $0.state == .waiting
    }
    return standing
  }

  func patronStatus() -> SIP2Reply {
    let standing = standing()
    let language = requestLanguage
    var reply = SIP2Reply(code: "24", fixed: standing.flags + language + now)
    reply.add("AO", institution)
    reply.add("AA", patron)
    reply.add("AE", standing.reader?.fullName ?? "")
    reply.add("BL", (standing.reader != nil).sip2)
    addPasswordValidity(to: &reply)
    if standing.reader != nil, !standing.refusals.isEmpty {
      reply.add("AF", screenMessage(.refused(standing.refusals)))
    } else if standing.reader == nil {
      reply.add("AF", screenMessage(.readerNotFound(patron)))
    }
    return reply
  }

  func patronInformation() -> SIP2Reply {
    let standing = standing()
    let language = requestLanguage
    let summary = Array(message.fixed(21, 10))
    func count(_ value: Int) -> String { SIP2Reply.count(value) }
    let waiting = standing.holds.filter { $0.state == .waiting }
    let fixed =
      standing.flags + language + now + count(waiting.count) + count(standing.overdue.count)
      + count(standing.loans.count) + count(0) + count(0) + count(standing.holds.count - waiting.count)
    var reply = SIP2Reply(code: "64", fixed: fixed)
    reply.add("AO", institution)
    reply.add("AA", patron)
    reply.add("AE", standing.reader?.fullName ?? "")
    if let reader = standing.reader, let category = try? store.policy.category(code: reader.category) {
      reply.add("BZ", count(category.holdLimit))
      reply.add("CB", count(category.loanLimit))
    }
    reply.add("BL", (standing.reader != nil).sip2)
    addPasswordValidity(to: &reply)
    // The items of the one kind the summary asks for (its one Y), from BP to BQ (1-based).
    let first = max(1, Int(message.field("BP") ?? "") ?? 1)
    let last = max(first, Int(message.field("BQ") ?? "") ?? (first + 49))
    func listed(_ id: String, _ items: [String]) {
      for (index, item) in items.enumerated() where (first...last).contains(index + 1) { reply.add(id, item) }
    }
    switch summary.firstIndex(of: "Y") {
    case 0: listed("AS", waiting.compactMap(\.waitingCopy))
    case 1: listed("AT", standing.overdue.map(\.inventory))
    case 2: listed("AU", standing.loans.map(\.inventory))
    case 5: listed("CD", standing.holds.filter { $0.state == .queued }.map(\.label))
    default: break
    }
    // No e-mail or phone: a kiosk needs neither, and anyone at one may type any card's number.
    if standing.reader != nil {
      if !standing.refusals.isEmpty { reply.add("AF", screenMessage(.refused(standing.refusals))) }
    } else {
      reply.add("AF", screenMessage(.readerNotFound(patron)))
    }
    return reply
  }

  // MARK: 17 → 18

  func itemInformation() -> SIP2Reply {
    guard let book = try? store.books.book(inventory: item.identifierForm) else {
      var reply = SIP2Reply(code: "18", fixed: "01" + "00" + "01" + now)
      reply.add("AB", item)
      reply.add("AJ", "")
      reply.add("AF", screenMessage(.bookNotFound(item)))
      return reply
    }
    let loan = try? store.books.currentLoan(ofBook: book)
    let queue = (try? store.holds.queue(forBook: book.inventoryNumber)) ?? []
    let waiting = queue.first { $0.state == .waiting && $0.waitingCopy == book.inventoryNumber }
    let onShelf = waiting != nil
    let status: String
    if loan != nil {
      status = "04"
    } else if onShelf {
      status = "08"
    } else {
      switch book.status {
      case .available: status = "03"
      case .inProcessing: status = "06"
      case .lost: status = "12"
      case .damaged, .referenceOnly, .writtenOff: status = "01"
      }
    }
    var reply = SIP2Reply(code: "18", fixed: status + "00" + "01" + now)
    reply.add("CF", SIP2Reply.count(queue.filter { $0.state == .queued }.count), always: false)
    if let loan { reply.add("AH", SIP2Date.text(due: loan.loan.due)) }
    // On the hold shelf: the last day its reader may collect it.
    if let pickup = waiting?.pickupBy { reply.add("CM", SIP2Date.text(due: pickup)) }
    reply.add("AB", book.inventoryNumber)
    reply.add("AJ", book.title)
    reply.add("AQ", book.place, always: false)
    return reply
  }

  // MARK: 11 → 12

  func checkout() -> SIP2Reply {
    var reply = SIP2Reply(code: "12")
    func refused(_ error: StoreError) -> SIP2Reply { refused(saying: screenMessage(error)) }
    func refused(saying message: String) -> SIP2Reply {
      reply.fixed = "0N" + "U" + "N" + now
      reply.add("AO", institution)
      reply.add("AA", patron)
      reply.add("AB", item)
      reply.add("AJ", (try? store.books.book(inventory: item.identifierForm))?.title ?? "")
      reply.add("AH", "")
      reply.add("AF", message)
      return reply
    }
    guard let reader = try? store.readers.reader(ticket: patron.identifierForm) else {
      return refused(.readerNotFound(patron))
    }
    do throws(StoreError) {
      // A copy or reader with an open conflict between desks is settled at the desk first.
      switch try store.circulation.circulate(item, reader: reader, intent: .issue) {
      case .done(.issued(let loan)):
        reply.fixed = "1N" + "U" + "Y" + now
        reply.add("AO", institution)
        reply.add("AA", reader.ticket)
        reply.add("AB", loan.inventory)
        reply.add("AJ", loan.bookTitle)
        reply.add("AH", SIP2Date.text(due: loan.loan.due))
        return reply
      case .chooseCopy:
        return refused(saying: KioskWords(account.language).scanTheCopy)
      case .conflict:
        return refused(saying: KioskWords(account.language).atTheDesk)
      default:
        return refused(.refused([.unknownBook(item)]))
      }
    } catch {
      // A copy the reader has already, checked out again at a kiosk whose renewal policy is Y:
      // its loan is renewed, as the specification has it.
      if message.fixed(0, 1) == "Y", case .refused(let refusals) = error,
        refusals.contains(where: { if case .alreadyOnLoanToSameReader = $0 { true } else { false } })
      {
        switch renewal() {
        case .success(let renewal):
          reply.fixed = "1Y" + "U" + "N" + now
          reply.add("AO", institution)
          reply.add("AA", reader.ticket)
          reply.add("AB", renewal.after.inventory)
          reply.add("AJ", renewal.after.bookTitle)
          reply.add("AH", SIP2Date.text(due: renewal.after.loan.due))
          return reply
        case .failure(let refusal): return refused(saying: refusal.message)
        }
      }
      return refused(error)
    }
  }

  // MARK: 09 → 10

  func checkin() -> SIP2Reply {
    var reply = SIP2Reply(code: "10")
    do throws(StoreError) {
      // A book dropped in is back whatever the desks disagree about: its return is taken.
      guard
        case .done(.returned(let loan)) = try store.circulation.circulate(
          item, reader: nil, intent: .giveBack, conflictSeen: true)
      else { throw StoreError.refused([.unknownBook(item)]) }
      let book = try? store.books.book(inventory: loan.inventory)
      reply.fixed = "1" + "Y" + "U" + (loan.heldFor != nil).sip2 + now
      reply.add("AO", institution)
      reply.add("AB", loan.inventory)
      reply.add("AQ", book?.place ?? "")
      reply.add("AJ", loan.bookTitle)
      reply.add("AA", loan.readerTicket)
      if let hold = loan.heldFor {
        // Koha's alert type: 01, a hold waits here for the copy.
        reply.add("CV", "01")
        reply.add("AF", KioskWords(account.language).holdShelf(hold))
      }
      return reply
    } catch {
      reply.fixed = "0" + "N" + "U" + "N" + now
      reply.add("AO", institution)
      reply.add("AB", item)
      reply.add("AQ", "")
      reply.add("AF", screenMessage(error))
      return reply
    }
  }

  // MARK: 29 → 30, 65 → 66

  func renew() -> SIP2Reply {
    var reply = SIP2Reply(code: "30")
    switch renewal() {
    case .success(let renewal):
      reply.fixed = "1" + "Y" + "U" + "N" + now
      reply.add("AO", institution)
      reply.add("AA", renewal.after.readerTicket)
      reply.add("AB", renewal.after.inventory)
      reply.add("AJ", renewal.after.bookTitle)
      reply.add("AH", SIP2Date.text(due: renewal.after.loan.due))
    case .failure(let refusal):
      reply.fixed = "0" + "N" + "U" + "N" + now
      reply.add("AO", institution)
      reply.add("AA", patron)
      reply.add("AB", item)
      reply.add("AJ", refusal.title)
      reply.add("AH", "")
      reply.add("AF", refusal.message)
    }
    return reply
  }

  /// Why a renewal was not made: the screen's words, and the title when the copy is known.
  struct Refusal: Error {
    var title: String
    var message: String
  }

  /// Renews the loan of the copy named for the reader named, who must hold it (a kiosk names
  /// both): a copy out to another reader is not available to this one.
  private func renewal() -> Result<Renewal, Refusal> {
    let kiosk = KioskWords(account.language)
    guard let book = try? store.books.book(inventory: item.identifierForm) else {
      return .failure(Refusal(title: "", message: screenMessage(.bookNotFound(item))))
    }
    func refused(_ message: String) -> Result<Renewal, Refusal> {
      .failure(Refusal(title: book.title, message: message))
    }
    guard let current = try? store.books.currentLoan(ofBook: book) else {
      return refused(kiosk.message(.notOnLoan(book: book.title, inventory: book.inventoryNumber)))
    }
    guard current.readerTicket == patron.identifierForm else { return refused(kiosk.notAvailable) }
    do throws(StoreError) {
      switch try store.circulation.circulate(book.inventoryNumber, reader: nil, intent: .renew) {
      case .done(.renewed(let renewal)): return .success(renewal)
      case .conflict: return refused(kiosk.atTheDesk)
      default: return refused(kiosk.atTheDesk)
      }
    } catch {
      return refused(screenMessage(error))
    }
  }

  func renewAll() -> SIP2Reply {
    var reply = SIP2Reply(code: "66")
    do throws(StoreError) {
      let before =
        (try store.readers.reader(ticket: patron.identifierForm)).map {
          (try? store.circulation.loans(ofReader: $0))?.filter(\.loan.isOpen) ?? []
        } ?? []
      let (renewed, refusals) = try store.circulation.renewAll(ticket: patron)
      let done = Set(renewed.map(\.after.inventory))
      let left = before.map(\.inventory).filter { !done.contains($0) }
      reply.fixed = "1" + SIP2Reply.count(done.count) + SIP2Reply.count(left.count) + now
      reply.add("AO", institution)
      for inventory in renewed.map(\.after.inventory) { reply.add("BM", inventory) }
      for inventory in left { reply.add("BN", inventory) }
      if !refusals.isEmpty { reply.add("AF", screenMessage(.refused(refusals))) }
    } catch {
      let open =
        (try? store.readers.reader(ticket: patron.identifierForm)).flatMap { $0 }.map {
          ((try? store.circulation.loans(ofReader: $0)) ?? []).filter(\.loan.isOpen).map(\.inventory)
        } ?? []
      reply.fixed = "0" + SIP2Reply.count(0) + SIP2Reply.count(open.count) + now
      reply.add("AO", institution)
      for inventory in open { reply.add("BN", inventory) }
      reply.add("AF", screenMessage(error))
    }
    return reply
  }

  // MARK: 15 → 16

  /// Places a hold on the title of the copy named (`+`), as the desk's `hold place --title-of`
  /// does, or cancels the reader's hold in that copy's queue (`-`). A change of a hold (`*`) is
  /// made at the desk.
  func hold() -> SIP2Reply {
    var reply = SIP2Reply(code: "16")
    func answer(ok: Bool, title: String, position: Int? = nil, until: LocalDate? = nil, message: String? = nil)
      -> SIP2Reply
    {
      reply.fixed = (ok ? "1" : "0") + "N" + now
      if let until { reply.add("BW", SIP2Date.text(due: until)) }
      if let position { reply.add("BR", String(position)) }
      reply.add("AO", institution)
      reply.add("AA", patron)
      reply.add("AB", item, always: false)
      reply.add("AJ", title, always: false)
      if let message { reply.add("AF", message) }
      return reply
    }
    let mode = message.fixed(0, 1)
    guard let book = try? store.books.book(inventory: item.identifierForm) else {
      return answer(ok: false, title: "", message: screenMessage(.bookNotFound(item)))
    }
    // The hold's last day: the date of BW, if the kiosk sent one.
    let until = message.field("BW").flatMap { text -> LocalDate? in
      let digits = Array(text.prefix(8))
      guard digits.count == 8, let year = Int(String(digits[0..<4])), let month = Int(String(digits[4..<6])),
        let day = Int(String(digits[6..<8]))
      else { return nil }
      return LocalDate(year: year, month: month, day: day)
    }
    do throws(StoreError) {
      switch mode {
      case "+":
        let hold = try store.holds.place(ticket: patron, on: .titleOf(book.inventoryNumber), until: until)
        return answer(ok: true, title: book.title, position: hold.position, until: hold.notWantedAfter)
      case "-":
        let mine = try store.holds.queue(forBook: book.inventoryNumber).filter {
          $0.readerTicket == patron.identifierForm && ($0.state == .queued || $0.state == .waiting)
        }
        guard let first = mine.first else {
          return answer(ok: false, title: book.title, message: KioskWords(account.language).noHold)
        }
        try store.holds.cancel(number: first.number)
        return answer(ok: true, title: book.title)
      default:
        return answer(ok: false, title: book.title, message: KioskWords(account.language).cannot)
      }
    } catch {
      return answer(ok: false, title: book.title, message: screenMessage(error))
    }
  }

  // MARK: 35 → 36

  func endSession() -> SIP2Reply {
    var reply = SIP2Reply(code: "36", fixed: "Y" + now)
    reply.add("AO", institution)
    reply.add("AA", patron)
    return reply
  }

  // MARK: what the server does not do

  /// The answer the specification gives for a request the library does not take: its reply
  /// with nothing done (a fee paid not accepted, an item's properties not changed, a patron not
  /// enabled); block patron (01) is answered by the patron's status, unchanged.
  func unsupported() -> SIP2Reply {
    switch message.code {
    case "19":
      var reply = SIP2Reply(code: "20", fixed: "0" + now)
      reply.add("AB", item)
      reply.add("AF", KioskWords(account.language).cannot)
      return reply
    case "37":
      var reply = SIP2Reply(code: "38", fixed: "N" + now)
      reply.add("AO", institution)
      reply.add("AA", patron)
      reply.add("AF", KioskWords(account.language).cannot)
      return reply
    default:
      // 01 block patron and 25 patron enable are answered with the patron's status, unchanged.
      var reply = patronStatusForUnsupported()
      reply.add("AF", KioskWords(account.language).cannot)
      return reply
    }
  }

  private func patronStatusForUnsupported() -> SIP2Reply {
    let standing = standing()
    var reply = SIP2Reply(code: "24", fixed: standing.flags + "000" + now)
    reply.add("AO", institution)
    reply.add("AA", patron)
    reply.add("AE", standing.reader?.fullName ?? "")
    reply.add("BL", (standing.reader != nil).sip2)
    addPasswordValidity(to: &reply)
    return reply
  }
}
