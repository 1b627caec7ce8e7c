import DeskDomain
import DeskStorage

/// The library's words in Russian: what a refusal, an error or a record's field is called.
public struct RussianWords: LibraryWords {
  public init() {}

  func plural(_ count: Int, _ one: String, _ few: String, _ many: String) -> String {
    russianPlural(count, one, few, many)
  }

  func books(_ count: Int) -> String { plural(count, "книга", "книги", "книг") }
  func readersCount(_ count: Int) -> String { plural(count, "читатель", "читателя", "читателей") }

  public func label(_ field: Field) -> String {
    switch field {
    case .inventoryNumber: return "Инвентарный номер"
    case .isbn: return "ISBN"
    case .authorSurname: return "Фамилия автора"
    case .authorInitials: return "Инициалы автора"
    case .title: return "Название книги"
    case .publisher: return "Издательство"
    case .city: return "Город издания"
    case .year: return "Год издания"
    case .pages: return "Число страниц"
    case .price: return "Цена"
    case .bbk: return "ББК"
    case .authorMark: return "Авторский знак"
    case .place: return "Место хранения"
    case .received: return "Дата поступления"
    case .status: return "Статус"
    case .ticket: return "Читательский билет"
    case .surname: return "Фамилия"
    case .firstName: return "Имя"
    case .patronymic: return "Отчество"
    case .birthYear: return "Год рождения"
    case .phone: return "Телефон"
    case .email: return "Эл. почта"
    case .category: return "Категория"
    case .registered: return "Дата записи"
    case .postcode: return "Индекс"
    case .addressCity: return "Город"
    case .street: return "Улица"
    case .house: return "Дом"
    case .flat: return "Квартира"
    }
  }
  public func statusName(_ status: CopyStatus) -> String {
    switch status {
    case .available: return "доступен"
    case .inProcessing: return "в обработке"
    case .damaged: return "повреждён / в ремонте"
    case .referenceOnly: return "только в читальном зале"
    case .lost: return "утерян"
    case .writtenOff: return "списан"
    }
  }

