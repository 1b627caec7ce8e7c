import DeskBenchmark
import DeskTestSupport
import Foundation
import Testing

/// The benchmark at a small size, so that it cannot rot. Timings are printed, never asserted.
@Suite struct BenchmarkSmokeTests {
  @Test func runsAtASmallSize() throws {
    let folder = TemporaryFolder()
    let bench = URL(fileURLWithPath: circdeskPath).deletingLastPathComponent().appendingPathComponent("circdesk-bench")
      .path
    let result = try runProgram(
      bench,
      ["--books", "2000", "--readers", "200", "--repeats", "3", "--quick", "--db", folder.file("bench.sqlite")])
    #expect(result.status == 0, "\(result.errors)")
    for scenario in [
      "open the file, first book page painted", "page down", "Home, then End (last page)",
      "page down, the key held down (repeating every 33 ms), the file out of the system's memory",
      "decode a QR label in a 640×480 PNG", "decode a QR label in a 1920×1080 PNG",
      "durable return of a copy 1000 readers queue for (put aside for the first)",
      "keystroke → results «толстой», a book's words just changed",
      "keystroke → results, typo «лермантов», a book's words just changed",
    ] {
      #expect(result.output.contains("| \(scenario) |"), "\(scenario)")
    }
    // The typos' baseline, timed in a process of its own, says how many names it compared.
    #expect(result.output.contains("| keystroke → results, typo «пастернкак» |"))
    #expect(result.output.contains("| Levenshtein over all 2000 names |"))
    // Each keystroke beside the machine's own fixed computation, and the runs over the target listed.
    #expect(result.output.contains("| the machine itself: a fixed computation (MachineWitness), timed after each"))
    #expect(result.output.contains("\nRuns over 3.0 ms, each beside the machine's fixed computation"))
    // Export and import beside their yardsticks: the same rows dumped, and inserted plainly.
    #expect(result.output.contains("| sqlite3 CLI writing the same rows to a file |"))
    #expect(result.output.contains("| the same rows inserted by a plain loop, one transaction |"))
    // What is read in photos' likenesses, beside zbarimg, and no code made up where there is none.
    #expect(result.output.contains("| photos' likenesses read right: desk "))
    #expect(result.output.contains("codes on 5 pictures without one: desk 0,"))
    // Not a terminal: progress is one line a step, never redrawn with carriage returns.
    #expect(result.errors.contains("\ngenerated 2000 books and 200 readers"))
    #expect(result.errors.contains("\nmeasuring the lists\n"))
    #expect(!result.errors.contains("\r"))
  }

  @Test func kiosksCheckOutThroughSIP2AtASmallSize() throws {
    let bench = URL(fileURLWithPath: circdeskPath).deletingLastPathComponent().appendingPathComponent("circdesk-bench")
      .path
    let result = try runProgram(bench, ["sip2", "--kiosks", "5", "--checkouts", "100"])
    #expect(result.status == 0, "\(result.errors)")
    #expect(result.output.contains("| a checkout through SIP2, one kiosk alone |"), "\(result.output)")
    #expect(result.output.contains("| a checkout through SIP2, 5 kiosks at once: 100 in "))
  }

  @Test func runsOverTheTargetAreListedBesideTheMachinesComputation() {
    let keystroke = Measurement(
      scenario: "keystroke «то»", samples: [9.0, 1.0, 4.25, 1.1, 3.5], witnessSamples: [1.0, 2.5, 0.9, 1.0, 1.2])
    let table = renderTable([keystroke, Measurement(scenario: "page down", samples: [8.0, 5.0, 6.0])], title: "t")
    // The first run is left out, as from the p99; each slow run with the computation before and after.
    #expect(!table.contains("| keystroke «то» | 1 |"))
    #expect(table.contains("| keystroke «то» | 3 | 4.25 | 2.5 | 0.9 |"))
    #expect(table.contains("| keystroke «то» | 5 | 3.5 | 1.0 | 1.2 |"))
    #expect(!table.contains("| page down | 2 |"), "a measurement without a witness is not listed")
    #expect(table.contains("its median over the whole run: 1.0 ms"))

    let calm = renderTable([Measurement(scenario: "k", samples: [9.0, 1.0], witnessSamples: [1.0, 1.0])], title: "t")
    #expect(calm.hasSuffix("none.\n"))
  }

  @Test func syncRunsAtASmallSizeOnAServerOfItsOwn() throws {
    let folder = TemporaryFolder()
    let bench = URL(fileURLWithPath: circdeskPath).deletingLastPathComponent().appendingPathComponent("circdesk-bench")
      .path
    let result = try runProgram(
      bench,
      [
        "sync", "--changes", "300", "--repeats", "8", "--join", "--background", "--books", "2000", "--readers", "100",
        "--desks", "3", "--pace", "25", "--quick", "--db", folder.file("join.sqlite"),
      ])
    #expect(result.status == 0, "\(result.errors)")
    for scenario in [
      "push 300 changes", "pull and apply 300 changes", "sync round with nothing to do",
      "durable issue or return, changes captured", "first join of an empty desk",
      "page down, background sync on (2000 books", "keystroke in the book search, results painted, background sync on",
      "another desk's change in this desk's file",
      "3 desks syncing at once, a round each 25 ms on average: a sync round (every desk converged;",
    ] {
      #expect(result.output.contains("| \(scenario)"), "\(scenario)")
    }
  }

  @Test func helpPrintsHelpAndAnUnknownArgumentIsRefused() throws {
    let bench = URL(fileURLWithPath: circdeskPath).deletingLastPathComponent().appendingPathComponent("circdesk-bench")
      .path
    let help = try runProgram(bench, ["--help"])
    #expect(help.status == 0)
    #expect(help.output.hasPrefix("OVERVIEW: Measures Circulation Desk"))
    let unknown = try runProgram(bench, ["--book", "10"])
    #expect(unknown.status == 64)
    #expect(unknown.errors == "circdesk-bench: unknown argument «--book»; see circdesk-bench --help\n")
  }
}
