import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A throwaway PostgreSQL server for a test: `initdb` into a temporary folder, started on a Unix
/// socket in that folder (no TCP port), stopped when the test lets go of it. PostgreSQL refuses
/// to run as root, so under root (CI) it runs as `nobody`, which every Debian system has: the
/// tests add no user to the machine.
public final class PostgresServer {
  public let folder = TemporaryFolder()
  let bin: String
  let data: String
  let socket: String
  let user: String?
  public let port = 5432

  public enum ServerError: Error, CustomStringConvertible {
    case failed(String)
    public var description: String {
      switch self {
      case .failed(let message): return message
      }
    }
  }

  /// A port on 127.0.0.1 the server also listens on, when asked for (`loopback`).
  public let tcpPort: Int?

  public init(loopback: Bool = false) throws {
    tcpPort = loopback ? PostgresServer.freePort() : nil
    let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
    guard let version = versions.compactMap(Int.init).max() else {
      throw ServerError.failed("PostgreSQL is not installed: run scripts/install-dependencies")
    }
    bin = "/usr/lib/postgresql/\(version)/bin"
    socket = folder.file("pg")
    data = socket + "/data"
    user = getuid() == 0 ? "nobody" : nil
    try FileManager.default.createDirectory(atPath: socket, withIntermediateDirectories: true)
    chmod(folder.path, 0o755)
    if let user {
      let owned = try runProgram("/bin/chown", [user, socket])
      guard owned.status == 0 else { throw ServerError.failed("chown: \(owned.errors)") }
    }
    try run("initdb", ["-D", data, "-U", "circdesk", "--auth=trust", "-E", "UTF8", "--locale=C"])
    try start()
  }

  /// Starts the server (again, after `stop`).
  public func start() throws {
    try run(
      "pg_ctl",
      [
        "-D", data, "-l", socket + "/log", "-o",
        "-c listen_addresses='\(tcpPort == nil ? "" : "127.0.0.1")' -k \(socket) -p \(tcpPort ?? port)", "-w", "start",
      ])
  }

  /// The server asks this role for its password (over the socket too); the others still get in
  /// without one.
  public func requirePassword(role: String) throws {
    let hba = data + "/pg_hba.conf"
    let old = try String(contentsOfFile: hba, encoding: .utf8)
    try ("local all \(role) scram-sha-256\nhost all \(role) 127.0.0.1/32 scram-sha-256\n" + old).write(
      toFile: hba, atomically: false, encoding: .utf8)
    try run("pg_ctl", ["-D", data, "reload"])
  }

