import DeskSync
import DeskTestSupport

extension PostgresServer {
  /// The URL of a new, empty central database of the test run's server, with its schema.
  func freshCentral(_ name: String) throws -> String {
    let url = url(database: try freshDatabase(name))
    _ = try CentralSchema.initialize(try CentralConnection(url: url))
    return url
  }
}