  public func conflictKind(_ kind: ConflictKind) -> String {
    switch kind {
    case .inventory: return "один инвентарный номер у двух книг"
    case .ticket: return "один билет у двух читателей"
    case .doubleIssue: return "книга выдана дважды"
    case .editAfterDelete: return "изменено после удаления"
    case .trappedTwice: return "отложено дважды"
    case .refusedChange: return "изменение не принято"
    case .renewalLimit: return "продлено сверх лимита"
    case .renewedAfterReturn: return "продлено после возврата"
    }
  }
  public func messages(_ error: StoreError) -> [String] {
    switch error {
    case .invalid(let errors): return errors.errors.map(message)
    case .refused(let refusals): return refusals.map(message)
    case .bookNotFound(let code): return [message(.unknownBook(code))]
    case .readerNotFound(let code): return [message(.unknownReader(code))]
    case .bookOnLoan(let book, let inventory, let reader):
      return ["«\(book)» (\(inventory)) выдана читателю \(reader): сначала примите её"]
    case .readerHasBooks(let reader, let count):
      return ["У читателя \(reader) на руках \(books(count)): сначала примите их"]
    case .loanChanged:
      return ["Выдача изменилась (на другой кафедре?): откройте книгу заново"]
    case .notADatabase(let path):
      return ["\(path) — не база библиотеки (это файл другого рода): укажите другой файл в --db или уберите этот"]
    case .newerSchema(let path, let found, let supported):
      return [
        "\(path) записан более новой версией circdesk (схема \(found); эта версия знает до \(supported)): "
          + "обновите circdesk, чтобы открыть его"
      ]
    case .readOnly(let path):
      return ["\(path) нельзя записать (файл или папка только для чтения): проверьте права"]
    case .cannotUpgradeReadOnly(let path, let found, let latest):
      return [
        "\(path) записан более старой версией circdesk (схема \(found), теперь \(latest)), и обновить его здесь "
          + "нельзя: файл не записывается; откройте его один раз от имени того, кто может его записать"
      ]
    case .notALibrary(let path, let tables, let version):
      let named =
        tables.isEmpty
        ? "таблиц нет, но user_version \(version) записал не circdesk"
        : "таблицы: " + tables.prefix(5).joined(separator: ", ") + (tables.count > 5 ? "…" : "")
      return [
        "\(path) — файл SQLite другой программы (\(named)), а не библиотека: он оставлен как был; укажите другой файл в --db"
      ]
    case .busy(let path):
      return ["\(path) слишком долго занят другой программой: повторите или закройте ту программу"]
    case .cannotOpen(let path, let reason):
      return ["Не удаётся открыть \(path): \(reason)"]
    case .categoryInUse(let code, let readers):
      return ["В категории «\(code)» \(readersCount(readers)): сначала переведите их в другую"]
    case .categoryNotFound(let code):
      return ["Категории «\(code)» нет"]
    case .invalidSetting(let problems):
      return problems.map(message)
    case .badChange(let reason):
      return [
        "Изменение с сервера отклонено: \(reason). Ничего из его пакета не применено; "
          + "сообщите тому, кто ведёт сервер"
      ]
    case .syncRefused(let reason):
      return ["Синхронизация отклонена: \(reason)"]
    case .conflictNotFound(let number):
      return ["Открытого конфликта № \(number) нет: см. circdesk conflicts list"]
    case .settlementRefused(let number, let kind, let refusal):
      return [
        "Конфликт \(number) («\(conflictKind(kind))»): \(reason(refusal, number: number))"
          + (refusal.namesRemedy ? "; \(remedy(kind, number: number))" : "")
      ]
    case .unreadableValue(let value):
      let expected = value.kind == .time ? "время вида 2026-11-30T10:00:00Z" : "дата вида 2026-11-30"
      return [
        "В \(value.column) записано «\(value.value)», а не \(expected): файл библиотеки изменён не circdesk или повреждён"
      ]
    case .database(let error):
      if error.isBusy { return ["База библиотеки занята: повторите (\(error.message))"] }
      return ["Ошибка базы данных: \(error)"]
    }
  }

  public func reason(_ refusal: SettlementRefusal, number: Int) -> String {
    switch refusal {
    case .noLoanToTicket(let ticket): return "открытой выдачи книги читателю с билетом \(ticket) нет"
    case .numberTaken(let taken): return "\(taken) тоже занят: дайте другой"
    case .recordGone: return "записи этого пункта больше нет"
    case .otherRecordDeleted: return "запись другого пункта удалена: дайте этой другой номер"
    case .bothOut(let loans):
      return
        "обе выданы (выдач: \(loans)), значит, это два экземпляра: дайте этому другой номер или сначала примите один"
    case .cannotRestore(let entity): return "запись «\(entity)» восстановить нельзя"
    case .cannotDelete(let entity): return "запись «\(entity)» удалить нельзя"
    case .readerHoldsBooks(let count):
      return "у читателя на руках \(books(count)): сначала примите их (или оставьте удалённую книгу удалённой), "
        + "или восстановите читателя: conflicts resolve \(number) --restore"
    case .notOneOfTheCopies(let copy, let copies):
      return "\(copy) — не один из отложенных экземпляров (\(copies.joined(separator: ", ")))"
    case .doesNotSettle: return "это его не решает"
    }
  }

