import Foundation

/// The result of running a program: exit status and what it printed.
public struct CommandResult: Equatable {
  public var status: Int32
  public var output: String
  public var errors: String

  public init(status: Int32, output: String, errors: String) {
    self.status = status
    self.output = output
    self.errors = errors
  }
}

/// A program started with no terminal and closed standard input, its output collected.
public struct RunningProcess {
  public let process: Process
  let output: Pipe
  let errors: Pipe

  public func finish() -> CommandResult {
    // Both pipes at once: a program that fills one while the other is read would wait for ever.
    let err = Locked(Data())
    let done = DispatchSemaphore(value: 0)
    let handle = errors.fileHandleForReading
    Thread {
      let data = handle.readDataToEndOfFile()
      err.update { $0 = data }
      done.signal()
    }.start()
    let out = output.fileHandleForReading.readDataToEndOfFile()
    done.wait()
    process.waitUntilExit()
    return CommandResult(
      status: process.terminationStatus, output: String(decoding: out, as: UTF8.self),
      errors: String(decoding: err.value, as: UTF8.self))
  }
}

public func startProgram(
  _ program: String, _ arguments: [String], environment: [String: String] = [:], input: String? = nil
) throws -> RunningProcess {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: program)
  process.arguments = arguments
  var env = ProcessInfo.processInfo.environment
  env.removeValue(forKey: "CIRCDESK_DB")
  // The program speaks the locale's language: a test says which one it means.
  for key in ["LC_ALL", "LC_MESSAGES", "LANGUAGE"] { env.removeValue(forKey: key) }
  env["LANG"] = "C.UTF-8"
  for (key, value) in environment { env[key] = value }
  process.environment = env
  if let input {
    process.standardInput = FileHandle(forReadingAtPath: input)
  } else {
    process.standardInput = FileHandle.nullDevice
  }
  let output = Pipe()
  let errors = Pipe()
  process.standardOutput = output
  process.standardError = errors
  try process.run()
  return RunningProcess(process: process, output: output, errors: errors)
}

public func runProgram(
  _ program: String, _ arguments: [String], environment: [String: String] = [:], input: String? = nil
) throws -> CommandResult {
  try startProgram(program, arguments, environment: environment, input: input).finish()
}
