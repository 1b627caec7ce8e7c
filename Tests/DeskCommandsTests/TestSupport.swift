import DeskCommands
import DeskDomain
import DeskTestSupport
import Foundation

/// The result of one command: exit status and what it printed.
struct CommandResult: Equatable {
  var status: Int32
  var output: String
  var errors: String
}

/// Runs a command line in this process, on a fixed clock at UTC.
func runInProcess(_ arguments: [String], now: String = "2026-11-30T10:00:00Z") -> CommandResult {
  let output = StringSink()
  let errors = StringSink()
  let context = CommandContext(
    output: output, errors: errors, environment: ["HOME": NSTemporaryDirectory()],
    clock: FixedClock(Timestamp(iso: now)!))
  let status = RootCommand.run(arguments, context: context)
  return CommandResult(status: status, output: output.text, errors: errors.text)
}

/// The package's root folder, found from this file's place in it.
let packageRoot: String = {
  var url = URL(fileURLWithPath: #filePath)
  for _ in 0..<3 { url.deleteLastPathComponent() }
  return url.path
}()

/// The `circdesk` program SwiftPM built beside the test bundle.
let circdeskPath: String = {
  let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(
    "circdesk"
  ).path
  if FileManager.default.isExecutableFile(atPath: beside) { return beside }
  return packageRoot + "/.build/debug/circdesk"
}()

/// Runs `circdesk` as a separate process, with no terminal and closed standard input.
func runProcess(_ arguments: [String], environment: [String: String] = [:]) throws -> CommandResult {
  try runProgram(circdeskPath, arguments, environment: environment)
}

func runProgram(_ program: String, _ arguments: [String], environment: [String: String] = [:]) throws
  -> CommandResult
{
  try startProgram(program, arguments, environment: environment).finish()
}

/// A program started with no terminal and closed standard input, its output collected.
struct RunningProcess {
  let process: Process
  let output: Pipe
  let errors: Pipe

  func finish() -> CommandResult {
    let out = output.fileHandleForReading.readDataToEndOfFile()
    let err = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return CommandResult(
      status: process.terminationStatus, output: String(decoding: out, as: UTF8.self),
      errors: String(decoding: err, as: UTF8.self))
  }
}

func startProgram(_ program: String, _ arguments: [String], environment: [String: String] = [:]) throws
  -> RunningProcess
{
  let process = Process()
  process.executableURL = URL(fileURLWithPath: program)
  process.arguments = arguments
  var env = ProcessInfo.processInfo.environment
  env.removeValue(forKey: "CIRCDESK_DB")
  for (key, value) in environment { env[key] = value }
  process.environment = env
  process.standardInput = FileHandle.nullDevice
  let output = Pipe()
  let errors = Pipe()
  process.standardOutput = output
  process.standardError = errors
  try process.run()
  return RunningProcess(process: process, output: output, errors: errors)
}

/// Compares `text` with the golden file `Tests/DeskCommandsTests/Golden/<name>`. With
/// `CIRCDESK_UPDATE_GOLDEN=1` in the environment the file is written instead.
func matchesGolden(_ text: String, _ name: String) throws -> Bool {
  let path = packageRoot + "/Tests/DeskCommandsTests/Golden/" + name
  if ProcessInfo.processInfo.environment["CIRCDESK_UPDATE_GOLDEN"] == "1" {
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return true
  }
  let expected = try String(contentsOfFile: path, encoding: .utf8)
  if expected != text {
    print("--- expected \(name)\n\(expected)--- got\n\(text)---")
  }
  return expected == text
}

/// The text with every UUID replaced by `<uuid>`: record identities are random.
func maskingIDs(_ text: String) -> String {
  text.replacingOccurrences(
    of: "[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}", with: "<uuid>",
    options: .regularExpression)
}