  public func remedy(_ kind: ConflictKind, number: Int) -> String {
    switch kind {
    case .inventory, .ticket:
      return "дайте одной из записей другой номер: conflicts resolve \(number) --renumber НОВЫЙ, "
        + "или --duplicate, если это одна запись"
    case .doubleIssue: return "скажите, у кого книга: conflicts resolve \(number) --holder БИЛЕТ"
    case .editAfterDelete: return "conflicts resolve \(number) --restore или --keep-deleted"
    case .trappedTwice:
      return "скажите, какой экземпляр получит читатель: conflicts resolve \(number) --copy ИНВ_НОМЕР"
    case .refusedChange:
      return "исправьте запись здесь, затем conflicts resolve \(number) --resend (если отказал сервер), или --drop"
    case .renewalLimit: return "conflicts resolve \(number) --keep-renewals или --take-back-renewal"
    case .renewedAfterReturn: return "книга уже возвращена: conflicts resolve \(number) --acknowledge"
    }
  }

  public func message(_ problem: SettingProblem) -> String {
    switch problem {
    case .closedEveryDay: return "Библиотека не может быть закрыта во все дни недели"
    case .scannerLimits: return "Пауза сканера — от 1 до 1000 мс, кратчайший код — от 1 до 100 знаков"
    case .syncInterval: return "Интервал синхронизации — от 1 до 3600 секунд"
    case .holdPickupDays: return "Срок ожидания брони на полке — от 1 до 365 дней"
    case .categoryWithoutCode: return "У категории должен быть код"
    case .loanDays: return "Срок выдачи — от 1 до 3650 дней"
    case .negativeLoanLimit: return "Предел выдач не может быть отрицательным"
    case .negativeRenewalLimit: return "Предел продлений не может быть отрицательным"
    case .negativeHoldLimit: return "Предел броней не может быть отрицательным"
    case .removingDefaultCategory(let code):
      return "Категория «\(code)» — категория по умолчанию: сначала назначьте другую"
    }
  }

  public func message(_ error: ValidationError) -> String {
    switch error {
    case .required(let field): return "Поле «\(label(field))» обязательно"
    case .invalidISBN(let error):
      switch error {
      case .invalidCharacter(let text, let character): return "В ISBN \(text) есть не цифра: «\(character)»"
      case .wrongLength(let text, let count): return "В ISBN \(text) \(count) цифр, а нужно 10 или 13"
      case .notBookland(let text): return "ISBN \(text) не начинается с 978 или 979"
      case .wrongCheckDigit(let text, let expected):
        return "В ISBN \(text) неверная контрольная цифра (должна быть \(expected))"
      }
    case .notANumber(let field, let text): return "«\(label(field))»: нужно целое число, а не «\(text)»"
    case .outOfRange(let field, let text, let range):
      return "«\(label(field))»: \(text) вне допустимого (\(range.lowerBound)–\(range.upperBound))"
    case .invalidPrice(let text): return "Цена «\(text)» — не сумма вида 254 или 254,50"
    case .invalidDate(let field, let text): return "«\(label(field))»: «\(text)» — не дата вида 2026-11-30"
    case .dateOutOfRange(let field, let text):
      return "«\(label(field))»: \(text) вне дат, которые принимает библиотека "
        + "(\(LocalDate.accepted.lowerBound)–\(LocalDate.accepted.upperBound))"
    case .invalidEmail(let text): return "«\(text)» — не адрес почты вида name@example.ru"
    case .tooLong(let field, let maximum): return "«\(label(field))» длиннее \(maximum) знаков"
    case .duplicateInventoryNumber(let number, let title): return "Инвентарный номер \(number) уже занят: «\(title)»"
    case .duplicateTicket(let ticket, let reader): return "Билет \(ticket) уже выдан читателю \(reader)"
    case .unknownCategory(let code, let known):
      return "Категории «\(code)» нет; есть: \(known.joined(separator: ", "))"
    case .addressConflict(let phone, let existing):
      return "У телефона \(phone) уже другой адрес (\(existing)): оставьте адрес пустым, чтобы взять его"
    case .phoneNeededForAddress: return "Для адреса нужен телефон: адреса хранятся по домашнему телефону"
    case .invisibleCharacter(let field, let text, let scalar):
      return "«\(label(field))»: в «\(text.visibleCharacters)» невидимый или управляющий символ "
        + "(U+\(ValidationError.hex(scalar))): наберите или сканируйте заново"
    case .leadingDash(let field, let text):
      return "«\(label(field))»: «\(text)» начинается с «-», а номера и билеты так начинаться не могут"
    case .unknownStatus(let text):
      return "Статус «\(text)» неизвестен; статусы: " + CopyStatus.allCases.map(statusName).joined(separator: ", ")
    }
  }

