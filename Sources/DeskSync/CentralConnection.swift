import CPostgres

#if canImport(Glibc)
  import Glibc
#endif

/// A connection to the central PostgreSQL database, through libpq. Values are always bound
/// (`PQexecParams`), never written into the SQL.
public final class CentralConnection {
  private let handle: OpaquePointer

  /// Connects with a libpq connection string or URI. A dead network is noticed within
  /// `connect_timeout` (5 s unless the URL says otherwise).
  public init(url: String) throws(CentralError) {
    let withTimeout = url.contains("connect_timeout") ? url : CentralConnection.adding("connect_timeout=5", to: url)
    guard let connection = PQconnectdb(withTimeout) else { throw .cannotConnect("out of memory") }
    guard PQstatus(connection) == CONNECTION_OK else {
      let message = String(cString: PQerrorMessage(connection))
      PQfinish(connection)
      throw .cannotConnect(message)
    }
    handle = connection
  }

  deinit {
    PQfinish(handle)
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
    guard let result = PQexecParams(handle, sql, Int32(pointers.count), nil, pointers, nil, nil, 0) else {
      throw .query(String(cString: PQerrorMessage(handle)))
    }
    defer { PQclear(result) }
    let status = PQresultStatus(result)
    guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
      throw .query(String(cString: PQresultErrorMessage(result)))
    }
    var rows: [[String?]] = []
    for row in 0..<PQntuples(result) {
      rows.append(
        (0..<PQnfields(result)).map { column in
          PQgetisnull(result, row, column) == 1 ? nil : String(cString: PQgetvalue(result, row, column))
        })
    }
    return rows
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
