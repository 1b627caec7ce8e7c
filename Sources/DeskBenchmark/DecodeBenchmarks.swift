import CImaging
import DeskScanning

#if canImport(Glibc)
  import Glibc
#endif

/// Decoding time per image, in this process, beside `zbarimg` on the same files in the same run.
public enum DecodeBenchmarks {
  public static func run(folder: String, repeats: Int) throws -> [Measurement] {
    mkdir(folder, 0o755)
    var results: [Measurement] = []
    for (width, height) in [(640, 480), (1920, 1080)] {
      let path = "\(folder)/qr-\(width)x\(height).png"
      try makeImage(path: path, width: width, height: height)
      let found = try ImageScanner.scan(path: path)
      guard found.count == 1 else { throw BenchmarkError.notDecoded(path) }
      let ours = try time(repeats) { _ = try ImageScanner.scan(path: path) }
      let zbarimg = time(max(3, repeats / 5)) { _ = runQuietly(["zbarimg", "-q", "-Sbinary", path]) }
      results.append(
        Measurement(
          scenario: "decode a QR label in a \(width)×\(height) PNG", samples: ours, baselineName: "zbarimg (a process)",
          baselineSamples: runQuietly(["zbarimg", "--version"]) == 0 ? zbarimg : []))
    }
    return results
  }

  /// A QR label of a book record on a white page of the given size, a little off centre.
  static func makeImage(path: String, width: Int, height: Int) throws {
    let record = Array(
      "Инвентарный номер: 100234\nФамилия автора: Лермонтов\nНазвание книги: Герой нашего времени\nГод издания: 2018"
        .utf8)
    var code = cimg_gray()
    guard cimg_qr(record, record.count, 4, &code) == 0 else { throw BenchmarkError.notDecoded(path) }
    defer { cimg_free(&code) }
    var page = [UInt8](repeating: 255, count: width * height)
    let left = width / 3
    let top = height / 4
    for y in 0..<Int(code.height) where top + y < height {
      for x in 0..<Int(code.width) where left + x < width {
        page[(top + y) * width + left + x] = code.pixels[y * Int(code.width) + x]
      }
    }
    var message = [CChar](repeating: 0, count: 128)
    let status = page.withUnsafeMutableBufferPointer { buffer -> Int32 in
      var image = cimg_gray(width: Int32(width), height: Int32(height), pixels: buffer.baseAddress)
      return cimg_write_png(path, &image, 300, &message, message.count)
    }
    guard status == 0 else { throw BenchmarkError.notDecoded(path) }
  }

  /// Runs a program with its output discarded; its exit status, or -1 when it could not start.
  static func runQuietly(_ arguments: [String]) -> Int32 {
    var pid: pid_t = 0
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    var argv = arguments.map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    guard posix_spawnp(&pid, arguments[0], &actions, nil, &argv, environ) == 0 else { return -1 }
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    return (status >> 8) & 0xFF
  }
}

public enum BenchmarkError: Error, CustomStringConvertible {
  case notDecoded(String)
  /// A scenario whose setting up or running did not go as it must for its figure to mean anything.
  case scenarioFailed(String)

  public var description: String {
    switch self {
    case .notDecoded(let path): return "\(path): the benchmark's own image did not decode"
    case .scenarioFailed(let what): return "the benchmark's scenario failed: \(what)"
    }
  }
}
