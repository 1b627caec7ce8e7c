import DeskTestSupport
import Foundation
import Testing

@testable import DeskCommands

/// `circdesk stats` over days of work done by commands: the diary's rows, its CSV columns and
/// JSON, and what it refuses.
@Suite struct StatsCommandTests {
  let folder = TemporaryFolder()
  var db: [String] { ["--db", folder.file("library.sqlite")] }

  func run(_ arguments: [String], on day: String) -> CommandResult {
    runInProcess(arguments + db, now: "\(day)T10:00:00Z")
  }

  /// Two readers, three books; issues on the 2nd, a return and an issue on the 3rd.
  func threeDays() {
    #expect(
      run(["book", "add", "--inventory", "1", "--title", "Война и мир", "--bbk", "84(2Рос=Рус)1"], on: "2026-11-01")
        .status == 0)
    #expect(
      run(["book", "add", "--inventory", "2", "--title", "Физика", "--bbk", "22.3"], on: "2026-11-01").status == 0)
    #expect(run(["book", "add", "--inventory", "3", "--title", "Без индекса"], on: "2026-11-01").status == 0)
    #expect(
      run(["reader", "add", "--ticket", "17", "--surname", "Иванова", "--birth-year", "2016"], on: "2026-11-01").status
        == 0)
    #expect(run(["reader", "add", "--ticket", "18", "--surname", "Петров"], on: "2026-11-02").status == 0)
    #expect(run(["issue", "17", "1", "2"], on: "2026-11-02").status == 0)
    #expect(run(["issue", "18", "3"], on: "2026-11-02").status == 0)
    #expect(run(["return", "1"], on: "2026-11-03").status == 0)
    #expect(run(["issue", "18", "1"], on: "2026-11-03").status == 0)
  }

  @Test func theDiaryAsCSVADayARowTotalsLast() {
    threeDays()
    let csv = run(["stats", "--from", "2026-11-01", "--to", "2026-11-03", "--csv"], on: "2026-11-03")
    #expect(csv.status == 0, "\(csv.errors)")
    #expect(
      csv.output.components(separatedBy: "\r\n") == [
        "period,registered,reregistered,visits,issues,renewals,returns,holds_placed,holds_filled,overdue",
        "2026-11-01,1,0,0,0,0,0,0,0,0",
        "2026-11-02,1,0,2,3,0,0,0,0,0",
        "2026-11-03,0,0,2,1,0,1,0,0,0",
        "total,2,0,4,4,0,1,0,0,0",
        "",
      ])
  }

  @Test func splitByBranchSaysHowManyBooksHadNoIndex() {
    threeDays()
    let text = run(["stats", "--from", "2026-11-02", "--to", "2026-11-03", "--split", "branch"], on: "2026-11-03")
    #expect(text.status == 0)
    #expect(text.output.contains("Issues by branch of knowledge:"))
    #expect(text.output.contains("1 of the issues was of books without a BBK index (counted under «other»)."))
    let json = run(
      ["stats", "--from", "2026-11-02", "--to", "2026-11-03", "--by", "month", "--split", "category", "--json"],
      on: "2026-11-03")
    let object = try? JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any]
    let total = object?["total"] as? [String: Any]
    let issues = total?["issues"] as? [String: Any]
    // Иванова, born 2016, is a child; Петров's category is the library's default, «Adult».
    #expect(issues?["total"] as? Int == 4)
    // Every age group has its column, counted or not: a month's file lines up with the next one's.
    #expect(issues?["split"] as? [String: Int] == ["children": 2, "youth": 0, "adults": 0, "Adult": 2])
    #expect((object?["rows"] as? [Any])?.count == 1)
  }

  @Test func refusesARangeBackwardsOrAPeriodItDoesNotKnow() {
    threeDays()
    let year = run(["stats", "--year", "2025"], on: "2026-11-03")
    #expect(year.status == 64)
    #expect(year.errors.contains("--year goes with --form 6-nk; a year's diary is --by month --from 2025-01-01"))
    let form = run(["stats", "--form", "6nk"], on: "2026-11-03")
    #expect(form.errors.contains("--form is 6-nk, not «6nk»"), "\(form.errors)")
    let backwards = run(["stats", "--from", "2026-11-03", "--to", "2026-11-01"], on: "2026-11-03")
    #expect(backwards.status == 64)
    #expect(backwards.errors.hasPrefix("error: --from 2026-11-03 is after --to 2026-11-01"))
    let week = run(["stats", "--by", "week"], on: "2026-11-03")
    #expect(week.status == 64)
    #expect(week.errors.hasPrefix("error: --by is day, month, quarter or year, not «week»"))
    #expect(run(["stats", "--json", "--csv"], on: "2026-11-03").status == 64)
  }

  /// Days to come are not in the diary: their overdue would be a forecast.
  @Test func theDiaryEndsToday() {
    threeDays()
    let csv = run(["stats", "--from", "2026-11-02", "--to", "2026-11-30", "--csv"], on: "2026-11-03")
    #expect(
      csv.output.components(separatedBy: "\r\n").map { $0.prefix(10) } == [
        "period,reg", "2026-11-02", "2026-11-03", "total,1,0,", "",
      ])
    let ahead = run(["stats", "--from", "2026-12-01"], on: "2026-11-03")
    #expect(ahead.status == 64)
    #expect(ahead.errors.hasPrefix("error: --from 2026-12-01 is after today, 2026-11-03"))
  }

  /// The branches' mapping: a prefix twice, or none, is refused and the mapping stays; «default»
  /// brings back the standard one.
  @Test func theBranchesAreSetWholeOrNotAtAll() {
    threeDays()
    #expect(run(["policy", "set", "--diary-branches", "84(2Рос=Рус)=fiction;84=other"], on: "2026-11-03").status == 0)
    for wrong in ["", "84=fiction;84=arts", "=fiction", "84=belles"] {
      let refused = run(["policy", "set", "--diary-branches", wrong], on: "2026-11-03")
      #expect(refused.status == 64, "\(wrong)")
    }
    #expect(run(["policy", "show"], on: "2026-11-03").output.contains("84(2Рос=Рус)=fiction;84=other"))
    #expect(run(["policy", "set", "--diary-branches", "default"], on: "2026-11-03").status == 0)
    #expect(run(["policy", "show"], on: "2026-11-03").output.contains("75=arts;85=arts;84=fiction;2=natural"))
  }

  /// Form 6-NK's rows the desk can fill, for the year so far, and what it leaves to the librarian.
  @Test func theAnnualFormsFigures() {
    threeDays()
    let form = run(["stats", "--form", "6-nk"], on: "2026-11-03")
    #expect(form.status == 0, "\(form.errors)")
    let lines = form.output.split(separator: "\n").map(String.init)
    func figure(_ row: String) -> String? {
      lines.first { $0.hasPrefix(row + " ") }?.dropFirst(row.count).split(separator: " ").first.map(String.init)
    }
    #expect(form.output.hasPrefix("Form 6-NK, 2026 (2026-01-01 to 2026-11-03)"))
    // Иванова (born 2016) and Петров, both registered this year; four visits; four issues, two to her.
    #expect(figure("Число зарегистрированных пользователей") == "2")
    #expect(figure("  в том числе детей до 14 лет") == "1")
    #expect(figure("Число посещений") == "4")
    #expect(figure("Выдано документов") == "4")
    #expect(figure("  в том числе детям до 14 лет") == "2")
    #expect(form.output.contains("1 of the users has no birth year"))
    #expect(form.output.contains("Left for the librarian"))
    #expect(run(["stats", "--form", "6-nk", "--year", "2027"], on: "2026-11-03").status == 64)
    #expect(run(["stats", "--form", "6-nk", "--csv"], on: "2026-11-03").status == 64)
  }
}

