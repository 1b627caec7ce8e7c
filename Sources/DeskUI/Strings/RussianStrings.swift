import DeskDomain
import DeskLookup
import DeskScanning
import DeskStorage
import DeskWords

/// The Russian words of the desk.
public struct RussianStrings: UIStrings {
  public init() {}

  public let words: any LibraryWords = RussianWords()

  func plural(_ count: Int, _ one: String, _ few: String, _ many: String) -> String {
    russianPlural(count, one, few, many)
  }

  func books(_ count: Int) -> String { plural(count, "книга", "книги", "книг") }
  func readersCount(_ count: Int) -> String { plural(count, "читатель", "читателя", "читателей") }
  func days(_ count: Int) -> String { plural(count, "день", "дня", "дней") }

  public let language = InterfaceLanguage.russian
  public let appName = "Абонемент"
  public let homeTitle = "Главная"
  public func statusCounts(_ books: Int, _ out: Int, _ overdue: Int, _ readers: Int) -> String {
    "книг \(books), выдано \(out), просрочено \(overdue) · читателей \(readers)"
  }
  public func holdShelfCounts(_ waiting: Int, _ tooLong: Int) -> String {
    "На полке броней: \(plural(waiting, "книга", "книги", "книг"))"
      + (tooLong > 0 ? ", ждут слишком долго: \(tooLong)" : "")
  }
  public func holdsHeader(_ count: Int) -> String { "Брони (\(count))" }
  public func bookOnHoldShelf(_ reader: String, _ ticket: String, until: String) -> String {
    "На полке броней: \(reader) (билет \(ticket)), до \(until); выдаётся только этому читателю"
  }
  public func booksWaitingForReader(_ count: Int) -> String {
    "Ждут читателя на полке броней (\(books(count)))"
  }
  public func holdCopy(_ inventory: String) -> String { "только экземпляр \(inventory)" }
  public func holdWaiting(_ inventory: String, until: String) -> String {
    "\(inventory) ждёт на полке броней до \(until)"
  }
  public func holdWaitingElsewhere(_ inventory: String, desk: String, until: String) -> String {
    "\(inventory) ждёт на полке броней пункта «\(desk)» до \(until)"
  }
  public func holdQueued(placed: String) -> String { "в очереди с \(placed)" }
  public func holdSuspended(until: String) -> String { "приостановлена до \(until)" }
  public func holdEnded(_ state: HoldState) -> String { RussianWords().holdStateName(state) }
  public func scansHeld(_ count: Int) -> String {
    "Ожидают сканов: \(count); они будут применены, когда окно станет больше."
  }
  public func tooSmall(_ columns: Int, _ rows: Int, _ minimumColumns: Int, _ minimumRows: Int) -> String {
    "Окно терминала слишком мало (\(columns)×\(rows)): нужно не меньше \(minimumColumns)×\(minimumRows). Увеличьте окно."
  }

  public let keyHelp = "Помощь"
  public let keyQuit = "Выход"
  public let keyDone = "Готово"
  public let keyClear = "Сбросить"
  public let keyOpen = "Открыть"
  public let keyChoose = "Выбрать"
  public let keySearch = "Поиск"
  public let keyNew = "Новая"
  public let keyEdit = "Изменить"
  public let keyFilter = "Фильтр"
  public let keyBack = "Назад"
  public let keyIssue = "Выдать"
  public let keyReturn = "Принять"
  public let keyRenew = "Продлить"
  public let keyDelete = "Удалить"
  public let keySave = "Сохранить"
  public let keyNextField = "След. поле"
  public let keyCancel = "Отмена"
  public let keyApply = "Применить"
  public let keyRenewAll = "Продлить все"
  public let keyDesk = "Кафедра"
  public let keyOverdue = "Должники"
  public let keyReceipt = "Квитанция"
  public let keyFindReader = "Найти читателя"
  public let keyUndo = "Отменить"
  public let keyEndReader = "След. читатель"
  public let keyScroll = "Листать"

  public let dialogOK = "Enter: ОК"
  public let dialogYesNo = "y/д: Да   n/н: Нет"
  public let dialogChoice = "↑↓ выбрать   Enter: ОК   Esc: Отмена"
  public let dialogPrompt = "Enter: ОК   Esc: Отмена"
  public let quitQuestion = "Выйти из программы?"
  public let quitTitle = "Выход"
  public let quitUnsaved = "В форме есть несохранённые изменения. Выйти и потерять их?"
  public func quitDuringVisit(_ reader: String?) -> String {
    "Идёт обслуживание читателя\(reader.map { " (\($0))" } ?? ""): при выходе пропадут журнал сеанса и квитанция "
      + "посещения (F4 её печатает). Выйти из программы?"
  }
  public let errorTitle = "Ошибка"
  public let cannotSaveTitle = "Не удалось сохранить"
  public let discardTitle = "Отменить изменения"
  public let discardQuestion = "Закрыть форму и потерять введённое?"
  public let deleteTitle = "Удаление"
  public let deleteRefusedTitle = "Удалить нельзя"
  public let issueTitle = "Выдача"
  public let issueRefusedTitle = "Выдать нельзя"
  public let returnRefusedTitle = "Принять нельзя"
  public let renewRefusedTitle = "Продлить нельзя"
  public let undoRefusedTitle = "Отменить нельзя"
  public let unknownCodeTitle = "Неизвестный код"