  public func message(_ refusal: CirculationRefusal) -> String {
    switch refusal {
    case .unknownBook(let code): return "Нет книги с инвентарным номером \(code): проверьте наклейку или добавьте книгу"
    case .unknownReader(let code): return "Нет читателя с билетом \(code): проверьте билет или запишите читателя"
    case .alreadyOnLoan(let book, let inventory, let reader, let ticket, let due):
      return "«\(book)» (\(inventory)) уже выдана: \(reader) (билет \(ticket)), до \(due.iso); сначала примите её"
    case .alreadyOnLoanToSameReader(let book, let inventory, let due):
      return "«\(book)» (\(inventory)) уже у этого читателя, до \(due.iso): продлите её"
    case .limitReached(let reader, let limit, let category):
      return "У читателя \(reader) уже \(books(limit)) — предел категории «\(category.name(in: .russian))»: "
        + "примите одну, прежде чем выдать другую"
    case .hasOverdue(let reader, let count):
      return "У читателя \(reader) просрочено: \(books(count)); сначала примите их"
    case .notOnLoan(let book, let inventory): return "«\(book)» (\(inventory)) не выдана"
    case .renewalLimitReached(let book, let inventory, let limit):
      return "«\(book)» (\(inventory)) уже продлена \(plural(limit, "раз", "раза", "раз")) — это предел"
    case .dueDateInPast(let date): return "Срок \(date.iso) уже прошёл"
    case .nothingToRenew(let reader): return "У читателя \(reader) нет книг: продлевать нечего"
    case .isbnNotInLibrary(let isbn):
      return "Книги с ISBN \(isbn) в библиотеке нет: сначала добавьте её или сканируйте инвентарный номер"
    case .noCopyAvailable(let isbn, let copies):
      return "Все экземпляры с ISBN \(isbn) (\(copies)) выданы: сканируйте инвентарный номер экземпляра в руках"
    case .noCopyOut(let isbn): return "Ни один экземпляр с ISBN \(isbn) не выдан: принимать нечего"
    case .severalCopies(let isbn, let copies):
      return "ISBN \(isbn) у нескольких экземпляров; сканируйте инвентарный номер того, что в руках: "
        + copies.joined(separator: "; ")
    case .notABook(let code): return "«\(code)» — не книга библиотеки: сканируйте наклейку книги"
    case .notForLoan(let book, let inventory, let status):
      if status == .referenceOnly { return "«\(book)» (\(inventory)) — только для читального зала: на дом не выдаётся" }
      return "«\(book)» (\(inventory)): экземпляр \(statusName(status)), выдать его нельзя; "
        + "если он снова на полке, сначала сделайте его доступным (s в карточке книги)"
    case .heldForAnother(let book, let inventory, let reader, let ticket):
      return
        "«\(book)» (\(inventory)) ждёт на полке броней: \(reader) (билет \(ticket)); выдаётся только этому читателю"
    case .renewalHeld(let book, let inventory, let reader, let ticket):
      return "«\(book)» (\(inventory)) продлить нельзя: её ждёт \(reader) (билет \(ticket)), а других свободных "
        + "экземпляров нет; примите её"
    case .holdLimitReached(let reader, let limit, let category):
      return "\(reader): броней уже \(limit) — предел категории «\(category.name(in: .russian))»: "
        + "снимите одну или выдайте книгу, которая на полке"
    case .alreadyHolds(let reader, let book):
      return "\(reader): бронь на \(book) уже есть"
    case .alreadyHasTitle(let reader, let book, let inventory):
      return "\(reader): «\(book)» (\(inventory)) уже на руках"
    case .copyOnShelf(let book, let inventory):
      return "«\(book)» (\(inventory)) на полке: выдайте её вместо брони"
    case .holdDateInPast(let date):
      return "Дата \(date.iso), после которой бронь не нужна, уже прошла"
    case .suspensionInPast(let date):
      return "Последний день приостановки \(date.iso) уже прошёл: приостановите до сегодня или позже"
    case .unknownHold(let number):
      return "Брони № \(number) нет: см. circdesk hold list"
    case .holdEnded(let number, let state):
      return "Бронь № \(number) уже \(holdStateName(state)): менять нечего"
    case .holdWaitingNotSuspended(let number, let inventory):
      return "Бронь № \(number) нельзя приостановить: её экземпляр \(inventory) уже ждёт на полке броней "
        + "(пусть читатель заберёт его, или снимите бронь)"
    case .holdNotSuspended(let number):
      return "Бронь № \(number) не приостановлена: возобновлять нечего"
    case .suspensionPastWanted(let until, let wanted):
      return "Бронь не нужна после \(wanted.iso): приостановка до \(until.iso) её переживёт"
    }
  }

