import DeskDomain
import DeskExchange
import DeskStorage

/// What an import says, in Russian.
extension RussianWords {
  public var skipped: String { "пропущено: " }
  public var note: String { "примечание: " }

  public func place(_ place: ImportPlace) -> String {
    switch place {
    case .line(let record, let line): "запись \(record) (строка \(line))"
    case .byte(let record, let byte): "запись \(record) (байт \(byte))"
    }
  }

  /// Экземпляр по номеру; без номера — тот, которому номер даст `--assign-inventory`.
  func copyName(_ number: String) -> String {
    number.isEmpty ? "экземпляр без номера" : "экземпляр \(number)"
  }

  public func line(_ problem: ImportProblem) -> String {
    switch problem {
    case .unreadableRecord(let problem):
      return "запись \(problem.record), строка \(problem.line): \(reason(problem.flaw))"
    case .unendingLine(let line, let flaw): return "строка \(line): \(reason(flaw))"
    case .unreadableMARC(let record, let byte, let flaw): return "запись \(record) (байт \(byte)): \(reason(flaw))"
    case .refused(let at, let refusal): return "\(place(at)): \(reason(refusal))"
    case .copyWithoutNumber(let at, let written):
      let shown = written.isEmpty ? "" : " («\(written)»)"
      return "\(place(at)): экземпляр без инвентарного номера\(shown)"
    case .numberTwice(let at, let copy, let earlier):
      return "\(place(at)): экземпляр \(copy): тот же номер есть в записи \(earlier) этого файла"
    case .bookThere(let at, let inventory):
      return "\(place(at)): книга \(inventory) уже есть в библиотеке (пропущена; --update заменяет)"
    case .readerThere(let at, let ticket):
      return "\(place(at)): читатель \(ticket) уже есть в библиотеке (пропущен; --update заменяет)"
    case .copyRefused(let at, let copy, let error):
      return
        "\(place(at)): \(copy.isEmpty ? "новый экземпляр" : "экземпляр \(copy)"): \(messages(error).joined(separator: "; "))"
    case .readerRefused(let at, let ticket, let error):
      return "\(place(at)): читатель \(ticket): \(messages(error).joined(separator: "; "))"
    case .loanRefused(let at, let inventory, let ticket, let error):
      return "\(place(at)): выдача \(inventory) читателю \(ticket): \(messages(error).joined(separator: "; "))"
    case .pendingLoanRefused(let inventory, let ticket, let error):
      return "выдача \(inventory) читателю \(ticket), ждавшая книгу: \(messages(error).joined(separator: "; "))"
    }
  }

  public func line(_ note: ImportNote) -> String {
    switch note {
    case .numberAssigned(let at, let number):
      return "\(place(at)): экземпляр получил номер \(number) (--assign-inventory)"
    case .summaryEntry(let at, let number, let copies):
      let count = copies.isEmpty ? "" : " на \(copies) экз."
      return "\(place(at)): сводная запись «\(number)»\(count) (910 ^A U): сохранена с записью, "
        + "это не экземпляр для выдачи"
    case .unknownCopyStatus(let at, let copy, let code):
      return "\(place(at)): \(copyName(copy)): статус «\(code)» не из статусов ИРБИС; принят как «на полке»"
    case .numberReplaced(let at, let copy, let earlier):
      return "\(place(at)): экземпляр \(copy): тот же номер есть в записи \(earlier) этого файла; этот его заменяет"
    case .isbnDropped(let at, let copy, let isbn):
      return "\(place(at)): \(copyName(copy)): ISBN «\(isbn)» неверен; принят без него"
    case .priceDropped(let at, let copy, let price):
      return "\(place(at)): \(copyName(copy)): цена «\(price)» — не сумма; принят без неё"
    case .unknownCategory(let at, let category, let given):
      return "\(place(at)): категории «\(category)» здесь нет; читателю дана «\(given)» "
        + "(назначьте её категории: circdesk policy category КОД --written-as \"\(category)\")"
    case .addressNotTaken(let at, let ticket, let reason):
      let what: String
      if case .addressConflict = reason { what = "адрес и телефон не приняты" } else { what = "адрес не принят" }
      return "\(place(at)): читатель \(ticket): \(what) (\(message(reason))); "
        + "запись читателя хранит их для экспорта"
    case .copiesMarkedOut(let count):
      return "\(plural(count, "экземпляр отмечен", "экземпляра отмечены", "экземпляров отмечены")) выданными "
        + "(910 ^A 1) без выдачи в этом файле: они на полке, пока записи читателей (RDR, поле 40) не принесут выдачи"
    case .loansWaitingForBooks(let count):
      return "\(plural(count, "выдача", "выдачи", "выдач")) книг, которых нет в библиотеке: "
        + "\(count == 1 ? "хранится" : "хранятся") с читателями и станут выдачами, когда книги будут импортированы или добавлены"
    }
  }

