import DeskDomain
import DeskStorage
import DeskSync
import DeskWords

extension RussianStrings {
  public func syncedSecondsAgo(_ seconds: Int) -> String {
    seconds < 5 ? "синхронизировано только что" : "синхронизировано \(seconds) с назад"
  }
  public func syncedMinutesAgo(_ minutes: Int) -> String { "синхронизировано \(minutes) мин назад" }
  public func syncedAt(_ when: String) -> String { "синхронизировано в \(when)" }
  public var notSyncedYet: String { "ещё не синхронизировано" }
  public var syncing: String { "синхронизация…" }
  public func offlineSince(_ when: String) -> String { "нет связи с \(when)" }
  /// The words of the server or of libpq are English: a Russian sentence says what happened and
  /// what to do; `circdesk sync` on the command line gives the server's own words.
  /// The status line's word for a failed sync: the central's own words are left to `circdesk sync`.
  public func syncFailure(_ error: SyncError) -> String {
    switch error {
    case .central(.cannotConnect):
      return "Нет связи с центральным сервером: проверьте адрес, сервер и пароль (подробности — circdesk sync)"
    case .central(.query(let reason)) where reason.contains("permission denied"):
      return "Центральный сервер отказал: у этой роли нет прав на это действие (настраивает сервер роль — "
        + "владелец его базы)"
    case .central(.query):
      return "Центральный сервер отказал (подробности — circdesk sync)"
    case .central(.notACentral):
      return "В базе центрального сервера есть чужие таблицы: отведите серверу отдельную базу"
    case .central(.connectionLost):
      return "Связь с центральным сервером прервалась; ничего не потеряно — синхронизация повторится"
    case .central(.clientLibraryMissing):
      return "Не установлена клиентская библиотека PostgreSQL: apt-get install libpq5 (кафедра пока работает "
        + "сама по себе)"
    case .store(let error):
      return messages(error).joined(separator: " ")
    default:
      return words.message(error)
    }
  }
  public var syncRefused: String { "синхронизация отклонена (см. Главную)" }
  public func clockOff(_ offset: ClockOffset) -> String {
    "часы \(offset.deskIsAhead ? "спешат" : "отстают") на \(russianSpan(offset.span))!"
  }
  public func clockOffAdvice(_ offset: ClockOffset) -> String {
    "Часы этого компьютера \(offset.deskIsAhead ? "спешат" : "отстают") на \(russianSpan(offset.span)) "
      + "против центрального сервера: изменения датируются по его времени. Поставьте часы компьютера верно."
  }
  public func clockOffWarning(_ offset: ClockOffset) -> String {
    "Часы \(offset.deskIsAhead ? "спешат" : "отстают") на \(russianSpan(offset.span)): поставьте их верно"
  }
  private func russianSpan(_ span: ClockSpan) -> String {
    switch span.unit {
    case .second: return russianPlural(span.count, "секунду", "секунды", "секунд")
    case .minute: return russianPlural(span.count, "минуту", "минуты", "минут")
    case .hour: return russianPlural(span.count, "час", "часа", "часов")
    case .day: return russianPlural(span.count, "день", "дня", "дней")
    case .year: return russianPlural(span.count, "год", "года", "лет")
    }
  }
  public func changesWaiting(_ count: Int) -> String {
    "ждут отправки: " + plural(count, "изменение", "изменения", "изменений")
  }
  public func conflictsBadge(_ count: Int, key: String) -> String {
    plural(count, "конфликт", "конфликта", "конфликтов") + ": \(key)"
  }

  public var sectionConflicts: String { "Конфликты между пунктами" }
  public func homeCentral(_ central: String, desk: String) -> String {
    "Пункт «\(desk)» центрального сервера \(central)"
  }
  public func homeLastSync(_ state: String) -> String { "Синхронизация: \(state)" }

  public var unsyncedLegend: String { "↑ изменено здесь, ещё не на сервере" }
  public func unsyncedChanges(_ count: Int) -> String {
    "↑ Ещё не на сервере: " + plural(count, "изменение", "изменения", "изменений") + ", сделанных здесь"
  }
  public func recordConflict(_ number: Int, _ kind: String, _ summary: String) -> String {
    "! Конфликт \(number) (\(kind)): \(summary)"
  }

  public var conflictsTitle: String { "Конфликты" }
  public var keyConflicts: String { "Конфликты" }
  public var noConflicts: String { "Открытых конфликтов нет: пункты согласны." }
  public func conflictTitle(_ number: Int, _ kind: String) -> String { "Конфликт \(number): \(kind)" }