  public let sectionBooks = "Книги"
  public let sectionReaders = "Читатели"
  public let sectionDesk = "Кафедра: выдача и приём"
  public let sectionScan = "Сканировать изображение"
  public let sectionExport = "Экспорт"
  public let sectionOverdue = "Должники: просроченные книги"
  public let sectionHoldShelf = "Полка броней: книги ждут читателей"
  public func holdShelfTitleCount(_ count: Int) -> String { "Полка броней (\(count))" }
  public let holdShelfEmpty = "На полке броней ничего не ждёт."
  public func holdShelfLine(_ hold: HoldRecord, tooLong: Bool) -> String {
    "\(tooLong ? "! " : "  ")\(hold.waitingCopy ?? "")  \(hold.label) — \(hold.readerName) (\(hold.readerTicket)), до "
      + (hold.pickupBy?.iso ?? "") + (tooLong ? ", ждёт слишком долго" : "")
  }
  public let keyExpire = "Истечь"
  public let keyCancelHold = "Снять бронь"
  public let keyHolds = "Брони"
  public let holdsTitle = "Брони"
  public let chooseHold = "Какая бронь?"
  public let noActiveHolds = "У читателя нет броней."
  public let suspendHoldAction = "Приостановить до даты"
  public let resumeHoldAction = "Возобновить сейчас"
  public let suspendUntilPrompt = "Приостановить до (ГГГГ-ММ-ДД, включая этот день):"
  public func notADate(_ text: String) -> String { "«\(text)» — не дата: наберите её как 2026-12-31" }
  public func holdSuspendedNotice(_ label: String, until: String) -> String {
    "Бронь на \(label) приостановлена до \(until), место в очереди сохраняется"
  }
  public func holdResumedNotice(_ label: String) -> String { "Бронь на \(label) возобновлена" }
  public func cancelHoldQuestion(_ hold: HoldRecord) -> String {
    "Снять бронь: \(hold.readerName) (билет \(hold.readerTicket)), \(hold.label)?"
  }
  public let expiredTitle = "Брони истекли"
  public func holdMoveLine(_ move: HoldMove) -> String {
    "\(move.inventory) \(move.label), не забрал(а) \(move.fromReader): "
      + (move.next.map { "на полку броней для \($0.readerName) (билет \($0.readerTicket))" } ?? "обратно на полку")
  }
  public func holdEndedElsewhereLine(_ move: HoldMove) -> String {
    "\(move.inventory) \(move.label): бронь \(move.fromReader) снята на другом пункте: "
      + (move.next.map { "оставьте на полке броней для \($0.readerName) (билет \($0.readerTicket))" }
        ?? "обратно на полку")
  }
  public func holdLapsedLine(_ hold: HoldRecord) -> String {
    "Бронь: \(hold.readerName) (\(hold.readerTicket)), \(hold.label): не нужна после "
      + (hold.notWantedAfter?.iso ?? "") + ", снята"
  }
  public let nothingExpired = "Ни одна бронь не ждала слишком долго."
  public func holdFreedElsewhere(_ hold: HoldRecord, inventory: String, desk: String) -> String {
    "Бронь снята: \(hold.readerName) (билет \(hold.readerTicket)); \(inventory) ждёт на полке броней пункта "
      + "«\(desk)», он и передаст книгу дальше"
  }
  public func holdCancelled(_ hold: HoldRecord) -> String {
    "Бронь снята: \(hold.readerName) (билет \(hold.readerTicket)), \(hold.label)"
  }
  public func holdFreed(_ inventory: String) -> String {
    "Бронь снята: \(inventory) больше не ждёт на полке броней; поставьте книгу обратно на полку"
  }
  public let overdueLeadsThere = "(o — у кого)"
  public let sectionHelp = "Помощь"
  public let exportPrompt = "Файл для записей ИРБИС (Windows-1251, как читает ИРБИС):"
  public let keyExport = "Экспорт"
  public func exported(_ count: Int, _ path: String) -> String { "Записей: \(count), записано в \(path)" }
  public func libraryCounts(_ books: Int, _ out: Int, _ readers: Int) -> String {
    "\(self.books(books)), выдано \(out); читателей: \(readers)"
  }
  public func overdueBooks(_ count: Int) -> String { "Просрочено: \(self.books(count))" }

  public let searchLabel = "Поиск:"
  public let searching = "ищу…"
  public let searchHint = "/ — поиск"
  public func matches(_ count: Int) -> String {
    count >= LibraryStore.searchCap ? "найдено \(LibraryStore.searchCap)+, уточните" : "найдено: \(count)"
  }
  public func searchedFor(_ query: String) -> String { "Искали «\(query)»" }
  public func didYouMean(_ words: String) -> String { "Может быть: \(words)?" }
  public let recentHeading = "Недавно открытые (↑ — выбрать):"
  public let allHeading = "Все:"
  public let isbnNotHere = "Такого ISBN в библиотеке нет: Enter — добавить с поиском сведений"
  public func booksTitle(_ filter: String) -> String { "Книги: \(filter)" }
  public func filterName(_ filter: BookFilter) -> String {
    switch filter {
    case .all: return "все"
    case .issued: return "выданные"
    case .available: return "на полке"
    case .overdue: return "просроченные"
    case .notForLoan: return "не выдаются"
    }
  }
  public func readersTitle(_ filter: String) -> String { "Читатели: \(filter)" }
  public func readerFilterName(_ filter: ReaderFilter) -> String {
    switch filter {
    case .all: return "все"
    case .overdue: return "с просроченными книгами"
    }
  }
  public let columnInventory = "Инв. №"
  public let columnAuthor = "Автор"
  public let columnTitle = "Заглавие"
  public let columnYear = "Год"
  public let columnStatus = "Срок, читатель"
  public let columnTicket = "Билет"
  public let columnName = "ФИО"
  public let columnPhone = "Телефон"
  public let columnBooksOut = "Книг"
  public let columnOverdue = "Долг"
  public let noBooks = "Книг нет. n — добавить."
  public let noReaders = "Читателей нет. n — записать."
  public func issuedStatus(_ reader: String, _ due: String) -> String { "\(due)  \(reader)" }
  public func overdueStatus(_ reader: String, _ due: String) -> String { "\(due)! \(reader)" }
  public func overdueCount(_ count: Int) -> String { "долг \(count)" }

