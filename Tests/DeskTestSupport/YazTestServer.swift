import DeskScratch
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// YAZ's own test server (`yaz-ztest`, Debian's `yaz` package) on 127.0.0.1: Z39.50 and SRU at
/// one port, with a few MARC 21 records of its own («How to program a computer», Jack Collins).
/// Its number of hits is made from the words asked; its records are the same whatever they are.
public final class YazTestServer {
  public let port: UInt16
  private let process: Process

  public static let program = "/usr/bin/yaz-ztest"

  public init(folder: TemporaryFolder) throws {
    var lastError: Error = POSIXError(.EADDRINUSE)
    // A free port, then the server on it: another program may take it between, so a few tries.
    for _ in 0..<5 {
      let port = try LoopbackSocket.freePort()
      let process = Process()
      process.executableURL = URL(fileURLWithPath: YazTestServer.program)
      // -S: one process for every connection (by default it forks one a connection, and those
      // outlived the server's end).
      process.arguments = ["-S", "-l", folder.file("ztest-\(port).log"), "tcp:127.0.0.1:\(port)"]
      process.standardInput = FileHandle.nullDevice
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      process.currentDirectoryURL = URL(fileURLWithPath: folder.path)
      do {
        try process.run()
      } catch {
        lastError = error
        continue
      }
      if YazTestServer.waitForListener(port: port, process: process) {
        self.port = port
        self.process = process
        return
      }
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
    }
    throw lastError
  }

  deinit { stop() }

  /// `host:port/database` for a Z39.50 target.
  public var z3950Address: String { "127.0.0.1:\(port)/Default" }
  /// The SRU base address.
  public var sruAddress: String { "http://127.0.0.1:\(port)/Default" }

  /// Ends the server at once: yaz-ztest does not end on SIGTERM while a connection is open.
  public func stop() {
    guard process.isRunning else { return }
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
  }

  private static func waitForListener(port: UInt16, process: Process) -> Bool {
    for _ in 0..<100 {
      guard process.isRunning else { return false }
      if LoopbackSocket.canConnect(port: port) { return true }
      usleep(20_000)
    }
    return false
  }
}

/// SRU answers (searchRetrieveResponse, SRU 1.2) holding MARCXML records, as a library's SRU
/// server writes them, in the document encoding given.
public enum SRUAnswer {
  /// A MARCXML record: the leader, control fields, data fields with their indicators and
  /// subfields.
  public static func record(
    leader: String, controlFields: [(String, String)] = [],
    dataFields: [(tag: String, indicators: String, [(Character, String)])]
  ) -> String {
    var xml = "<record xmlns=\"http://www.loc.gov/MARC21/slim\"><leader>\(escaped(leader))</leader>"
    for (tag, value) in controlFields { xml += "<controlfield tag=\"\(tag)\">\(escaped(value))</controlfield>" }
    for field in dataFields {
      let indicators = Array(field.indicators + "  ")
      xml += "<datafield tag=\"\(field.tag)\" ind1=\"\(indicators[0])\" ind2=\"\(indicators[1])\">"
      for (code, value) in field.2 { xml += "<subfield code=\"\(code)\">\(escaped(value))</subfield>" }
      xml += "</datafield>"
    }
    return xml + "</record>"
  }

  /// The answer with these records (as many hits), its XML declaration naming `encoding`.
  /// `held`: the records the server says it holds (more than it sends, for a wide search).
  public static func searchRetrieve(_ records: [String], encoding: String = "utf-8", held: Int? = nil) -> String {
    var xml = """
      <?xml version="1.0" encoding="\(encoding)"?>
      <zs:searchRetrieveResponse xmlns:zs="http://www.loc.gov/zing/srw/"><zs:version>1.2</zs:version>\
      <zs:numberOfRecords>\(held ?? records.count)</zs:numberOfRecords><zs:records>
      """
    for (index, record) in records.enumerated() {
      xml += "<zs:record><zs:recordSchema>marcxml</zs:recordSchema><zs:recordPacking>xml</zs:recordPacking>"
      xml += "<zs:recordData>\(record)</zs:recordData><zs:recordPosition>\(index + 1)</zs:recordPosition></zs:record>"
    }
    return xml + "</zs:records></zs:searchRetrieveResponse>"
  }

  private static func escaped(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
  }
}
