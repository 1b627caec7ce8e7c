import DeskDomain
import DeskStorage

extension RussianStrings {
  public var labelLastChecked: String { "Проверен" }
  public var sectionStocktake: String { "Проверка фонда: сверка полок" }
  public func stocktakeTitle(_ name: String) -> String { "Проверка фонда: \(name)" }

  public var noOpenCheck: String { "Открытой проверки фонда нет." }
  public var startCheckAdvice: String {
    "n открывает её здесь: по всему фонду или по названным местам хранения. `circdesk stocktake start` "
      + "открывает и по шифрам полок и статусам."
  }
  public var keyStartCheck: String { "Новая проверка" }
  public var startCheckTitle: String { "Новая проверка фонда" }
  public var checkNameQuestion: String { "Название проверки (пусто — по сегодняшней дате):" }
  public var checkPlacesQuestion: String {
    "Места хранения, которые она охватывает, по началу названия, через ; (пусто — все места):"
  }
  public var checkCoversNothing: String {
    "В этих местах нет ни одного экземпляра: проверка не открыта. Назовите места так, как в записях книг."
  }
  public func checkStarted(_ number: Int, _ name: String, expected: Int) -> String {
    "Проверка \(number) «\(name)» открыта: ожидается \(plural(expected, "экземпляр", "экземпляра", "экземпляров"))"
  }

  public func checkLine(_ number: Int, _ name: String, opened: String, expected: Int) -> String {
    "Проверка \(number) «\(name)», открыта \(opened): ожидается \(plural(expected, "экземпляр", "экземпляра", "экземпляров"))"
  }
  public func otherChecksOpen(_ count: Int) -> String {
    "открыто ещё проверок: \(count); сканы идут в эту"
  }
  public func placeLine(_ place: String) -> String { "Место: \(place)   (F2 — сменить, или сканируйте этикетку полки)" }
  public var placeNotSaid: String { "Место не указано — F2, или сканируйте этикетку полки (PLACE:…)" }
  public func stocktakeCounts(found: Int, expected: Int, away: Int, counts: [String: Int]) -> String {
    let toFind = max(0, expected - away)
    let share = toFind > 0 ? " (\(min(100, found * 100 / toFind)) %)" : ""
    let surprises: [(String, String)] = [
      ("misplaced", "не на месте"), ("on-loan", "числятся выданными"), ("not-in-stock", "числятся утерянными"),
      ("outside-check", "других отделов"), ("unknown", "неизвестных"), ("scanned-again", "повторных"),
    ]
    let said = surprises.compactMap { kind, name in counts[kind].flatMap { $0 > 0 ? "\(name) \($0)" : nil } }
    let outside = away > 0 ? ["выдано, на полке броней, в обработке: \(away)"] : []
    return (["Найдено \(found) из \(toFind)\(share)"] + outside + said).joined(separator: " · ")
  }
  public var stocktakePrompt: String { "Сканируйте каждый экземпляр на полке или наберите его номер и Enter." }
  public var lastScans: String { "Последние сканы" }
  public var noScansYet: String { "Ещё ничего не сканировано." }
  public func findingText(_ finding: StocktakeFinding) -> String {
    switch finding {
    case .found: return "на месте"
    case .misplaced(let recorded, let actual):
      return "не на месте: по записи — \(recorded.isEmpty ? "место не указано" : recorded), найден — \(actual)"
    case .onLoan(let reader, let ticket, let since):
      return "по каталогу выдан: \(reader) (билет \(ticket)) с \(since.iso)"
    case .notInStock(let status): return "по каталогу \(statusName(status))"
    case .unknown: return "экземпляра с таким номером в библиотеке нет"
    case .outsideCheck: return "экземпляр другого отдела: в эту проверку не входит"
    case .scannedAgain: return "уже сканирован: учтён один раз"
    case .isbn: return isbnNotCopy
    }
  }
  public func settledText(_ finding: StocktakeFinding) -> String {
    switch finding {
    case .misplaced(_, let actual): "не на месте: запись с тех пор перенесена, место — \(actual)"
    case .onLoan: "числился выданным: с тех пор возвращён"
    case .notInStock: "числился утерянным или списанным: с тех пор доступен"
    case .unknown: "номера не было в библиотеке: с тех пор добавлен как новая книга"
    default: findingText(finding)
    }
  }
  public func findingAdvice(_ finding: StocktakeFinding) -> String? {
    switch finding {
    case .misplaced: "↓ m — перенести запись сюда"
    case .onLoan: "↓ r — вернуть сейчас; или это другой экземпляр"
    case .notInStock: "↓ a — сделать доступным"
    case .unknown: "↓ n — добавить как новую книгу"
    default: nil
    }
  }
  public var isbnNotCopy: String {
    "это ISBN, а не номер экземпляра (не учтён): сканируйте инвентарную этикетку экземпляра"
  }

