import CPostgres

#if canImport(Glibc)
  import Glibc
#endif

/// A connection to the central PostgreSQL database, through libpq. Values are always bound
/// (`PQexecParams`), never written into the SQL.
public final class CentralConnection {
  private let handle: OpaquePointer
  private let pq: cpq_functions

  /// Connects with a libpq connection string or URI. A dead network is noticed within
  /// `connect_timeout` (5 s unless the URL says otherwise), and a network cut in the middle of a
  /// sync within about 20 s (TCP keepalives and `tcp_user_timeout`), not the minutes the
  /// system's TCP defaults would wait.
  public init(url: String) throws(CentralError) {
    var withTimeouts = url
    for (key, value) in [
      ("connect_timeout", "5"), ("keepalives_idle", "10"), ("keepalives_interval", "5"), ("keepalives_count", "2"),
      ("tcp_user_timeout", "20000"),
    ] where !url.contains(key) {
      withTimeouts = CentralConnection.adding("\(key)=\(value)", to: withTimeouts)
    }
    let pq = try CentralConnection.libpq()
    self.pq = pq
    guard let connection = pq.PQconnectdb(withTimeouts) else { throw .cannotConnect("out of memory") }
    guard pq.PQstatus(connection) == CONNECTION_OK else {
      let message = CentralConnection.text(pq.PQerrorMessage(connection))
      pq.PQfinish(connection)
      throw .cannotConnect(message)
    }
    // The server's notices (a warning as it shuts down) are not for the librarian's terminal:
    // what matters comes back as the error of the statement.
    _ = pq.PQsetNoticeProcessor(connection, { _, _ in }, nil)
    handle = connection
  }

  /// True when the connection string carries a password (which the library file never keeps).
  public static func hasPassword(_ url: String) -> Bool {
    // Without libpq no connection is made, with a password or without.
    guard let pq = try? libpq() else { return false }
    var error: UnsafeMutablePointer<CChar>?
    guard let options = pq.PQconninfoParse(url, &error) else {
      if let error { pq.PQfreemem(error) }
      return false
    }
    defer { pq.PQconninfoFree(options) }
    var option = options
    while let keyword = option.pointee.keyword {
      if String(cString: keyword) == "password", option.pointee.val != nil { return true }
      option += 1
    }
    return false
  }

  /// A string libpq gives (NULL read as empty: through a function pointer, libpq's unannotated
  /// declarations come as optionals).
  private static func text(_ pointer: UnsafePointer<CChar>?) -> String {
    pointer.map { String(cString: $0) } ?? ""
  }

