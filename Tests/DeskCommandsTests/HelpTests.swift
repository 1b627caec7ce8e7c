import DeskTestSupport
import Testing

@testable import DeskCommands

/// Help text is part of the interface: any change to it shows up here as a changed golden file.
@Suite struct HelpTests {
  @Test func rootHelp() throws {
    let result = runInProcess(["--help"])
    #expect(result.status == 0)
    #expect(try matchesGolden(result.output, "help-root.txt"))
  }

  /// Every command of the command table, so that a new one cannot go without its help.
  static let everyCommand = (RootCommand.groups.flatMap(\.commands) + RootCommand.commands).map { $0.spec.path }

  @Test(arguments: everyCommand)
  func commandHelp(command: String) throws {
    let result = runInProcess(command.split(separator: " ").map(String.init) + ["--help"])
    #expect(result.status == 0)
    #expect(result.errors == "")
    #expect(try matchesGolden(result.output, "help-\(command.replacingOccurrences(of: " ", with: "-")).txt"))
  }

  @Test func groupHelpListsSubcommands() {
    let result = runInProcess(["book"])
    #expect(result.status == 0)
    #expect(result.output.contains("SUBCOMMANDS:"))
    #expect(result.output.contains("  add"))
  }

  @Test func versionIsPrinted() {
    #expect(runInProcess(["--version"]).output == "circdesk \(RootCommand.version)\n")
  }

  @Test func usageErrorsExitWith64AndPointAtHelp() {
    let unknown = runInProcess(["book", "list", "--bogus"])
    #expect(unknown.status == 64)
    #expect(unknown.errors == "error: unknown option --bogus\nSee 'circdesk book list --help'.\n")
    #expect(runInProcess(["lend"]).status == 64)
    #expect(runInProcess(["issue", "17"]).errors == "error: missing <inventory>\nSee 'circdesk issue --help'.\n")
    #expect(runInProcess(["book", "list", "--limit", "many"]).status == 64)
    #expect(runInProcess(["issue", "1", "2", "--due", "tomorrow"]).status == 64)
    #expect(runInProcess(["book", "list", "--issued", "--overdue"]).status == 64)
  }
}
