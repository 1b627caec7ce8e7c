import Foundation

/// A folder of its own for each test (or benchmark run), removed when it ends.
public final class TemporaryFolder {
  public let path: String

  public init() {
    path = NSTemporaryDirectory() + "circdesk-test-" + UUID().uuidString
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  }

  deinit {
    try? FileManager.default.removeItem(atPath: path)
  }

  public func file(_ name: String) -> String { path + "/" + name }
}