  public let labelAuthor = "Автор"
  public let labelName = "ФИО"
  public let labelAddress = "Адрес"
  public let none = "нет"
  public func bookTitle(_ inventory: String) -> String { "Книга \(inventory)" }
  public func readerTitle(_ name: String) -> String { "Читатель \(name)" }
  public let bookAvailable = "На полке: можно выдать"

  public func bookNotForLoan(_ status: CopyStatus) -> String {
    "Не выдаётся: экземпляр \(statusName(status)) (s — сменить статус)"
  }
  public let statusTitle = "Статус экземпляра"
  public func statusQuestion(_ title: String) -> String { "Статус «\(title)»:" }
  public func statusChanged(_ inventory: String, _ status: CopyStatus) -> String {
    "\(inventory): экземпляр теперь \(statusName(status))"
  }
  public let keyStatus = "Статус"
  public func bookIssuedTo(_ reader: String, _ ticket: String, _ due: String) -> String {
    "Выдана: \(reader) (билет \(ticket)), вернуть до \(due)"
  }
  public func bookOverdueTo(_ reader: String, _ ticket: String, _ due: String, _ days: Int) -> String {
    "ПРОСРОЧЕНА: \(reader) (билет \(ticket)), срок \(due), опоздание \(self.days(days))"
  }
  public func loanHistory(_ count: Int) -> String { "История выдач (\(count))" }
  public func booksOut(_ count: Int) -> String { "На руках (\(count))" }
  public func history(_ count: Int) -> String { "История (\(count))" }
  public func readerHasOverdue(_ count: Int) -> String { "Просрочено: \(books(count))" }
  public func readerAtLimit(_ limit: Int) -> String { "Достигнут предел: \(books(limit))" }
  public func loanDates(_ issued: String, _ due: String) -> String { "выдана \(issued), до \(due)" }
  public func renewedTimes(_ count: Int) -> String { "продлена \(plural(count, "раз", "раза", "раз"))" }
  public func returnedOn(_ date: String) -> String { "возвращена \(date)" }
  public func undoneOn(_ moment: String) -> String { "ВЫДАЧА ОТМЕНЕНА \(moment)" }
  public func overdueBy(_ days: Int) -> String { "ПРОСРОЧЕНА на \(self.days(days))" }

  public func issuePromptTicket(_ title: String) -> String { "Билет читателя, которому выдать «\(title)»:" }
  public let keyHold = "Бронь"
  public let holdTitle = "Забронировать"
  public let holdRefusedTitle = "Бронь не принята"
  public func holdPromptTicket(_ label: String) -> String { "Билет читателя, который ждёт \(label) (любой экземпляр):" }
  public func holdPlaced(_ reader: String, _ label: String, position: Int) -> String {
    "Бронь принята: \(reader) ждёт \(label), в очереди \(position)-м"
  }
  public func issuePromptInventory(_ reader: String) -> String { "Инвентарные номера книг для читателя \(reader):" }
  public func issuedManyNotice(_ count: Int, _ reader: String) -> String { "Выдано \(books(count)): \(reader)" }
  public func deleteBookQuestion(_ title: String) -> String { "Удалить «\(title)» из каталога?" }
  public func deleteReaderQuestion(_ name: String) -> String { "Удалить читателя \(name)?" }
  public func deletedNotice(_ name: String) -> String { "Удалено: \(name)" }
  public func savedNotice(_ what: String) -> String { "Сохранено: \(what)" }
  public func addressFilled(_ address: String) -> String { "Подставлен адрес этого телефона: \(address)" }

  public let newBookTitle = "Новая книга"
  public func editBookTitle(_ inventory: String) -> String { "Книга \(inventory): изменение" }
  public let newReaderTitle = "Новый читатель"
  public func editReaderTitle(_ name: String) -> String { "Читатель \(name): изменение" }
  public let requiredNote = "Поля со * обязательны. F2 — сохранить, Esc — отмена."