extension StatsCommandTests {
  /// `--check` finds sums changed behind the desk's back (the sqlite3 program can write the sums'
  /// table, though not the events), lists them, and counts them again.
  @Test func checkFindsSumsThatDifferAndCountsThemAgain() throws {
    threeDays()
    let agreeing = run(["stats", "--check"], on: "2026-11-03")
    #expect(agreeing.status == 0 && agreeing.output == "The work diary's sums agree with the events.\n")
    let changed = try runProgram(
      "/usr/bin/sqlite3",
      [folder.file("library.sqlite"), "UPDATE diary_day SET count = count + 5 WHERE figure = 'returns'"])
    #expect(changed.status == 0, "\(changed.errors)")
    let differing = run(["stats", "--check"], on: "2026-11-03")
    #expect(differing.status == 1)
    #expect(differing.output.contains("1 of the work diary's sums differ from the events"), "\(differing.output)")
    #expect(differing.output.contains("  returns 2026-11-03 desk-1 children fiction: 6, 1"), "\(differing.output)")
    #expect(differing.output.hasSuffix("Counted them again from the events.\n"))
    #expect(run(["stats", "--check"], on: "2026-11-03").status == 0)
  }
}

extension StatsCommandTests {
  /// `--by quarter`: a row a quarter, named as the report names it, clipped to the range.
  @Test func aRowAQuarter() throws {
    threeDays()
    let csv = run(["stats", "--by", "quarter", "--from", "2026-01-01", "--csv"], on: "2026-11-03")
    #expect(csv.status == 0, "\(csv.errors)")
    let rows = csv.output.components(separatedBy: "\r\n").map { $0.split(separator: ",").first.map(String.init) ?? "" }
    #expect(rows == ["period", "2026-Q1", "2026-Q2", "2026-Q3", "2026-Q4", "total", ""])
    #expect(csv.output.contains("2026-Q4,2,0,4,4,0,1,0,0,0"), "\(csv.output)")
  }
}