  /// A TCP port nobody listens on now.
  static func freePort() -> Int {
    let fd = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
    }
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    return Int(UInt16(bigEndian: address.sin_port))
  }

  /// Stops the server at once, as a crash would: open transactions are lost, committed ones kept.
  public func stop() throws {
    try run("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"])
  }

  deinit {
    resume()
    _ = try? run("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"])
  }

  /// The server's processes: the postmaster (first line of postmaster.pid) and its children.
  private func processes() -> [pid_t] {
    guard let text = try? String(contentsOfFile: data + "/postmaster.pid", encoding: .utf8),
      let main = text.split(separator: "\n").first.flatMap({ pid_t($0) })
    else { return [] }
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    let children = entries.compactMap(pid_t.init).filter { pid in
      guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
      else { return false }
      // After the command's closing parenthesis: the state, then the parent's pid.
      let fields = stat[stat.index(after: close)...].split(separator: " ")
      return fields.count > 1 && pid_t(fields[1]) == main
    }
    return [main] + children
  }

  /// The processor time the server has used so far, in seconds: its processes' own, and that of
  /// the connections' processes it has reaped (counted in the postmaster's children's time).
  public func cpuSeconds() -> Double {
    let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
    var total = 0.0
    for pid in processes() {
      guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
      else { continue }
      // After the closing parenthesis: state (0), …, utime (11), stime (12), cutime (13), cstime (14).
      let fields = stat[stat.index(after: close)...].split(separator: " ")
      guard fields.count > 14 else { continue }
      total += (11...14).compactMap { Double(fields[$0]) }.reduce(0, +) / ticks
    }
    return total
  }

  /// Freezes every process of the server (SIGSTOP): connections stay open and nothing answers,
  /// as when a server hangs or a link dies without a word.
  public func pause() {
    for pid in processes() { kill(pid, SIGSTOP) }
  }

  public func resume() {
    for pid in processes() { kill(pid, SIGCONT) }
  }

  /// The connection string of a database on this server.
  public func url(database: String = "postgres", user: String = "circdesk") -> String {
    "host=\(socket) port=\(tcpPort ?? port) user=\(user) dbname=\(database)"
  }

  /// The connection string over TCP on 127.0.0.1 (for a server started with `loopback`).
  public func loopbackURL(database: String, user: String = "circdesk") -> String {
    "host=127.0.0.1 port=\(tcpPort ?? port) user=\(user) dbname=\(database)"
  }

  /// Makes an empty database, for a central of its own.
  public func createDatabase(_ name: String) throws {
    try run("createdb", ["-h", socket, "-p", String(tcpPort ?? port), "-U", "circdesk", name])
  }

  /// Runs SQL through psql, as an administrator would by hand.
  @discardableResult
  public func psql(_ sql: String, database: String, user: String = "circdesk") throws -> String {
    try run("psql", ["-h", socket, "-p", String(tcpPort ?? port), "-U", user, "-d", database, "-At", "-c", sql])
  }

  @discardableResult
  func run(_ tool: String, _ arguments: [String]) throws -> String {
    let command = user.map { ["/usr/sbin/runuser", "-u", $0, "--", bin + "/" + tool] } ?? [bin + "/" + tool]
    if tool == "pg_ctl" {
      // The server it starts lives on: pg_ctl runs through the shell with its output in the
      // server's log, so that nothing waits on a pipe the server holds.
      let line = (command + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        .joined(separator: " ")
      let status = system(line + " </dev/null >>'\(folder.path)/pg_ctl.log' 2>&1")
      guard status == 0 else {
        let log = (try? String(contentsOfFile: folder.path + "/pg_ctl.log", encoding: .utf8)) ?? ""
        throw ServerError.failed("pg_ctl \(arguments.joined(separator: " ")): status \(status)\n\(log)")
      }
      return ""
    }
    let result = try runProgram(command[0], Array(command.dropFirst()) + arguments)
    guard result.status == 0 else {
      throw ServerError.failed("\(tool) \(arguments.joined(separator: " ")): exit \(result.status)\n\(result.errors)")
    }
    return result.output
  }
}

extension PostgresServer {
  /// The server of the whole test run: started at its first use, listening on 127.0.0.1 too, and
  /// stopped when the test process exits. Each test makes databases of its own on it
  /// (`freshDatabase`); a test that stops, pauses or restarts a server starts one of its own.
  /// A server a test took about three seconds to make and start: fifty of them were most of a run.
  public static func shared() throws -> PostgresServer {
    try sharedServer.withLock { server in
      if let server { return server }
      let started = try PostgresServer(loopback: true)
      server = started
      atexit { PostgresServer.stopShared() }
      return started
    }
  }

  private static let sharedServer = SharedServer()

  /// Stops the shared server and removes its folder, as the process ends: letting go of it does
  /// both (its `deinit` stops it, then its folder goes), in that order.
  private static func stopShared() {
    sharedServer.withLock { server in server = nil }
  }

  /// A new, empty database with a name no other test of the run has.
  public func freshDatabase(_ prefix: String) throws -> String {
    let name = prefix + "_" + String(PostgresServer.databases.next())
    try createDatabase(name)
    return name
  }

  private static let databases = Counter()
}

/// The shared server, made once under a lock.
private final class SharedServer: @unchecked Sendable {
  private let lock = NSLock()
  private var server: PostgresServer?

  func withLock<T>(_ body: (inout PostgresServer?) throws -> T) rethrows -> T {
    lock.lock()
    defer { lock.unlock() }
    return try body(&server)
  }
}

/// Numbers handed out once each, from any thread.
private final class Counter: @unchecked Sendable {
  private let lock = NSLock()
  private var last = 0

  func next() -> Int {
    lock.lock()
    defer { lock.unlock() }
    last += 1
    return last
  }
}
