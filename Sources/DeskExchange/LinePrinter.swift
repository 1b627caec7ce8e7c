#if canImport(Glibc)
  import Glibc
#endif

/// The system's printer, through `lp` (CUPS): text is handed to `lp` on its standard input.
public enum LinePrinter {
  /// True when `lp` is on the PATH.
  public static var isAvailable: Bool { path != nil }

  static var path: String? {
    let directories = (getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin").split(separator: ":")
    return directories.map { "\($0)/lp" }.first { access($0, X_OK) == 0 }
  }

  /// Prints the text; fails with `lp`'s exit status when it refuses (no default printer, say).
  public static func print(_ text: String) throws(FileError) {
    guard let lp = path else { throw .cannotWrite("lp", "no printing system is installed (lp not found)") }
    var pipe: [Int32] = [0, 0]
    guard Glibc.pipe(&pipe) == 0 else { throw .cannotWrite("lp", String(cString: strerror(errno))) }
    // lp's own complaint (no default printer, the scheduler down) is the message to show.
    let errors = tmpfile()
    defer { if let errors { fclose(errors) } }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, pipe[0], 0)
    posix_spawn_file_actions_addclose(&actions, pipe[1])
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    if let errors {
      posix_spawn_file_actions_adddup2(&actions, fileno(errors), 2)
    } else {
      posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    }
    var process: pid_t = 0
    let arguments: [UnsafeMutablePointer<CChar>?] = [strdup(lp), strdup("-s"), nil]
    defer { arguments.forEach { free($0) } }
    let spawned = posix_spawn(&process, lp, &actions, nil, arguments, environ)
    close(pipe[0])
    guard spawned == 0 else {
      close(pipe[1])
      throw .cannotWrite("lp", String(cString: strerror(spawned)))
    }
    // lp may exit before reading everything: a write to its closed pipe must fail, not kill the desk.
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
      throw .cannotWrite(
        "lp", "the printing system refused the job" + (said.isEmpty ? " (lp exit status \(exitCode))" : ": \(said)"))
    }
  }
}
