import DeskCommands
import DeskDomain
import DeskTestSupport
import Foundation

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

/// Runs `circdesk` as a separate process, with no terminal and closed standard input.
func runProcess(_ arguments: [String], environment: [String: String] = [:]) throws -> CommandResult {
  try runProgram(circdeskPath, arguments, environment: environment)
}

func matchesGolden(_ text: String, _ name: String) throws -> Bool {
  try matchesGolden(text, name, folder: "DeskCommandsTests")
}

/// The text with every UUID replaced by `<uuid>`: record identities are made new (version 7 by the
/// desk, version 4 in older files).
func maskingIDs(_ text: String) -> String {
  text.replacingOccurrences(
    of: "[0-9a-f]{8}-[0-9a-f]{4}-[47][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}", with: "<uuid>",
    options: .regularExpression)
}
