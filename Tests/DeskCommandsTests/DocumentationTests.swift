import DeskScratch
import DeskTestSupport
import Foundation
import Testing

@testable import DeskCommands

/// The manual pages and the shell completions are made from the commands' declarations: every
/// command and option is in them, groff reads the pages without a warning, and bash and fish
/// complete from the scripts as a user at their prompt would see.
@Suite struct DocumentationTests {
  static let specs = CommandCatalogue.program.specs

  @Test func theManualHasAPageForEveryCommandAndGroffReadsEachWithoutAWarning() throws {
    let folder = TemporaryFolder()
    let result = runInProcess(["--generate-manual", folder.file("man1")])
    #expect(result.status == 0, "\(result.errors)")
    let groups = ManualPages.groups(of: .program).map { "circdesk-\($0.name)" }
    #expect(groups.contains("circdesk-book") && groups.contains("circdesk-sip2"))
    #expect(result.output == "\(Self.specs.count + groups.count + 1) manual pages written to \(folder.file("man1"))\n")
    let groff = "/usr/bin/groff"
    try #require(
      FileManager.default.isExecutableFile(atPath: groff), "groff-base is installed by scripts/install-dependencies")
    for page in ["circdesk"] + groups + Self.specs.map(ManualPages.pageName) {
      let path = folder.file("man1/\(page).1")
      let text = try String(contentsOfFile: path, encoding: .utf8)
      #expect(text.hasPrefix(".TH \(page.uppercased()) 1 "), "\(page)")
      // -ww: every warning; no -k: the page holds ASCII only (groff's names for the rest).
      #expect(text.unicodeScalars.allSatisfy { $0.isASCII }, "\(page)")
      let checked = try runProgram(groff, ["-man", "-Tutf8", "-ww", "-z", path])
      #expect(checked.status == 0 && checked.errors.isEmpty, "\(page): \(checked.errors)")
    }
    for spec in Self.specs {
      let text = try String(contentsOfFile: folder.file("man1/\(ManualPages.pageName(spec)).1"), encoding: .utf8)
      for option in spec.options {
        #expect(text.contains(ManualPages.escaped(option.name)), "\(spec.path): \(option.name)")
      }
      for argument in spec.arguments { #expect(text.contains(ManualPages.escaped(argument.name))) }
    }
    let program = try String(contentsOfFile: folder.file("man1/circdesk.1"), encoding: .utf8)
    for entry in CommandCatalogue.program.entries { #expect(program.contains(".B \(entry.name)\n")) }
  }

  @Test func aPageReadsAsManShowsIt() throws {
    let folder = TemporaryFolder()
    _ = runInProcess(["--generate-manual", folder.path])
    let shown = try runProgram(
      "/usr/bin/groff", ["-man", "-Tutf8", "-k", "-P", "-cbou", "-rLL=100n", folder.file("circdesk-issue.1")])
    #expect(shown.output.contains("circdesk-issue - issue books to a reader"))
    #expect(shown.output.contains("circdesk issue <ticket> <inventory>..."))
    #expect(shown.output.contains("--due <date>"))
    // Russian examples, written as groff's names of their letters, read as the letters.
    let book = try runProgram("/usr/bin/groff", ["-man", "-Tutf8", "-P", "-cbou", folder.file("circdesk-book-add.1")])
    #expect(book.output.contains("(М. Ю.)"), "\(book.output)")
    #expect(!book.output.contains("au‐\nthor"), "never hyphenated")
  }

  // MARK: bash

  /// What bash offers for the words typed, the last being the one completed.
  private func bash(_ words: [String], in folder: TemporaryFolder) throws -> [String] {
    let script = folder.file("circdesk.bash")
    if !FileManager.default.fileExists(atPath: script) {
      try CompletionScripts.script(for: .bash).write(toFile: script, atomically: true, encoding: .utf8)
    }
    let quoted = words.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
    let result = try runProgram(
      "/bin/bash",
      [
        "-c",
        "cd \(folder.path) && source circdesk.bash && COMP_WORDS=(circdesk \(quoted)) && COMP_CWORD=\(words.count) "
          + "&& _circdesk && printf '%s\\n' \"${COMPREPLY[@]}\"",
      ], environment: Self.withProgram)
    #expect(result.errors.isEmpty, "\(result.errors)")
    return result.output.split(separator: "\n").map(String.init)
  }

  @Test func bashCompletesCommandsOptionsAndTheirValues() throws {
    let folder = TemporaryFolder()
    #expect(try bash(["bo"], in: folder) == ["book"])
    #expect(try bash(["book", ""], in: folder) == ["add", "list", "show", "edit", "delete", "--help"])
    #expect(try bash(["book", "add", "--ti"], in: folder) == ["--title"])
    #expect(try bash(["book", "add", "--title", ""], in: folder) == [], "free text: nothing offered")
    #expect(try bash(["import", "iso2709", "--format", ""], in: folder) == ["auto", "rusmarc", "marc21"])
    #expect(try bash(["--lang", ""], in: folder) == ["en", "ru"])
    #expect(try bash(["--db", "x.sqlite", "book", "l"], in: folder) == ["list"], "a leading option's value skipped")
    try Data().write(to: URL(fileURLWithPath: folder.file("shelf.png")))
    #expect(try bash(["scan", "sh"], in: folder) == ["shelf.png"])
    #expect(try bash(["scan", "--db", "sh"], in: folder) == ["shelf.png"])
    #expect(try bash(["issue", "--due", "2"], in: folder) == [], "a date is typed")
    // --status is a flag of sync and takes a word in book add: each command's own options say.
    #expect(try bash(["sync", "--status", "--j"], in: folder) == ["--json"])
    #expect(try bash(["book", "add", "--status", "--j"], in: folder) == [])
  }

  @Test func bashOffersEveryOptionOfEveryCommandAndEveryValueOfItsChoices() throws {
    let folder = TemporaryFolder()
    for spec in Self.specs {
      let words = spec.path.split(separator: " ").map(String.init)
      let offered = Set(try bash(words + ["-"], in: folder))
      for option in spec.options { #expect(offered.contains(option.name), "\(spec.path) \(option.name)") }
      #expect(offered.contains("--help"))
      for option in spec.options {
        guard case .words(let choices) = option.completion else { continue }
        #expect(Set(try bash(words + [option.name, ""], in: folder)) == Set(choices), "\(spec.path) \(option.name)")
      }
    }
  }

  /// The shells find `circdesk` in the folder of the program the tests built, first.
  static let withProgram = [
    "PATH": URL(fileURLWithPath: circdeskPath).deletingLastPathComponent().path + ":"
      + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
  ]

  /// Where a command's argument is an inventory number or a ticket, each shell offers the
  /// library's (`circdesk --complete`), from the library the command line names.
  @Test func theShellsCompleteInventoryNumbersAndTicketsFromTheLibrary() throws {
    let folder = TemporaryFolder()
    let db = folder.file("library.sqlite")
    #expect(runInProcess(["demo", "--db", db]).status == 0)
    let books = (100_100...100_109).map(String.init)
    let readers = (1030...1039).map(String.init)
    #expect(try bash(["--db", db, "issue", "1001", "10010"], in: folder) == books)
    #expect(try bash(["issue", "--db", db, "103"], in: folder) == readers, "the first argument is a ticket")
    #expect(try bash(["reader", "show", "--db=\(db)", "103"], in: folder) == readers)
    #expect(try zsh(["--db", db, "issue", "1001", "10010"], in: folder) == books)
    #expect(try zsh(["hold", "place", "--db", db, "103"], in: folder) == readers)
    #expect(try fish("circdesk --db \(db) issue 1001 10010", in: folder) == books)
    #expect(try fish("circdesk book show --db \(db) 10010", in: folder) == books)
    // No library there: nothing offered, and nothing said.
    #expect(try bash(["--db", folder.file("none.sqlite"), "book", "show", "1"], in: folder).isEmpty)
    let said = runInProcess(["--complete", "inventory", "1", "--db", folder.file("none.sqlite")])
    #expect(said.status == 0 && said.output.isEmpty && said.errors.isEmpty)
  }

  // MARK: zsh

  /// What zsh offers for the words typed so far: the script's `_circdesk` run with the words and
  /// the cursor's place as a completion widget has them, and `compadd` and `_files` standing in
  /// for zsh's own (which keep what begins with the word under the cursor, and list files).
  private func zsh(_ words: [String], in folder: TemporaryFolder) throws -> [String] {
    let script = folder.file("circdesk.zsh")
    if !FileManager.default.fileExists(atPath: script) {
      try CompletionScripts.script(for: .zsh).write(toFile: script, atomically: true, encoding: .utf8)
    }
    let zsh = "/usr/bin/zsh"
    try #require(FileManager.default.isExecutableFile(atPath: zsh), "zsh is installed by scripts/install-dependencies")
    let quoted = words.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
    let result = try runProgram(
      zsh,
      [
        "-f", "-c",
        "cd \(folder.path) && "
          + "compadd() { local -i i=${@[(i)--]}; local w; for w in \"${@[i+1,-1]}\"; do "
          + "[[ $w == $PREFIX* ]] && print -r -- $w; done; } && _files() { print -r -- '<files>'; } && "
          + "source ./circdesk.zsh && words=(circdesk \(quoted)) && CURRENT=$#words && PREFIX=${words[-1]} && _circdesk",
      ], environment: Self.withProgram)
    #expect(result.errors.isEmpty, "\(result.errors)")
    return result.output.split(separator: "\n").map(String.init)
  }

  @Test func zshCompletesCommandsOptionsAndTheirValues() throws {
    let folder = TemporaryFolder()
    #expect(try zsh(["bo"], in: folder) == ["book"])
    #expect(try zsh(["book", ""], in: folder) == ["add", "list", "show", "edit", "delete", "--help"])
    #expect(try zsh(["sip2", "account", ""], in: folder) == ["add", "list", "remove", "--help"])
    #expect(try zsh(["book", "add", "--ti"], in: folder) == ["--title"])
    #expect(try zsh(["book", "add", "--title", ""], in: folder) == [], "free text: nothing offered")
    #expect(try zsh(["import", "iso2709", "--format", ""], in: folder) == ["auto", "rusmarc", "marc21"])
    #expect(try zsh(["--db", "x.sqlite", "book", "l"], in: folder) == ["list"], "a leading option's value skipped")
    #expect(try zsh(["scan", "sh"], in: folder) == ["<files>"])
    #expect(try zsh(["sync", "--status", "--j"], in: folder) == ["--json"])
  }

  @Test func zshOffersEveryOptionOfEveryCommand() throws {
    let folder = TemporaryFolder()
    for spec in Self.specs {
      let offered = Set(try zsh(spec.path.split(separator: " ").map(String.init) + ["-"], in: folder))
      for option in spec.options { #expect(offered.contains(option.name), "\(spec.path) \(option.name)") }
      #expect(offered.contains("--help"))
    }
  }

  // MARK: fish

  /// What fish offers for the command line typed so far, without the descriptions.
  private func fish(_ line: String, in folder: TemporaryFolder) throws -> [String] {
    let script = folder.file("circdesk.fish")
    if !FileManager.default.fileExists(atPath: script) {
      try CompletionScripts.script(for: .fish).write(toFile: script, atomically: true, encoding: .utf8)
    }
    let fish = "/usr/bin/fish"
    try #require(
      FileManager.default.isExecutableFile(atPath: fish), "fish is installed by scripts/install-dependencies")
    let result = try runProgram(
      fish, ["--no-config", "-c", "cd \(folder.path); source circdesk.fish; complete -C'\(line)'"],
      environment: Self.withProgram)
    #expect(result.errors.isEmpty, "\(result.errors)")
    return result.output.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }
  }

  @Test func fishCompletesCommandsOptionsAndTheirValues() throws {
    let folder = TemporaryFolder()
    #expect(try fish("circdesk bo", in: folder) == ["book"])
    #expect(Set(try fish("circdesk book ", in: folder)) == ["add", "list", "show", "edit", "delete"])
    #expect(try fish("circdesk book add --ti", in: folder) == ["--title"])
    #expect(Set(try fish("circdesk import iso2709 --format ", in: folder)) == ["auto", "rusmarc", "marc21"])
    #expect(Set(try fish("circdesk --lang ", in: folder)) == ["en", "ru"])
    #expect(try fish("circdesk --db x.sqlite book l", in: folder) == ["list"])
    try Data().write(to: URL(fileURLWithPath: folder.file("shelf.png")))
    #expect(try fish("circdesk scan sh", in: folder) == ["shelf.png"])
    #expect(try fish("circdesk book add --title ", in: folder) == [], "free text: nothing offered")
    #expect(try fish("circdesk sync --status --j", in: folder) == ["--json"])
    for spec in Self.specs {
      let offered = Set(try fish("circdesk \(spec.path) --", in: folder))
      for option in spec.options where option.name.hasPrefix("--") {
        #expect(offered.contains(option.name), "\(spec.path) \(option.name)")
      }
    }
  }
}