  public func summary(_ report: ImportReport, dryRun: Bool) -> String {
    "\(dryRun ? "Было бы принято" : "Принято") из \(plural(report.records, "записи", "записей", "записей")): "
      + "книг добавлено \(report.booksAdded), обновлено \(report.booksUpdated); "
      + "читателей добавлено \(report.readersAdded), обновлено \(report.readersUpdated); "
      + "выдач \(report.loansAdded); пропущено \(report.problems.count)"
      + (dryRun ? " (пробный прогон: ничего не изменено)" : "")
  }

  public func line(_ problem: KOC.Problem) -> String {
    let what =
      switch problem.kind {
      case .unreadable(let flaw): reason(flaw)
      case .otherVersion(let version):
        "в заголовке «\(version)», а не Version=1.0: это не файл автономной выдачи Koha, который читает эта "
          + "кафедра; из него ничего не принято"
      case .notATransaction: "не строка операции"
      case .noBarcode(let kind): "\(kind == "issue" ? "выдача" : "возврат") без штрихкода книги"
      case .payment: "оплата (штраф), которую эта кафедра не ведёт; не принята"
      case .unknownTransaction(let name): "неизвестная операция «\(name)»"
      }
    return "\(problem.path):\(problem.line): \(what)"
  }

  public func line(_ outcome: KOC.Outcome, source: String) -> String {
    let what =
      switch outcome {
      case .unknownItem(let inventory): "неизвестный экземпляр \(inventory)"
      case .unknownReader(let ticket): "неизвестный читатель \(ticket)"
      case .newerLoan(let inventory): "пропущено: у \(inventory) есть более поздняя выдача"
      case .notOnLoan(let inventory): "пропущено: \(inventory) не выдан"
      case .renewed(let inventory, let ticket): "принято: \(inventory) продлён читателю \(ticket)"
      case .moved(let inventory, let from, let to): "принято: \(inventory) возвращён от \(from), выдан \(to)"
      case .issued(let inventory, let ticket): "принято: \(inventory) выдан \(ticket)"
      case .returned(let inventory): "принято: \(inventory) возвращён"
      case .replayedBefore: "пропущено: уже проведено здесь раньше"
      }
    return "\(source): \(what)"
  }

  public func kocSummary(applied: Int, of transactions: Int, notTaken: Int) -> String {
    "Проведено операций: \(applied) из \(transactions); строк не принято: \(notTaken)"
  }

  private func reason(_ flaw: IRBISReader.Flaw) -> String {
    switch flaw {
    case .empty: "пустая запись"
    case .endsInside: "файл кончается внутри записи (нет строки *****)"
    case .blankLine: "пустая строка внутри записи"
    case .noTag: "строка не начинается с # и метки поля"
    case .noColon: "нет : после метки"
    case .notATag(let text): "«\(text)» — не метка поля (цифры)"
    case .noSpace(let tag): "нет пробела после #\(tag):"
    case .line(let flaw): reason(flaw)
    }
  }

  private func reason(_ flaw: LineFlaw) -> String {
    switch flaw {
    case .invalidBytes: return "байты, недопустимые в кодировке файла"
    case .nul: return "байт NUL в значении"
    case .tooLong(let length, let limit): return "строка в \(length) байт, длиннее предела \(limit)"
    case .unending(let bytes):
      let size = bytes >= 1_048_576 ? "\(bytes / 1_048_576) МиБ" : "\(bytes) байт"
      return "нет перевода строки на протяжении \(size): это не текстовый файл; остальное не прочитано"
    }
  }