  /// libpq's functions, loaded at the first call (`cpq_load`).
  static func libpq() throws(CentralError) -> cpq_functions {
    var reason = [CChar](repeating: 0, count: 512)
    guard let functions = cpq_load(&reason, reason.count) else {
      throw .clientLibraryMissing(
        String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }
    return functions.pointee
  }

  deinit {
    pq.PQfinish(handle)
  }

  /// Breaks the connection from another thread: a call waiting on a server that stopped
  /// answering without closing the connection (a stopped process, a dead link that keepalives
  /// miss, a Unix socket) returns with the connection lost. libpq itself would wait for ever.
  public func abort() {
    let socket = pq.PQsocket(handle)
    if socket >= 0 { shutdown(socket, Int32(SHUT_RDWR)) }
  }

  /// A key=value connection string takes more pairs after a space; a URI after `?` or `&`.
  static func adding(_ pair: String, to url: String) -> String {
    guard url.hasPrefix("postgres://") || url.hasPrefix("postgresql://") else { return url + " " + pair }
    return url + (url.contains("?") ? "&" : "?") + pair
  }

  /// Runs one statement with its parameters bound as text; returns the rows, each value as text
  /// (nil for NULL).
  @discardableResult
  public func execute(_ sql: String, _ parameters: [String?] = []) throws(CentralError) -> [[String?]] {
    let values = parameters.map { $0.flatMap { strdup($0) } }
    defer { values.forEach { free($0) } }
    let pointers = values.map { UnsafePointer<CChar>($0) }
    guard let result = pq.PQexecParams(handle, sql, Int32(pointers.count), nil, pointers, nil, nil, 0) else {
      throw .query(CentralConnection.text(pq.PQerrorMessage(handle)))
    }
    defer { pq.PQclear(result) }
    let status = pq.PQresultStatus(result)
    guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else { throw error(of: result) }
    var rows: [[String?]] = []
    for row in 0..<pq.PQntuples(result) {
      rows.append(
        (0..<pq.PQnfields(result)).map { column in
          pq.PQgetisnull(result, row, column) == 1 ? nil : CentralConnection.text(pq.PQgetvalue(result, row, column))
        })
    }
    return rows
  }

  /// Runs statements that take no parameters (the schema's migrations), in the caller's
  /// transaction.
  public func executeScript(_ sql: String) throws(CentralError) {
    guard let result = pq.PQexec(handle, sql) else { throw .query(CentralConnection.text(pq.PQerrorMessage(handle))) }
    defer { pq.PQclear(result) }
    let status = pq.PQresultStatus(result)
    guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else { throw error(of: result) }
  }

  /// The server's own sentence for a failed statement, without its "ERROR:" and context lines;
  /// a lost connection says so.
  private func error(of result: OpaquePointer) -> CentralError {
    let primary = pq.PQresultErrorField(result, Int32(UInt8(ascii: "M"))).map { String(cString: $0) }
    let state = pq.PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) } ?? ""
    let message = primary ?? CentralConnection.text(pq.PQresultErrorMessage(result))
    // Class 08: the connection is gone; 57P: the server is shutting down or was restarted.
    if state.hasPrefix("08") || state.hasPrefix("57P") || primary == nil { return .connectionLost(message) }
    return .query(message)
  }

  /// The connection string without its password, to be kept in a library file: the password
  /// comes through libpq's own means (.pgpass, PGPASSWORD) each time instead.
  /// Refused without libpq, which alone can tell the password in it: never the string as given.
  public static func withoutPassword(_ url: String) throws(CentralError) -> String {
    let pq = try libpq()
    var error: UnsafeMutablePointer<CChar>?
    guard let options = pq.PQconninfoParse(url, &error) else {
      if let error { pq.PQfreemem(error) }
      return url
    }
    defer { pq.PQconninfoFree(options) }
    var pairs: [String] = []
    var option = options
    while let keyword = option.pointee.keyword {
      let name = String(cString: keyword)
      if let value = option.pointee.val, name != "password" {
        let text = String(cString: value)
        var quoted = ""
        for character in text {
          if character == "\\" || character == "'" { quoted.append("\\") }
          quoted.append(character)
        }
        pairs.append("\(name)='\(quoted)'")
      }
      option += 1
    }
    return pairs.joined(separator: " ")
  }

  /// Sends rows through `COPY … FROM STDIN` (PostgreSQL's fastest way in): `sql` is the COPY
  /// statement, `data` the rows in its format. Returns the rows the server took.
  public func copyIn(_ sql: String, data: [UInt8]) throws(CentralError) -> Int {
    guard let started = pq.PQexec(handle, sql) else { throw .query(CentralConnection.text(pq.PQerrorMessage(handle))) }
    let status = pq.PQresultStatus(started)
    pq.PQclear(started)
    guard status == PGRES_COPY_IN else { throw .query(CentralConnection.text(pq.PQerrorMessage(handle))) }
    let sent = data.withUnsafeBufferPointer { buffer in
      buffer.baseAddress.map { base in
        base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
          pq.PQputCopyData(handle, $0, Int32(buffer.count))
        }
      } ?? 1
    }
    guard sent == 1, pq.PQputCopyEnd(handle, nil) == 1 else {
      throw .query(CentralConnection.text(pq.PQerrorMessage(handle)))
    }
    var rows = 0
    while let result = pq.PQgetResult(handle) {
      defer { pq.PQclear(result) }
      guard pq.PQresultStatus(result) == PGRES_COMMAND_OK else { throw error(of: result) }
      rows += Int(CentralConnection.text(pq.PQcmdTuples(result))) ?? 0
    }
    return rows
  }

  /// Reads what `COPY … TO STDOUT` sends, and returns its size in bytes.
  public func copyOut(_ sql: String) throws(CentralError) -> Int {
    guard let started = pq.PQexec(handle, sql) else { throw .query(CentralConnection.text(pq.PQerrorMessage(handle))) }
    let status = pq.PQresultStatus(started)
    pq.PQclear(started)
    guard status == PGRES_COPY_OUT else { throw .query(CentralConnection.text(pq.PQerrorMessage(handle))) }
    var bytes = 0
    while true {
      var buffer: UnsafeMutablePointer<CChar>?
      let count = pq.PQgetCopyData(handle, &buffer, 0)
      if let buffer { pq.PQfreemem(buffer) }
      guard count > 0 else { break }
      bytes += Int(count)
    }
    while let result = pq.PQgetResult(handle) { pq.PQclear(result) }
    return bytes
  }

  /// Listens on `channel` from now on (`LISTEN`): `waitForNotification` hears what is sent there.
  public func listen(_ channel: String) throws(CentralError) {
    // A channel is an identifier, not a value: quoted here, and only ever this program's own.
    let quoted = channel.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"")
    try executeScript("LISTEN \"" + quoted + "\"")
  }

  /// Waits up to `milliseconds` for a notification on a channel this connection listens to, or
  /// for `other` (a file descriptor, -1 for none) to be readable. Returns the payloads of the
  /// notifications that came (none when the time ran out or `other` woke it). A connection that
  /// broke meanwhile throws, as a statement would.
  public func waitForNotifications(milliseconds: Int32, orReadable other: Int32 = -1) throws(CentralError)
    -> [String]
  {
    var payloads = try takeNotifications()
    guard payloads.isEmpty else { return payloads }
    let socket = pq.PQsocket(handle)
    guard socket >= 0 else { throw .connectionLost(CentralConnection.text(pq.PQerrorMessage(handle))) }
    var watched = [pollfd(fd: socket, events: Int16(POLLIN), revents: 0)]
    if other >= 0 { watched.append(pollfd(fd: other, events: Int16(POLLIN), revents: 0)) }
    let ready = poll(&watched, nfds_t(watched.count), milliseconds)
    if ready > 0, watched[0].revents != 0 {
      payloads = try takeNotifications()
    }
    return payloads
  }

  /// Reads what the server sent meanwhile, and takes the notifications out of it.
  private func takeNotifications() throws(CentralError) -> [String] {
    guard pq.PQconsumeInput(handle) == 1 else {
      throw .connectionLost(CentralConnection.text(pq.PQerrorMessage(handle)))
    }
    var payloads: [String] = []
    while let notification = pq.PQnotifies(handle) {
      payloads.append(notification.pointee.extra.map { String(cString: $0) } ?? "")
      pq.PQfreemem(notification)
    }
    return payloads
  }

  /// Runs `body` in one transaction: all of it or nothing.
  public func transaction<T>(_ body: () throws(CentralError) -> T) throws(CentralError) -> T {
    try execute("BEGIN")
    do {
      let result = try body()
      try execute("COMMIT")
      return result
    } catch {
      _ = try? execute("ROLLBACK")
      throw error
    }
  }
}
