import CDeskTerminal

#if canImport(Glibc)
  import Glibc
#endif

/// A child process run to its end: its wall time in milliseconds, its peak memory in KiB and
/// its exit status. Standard output and error go to /dev/null unless `output` names a file.
public struct ChildRun {
  public var milliseconds: Double
  public var peakKiB: Int
  public var status: Int32
}

public func runChild(_ arguments: [String], output: String? = nil) -> ChildRun {
  let start = monotonicMilliseconds()
  guard let pid = spawnChild(arguments, output: output ?? "/dev/null") else {
    return ChildRun(milliseconds: .nan, peakKiB: 0, status: -1)
  }
  var status: Int32 = 0
  var usage = rusage()
  wait4(pid, &status, 0, &usage)
  return ChildRun(
    milliseconds: monotonicMilliseconds() - start, peakKiB: Int(usage.ru_maxrss), status: (status >> 8) & 0xFF)
}

/// Starts a child process without waiting for it: its standard output goes to `output`, its
/// errors to /dev/null. Nil when it cannot be started.
public func spawnChild(_ arguments: [String], output: String) -> pid_t? {
  var actions = posix_spawn_file_actions_t()
  posix_spawn_file_actions_init(&actions)
  defer { posix_spawn_file_actions_destroy(&actions) }
  posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
  var argv = arguments.map { strdup($0) } + [nil]
  defer { for pointer in argv { free(pointer) } }
  var pid: pid_t = 0
  return posix_spawnp(&pid, arguments[0], &actions, nil, &argv, environ) == 0 ? pid : nil
}

/// The path of the running program, for starting it again as a child.
public func ownExecutable() -> String {
  var buffer = [CChar](repeating: 0, count: 4096)
  let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
  return count > 0 ? String(cString: buffer) : CommandLine.arguments[0]
}

/// This process's own peak resident memory in KiB, from /proc (VmHWM): unlike the rusage a
/// parent reads, it does not count the parent's memory a spawned child starts from.
public func ownPeakKiB() -> Int { peakKiB(status: "/proc/self/status") }

/// The peak resident memory (VmHWM) in KiB that a process's `/proc/…/status` gives; 0 when it
/// gives none (a process ended).
func peakKiB(status path: String) -> Int {
  let text = readText(path)
  guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return 0 }
  return Int(line.dropFirst(6).filter { $0.isNumber }) ?? 0
}

/// Runs a program to its end as `runChild` does, its peak memory its own: read from /proc every
/// 5 ms while it runs. The rusage `runChild` reads counts this process's memory too (Linux keeps
/// in a child the high-water mark of the address space it leaves at exec, which for a spawned
/// child is this process's): a sync of 45 MiB was measured 70 MiB beside a benchmark holding the
/// central's whole log. The last 5 ms of the child go unwatched.
public func runChildWatchingMemory(_ arguments: [String]) -> ChildRun {
  let start = monotonicMilliseconds()
  guard let pid = spawnChild(arguments, output: "/dev/null") else {
    return ChildRun(milliseconds: .nan, peakKiB: 0, status: -1)
  }
  var status: Int32 = 0
  var peak = 0
  while waitpid(pid, &status, WNOHANG) == 0 {
    peak = max(peak, peakKiB(status: "/proc/\(pid)/status"))
    usleep(5_000)
  }
  return ChildRun(milliseconds: monotonicMilliseconds() - start, peakKiB: peak, status: (status >> 8) & 0xFF)
}

/// Runs a program from this (small) process with fork and exec, and returns its peak memory in
/// KiB: a forked child starts from this process's memory only.
public func peakKiBOfForkedChild(_ arguments: [String]) -> Int {
  var argv = arguments.map { strdup($0) } + [nil]
  defer { for pointer in argv { free(pointer) } }
  let pid = fork()
  if pid == 0 {
    let null = open("/dev/null", O_WRONLY)
    dup2(null, 1)
    dup2(null, 2)
    execvp(arguments[0], &argv)
    _exit(127)
  }
  var status: Int32 = 0
  var usage = rusage()
  wait4(pid, &status, 0, &usage)
  return Int(usage.ru_maxrss)
}

/// A small text file's content, or "".
func readText(_ path: String) -> String {
  guard let file = fopen(path, "r") else { return "" }
  defer { fclose(file) }
  var bytes: [UInt8] = []
  var buffer = [UInt8](repeating: 0, count: 4096)
  while true {
    let count = fread(&buffer, 1, buffer.count, file)
    if count <= 0 { break }
    bytes += buffer[0..<count]
  }
  return String(decoding: bytes, as: UTF8.self)
}

/// A program the benchmark runs on a pseudo-terminal (`TERM=xterm-256color`, `rows` × `columns`),
/// as a librarian's terminal runs the desk: what it paints is read, keys are typed to it, and it
/// is killed at the end.
public final class TerminalRun {
  private let master: Int32
  private let pid: Int32
  public let started: Double
  private var written: [UInt8] = []

  public init?(_ arguments: [String], rows: Int = 40, columns: Int = 120) {
    // ncurses takes the size from LINES and COLUMNS before the terminal's own.
    let settings: [String] = ["TERM=xterm-256color", "LINES=\(rows)", "COLUMNS=\(columns)", "LANG=C.UTF-8"]
    var environment = settings.map { strdup($0) } + [nil]
    var argv = arguments.map { strdup($0) } + [nil]
    defer { for pointer in argv + environment { free(pointer) } }
    var master: Int32 = -1
    var pid: Int32 = 0
    started = monotonicMilliseconds()
    guard cdt_spawn_on_pseudo_terminal(&argv, &environment, &master, &pid) == 0 else { return nil }
    (self.master, self.pid) = (master, pid)
  }

  deinit {
    kill(pid, SIGKILL)
    waitpid(pid, nil, 0)
    close(master)
  }

  /// Reads what the program paints until `marker` comes (true), or `milliseconds` pass (false).
  /// Reads on for that long when `marker` is nil.
  @discardableResult public func read(until marker: String?, milliseconds: Double = 5000) -> Bool {
    let wanted = Array((marker ?? "").utf8)
    let from = max(0, written.count - wanted.count + 1)
    let start = monotonicMilliseconds()
    var buffer = [UInt8](repeating: 0, count: 65536)
    while monotonicMilliseconds() - start < milliseconds {
      var ready = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
      guard poll(&ready, 1, 20) >= 0 else { return false }
      guard ready.revents != 0 else { continue }
      let count = Glibc.read(master, &buffer, buffer.count)
      guard count > 0 else { return false }
      written += buffer[0..<count]
      if marker != nil, written.count >= from + wanted.count,
        (from...(written.count - wanted.count)).contains(where: {
          written[$0..<$0 + wanted.count].elementsEqual(wanted)
        })
      {
        return true
      }
    }
    return false
  }

  /// Types `text` as a terminal sends it.
  public func type(_ text: String) {
    let bytes = Array(text.utf8)
    _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
  }

  /// The program's peak resident memory so far, in KiB (VmHWM).
  public var peakKiB: Int { DeskBenchmark.peakKiB(status: "/proc/\(pid)/status") }
}

/// The milliseconds from starting `arguments` on a terminal until `marker` is painted; nil when
/// it cannot be started or does not paint it within five seconds.
public func millisecondsToPaint(_ arguments: [String], marker: String) -> Double? {
  guard let run = TerminalRun(arguments), run.read(until: marker) else { return nil }
  return monotonicMilliseconds() - run.started
}
