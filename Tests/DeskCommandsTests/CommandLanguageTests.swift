import DeskDomain
import DeskSync
import DeskTestSupport
import DeskWords
import Foundation
import Testing

@testable import DeskStorage

/// The library's refusals and errors in the librarian's language, at the command line as at the
/// desk: one set of words for both.
@Suite struct CommandLanguageTests {
  /// Under a Russian locale the real program says a refusal in Russian; under another, in English.
  @Test func aRefusalIsSaidInTheLanguageOfTheLocale() throws {
    let folder = TemporaryFolder()
    let db = ["--db", folder.file("library.sqlite")]
    for arguments in [
      ["book", "add", "--inventory", "1", "--title", "Азбука"],
      ["reader", "add", "--ticket", "17", "--surname", "Иванова"],
      ["reader", "add", "--ticket", "18", "--surname", "Петров"], ["issue", "17", "1"],
    ] {
      #expect(try runProcess(arguments + db).status == 0)
    }
    let russian = try runProcess(["issue", "18", "1"] + db, environment: ["LANG": "ru_RU.UTF-8"])
    #expect(russian.status == 1)
    #expect(russian.errors.contains("«Азбука» (1) уже выдана: Иванова"), "\(russian.errors)")
    let english = try runProcess(["issue", "18", "1"] + db, environment: ["LANG": "C.UTF-8"])
    #expect(english.errors.contains("«Азбука» (1) is already issued to Иванова"), "\(english.errors)")
    // LC_ALL outranks LANG, as everywhere on the system.
    let overruled = try runProcess(
      ["issue", "18", "1"] + db, environment: ["LANG": "ru_RU.UTF-8", "LC_ALL": "C.UTF-8"])
    #expect(overruled.errors.contains("is already issued"), "\(overruled.errors)")
  }

  /// What `sync`, `conflicts resolve` and `book show` add about holds and sync is said in the
  /// locale's language too.
  @Test func holdMovesAndSyncMarksAreSaidInEachLanguage() {
    let next = HoldTrap(
      hold: 2, inventory: "M1", readerTicket: "19", readerName: "Sidorova A.", pickupBy: LocalDate(iso: "2026-12-07")!)
    for cause in [HoldMove.Cause.notCollected, .endedElsewhere, .settled] {
      for move in [
        HoldMove(inventory: "M1", label: "Master", fromReader: "Petrov I.", next: next, cause: cause),
        HoldMove(inventory: "M1", label: "Master", fromReader: "Petrov I.", next: nil, cause: cause),
      ] {
        #expect(EnglishWords().line(move).hasPrefix("M1 Master: "))
        #expect(RussianWords().line(move).contains { ("а"..."я").contains($0) }, "\(RussianWords().line(move))")
      }
    }
    let mark = SyncMark(unsynced: 2, conflicts: [])
    #expect(EnglishWords().lines(mark) == ["Not yet at the central: 2 changes made here"])
    #expect(RussianWords().lines(mark) == ["Ещё не на сервере: изменений, сделанных здесь, — 2"])
    #expect(EnglishWords().lines(SyncMark(unsynced: 0, conflicts: [])).isEmpty)
  }