  public func holdStateName(_ state: HoldState) -> String {
    switch state {
    case .queued: return "в очереди"
    case .waiting: return "ждёт на полке броней"
    case .fulfilled: return "выполнена"
    case .cancelled: return "отменена"
    case .expired: return "истекла"
    }
  }

  public func named(_ record: ConflictFacts.Record) -> String {
    record.isBook ? "«\(record.name)» (\(record.number))" : "\(record.name) (билет \(record.number))"
  }
  /// The loans of a record deleted while out: a book's by ticket, a reader's by book.
  public func outLoans(_ record: ConflictFacts.Record, _ loans: [ConflictFacts.OutLoan], otherwise: String) -> String {
    guard !loans.isEmpty else { return otherwise }
    return loans.map {
      (record.isBook ? "билет \($0.ticket)" : "«\($0.title)» (\($0.inventory))") + ", пункт «\($0.desk)»"
    }.joined(separator: "; ")
  }
  public func conflictSummary(_ conflict: Conflict) -> String {
    switch conflict.facts {
    case .clash(let number, let here, _, let otherDesk):
      return "\(named(here)): \(here.isBook ? "инвентарный номер" : "билет") \(number) раньше дан на пункте "
        + "«\(otherDesk)»"
    case .doubleIssue(let book, let loans):
      return "\(named(book)) выдана сразу " + plural(loans.count, "читателю", "читателям", "читателям")
    case .deletedWhileOut(let record, let deletedBy, let out, let loans):
      return "\(named(record)) \(record.isBook ? "удалена" : "удалён")"
        + "\(deletedBy.isEmpty ? "" : " на пункте «\(deletedBy)»"), но \(record.isBook ? "выдана" : "держит книги"): "
        + outLoans(record, loans, otherwise: out)
    case .changedAfterDeletion(let record, let desk, _, let deletedBy, _):
      return "\(named(record)) \(record.isBook ? "изменена" : "изменён") на пункте «\(desk)» после удаления на пункте "
        + "«\(deletedBy)»"
    case .trappedTwice(let reader, let title, let copies):
      return "Для читателя \(named(reader)) отложено \(plural(copies.count, "экземпляр", "экземпляра", "экземпляров")) "
        + "\(title), по одному на каждом пункте"
    case .refusedChange(let record, let byCentral, let desk, _):
      return byCentral
        ? "\(named(record)): сервер не принял изменение этого пункта"
        : "\(named(record)): изменение с пункта «\(desk)» здесь отложено"
    case .renewedPastLimit(let book, let reader, let count, let limit, _, _):
      return "\(named(book)) у читателя \(named(reader)) продлена на разных пунктах "
        + "\(plural(count, "раз", "раза", "раз")) при лимите \(limit)"
    case .renewedAfterReturn(let book, _, let renewedBy, _, let returnedBy, _):
      return "\(named(book)) продлена на пункте «\(renewedBy)» после того, как пункт «\(returnedBy)» принял её"
    }
  }