  private func reason(_ flaw: ISO2709Flaw) -> String {
    switch flaw {
    case .noRecordLength: "в маркере нет длины записи"
    case .lengthMismatch(let said, let found):
      "по маркеру запись занимает \(plural(said, "байт", "байта", "байт")), а до знака конца записи — "
        + "\(plural(found, "байт", "байта", "байт")): запись не прочитана, следующие за ней прочитаны"
    case .invalidUTF8(let byte, let value):
      "по маркеру запись в UTF-8, но байт \(byte) файла (0x\(String(value, radix: 16, uppercase: true))) — не "
        + "UTF-8: запись не прочитана; если файл в другой кодировке, укажите её (--encoding cp1251)"
    case .endsInside: "файл кончается внутри записи"
    case .damagedDirectory: "повреждён справочник записи"
    case .nul(let tag): "в поле \(tag) байт NUL"
    case .notMARC8(let tag):
      "поле \(tag) — текст MARC-8 в наборе знаков, который этот импорт не читает (греческий, иврит, арабский, "
        + "CJK…): сначала переведите файл в UTF-8 (yaz-marcdump -f MARC-8 -t UTF-8 -o marc -l 9=97) "
        + "или укажите его кодировку в --encoding, если это не MARC-8"
    }
  }

  /// Where a record of `format` keeps its copies' numbers.
  private func numberFields(_ format: RecordFormat) -> String {
    switch format {
    case .irbis: "910 ^B"
    case .unimarc: "910 $b или 899 $p"
    case .marc21: "952 $p, 876 $p или 852 $p"
    }
  }

  private func reason(_ refusal: ImportRefusal) -> String {
    switch refusal {
    case .notABook(let worksheet): "не книга (рабочий лист \(worksheet))"
    case .noInventoryNumber(let format):
      "нет экземпляра с инвентарным номером (\(numberFields(format))): --assign-inventory НАЧАЛО даст ему номер"
    case .notAReader: "не запись читателя"
    case .noTicket: "нет номера читательского билета (поле 30)"
    }
  }

  public func message(_ error: FileError) -> String {
    switch error {
    case .cannotOpen(let path, let reason): return "Не удаётся прочитать \(path): \(reason)"
    case .cannotWrite(let path, let reason): return "Не удаётся записать \(path): \(reason)"
    case .mixedEncoding(let path, let line, let byte):
      let hex = String(byte, radix: 16, uppercase: true)
      return "\(path) в UTF-8, кроме строки \(line): её байт 0x\(hex.count < 2 ? "0" + hex : hex) — не UTF-8; ничего "
        + "не принято. Исправьте строку или укажите --encoding utf8 (запись с этой строкой тогда будет "
        + "отклонена) или --encoding cp1251"
    }
  }

  public func line(_ problem: ISO2709Record.Problem, books: [String]) -> String {
    let why =
      switch problem {
      case .tooLong(let bytes): "запись занимает \(plural(bytes, "байт", "байта", "байт")), больше 99999 по ISO 2709"
      case .fieldTooLong(let tag, let bytes):
        "поле \(tag) занимает \(plural(bytes, "байт", "байта", "байт")), больше 9999 по ISO 2709"
      }
    return "книга \(books.joined(separator: ", ")): \(why)"
  }

  public func written(_ count: Int, transactions: Bool, to destination: String) -> String {
    transactions ? "Записано операций: \(count), в \(destination)" : "Записано записей: \(count), в \(destination)"
  }

  public func fieldsLeftOut(_ count: Int) -> String {
    "Полей с меткой больше 999 (в ISO 2709 они не помещаются) не записано: \(count)"
  }

  public func trialOnEmptyLibrary(path: String) -> String {
    "Библиотеки \(path) ещё нет: импорт пробуется на пустой, и новая не создаётся"
  }

  public var itemsWithoutBranch: String {
    "У экземпляров не указан филиал (952 $a, $b): задайте --branch КОД, иначе Koha их не примет"
  }

  public func replacedCharacters(_ count: Int) -> String {
    "Знаков, которых нет в Windows-1251 (записаны простыми буквами или «?»): \(count); --encoding utf8 их сохраняет"
  }
}
