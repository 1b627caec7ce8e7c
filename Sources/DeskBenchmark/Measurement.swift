import DeskDomain
import DeskStorage

#if canImport(Glibc)
  import Glibc
#endif

/// Timings of repeated runs of one scenario, in milliseconds.
public struct Measurement {
  public var scenario: String
  public var samples: [Double]
  public var baselineName: String
  public var baselineSamples: [Double]
  /// The machine's own fixed computation timed just after each run (`MachineWitness`), or none.
  public var witnessSamples: [Double]

  public init(
    scenario: String, samples: [Double], baselineName: String = "", baselineSamples: [Double] = [],
    witnessSamples: [Double] = []
  ) {
    self.scenario = scenario
    self.samples = samples
    self.baselineName = baselineName
    self.baselineSamples = baselineSamples
    self.witnessSamples = witnessSamples
  }

  public static func percentile(_ values: [Double], _ p: Double) -> Double {
    guard !values.isEmpty else { return .nan }
    let sorted = values.sorted()
    let rank = min(sorted.count - 1, max(0, Int((p * Double(sorted.count - 1)).rounded())))
    return sorted[rank]
  }

  /// The first run, shown apart: it reads from the disk what the later runs find in memory, and
  /// the p99 of fifty runs would be that one run.
  public var firstRun: Double { samples.first ?? .nan }
  public var median: Double { Measurement.percentile(Measurement.afterTheFirst(samples), 0.5) }
  public var p99: Double { Measurement.percentile(Measurement.afterTheFirst(samples), 0.99) }
  public var baselineMedian: Double { Measurement.percentile(Measurement.afterTheFirst(baselineSamples), 0.5) }
  public var baselineP99: Double { Measurement.percentile(Measurement.afterTheFirst(baselineSamples), 0.99) }

  /// The runs the median and p99 are of: all but the first, when there are three or more.
  static func afterTheFirst(_ samples: [Double]) -> [Double] {
    samples.count > 2 ? Array(samples.dropFirst()) : samples
  }
}

/// Milliseconds on the monotonic clock.
public func monotonicMilliseconds() -> Double {
  var spec = timespec()
  clock_gettime(CLOCK_MONOTONIC, &spec)
  return Double(spec.tv_sec) * 1000 + Double(spec.tv_nsec) / 1_000_000
}

/// Runs `body` `count` times and returns each run's time in milliseconds.
public func time(_ count: Int, _ body: () throws -> Void) rethrows -> [Double] {
  var samples: [Double] = []
  samples.reserveCapacity(count)
  for _ in 0..<count {
    let start = monotonicMilliseconds()
    try body()
    samples.append(monotonicMilliseconds() - start)
  }
  return samples
}

/// The results as a table: scenario, the first run, the median and p99 of the runs after it, and
/// the baseline beside them (its median and p99 also leave out its first run).
public func renderTable(_ measurements: [Measurement], title: String) -> String {
  func format(_ value: Double) -> String {
    value.isNaN ? "—" : String(Double((value * 100).rounded()) / 100)
  }
  var lines = [
    title, "", "| scenario | first run ms | median ms | p99 ms | baseline | baseline median ms | baseline p99 ms |",
    "|---|---|---|---|---|---|---|",
  ]
  for m in measurements {
    lines.append(
      "| \(m.scenario) | \(format(m.firstRun)) | \(format(m.median)) | \(format(m.p99)) | \(m.baselineName.isEmpty ? "—" : m.baselineName) | "
        + "\(format(m.baselineMedian)) | \(format(m.baselineP99)) |")
  }
  return lines.joined(separator: "\n") + "\n" + renderSlowRuns(measurements)
}

/// The keystroke target: a run slower than this is listed under the table with the machine's
/// own computation timed beside it.
public let keystrokeTarget = 3.0

/// The runs after the first that took longer than `keystrokeTarget`, each beside the fixed
/// computation timed just before and just after it; empty when no measurement has a witness.
func renderSlowRuns(_ measurements: [Measurement]) -> String {
  let witnessed = measurements.filter { !$0.witnessSamples.isEmpty }
  guard !witnessed.isEmpty else { return "" }
  func format(_ value: Double?) -> String { value.map { String(Double(($0 * 100).rounded()) / 100) } ?? "—" }
  let median = Measurement.percentile(witnessed.flatMap(\.witnessSamples), 0.5)
  var rows: [String] = []
  for m in witnessed {
    for (run, ms) in m.samples.enumerated().dropFirst() where ms > keystrokeTarget {
      // Runs from the second on: the computation before a run is the one after the run before.
      let before = run - 1 < m.witnessSamples.count ? m.witnessSamples[run - 1] : nil
      let after = run < m.witnessSamples.count ? m.witnessSamples[run] : nil
      rows.append("| \(m.scenario) | \(run + 1) | \(format(ms)) | \(format(before)) | \(format(after)) |")
    }
  }
  let heading =
    "\nRuns over \(format(keystrokeTarget)) ms, each beside the machine's fixed computation timed just before and "
    + "after it (MachineWitness; its median over the whole run: \(format(median)) ms):\n"
  guard !rows.isEmpty else { return heading + "none.\n" }
  return heading + "\n| scenario | run | ms | computation before, ms | computation after, ms |\n|---|---|---|---|---|\n"
    + rows.joined(separator: "\n") + "\n"
}

/// The statements of one operation as a table, the slowest first, their total on top.
public func renderStatements(_ statements: [ProfiledStatement]) -> String {
  func format(_ value: Double) -> String { String(Double((value * 1000).rounded()) / 1000) }
  var lines = [
    "\(statements.count) statements, \(format(statements.map(\.milliseconds).reduce(0, +))) ms in SQLite", "",
    "| ms | statement |", "|---|---|",
  ]
  for statement in statements.sorted(by: { $0.milliseconds > $1.milliseconds }) {
    let sql = statement.sql.split(whereSeparator: \.isNewline).map { $0.drop { $0 == " " } }.joined(separator: " ")
    lines.append("| \(format(statement.milliseconds)) | \(sql.prefix(2000)) |")
  }
  return lines.joined(separator: "\n") + "\n"
}

/// The results as JSON: one object a scenario with its median, p99 and samples, and the baseline.
public func renderJSON(_ measurements: [Measurement], books: Int, readers: Int) -> String {
  func number(_ value: Double) -> String { value.isNaN ? "null" : String(Double((value * 1000).rounded()) / 1000) }
  func quoted(_ text: String) -> String {
    var result = "\""
    for character in text {
      if character == "\"" || character == "\\" { result.append("\\") }
      result.append(character)
    }
    return result + "\""
  }
  let items = measurements.map { m in
    "    {\"scenario\": \(quoted(m.scenario)), \"first_run\": \(number(m.firstRun)), \"median\": \(number(m.median)), \"p99\": \(number(m.p99)), "
      + "\"runs\": \(m.samples.count), \"baseline\": \(quoted(m.baselineName)), "
      + "\"baseline_median\": \(number(m.baselineMedian)), \"baseline_p99\": \(number(m.baselineP99))}"
  }
  return "{\n  \"books\": \(books),\n  \"readers\": \(readers),\n  \"results\": [\n"
    + items.joined(separator: ",\n") + "\n  ]\n}\n"
}

/// The moment every benchmark library lives at, so that loans fall due alike in every run.
public let benchmarkClock = FixedClock(Timestamp(iso: "2026-11-30T10:00:00Z")!)