  public let deskTitle = "Кафедра"
  public let deskPromptNoReader = "Отсканируйте билет читателя (или введите фамилию) либо книгу для приёма:"
  public let deskPromptReader = "Сканируйте книги: новые выдаются, свои читатель сдаёт. ↓ — его выдачи"
  public func deskReader(_ ticket: String, _ name: String, _ category: String) -> String {
    "Читатель \(ticket): \(name) (\(category))"
  }
  public let sessionLog = "Этот сеанс"
  public let sessionLogEmpty = "пока ничего"
  public let nothingToUndo = "Отменять нечего"
  public let undoneAlready = "Уже отменено: отменить можно только последнее действие"
  public let undoTitle = "Отмена действия"
  public func undoQuestion(_ when: String, _ doubts: [CounterSession.UndoDoubt]) -> String {
    let reasons = doubts.map { doubt -> String in
      switch doubt {
      case .earlierVisit: return "при прошлом посещении (другой читатель)"
      case .otherScreen: return "на другом экране"
      case .older: return "больше \(CounterSession.undoWithoutAskingSeconds / 60) минут назад"
      }
    }
    return "Последнее действие сделано в \(when), \(reasons.joined(separator: ", ")). Отменить его?"
  }
  public let nothingTypedToUndo = "В этом поле нечего отменять"
  public func andMore(_ count: Int) -> String { "и ещё \(count)" }
  public func unknownCode(_ code: String) -> String { "Неизвестный код «\(code)»" }
  public func unknownCodeMessage(_ code: String) -> String {
    "Неизвестный код «\(code)»: нет ни читателя с таким билетом, ни книги с таким инвентарным номером. "
      + "Отсканируйте ещё раз или сначала добавьте книгу или читателя."
  }
  public func logIssued(_ inventory: String, _ title: String, _ reader: String, _ due: String) -> String {
    "Выдана \(inventory) «\(title)»: \(reader), до \(due)"
  }
  public func logReturned(_ inventory: String, _ title: String, _ reader: String) -> String {
    "Принята \(inventory) «\(title)» от: \(reader)"
  }
  public func logSelected(_ ticket: String, _ name: String) -> String { "Читатель \(ticket) \(name)" }
  public func logUndoIssue(_ inventory: String, _ title: String) -> String {
    "Отменена выдача \(inventory) «\(title)»"
  }
  public func logUndoReturn(_ inventory: String, _ title: String, _ reader: String) -> String {
    "Отменён приём \(inventory) «\(title)»: книга снова у читателя \(reader)"
  }
  public func cameBackLate(_ days: Int) -> String { "опоздание \(self.days(days))" }
  public let holdShelfTitle = "Полка броней"
  public func putOnHoldShelf(_ trap: HoldTrap, title: String) -> String {
    "Бронь для \(trap.readerName) (билет \(trap.readerTicket)): поставьте «\(title)» (\(trap.inventory)) на полку "
      + "броней; книга ждёт читателя до \(trap.pickupBy.iso)"
  }
  public func logHeldFor(_ trap: HoldTrap) -> String {
    "на полку броней для \(trap.readerName) (\(trap.readerTicket))"
  }
  public func logRenewed(_ inventory: String, _ title: String, _ due: String) -> String {
    "Продлена \(inventory) «\(title)», до \(due)"
  }
  public func logTransferred(_ inventory: String, _ title: String, _ from: String, _ to: String, _ due: String)
    -> String
  {
    "Принята \(inventory) «\(title)» от: \(from) и выдана: \(to), до \(due)"
  }
  public func logUndoRenewal(_ inventory: String, _ title: String, _ due: String) -> String {
    "Отменено продление \(inventory) «\(title)»: срок снова \(due)"
  }
  public func logUndoTransfer(_ inventory: String, _ title: String, _ reader: String) -> String {
    "Отменена передача \(inventory) «\(title)»: книга снова у читателя \(reader)"
  }
  public func logLeftAsItWas(_ inventory: String, _ title: String) -> String {
    "Оставлено как было: \(inventory) «\(title)»"
  }
  public func readerHasOverdueAtDesk(_ count: Int) -> String {
    "Просрочено: \(books(count)); сканируйте, чтобы принять"
  }
  public let transferTitle = "Книга у другого читателя"
  public func transferQuestion(
    _ title: String, _ inventory: String, _ reader: String, _ ticket: String, _ since: String, _ due: String,
    _ to: String
  ) -> String {
    "«\(title)» (\(inventory)) у читателя \(reader) (\(ticket)) с \(since), до \(due). "
      + "Принять её от читателя \(reader) и выдать читателю \(to)?"
  }
  public func copyOnShelf(_ inventory: String, _ place: String) -> String {
    place.isEmpty ? "\(inventory)  на полке" : "\(inventory)  \(place)"
  }
  public func copyOut(_ inventory: String, _ reader: String, _ ticket: String, _ due: String) -> String {
    "\(inventory)  \(reader) (\(ticket)), до \(due)"
  }
  public func chooseCopyToIssue(_ isbn: String) -> String { "Какой экземпляр \(isbn)?" }
  public func chooseCopyToReturn(_ isbn: String) -> String { "Какой экземпляр \(isbn) вернули?" }
  public let chooseCopyHint =
    "ISBN называет издание: выберите экземпляр в руках или сканируйте его инвентарный номер."
  public let scanReaderFirst = "Сначала отсканируйте билет читателя"
  public func renewedAll(_ count: Int) -> String { count == 0 ? "Ничего не продлено" : "Продлено: \(books(count))" }

  public let receiptTitle = "Квитанция"
  public let receiptEmpty = "За это посещение ещё ничего не выдано, не продлено и не принято"
  public func receiptPrompt(_ canPrint: Bool) -> String {
    canPrint ? "Напечатать квитанцию посещения (lp) или записать в файл:" : "Записать квитанцию посещения в файл:"
  }
  public let receiptPrinted = "Квитанция отправлена на принтер"
  public func receiptWritten(_ path: String) -> String { "Квитанция записана в \(path)" }
  public func receiptHeading(_ date: String, _ time: String) -> String { "Квитанция, \(date) \(time)" }
  public func receiptReader(_ ticket: String, _ name: String) -> String { "Читатель \(ticket): \(name)" }
  public let receiptIssued = "Выдано:"
  public let receiptRenewed = "Продлено:"
  public let receiptReturned = "Принято:"
  public func receiptDue(_ date: String) -> String { "до \(date)" }
  public let receiptThanks = "Спасибо!"

