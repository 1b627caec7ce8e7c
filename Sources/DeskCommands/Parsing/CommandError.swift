import DeskExchange
import DeskStorage
import DeskSync
import DeskWords

/// How a command fails, and the exit status each failure gives.
public enum CommandError: Error, CustomStringConvertible {
  /// The command line itself is wrong: exit 64 (EX_USAGE).
  case usage(String, command: String)
  /// The library refused or could not do it: exit 1, one line per problem.
  case store(StoreError)
  /// The desk could not join or sync: exit 1.
  case sync(SyncError)
  /// A file could not be read or written: exit 1.
  case file(FileError)
  /// Several lines, each one problem: exit 1.
  case failed([String])
  /// Ends with this status, having said what there was to say.
  case exit(Int32)

  public var exitStatus: Int32 {
    switch self {
    case .usage: return 64
    case .store, .sync, .file, .failed: return 1
    case .exit(let status): return status
    }
  }

  public var lines: [String] { lines(in: EnglishWords()) }

  /// The lines in `words`' language: the library's refusals and errors (a command line that is
  /// wrong is said in English, as `--help` is written).
  public func lines(in words: any LibraryWords) -> [String] {
    switch self {
    case .usage(let message, let command):
      let help = command.isEmpty ? "circdesk --help" : "circdesk \(command) --help"
      return ["error: \(message)", "See '\(help)'."]
    case .store(let error): return words.messages(error)
    case .sync(let error): return [words.message(error)]
    case .file(let error): return [words.message(error)]
    case .failed(let lines): return lines
    case .exit: return []
    }
  }

  public var description: String { lines.joined(separator: "\n") }
}