  /// An import's report, what was not taken, the notes and the summary, is said in the locale's
  /// language, by the real program reading a file with a bad record, a doubled number and a
  /// price that is no amount; and a Koha offline file's lines too.
  @Test func anImportReportsInTheLanguageOfTheLocale() throws {
    let folder = TemporaryFolder()
    let db = ["--db", folder.file("library.sqlite")]
    let file = folder.file("records.txt")
    try """
    #920: PAZK
    #200: ^AАзбука
    #910: ^A0^B7^EБеспл.
    *****
    #920: PAZK
    #200: ^AБукварь
    #910: ^A0^B7
    *****
    #920: PAZK
    200: ^AБез метки
    *****

    """.write(toFile: file, atomically: true, encoding: .utf8)
    let russian = try runProcess(["import", "irbis", file] + db, environment: ["LANG": "ru_RU.UTF-8"])
    #expect(russian.status == 0, "\(russian.errors)")
    #expect(
      russian.output == """
        пропущено: запись 2 (строка 5): экземпляр 7: тот же номер есть в записи 1 этого файла
        пропущено: запись 3, строка 10: строка не начинается с # и метки поля
        примечание: запись 1 (строка 1): экземпляр 7: цена «Беспл.» — не сумма; принят без неё
        Принято из 3 записей: книг добавлено 1, обновлено 0; читателей добавлено 0, обновлено 0; выдач 0; пропущено 2

        """)
    let english = try runProcess(["import", "irbis", file, "--dry-run", "--update"] + db)
    #expect(english.output.hasPrefix("skipped: record 3, line 10: the line does not start with # and a tag\n"))
    #expect(english.output.contains("note: record 1 (line 1): copy 7: price «Беспл.» is not an amount"))
    let koc = folder.file("desk.koc")
    try "Version=1.0\tGenerator=kocdesk\n2026-11-30 10:00:00 000\treturn\t7\n2026-11-30 10:01:00 000\tpayment\t1\t5\n"
      .write(toFile: koc, atomically: true, encoding: .utf8)
    let replayed = try runProcess(["import", "koc", koc] + db, environment: ["LANG": "ru_RU.UTF-8"])
    #expect(
      replayed.output == """
        \(koc):2: пропущено: 7 не выдан
        \(koc):3: оплата (штраф), которую эта кафедра не ведёт; не принята
        Проведено операций: 0 из 1; строк не принято: 1

        """)
  }

  /// Why a desk could not join or sync is said in the locale's language, with the central's own
  /// words (libpq's) among it; `sync --status` keeps reporting in English.
  @Test func aSyncFailureIsSaidInTheLanguageOfTheLocale() throws {
    let folder = TemporaryFolder()
    let db = ["--db", folder.file("library.sqlite")]
    #expect(try runProcess(["book", "add", "--inventory", "1", "--title", "Азбука"] + db).status == 0)
    let notJoined = try runProcess(["sync"] + db, environment: ["LANG": "ru_RU.UTF-8"])
    #expect(notJoined.status == 1)
    #expect(
      notJoined.errors
        == "Библиотека не подключена к центральному серверу: выполните circdesk central join --url АДРЕС --desk ИМЯ\n")
    // Nothing listens on port 1 of the loopback: the connection is refused at once.
    let url = "host=127.0.0.1 port=1 dbname=central connect_timeout=2"
    let unreachable = try runProcess(
      ["central", "join", "--url", url, "--desk", "Абонемент"] + db, environment: ["LANG": "ru_RU.UTF-8"])
    #expect(unreachable.status == 1)
    #expect(unreachable.errors.hasPrefix("Нет связи с центральным сервером: "), "\(unreachable.errors)")
    #expect(unreachable.errors.contains("(проверьте адрес, сервер и пароль)"))
    let english = try runProcess(["central", "join", "--url", url, "--desk", "Абонемент"] + db)
    #expect(english.errors.hasPrefix("Cannot reach the central: "), "\(english.errors)")
    for error in [
      SyncError.notJoined, .otherLibrary(desk: "a", central: "b"), .centralNotReady(found: 0, needed: 9),
      .centralNotReady(found: 3, needed: 9), .centralNotReady(found: 12, needed: 9), .deskNameTaken("Абонемент"),
      .central(.cannotConnect("refused")), .central(.query("permission denied for table change")),
      .central(.query("syntax")), .central(.newerSchema(found: 12, supported: 9)),
      .central(.notACentral(tables: ["t"])), .central(.noURL), .central(.connectionLost("reset")),
      .central(.clientLibraryMissing("libpq.so.5")),
    ] {
      let russian = RussianWords().message(error)
      #expect(russian.contains { ("а"..."я").contains($0) } && russian != EnglishWords().message(error), "\(russian)")
    }
  }

  /// An export says what it wrote, and a file that cannot be read says why, in the locale's language.
  @Test func anExportAndAFileErrorAreSaidInTheLanguageOfTheLocale() throws {
    let folder = TemporaryFolder()
    let db = ["--db", folder.file("library.sqlite")]
    #expect(try runProcess(["book", "add", "--inventory", "1", "--title", "Азбука"] + db).status == 0)
    let file = folder.file("koha.mrc")
    let russian = try runProcess(
      ["export", "iso2709", "books", "--all", "--format", "marc21", "-o", file] + db,
      environment: ["LANG": "ru_RU.UTF-8"])
    #expect(
      russian.output == """
        Записано записей: 1, в \(file)
        У экземпляров не указан филиал (952 $a, $b): задайте --branch КОД, иначе Koha их не примет

        """)
    let missing = folder.file("nowhere.txt")
    let unread = try runProcess(["import", "irbis", missing] + db, environment: ["LANG": "ru_RU.UTF-8"])
    #expect(unread.status == 1)
    #expect(unread.errors.hasPrefix("Не удаётся прочитать \(missing): "), "\(unread.errors)")
    let english = try runProcess(["import", "irbis", missing] + db)
    #expect(english.errors.hasPrefix("Cannot read \(missing): "), "\(english.errors)")
  }
}