  public let sectionStatistics = "Статистика: дневник работы"
  private static let months = [
    "январь", "февраль", "март", "апрель", "май", "июнь", "июль", "август", "сентябрь", "октябрь", "ноябрь", "декабрь",
  ]
  public func statisticsTitle(month: Int, year: Int) -> String {
    "Статистика: \(RussianStrings.months[max(0, min(11, month - 1))]) \(year)"
  }
  public func diaryFigure(_ figure: DiaryFigure) -> String {
    switch figure {
    case .registered: "Записано читателей"
    case .reregistered: "Перерегистрировано"
    case .visits: "Посещений"
    case .issues: "Выдано"
    case .renewals: "Продлено"
    case .returns: "Возвращено"
    case .holdsPlaced: "Заказов принято"
    case .holdsFilled: "Заказов выдано"
    case .overdue: "Просрочено на конец"
    }
  }
  public func statisticsColumns(day: String, month: String) -> [String] { [day, "год назад", month, "год назад"] }
  public let statisticsTodayName = "сегодня"
  public func chartLargest(_ value: Int) -> String { value == 0 ? "нет" : "наибольшее \(value)" }
  public let chartsNeedRoom = "В окне повыше — графики выдачи."
  public let monthChartNeedsRoom = "В окне повыше — и выдача по месяцам."
  public let splitEmpty = "За этот месяц ничего не учтено."
  public func issuesWithoutIndex(_ count: Int) -> String {
    "Выдано книг без индекса ББК: \(count), учтены в «прочих»."
  }
  public let keySplit = "Разрез"
  public func splitTitle(_ split: DiarySplit) -> String {
    switch split {
    case .category: "Месяц по группам читателей (по возрасту, где известен год рождения, иначе по категории)"
    case .branch: "Книги месяца по отраслям знаний (по индексу ББК)"
    case .desk: "Месяц по кафедрам"
    }
  }
  public func splitColumn(_ name: String, split: DiarySplit) -> String {
    switch (AgeGroup(rawValue: name), KnowledgeBranch(rawValue: name), split) {
    case (.children?, _, .category): "до 14"
    case (.youth?, _, .category): "15–30"
    case (.adults?, _, .category): "старше 30"
    case (_, let branch?, .branch):
      switch branch {
      case .social: "ОПЛ"
      case .natural: "ЕН"
      case .technology: "техн."
      case .agriculture: "с/х"
      case .artsAndSport: "иск."
      case .fiction: "худ."
      case .children: "дет."
      case .other: "проч."
      }
    default: name
    }
  }
  public func issuesPerDay(month: Int, year: Int) -> String {
    "Выдано по дням: \(RussianStrings.months[max(0, min(11, month - 1))]) \(year)"
  }
  public let issuesLast30Days = "Выдано по дням: последние 30 дней"
  public func issuesPerMonth(year: Int) -> String { "Выдано по месяцам: \(year)" }
  public let shortMonths = ["янв", "фев", "мар", "апр", "май", "июн", "июл", "авг", "сен", "окт", "ноя", "дек"]
  public let keyMonths = "Месяц"
  public func overdueTitle(_ readers: Int) -> String { "Должники: \(readers)" }
  public let noOverdue = "Просроченных книг нет."
  public func overdueReaderLine(_ days: Int, _ ticket: String, _ name: String, _ contacts: String) -> String {
    "\(self.days(days))  \(ticket)  \(name)  \(contacts)"
  }
  public func overdueBookDates(_ due: String, _ days: Int) -> String {
    "срок \(due), просрочено на \(self.days(days))"
  }

  public func scanKept(_ code: String) -> String { "Отсканировано \(code): выполнится, когда закроется сообщение" }
  public func scannedLabelOfBook(_ inventory: String) -> String {
    "Этикетка книги \(inventory), которая уже есть в библиотеке: её карточка"
  }
  public func keysNotApplied(_ count: Int) -> String {
    "Нажатия, пришедшие вместе с Enter (\(count)), к этому экрану не применены: наберите нужное заново"
  }
  public let scannedRecord = "Заполнено по этикетке: проверьте и сохраните (F2)"
  public let scannedRecordRemarksTitle = "Проверка этикетки"
  public func scannedRecordRemarks(_ remarks: BookRecordLabel.Remarks) -> [String] {
    var lines: [String] = []
    if !remarks.unknownLines.isEmpty {
      lines.append("Не понятые строки (из них ничего не заполнено):")
      lines += remarks.unknownLines.map { "  «\($0)»" }
    }
    if let isbn = remarks.isbnProblem { lines.append(RussianWords().message(.invalidISBN(isbn))) }
    return lines
  }
  public func scannedNewISBN(_ isbn: String) -> String { "ISBN \(isbn) в библиотеке нет: новая книга" }
  public func scannedCopies(_ count: Int) -> String { "В библиотеке экземпляров с этим ISBN: \(count)" }

  public let scanPrompt = "Файл изображения (PNG или JPEG); Tab дополняет имя:"
  public let keyScanFile = "Сканировать"
  public let keyComplete = "Дополнить"
  public func noCodeFound(_ path: String) -> String { "В \(path) не найдено ни штрихкода, ни QR-кода" }
  public func message(_ error: ImageError) -> String {
    switch error {
    case .missing(let path): return "\(path): такого файла нет; проверьте имя и папку"
    case .unreadable(let path): return "\(path) не читается (нет прав, или это не обычный файл)"
    case .empty(let path): return "\(path) пуст (0 байт); отсканируйте или сохраните снимок заново"
    case .noPixels(let path):
      return "\(path) — пустое изображение (0 точек в ширину или высоту); отсканируйте или сохраните снимок заново"
    case .notAnImage(let path): return "\(path) — не изображение PNG или JPEG"
    case .truncated(let path, let detail):
      return "\(path) обрывается (\(detail)): файл сохранён или скопирован не полностью"
    case .corrupt(let path, let detail): return "\(path) — повреждённое изображение (\(detail))"
    case .tooLarge(let path, let maximum):
      return "\(path) больше \(maximum / 1_000_000) мегапикселей; уменьшите его перед сканированием"
    case .outOfMemory(let path): return "\(path) слишком велико, чтобы загрузить его в память"
    case .decoderMissing:
      return "Не установлен декодер штрихкодов zbar: apt-get install libzbar0 (подробности — circdesk scan)"
    }
  }
  public func codesFound(_ count: Int, _ path: String) -> String { "Кодов в \(path): \(count); выберите один" }

