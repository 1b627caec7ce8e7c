import DeskDomain
import DeskStorage
import DeskWords

#if canImport(Glibc)
  import Glibc
#endif

/// What a running command can reach: its output, the environment and the clock. Tests build one
/// over strings and a fixed clock; `circdesk` over the process.
public final class CommandContext {
  public let output: any TextSink
  public let errors: any TextSink
  public let environment: [String: String]
  public let clock: any Clock
  /// Opens the full-screen desk on a library (its path, and its language: `--lang` or the locale's) and returns
  /// the exit status; nil where there is no terminal to draw on.
  public var fullScreen: ((LibraryStore, String, InterfaceLanguage) -> Int32)?
  /// True once the command opened the library to change it: its exit status then tells whether
  /// the change committed, whatever became of its output.
  public private(set) var mayHaveChangedLibrary = false

  /// The locale's language: Russian where `LC_ALL`, `LC_MESSAGES` or `LANG` says `ru_*`, else
  /// English (`--lang` of the desk and of `demo` overrides it).
  public var language: InterfaceLanguage { InterfaceLanguage(option: nil, environment: environment) }

  /// The words the library's refusals and errors are told in: the locale's language.
  public var words: any LibraryWords { language.words }

  public init(output: any TextSink, errors: any TextSink, environment: [String: String], clock: any Clock) {
    self.output = output
    self.errors = errors
    self.environment = environment
    self.clock = clock
  }

  /// `--db`, else `$CIRCDESK_DB`, else `$XDG_DATA_HOME/circdesk/library.sqlite`, else
  /// `~/.local/share/circdesk/library.sqlite`.
  public func databasePath(_ arguments: ParsedArguments) throws(CommandError) -> String {
    if let path = try arguments.value(CommandSpec.databaseOption), !path.isEmpty { return path }
    if let path = environment["CIRCDESK_DB"], !path.isEmpty { return path }
    if let data = environment["XDG_DATA_HOME"], !data.isEmpty { return data + "/circdesk/library.sqlite" }
    return (environment["HOME"] ?? ".") + "/.local/share/circdesk/library.sqlite"
  }

  /// Opens the library; `creating` false (a command that only reads) refuses a missing file
  /// rather than making one, folders and all, and reads a file this user cannot write.
  public func openStore(_ arguments: ParsedArguments, creating: Bool = true) throws(CommandError) -> LibraryStore {
    try openStore(arguments, creating: creating, writing: creating)
  }

  /// Opens the library for a trial that changes nothing (`--dry-run`): where there is none yet, an
  /// empty one in a folder of its own, removed by `close` (nil otherwise). No library is made
  /// where the librarian asked for one only to see what would happen.
  public func openStoreForTrial(_ arguments: ParsedArguments) throws(CommandError) -> (LibraryStore, scratch: String?) {
    let path = try databasePath(arguments)
    guard access(path, F_OK) != 0 else { return (try openStore(arguments), nil) }
    var template = Array(
      ((environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp") + "/circdesk-trial-XXXXXX").utf8CString)
    guard let made = mkdtemp(&template) else {
      throw .failed([
        "cannot make a folder for an empty library to try the import on: \(String(cString: strerror(errno)))"
      ])
    }
    let folder = String(cString: made)
    do {
      return (try LibraryStore(path: folder + "/library.sqlite", clock: clock), folder)
    } catch {
      Self.removeTrial(folder)
      throw .store(error)
    }
  }

  /// Removes the folder of a trial's empty library.
  public static func removeTrial(_ folder: String) {
    for name in ["library.sqlite", "library.sqlite-wal", "library.sqlite-shm", "library.sqlite-journal"] {
      unlink(folder + "/" + name)
    }
    rmdir(folder)
  }

  /// Opens a library that must be there already, to change it (cancel a hold: with no library
  /// there is nothing to cancel, and none is made; a kiosk's account is added to the library the
  /// kiosks use, never to a new one at a mistyped path).
  public func openExistingStore(_ arguments: ParsedArguments) throws(CommandError) -> LibraryStore {
    try openStore(arguments, creating: false, writing: true)
  }

  private func openStore(_ arguments: ParsedArguments, creating: Bool, writing: Bool) throws(CommandError)
    -> LibraryStore
  {
    // An empty --db is a slip (an unset variable), never "the default library".
    if let given = try arguments.value(CommandSpec.databaseOption), given.trimmingWhitespace().isEmpty {
      throw .usage("--db names the library file; it is empty", command: "")
    }
    let path = try databasePath(arguments)
    if writing { mayHaveChangedLibrary = true }
    if !creating, access(path, F_OK) != 0 {
      throw .failed([
        "\(path): no library here; it is made by the first command that adds to it "
          + "(circdesk book add, reader add, import…) or by circdesk demo --db \(path)"
      ])
    }
    do {
      return try LibraryStore(path: path, clock: clock, create: creating, readingOnly: !writing) { from, to in
        errors.line("Updating \(path) from schema \(from) to \(to); a large library takes a few seconds…")
      }
    } catch {
      throw .store(error)
    }
  }
}

/// Runs a store call, turning its error into the command's.
func perform<T>(_ body: () throws(StoreError) -> T) throws(CommandError) -> T {
  do {
    return try body()
  } catch {
    throw .store(error)
  }
}