  public var keyPlace: String { "Место" }
  public var keyReport: String { "Отчёт" }
  public var keyImage: String { "Снимок" }
  public var keyChooseScan: String { "Выбрать скан" }
  public var keyUpdatePlace: String { "Перенести запись сюда" }
  public var keyReturnNow: String { "Вернуть сейчас" }
  public var keyMakeAvailable: String { "Сделать доступным" }
  public var keyNewRecord: String { "Новая книга" }
  public var placeTitle: String { "Проверяемое место" }
  public var placeQuestion: String {
    "Где стоят экземпляры, которые будут сканированы дальше, как это место названо в записях (пусто — не указано):"
  }
  public func placeSet(_ place: String) -> String { "Проверяется: \(place)" }
  public func placeNotRecorded(_ place: String) -> String {
    "Места «\(place)» нет ни в одной записи: экземпляры отсюда будут «не на месте». F2 — исправить."
  }
  public func copyNotPlace(_ inventory: String, place: String) -> String {
    "\(inventory) — номер экземпляра, а не место: учтён как экземпляр; место прежнее: "
      + (place.isEmpty ? "не указано" : place)
  }
  public var placeCleared: String { "Место не указано: место экземпляров не сверяется" }
  public func recordPlaceUpdated(_ inventory: String, _ place: String) -> String {
    "\(inventory): место в записи теперь \(place)"
  }
  public func madeAvailable(_ inventory: String) -> String { "\(inventory): снова доступен" }
  public func addedAsNewBook(_ inventory: String) -> String { "\(inventory): добавлен как новая книга" }
  public var stocktakeRefusedTitle: String { "Не сделано" }

  public var keyCloseCheck: String { "Закрыть проверку" }
  public var closeCheckTitle: String { "Закрыть проверку" }
  public func closeCheckQuestion(_ name: String, missing: Int) -> String {
    "Закрыть «\(name)»? Сканы в неё больше не идут; каждому найденному экземпляру — сегодняшняя дата "
      + "проверки." + (missing > 0 ? " Недостаёт: \(plural(missing, "экземпляр", "экземпляра", "экземпляров"))." : "")
  }
  public func markMissingLostQuestion(_ missing: Int) -> String {
    "Считать \(plural(missing, "недостающий экземпляр", "недостающих экземпляра", "недостающих экземпляров")) "
      + "утерянными? Да — только когда комиссия подписала акт; нет — оставить как есть."
  }
  public func missingNotMarkedOffline(_ missing: Int) -> String {
    "Недостающие (\(missing)) не записаны утерянными: нет связи с центральным сервером, и сканы других пунктов "
      + "могут ещё не дойти. Смените их статус в записях книг, когда пункты синхронизируются."
  }
  public func checkClosed(_ number: Int, _ name: String, missing: Int, markedLost: Bool) -> String {
    "Проверка \(number) «\(name)» закрыта"
      + (missing == 0 ? "" : markedLost ? "; недостающие (\(missing)) записаны утерянными" : "; недостаёт: \(missing)")
  }

  public func reportTitle(_ name: String) -> String { "Отчёт: \(name)" }
  public func reportTotals(expected: Int, present: Int, missing: Int) -> String {
    "Ожидалось \(expected), в наличии \(present), недостаёт \(missing)"
  }
  public var reportByPlace: String { "По местам хранения" }
  public var reportBySection: String { "По разделам шифров" }
  public var reportColumns: [String] { ["Ожидалось", "Недостаёт"] }
  public var reportMissing: String {
    "Недостаёт (ожидались, не сканированы, не выданы, не на полке броней и не в обработке)"
  }
  public func reportSurprises(_ count: Int) -> String {
    "Неожиданности, каждый экземпляр или номер один раз (\(count))"
  }
  public var reportNoneMissing: String { "Недостающих нет." }
  public var reportCommandAdvice: String {
    "`circdesk stocktake report --csv` даёт недостающие в CSV; `circdesk stocktake act` — акт для подписи."
  }
}