  public func line(_ move: HoldMove) -> String {
    let why =
      switch move.cause {
      case .notCollected: "не забрал(а) \(move.fromReader)"
      case .endedElsewhere: "бронь \(move.fromReader) снята на другом пункте"
      case .settled: "больше не для \(move.fromReader) (конфликт решён)"
      }
    return "\(move.inventory) \(move.label): \(why): "
      + (move.next.map { "оставьте на полке броней для \($0.readerName) (билет \($0.readerTicket))" }
        ?? "поставьте обратно на полку")
  }

  public func lines(_ mark: SyncMark) -> [String] {
    var lines: [String] = []
    if mark.unsynced > 0 { lines.append("Ещё не на сервере: изменений, сделанных здесь, — \(mark.unsynced)") }
    for conflict in mark.conflicts {
      lines.append(
        "Конфликт \(conflict.number) («\(conflictKind(conflict.kind))»): \(conflictSummary(conflict)); "
          + "circdesk conflicts show \(conflict.number)")
    }
    return lines
  }

  public func conflictSides(_ conflict: Conflict) -> [String] {
    switch conflict.facts {
    case .clash(_, let here, let there, let otherDesk):
      return [
        "здесь: \(named(here)), ещё не на сервере",
        "пункт «\(otherDesk)»: \(named(there))",
      ]
    case .doubleIssue(_, let loans):
      return loans.map {
        "выдана: \($0.reader) (билет \($0.ticket)), пункт «\($0.desk)», \($0.issued), вернуть до \($0.due)"
      }
    case .deletedWhileOut(let record, let deletedBy, let out, let loans):
      return [
        (record.isBook ? "удалена" : "удалён") + (deletedBy.isEmpty ? "" : " на пункте «\(deletedBy)»"),
        (record.isBook ? "выдана: " : "держит книги: ") + outLoans(record, loans, otherwise: out),
      ]
    case .changedAfterDeletion(_, let desk, let at, let deletedBy, let fields):
      let changed = fields.map { field in
        // The form's label where the column is a form's field («Год», not «year»).
        guard let label = Field(column: field.field).map(label) else { return field.words }
        return field.value.isEmpty ? label : "\(label) «\(field.value)»"
      }
      return [
        "пункт «\(deletedBy)»: удалено", "пункт «\(desk)» \(at): изменено " + changed.joined(separator: ", "),
      ]
    case .trappedTwice(_, _, let copies):
      return copies.map {
        "экземпляр \($0.inventory) отложен на пункте «\($0.desk)» \($0.at)"
          + ($0.pickupBy.isEmpty ? "" : ", забрать до \($0.pickupBy)")
      }
    case .refusedChange(_, let byCentral, let desk, let reason):
      // The reason is the central's or the check's own words (English): told as the server said it.
      return byCentral
        ? ["здесь: изменено; другие пункты изменения не получили", "сервер: причина отказа — \(reason)"]
        : ["пункт «\(desk)»: изменено", "здесь: не применено, причина — \(reason)"]
    case .renewedPastLimit(_, _, _, _, _, let renewals):
      return renewals.map { "продлена на пункте «\($0.desk)»: вернуть до \($0.due)" }
    case .renewedAfterReturn(_, let reader, let renewedBy, let due, let returnedBy, let returned):
      return [
        "пункт «\(returnedBy)»: принята от читателя \(named(reader)) \(returned)",
        "пункт «\(renewedBy)»: продлена до \(due), не зная о возврате",
      ]
    }
  }
}