  public let keyTakeFound = "Взять найденное"
  public func lookingUp(_ isbn: String) -> String { "Поиск ISBN \(isbn)…" }
  public func lookupFound(_ provider: String, _ filled: Int, _ differing: [String]) -> String {
    var text = "Найдено в \(provider): заполнено полей: \(filled)"
    if !differing.isEmpty {
      text += "; отличается от введённого: \(differing.joined(separator: ", ")) (F5 — взять найденное)"
    }
    return text
  }
  public let lookupNotFound = "Ни один каталог не знает этот ISBN: заполните форму вручную"
  public let keySearchLibraries = "Искать в библиотеках"
  public let copySearching = "Поиск в каталогах других библиотек…"
  public let copySearchNothing = "Ни в одном каталоге библиотек нет такой книги: заполните форму вручную"
  public func copySearchWaiting(_ failures: [LookupFailure]) -> String {
    let why = failures.isEmpty ? "" : " (" + failures.map { reason($0) }.joined(separator: "; ") + ")"
    return
      "Ни один каталог библиотек не ответил\(why); поиск ждёт сети, и найденное появится здесь. Пока заполните форму вручную."
  }
  public let copySearchNeedsWords = "Введите заглавие или автора, затем F5 — поиск в каталогах других библиотек"
  public let copySearchNoTargets =
    "Нет каталогов библиотек для поиска: добавьте командой circdesk target add (Z39.50 или SRU)"
  public let copySearchUnavailable = "Поиск в других библиотеках здесь недоступен"
  public let copyChoiceTitle = "Найдено в каталогах библиотек"
  public func copyChoiceLines(found: Int, shown: Int, holdsMore: Bool) -> String {
    (found == shown ? "Найдено: \(found)" : "Найдено: \(found), показаны первые \(shown)")
      + ". Enter заполнит форму из выбранной записи, и книга сохранит всю запись."
      + (holdsMore ? " В каталогах есть ещё: введите автора или год и снова нажмите F5." : "")
  }
  public func copyFilled(_ target: String, _ filled: Int, isbnProblem: ISBNError?) -> String {
    "Заполнено из \(target): полей — \(filled); вся запись сохранится с книгой. Введите инвентарный номер и сохраните."
      + (isbnProblem.map { " В записи: \(RussianWords().message(.invalidISBN($0))) — исправьте перед сохранением." }
        ?? "")
  }
  public func lookupWaiting(_ failure: LookupFailure?) -> String {
    "Поиск ждёт сети\(failure.map { " (\(reason($0)))" } ?? ""); попробуем позже. Пока заполните форму вручную."
  }
  /// Why a catalogue did not answer, in Russian: the catalogues' names are names, and the network
  /// library's own English detail is left out (`circdesk lookup` prints it).
  public func reason(_ failure: LookupFailure) -> String {
    switch failure {
    case .timedOut(let provider): return "\(provider) не ответил вовремя"
    case .cannotConnect(let provider): return "\(provider) недоступен — нет сети?"
    case .httpStatus(let provider, let code): return "\(provider) ответил кодом HTTP \(code)"
    case .malformed(let provider, _): return "\(provider) прислал ответ, который не удалось прочитать"
    case .failed(let provider, _): return "\(provider): сбой соединения"
    case .brokenRecords(let provider, _): return "\(provider) прислал записи, которые не удалось прочитать"
    }
  }
  public func lookupOffer(_ provider: String) -> String { "В \(provider) есть сведения об этой книге:" }
  public let keyApplyOffer = "Применить найденное"
  public let keyDismissOffer = "Отклонить найденное"

