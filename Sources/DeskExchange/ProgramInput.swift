#if canImport(Glibc)
  import Glibc
#endif

/// Hands text to another program on its standard input (the printer's `lp`, `paps`), its output to
/// a file or nowhere, and says its own complaint when it fails.
enum ProgramInput {
  /// The program of this name on the PATH, or nil.
  static func find(_ name: String) -> String? {
    let directories = (getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin").split(separator: ":")
    return directories.map { "\($0)/\(name)" }.first { access($0, X_OK) == 0 }
  }

  /// Runs `program` with `arguments`, `text` on its standard input and its standard output into
  /// `output` (nil: nowhere). Fails with the first line the program wrote to its standard error,
  /// after `refusal`, when it exits with a status other than 0.
  static func feed(
    _ text: String, to program: String, arguments: [String], output: String? = nil, named name: String,
    refusal: String
  ) throws(FileError) {
    var pipe: [Int32] = [0, 0]
    guard Glibc.pipe(&pipe) == 0 else { throw .cannotWrite(name, String(cString: strerror(errno))) }
    // The program's own complaint (no default printer, no font) is the message to show.
    let errors = tmpfile()
    defer { if let errors { fclose(errors) } }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, pipe[0], 0)
    posix_spawn_file_actions_addclose(&actions, pipe[1])
    posix_spawn_file_actions_addopen(&actions, 1, output ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    if let errors {
      posix_spawn_file_actions_adddup2(&actions, fileno(errors), 2)
    } else {
      posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    }
    var process: pid_t = 0
    let argv: [UnsafeMutablePointer<CChar>?] = ([program] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    let spawned = posix_spawn(&process, program, &actions, nil, argv, environ)
    close(pipe[0])
    guard spawned == 0 else {
      close(pipe[1])
      throw .cannotWrite(name, String(cString: strerror(spawned)))
    }
    // The program may exit before reading everything: a write to its closed pipe must fail, not
    // kill the desk.
    let previous = signal(SIGPIPE, SIG_IGN)
    defer { signal(SIGPIPE, previous) }
    let bytes = Array(text.utf8)
    bytes.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count, let base = buffer.baseAddress {
        let written = write(pipe[1], base + offset, buffer.count - offset)
        if written < 0 && errno == EINTR { continue }
        if written <= 0 { break }
        offset += written
      }
    }
    close(pipe[1])
    var status: Int32 = 0
    while waitpid(process, &status, 0) == -1 && errno == EINTR {}
    let exitCode = (status >> 8) & 0xFF
    guard status & 0x7F == 0, exitCode == 0 else {
      var said = ""
      if let errors {
        rewind(errors)
        var line = [CChar](repeating: 0, count: 512)
        if fgets(&line, Int32(line.count), errors) != nil {
          said = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            .trimmingWhitespace()
        }
      }
      throw .cannotWrite(name, refusal + (said.isEmpty ? " (\(name) exit status \(exitCode))" : ": \(said)"))
    }
  }
}