  public func conflictRaised(_ when: String) -> String { "Обнаружен \(when)" }
  public func conflictSettledAlready(_ when: String, _ resolution: String) -> String {
    "Решён \(when): \(resolution)"
  }
  public var conflictWhatSettles: String { "Как решить:" }
  public func sideHeading(_ index: Int) -> String { "Сторона \(index)" }
  public func actionHolder(_ side: Int, ticket: String) -> String {
    "книга у читателя стороны \(side) (билет \(ticket)); другая выдача закрывается как возврат сейчас"
  }
  public var actionKeepBoth: String { "оставить обе выдачи открытыми до проверки полки" }
  public var actionRenumber: String { "дать записи этого пункта другой номер" }
  public func actionDuplicate(isBook: Bool) -> String {
    isBook
      ? "это одна книга: запись этого пункта удаляется, её выдачи переходят к другой"
      : "это один читатель: запись этого пункта удаляется, его выдачи переходят к другой"
  }
  public var actionRestore: String { "восстановить запись вместе с изменением" }
  public var actionKeepDeleted: String { "оставить удалённой" }
  public var actionResend: String { "запись исправлена здесь: отправить её на сервер снова, как она есть" }
  public var actionKeepRenewals: String { "продления остаются: книга у читателя до более поздней даты" }
  public func actionTakeBackRenewals(limit: Int, due: String) -> String {
    "вернуть число продлений к \(limit): книга должна вернуться до \(due)"
  }
  public func confirmTakeBackRenewals(limit: Int, due: String) -> String {
    "Вернуть число продлений к \(limit)? Книга тогда должна вернуться до \(due); скажите читателю."
  }
  public var actionAcknowledge: String { "книга уже возвращена: продление ничего не меняет; закрыть конфликт" }
  public func actionDrop(byCentral: Bool) -> String {
    byCentral
      ? "отказаться от изменения: другие пункты его не получат"
      : "оставить изменение в стороне: здесь оно не применяется"
  }
  public var actionGoOn: String { "продолжить со сканом; конфликт останется открытым" }
  public func renumberPrompt(isBook: Bool) -> String {
    isBook ? "Новый инвентарный номер книги этого пункта:" : "Новый билет читателя этого пункта:"
  }
  public func confirmHolder(_ side: String) -> String {
    "Решить так: книга у стороны \(side), другая выдача закрывается как возврат сейчас?"
  }
  public func actionCopy(_ inventory: String) -> String {
    "читатель получит \(inventory); другой — следующему в очереди"
  }
  public func confirmCopy(_ inventory: String) -> String {
    "Решить так: читатель получит \(inventory), другой экземпляр — следующему в очереди или на полку?"
  }
  public func holdFreedBySettlement(_ move: HoldMove) -> String {
    "\(move.inventory) \(move.label), больше не для \(move.fromReader): "
      + (move.next.map { "оставьте на полке броней для \($0.readerName) (билет \($0.readerTicket))" }
        ?? "обратно на полку")
  }
  public func confirmDuplicate(isBook: Bool) -> String {
    (isBook ? "Удалить книгу этого пункта" : "Удалить читателя этого пункта")
      + " как дубликат записи другого пункта и перенести выдачи туда?"
  }
  public var confirmKeepDeleted: String { "Оставить запись удалённой? Изменение, сделанное после удаления, пропадёт." }
  public func conflictSettled(_ number: Int, _ settlement: ConflictStore.Settlement, _ resolution: String) -> String {
    let how: String
    switch settlement {
    case .holder(let ticket): how = "книга у читателя с билетом \(ticket), другие выдачи закрыты"
    case .renumber(let number): how = "запись этого пункта получила номер \(number.trimmingWhitespace())"
    case .duplicate: how = "запись этого пункта удалена как дубликат, её выдачи перенесены"
    case .restore: how = "запись восстановлена вместе с изменением"
    case .keepDeleted: how = "запись оставлена удалённой"
    case .copy(let inventory): how = "читатель получит экземпляр \(inventory.trimmingWhitespace())"
    case .resend: how = "запись снова отправлена на сервер, как она есть"
    case .drop: how = "от изменения отказались"
    case .keepRenewals: how = "продления остаются"
    case .takeBackRenewal: how = "лишние продления сняты"
    case .acknowledge: how = "книга уже возвращена, продление ничего не меняет"
    }
    return "Конфликт \(number) решён: \(how)"
  }
  public func keptBothOpen(_ number: Int) -> String {
    "Обе выдачи остаются открытыми; проверьте полку и решите конфликт \(number)"
  }
  public var conflictScanned: String { "У этой записи открытый конфликт между пунктами: сначала посмотрите его" }
}