  public let helpTitle = "Помощь"
  public func helpHeading(_ topic: HelpTopic) -> String {
    switch topic {
    case .home: return "Главная"
    case .bookList: return "Список книг"
    case .readerList: return "Список читателей"
    case .bookDetail: return "Книга"
    case .readerDetail: return "Читатель"
    case .form: return "Формы"
    case .desk: return "Кафедра"
    case .scanImage: return "Сканировать изображение"
    case .overdue: return "Должники"
    case .statistics: return "Статистика"
    case .stocktake: return "Проверка фонда"
    case .stocktakeReport: return "Отчёт проверки"
    case .holdShelf: return "Полка броней"
    case .conflicts: return "Конфликты"
    }
  }
  public func helpAbout(_ topic: HelpTopic) -> String {
    switch topic {
    case .home:
      return "Библиотека одним взглядом. Основная работа — на кафедре (d): посещение читателя, скан за сканом. "
        + "Число просроченных книг ведёт к должникам (o)."
    case .bookList:
      return "Каталог: выданные книги отмечены *, просроченные — !. Нажмите / и начните вводить автора, название, "
        + "ISBN или инвентарный номер; опечатки и другая раскладка прощаются."
    case .readerList:
      return "Читатели; у кого есть просроченные книги, отмечены !. f показывает только их. Если список открыт с "
        + "кафедры (F3 или введённая фамилия), Enter выбирает читателя для посещения."
    case .bookDetail:
      return "Один экземпляр: все поля, у кого он и до какого числа, у кого был раньше."
    case .readerDetail:
      return "Один читатель: книги на руках (просроченные отмечены !), затем история. Выберите выдачу ↑↓, чтобы "
        + "принять или продлить её; i выдаёт ещё, можно несколько сканов сразу. Ниже — брони читателя; h снимает "
        + "бронь или приостанавливает ждущую в очереди до даты (место сохраняется)."
    case .form:
      return "Поля со * обязательны. Ничего не сохраняется до F2; при отказе всё введённое остаётся, курсор "
        + "встаёт на поле, которое надо исправить. Enter сканера переходит к следующему полю и не сохраняет."
    case .desk:
      return "Всё посещение здесь: отсканируйте билет читателя, затем каждую книгу. Книга, которая у читателя, "
        + "принимается; новая выдаётся ему; книга другого читателя — только после вопроса. Если читатель не "
        + "выбран, отсканированная книга принимается. ISBN нескольких экземпляров — выбор экземпляра. Введённая "
        + "фамилия ищет читателя. ↓ выбирает выдачу читателя: w продлевает, r принимает; F7 продлевает все, что "
        + "можно. F4 печатает или сохраняет квитанцию; F8 отменяет последнее действие; Esc завершает посещение."
    case .scanImage:
      return "Читает штрихкоды и QR-коды с фотографии или скана и открывает то, что код называет."
    case .holdShelf:
      return "Книги, отложенные по броням, раньше истекающие — первыми; ждущие дольше срока отмечены !. "
        + "Enter открывает книгу; x снимает выбранную бронь (книга переходит следующей брони или на полку); "
        + "e снимает брони, ждавшие слишком долго, и говорит, куда переставить каждую книгу."
    case .overdue:
      return "Все читатели с просроченными книгами, дольше всех просрочившие — первыми, с телефоном и e-mail. "
        + "Enter открывает читателя. `circdesk overdue --csv` даёт то же для рассылки, `circdesk notices overdue` "
        + "пишет каждому письмо-напоминание."
    case .statistics:
      return
        "Дневник работы одним взглядом: сегодня и месяц по сей день рядом с теми же днями год назад, выдача по дням месяца "
        + "и по месяцам года. ← → — месяц назад и вперёд. `circdesk stats` печатает все показатели за любые дни, "
        + "по группам читателей, отраслям знаний или кафедрам, и CSV в графах дневника."
    case .stocktake:
      return "Проверка фонда у полок. Укажите проверяемое место раз на полку (F2 или скан этикетки полки "
        + "PLACE:…), затем сканируйте экземпляр за экземпляром: каждый проверяется сразу; экземпляр на своём "
        + "месте или сканированный повторно проходит тихо, всё остальное звенит и помечается ! — не на месте, "
        + "выдан, утерян, другого отдела, неизвестен. ↓ выбирает скан: m переносит запись экземпляра туда, где он найден, r возвращает "
        + "числящийся выданным, a делает утерянный доступным, n добавляет неизвестный номер как новую книгу. F3 "
        + "читает в проверку все коды изображения (снимка полки). F5 — отчёт: чего недостаёт, по местам и по "
        + "разделам шифров."
    case .stocktakeReport:
      return "Что проверка нашла к этому часу: ожидалось, в наличии, недостаёт — по местам хранения и по разделам "
        + "шифров, и каждый недостающий экземпляр. Выданные, на полке броней и в обработке — в наличии. "
        + "c закрывает проверку (и, когда комиссия подписала акт, записывает недостающие утерянными); "
        + "`circdesk stocktake act` пишет акт для подписи комиссии."
    case .conflicts:
      return "То, что два пункта сделали врозь и что не может стоять вместе: один номер дан дважды, одна книга "
        + "выдана двум читателям, запись изменена после удаления на другом пункте. Для каждого видны обе стороны "
        + "и клавиши решения; решение дойдёт до всех пунктов при их следующей синхронизации. Скан записи с "
        + "конфликтом сначала показывает конфликт. ↑ в списке — запись изменена здесь и ещё не на сервере."
    }
  }
  public let helpHeadingEverywhere = "Везде"
  public let aScan = "сканер"

