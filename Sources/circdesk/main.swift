import DeskCommands
import DeskDomain
import DeskStorage

#if canImport(Glibc)
  import Glibc
#endif

// CIRCDESK_NOW (an ISO-8601 instant) fixes the clock: for reproducible examples and tests.
var environment: [String: String] = [:]
var entry = environ
while let pointer = entry.pointee {
  let text = String(cString: pointer)
  if let equals = text.firstIndex(of: "=") {
    environment[String(text[..<equals])] = String(text[text.index(after: equals)...])
  }
  entry += 1
}

let clock: any Clock
if let fixed = environment["CIRCDESK_NOW"], let instant = Timestamp(iso: fixed) {
  clock = FixedClock(instant, utcOffsetSeconds: SystemClock().local(instant).utcOffsetSeconds)
} else {
  clock = SystemClock()
}

let output = FileSink.standardOutput
let errors = FileSink.standardError
let context = CommandContext(output: output, errors: errors, environment: environment, clock: clock)
let status = RootCommand.run(Array(CommandLine.arguments.dropFirst()), context: context)
output.flush()
errors.flush()
exit(status)
