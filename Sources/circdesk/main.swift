import DeskCommands
import DeskDomain
import DeskLookup
import DeskStorage
import DeskTerminal
import DeskUI

#if canImport(Glibc)
  import Glibc
#endif

// A closed pipe is an error to report, not a signal that ends the program mid-way: a change that
// committed says so in the exit status even when its output cannot be written.
signal(SIGPIPE, SIG_IGN)

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

// The machine's clock, moved to the central's time while it is off (`CorrectedClock`); a fixed
// one stays as it is set.
let clock: any Clock
if let fixed = environment["CIRCDESK_NOW"], let instant = Timestamp(iso: fixed) {
  clock = FixedClock(instant, utcOffsetSeconds: SystemClock().local(instant).utcOffsetSeconds)
} else {
  clock = CorrectedClock(SystemClock(), uptime: SystemClock.uptime)
}

let output = FileSink.standardOutput
let errors = FileSink.standardError
let context = CommandContext(output: output, errors: errors, environment: environment, clock: clock)
if isatty(0) == 1 && isatty(1) == 1 {
  context.fullScreen = { store, path, language in
    let strings = language.strings
    let colors = (environment["NO_COLOR"] ?? "").isEmpty
    let name = path.split(separator: "/").last.map(String.init) ?? path
    let uiContext = UIContext(
      store: store, strings: strings, theme: Theme(colors: colors), clock: clock, databaseName: name)
    let search = BackgroundSearchService { () throws(StoreError) in try LibraryStore(path: path, clock: clock) }
    let wedge = (try? store.policy.current()).map(WedgeSettings.init(policy:)) ?? WedgeSettings()
    let lookup = BackgroundLookupService(lookup: ISBNLookup.configured(store: store, environment: environment)) {
      try LibraryStore(path: path, clock: clock)
    }
    // A desk joined to a central keeps in step with it in the background (a desk on its own:
    // the service only looks, once a second, whether it has been joined meanwhile).
    let sync = BackgroundSyncService(clock: clock, describe: { strings.syncFailure($0) }) {
      try LibraryStore(path: path, clock: clock)
    }
    // Quitting never waits long for a sync under way (under a second in all, with the terminal
    // restored first): the next sync finishes what it left.
    defer { sync.stop(waitingAtMost: 800) }
    let app = DeskApp(context: uiContext, search: search, lookup: lookup, wedge: wedge, sync: sync)
    do {
      let signal = try DeskRunner.run(app, colors: colors)
      // Stopped by a signal: the shell's convention, 128 + the signal's number.
      return signal == 0 ? 0 : 128 + signal
    } catch {
      errors.line("\(error)")
      return 1
    }
  }
}
var status = RootCommand.run(Array(CommandLine.arguments.dropFirst()), context: context)
if let failure = output.flush() {
  // A reader that stopped reading (`| head`) needs no word; its shell hears of it as of a
  // program ended by SIGPIPE, which `set -o pipefail` sees.
  if output.readerLeft {
    errors.flush()
    exit(status == 0 && !context.mayHaveChangedLibrary ? 128 + SIGPIPE : status)
  }
  errors.line("circdesk: the output could not be written (\(failure))")
  // A command that only reads has failed its one job; one that changed the library did it.
  if status == 0 && !context.mayHaveChangedLibrary { status = 1 }
}
errors.flush()
exit(status)