  public func meaning(_ meaning: KeyMeaning) -> String {
    switch meaning {
    case .help: "Помощь"
    case .undoLast: "Отменить последнее действие, один раз (в поле — ввод)"
    case .conflictsEverywhere: "Конфликты между пунктами (пункт, подключённый к серверу)"
    case .quit: "Выход (спросит, если в форме есть изменения или у кафедры читатель)"
    case .homeBooks: "Книги"
    case .homeReaders: "Читатели"
    case .homeDesk: "Кафедра: выдача и приём"
    case .homeOverdue: "Должники"
    case .homeStatistics: "Статистика: дневник работы"
    case .chooseMonth: "Месяц назад, месяц вперёд"
    case .splitFigures: "Месяц по группам читателей, по отраслям знаний, по кафедрам или без разреза"
    case .homeHoldShelf: sectionHoldShelf
    case .homeScan: "Сканировать изображение"
    case .homeExport: "Экспорт всего в ИРБИС"
    case .homeConflicts: "Конфликты между пунктами (пункт, подключённый к серверу)"
    case .chooseSection: "Выбрать раздел"
    case .quitAsking: "Выход (спросит)"
    case .move: "Перемещение"
    case .page: "Страница вверх, вниз"
    case .firstLast: "В начало, в конец"
    case .open: "Открыть"
    case .searchAsYouType:
      "Поиск по мере ввода (. — это / в русской раскладке); Enter оставляет найденное, Esc сбрасывает"
    case .newRecord: "Новая запись"
    case .edit: "Изменить"
    case .exportList: "Экспорт списка как показан в ИРБИС"
    case .backOrClear: "Назад (или сбросить поиск)"
    case .backAsEscape: "Назад, как Esc"
    case .filterBooks: "Фильтр: все, выданные, на полке, просроченные, не выдаются"
    case .filterReaders: "Фильтр: все читатели или с просроченными книгами"
    case .listMarks: "Отметки выданных и просроченных книг"
    case .issueToReader: "Выдать читателю"
    case .takeBack: "Принять"
    case .renew: "Продлить"
    case .delete: "Удалить"
    case .copyStatus: "Статус экземпляра: на полке, утерян, в ремонте, списан…"
    case .placeHold: "Забронировать для читателя: любой экземпляр, первый вернувшийся"
    case .applyOffer: "Применить найденное поиском"
    case .dismissOffer: "Отклонить найденное поиском"
    case .exportBook: "Экспорт книги в ИРБИС"
    case .back: "Назад"
    case .chooseLoan: "Выбрать выдачу"
    case .openBook: "Открыть книгу"
    case .issueBooks: "Выдать книги этому читателю"
    case .takeBackChosen: "Принять выбранную книгу"
    case .renewChosen: "Продлить выбранную"
    case .readerHolds: "Бронь: снять, приостановить или возобновить"
    case .exportReader: "Экспорт читателя с выдачами в ИРБИС"
    case .nextField: "Следующее поле"
    case .previousField: "Предыдущее поле"
    case .moveInField: "Движение в поле"
    case .erase: "Стереть"
    case .eraseToEnds: "Стереть до начала, до конца"
    case .undoTyping: "Отменить ввод в поле (не выдачу)"
    case .save: "Сохранить"
    case .takeFound: "Взять найденное по ISBN вместо введённого"
    case .searchLibraries:
      "В форме новой книги: искать в каталогах других библиотек (Z39.50, SRU) по введённым заглавию, автору и году"
    case .cancelForm: "Отмена (спросит, если что-то введено)"
    case .applyCode: "Применить отсканированный или введённый код (или найти читателя по фамилии)"
    case .aScan: "Выбирает читателя, выдаёт или принимает книгу, как Enter"
    case .findReader: "Найти читателя по имени"
    case .chooseVisitLoan: "Выбрать выдачу читателя, вернуться к полю кода"
    case .returnChosen: "Принять выбранную"
    case .renewAll: "Продлить все выдачи читателя, какие можно"
    case .receipt: "Квитанция посещения: напечатать (lp) или записать в файл"
    case .undoVisit: "Отменить последнее действие посещения (более раннее — с вопросом)"
    case .nextReader: "Следующий читатель (или назад)"
    case .chooseReader: "Выбрать читателя"
    case .openReader: "Открыть читателя"
    case .chooseCopy: "Выбрать книгу"
    case .cancelHold: "Снять выбранную бронь"
    case .expireHolds: "Снять брони, ждавшие слишком долго"
    case .completeName: "Дополнить имя файла"
    case .scanFile: "Сканировать файл; из нескольких кодов открыть выбранный"
    case .chooseCode: "Выбрать из нескольких кодов"
    case .chooseConflict: "Выбрать конфликт"
    case .openConflict: "Открыть выбранный конфликт"
    case .settleSide: "Выдана дважды: книга у читателя этой стороны; отложено дважды: читатель получит этот экземпляр"
    case .keepAsItIs:
      "Выдана дважды: оставить обе выдачи; изменена после удаления: оставить удалённой; продлено сверх лимита: "
        + "продления остаются"
    case .renumber: "Номер дан дважды: дать записи этого пункта другой"
    case .sameRecord: "Номер дан дважды: это одна запись"
    case .restore: "Изменена после удаления: восстановить"
    case .takeRenewalsBack: "Продлено сверх лимита: снять лишние продления"
    case .acknowledgeReturn: "Продлено после возврата: книга уже возвращена, закрыть конфликт"
    case .resend: "Изменение не принято: отправить исправленную запись снова"
    case .dropChange: "Изменение не принято: отказаться"
    case .goOnWithScan: "Открыт сканом: продолжить со сканом"
    case .homeStocktake: sectionStocktake
    case .applyShelfCode: "Проверить набранный номер (PLACE: и название задают место)"
    case .scanIntoCheck: "Этикетка экземпляра: проверен и учтён; этикетка полки PLACE:… задаёт место"
    case .setPlace: "Указать проверяемое место"
    case .stocktakeReport: "Отчёт проверки: чего недостаёт, по местам и разделам"
    case .startCheck: "Открыть проверку (когда открытой нет)"
    case .chooseScan: "Выбрать один из последних сканов"
    case .moveRecordHere: "Экземпляр не на месте: перенести его запись туда, где он найден"
    case .returnNow: "Экземпляр по каталогу выдан: вернуть его сейчас"
    case .makeAvailable: "Экземпляр по каталогу утерян или списан: сделать доступным"
    case .addUnknown: "Номера нет в библиотеке: добавить как новую книгу"
    case .scrollReport: "Прокрутка"
    case .closeCheck: "Закрыть проверку (спросит, затем — считать ли недостающие утерянными)"
    case .scanImageIntoCheck: "Сканировать изображение (снимок полки): все коды с него идут в проверку"
    }
  }
}
