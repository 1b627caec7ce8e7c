import DeskDomain

#if canImport(Glibc)
  import Glibc
#endif

/// ZXing, read where zbar finds nothing: it reads many photos zbar cannot, and DataMatrix and
/// Aztec codes. It runs as `circdesk-zxing`, a program of its own beside this one, so that a
/// decoder that aborts (ZXing 1.4 does, on an internal assertion, for some images) or hangs
/// never takes the desk down: its failure is only "nothing read".
enum SecondDecoder {
  /// The program: `CIRCDESK_ZXING` when set (and not empty), else `circdesk-zxing` in this program's folder (a
  /// build), else in `lib/circdesk` beside that folder (the package: `/usr/bin/circdesk` and
  /// `/usr/lib/circdesk/circdesk-zxing`, a helper program kept out of the PATH).
  static var program: String {
    if let set = getenv("CIRCDESK_ZXING"), set.pointee != 0 { return String(cString: set) }
    var buffer = [CChar](repeating: 0, count: 4096)
    let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard count > 0 else { return "circdesk-zxing" }
    let path = String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    let folder = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
    let beside = folder + "/circdesk-zxing"
    let installed = String(folder[..<(folder.lastIndex(of: "/") ?? folder.startIndex)]) + "/lib/circdesk/circdesk-zxing"
    return access(beside, X_OK) != 0 && access(installed, X_OK) == 0 ? installed : beside
  }

  /// A decode that takes longer is stopped: the librarian is waiting.
  static let timeLimitMilliseconds = 5_000

  /// The symbol ZXing reads in the image, if any; none when the decoder is missing, fails,
  /// crashes or runs out of time.
  /// `options`: how it reads (`--scale 2`, `--global`: see `Retry`).
  static func decode(
    path: String, options: [String] = [], program: String = program,
    timeLimitMilliseconds: Int = timeLimitMilliseconds
  ) -> [ScannedSymbol] {
    guard let output = run(program, [path] + options, timeLimitMilliseconds: timeLimitMilliseconds) else { return [] }
    return output.split(separator: "\n").compactMap { symbol(String($0)) }
  }

  /// One line of `circdesk-zxing`: format, left, top, right, bottom, hex bytes, ZXing's text in
  /// hex, 1 when the symbol named its character set. Where it did, ZXing's text is the symbol's.
  static func symbol(_ line: String) -> ScannedSymbol? {
    let parts = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
    guard parts.count == 8, let left = Int(parts[1]), let top = Int(parts[2]), let right = Int(parts[3]),
      let bottom = Int(parts[4]), let bytes = Self.bytes(hex: parts[5]), let text = Self.bytes(hex: parts[6])
    else { return nil }
    var read = ScannedSymbol(
      symbology: symbology(parts[0], bytes: bytes), bytes: bytes,
      box: ScannedSymbol.Box(left: left, top: top, right: right, bottom: bottom))
    if parts[7] == "1", !text.isEmpty {
      read.text = String(decoding: text, as: UTF8.self)
      read.namedCharacterSet = true
    }
    return read
  }

  /// The bytes hex digits spell, two a byte; nil for anything else.
  static func bytes(hex: String) -> [UInt8]? {
    guard hex.count % 2 == 0 else { return nil }
    var bytes: [UInt8] = []
    var index = hex.startIndex
    while index < hex.endIndex {
      let next = hex.index(index, offsetBy: 2)
      guard let byte = UInt8(hex[index..<next], radix: 16) else { return nil }
      bytes.append(byte)
      index = next
    }
    return bytes
  }

  /// ZXing's format names as zbar's, which the rest of the desk knows.
  static func symbology(_ format: String, bytes: [UInt8]) -> String {
    switch format {
    case "EAN-13":
      let isbn = bytes.starts(with: Array("978".utf8)) || bytes.starts(with: Array("979".utf8))
      return isbn ? "ISBN-13" : "EAN-13"
    case "QRCode": return "QR-Code"
    case "Code128": return "CODE-128"
    case "Code39": return "CODE-39"
    case "Codabar": return "Codabar"
    case "ITF": return "I2/5"
    default: return format
    }
  }

  /// The program's standard output, or nil when it could not run, failed or took too long.
  static func run(_ program: String, _ arguments: [String], timeLimitMilliseconds: Int) -> String? {
    var pipe: [Int32] = [0, 0]
    guard Glibc.pipe(&pipe) == 0 else { return nil }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, pipe[1], 1)
    posix_spawn_file_actions_addclose(&actions, pipe[0])
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    var child: pid_t = 0
    let argv: [UnsafeMutablePointer<CChar>?] = ([program] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    let spawned = posix_spawn(&child, program, &actions, nil, argv, environ)
    close(pipe[1])
    guard spawned == 0 else {
      close(pipe[0])
      return nil
    }
    // Read what it prints (a line or two) while it runs; stop it when it runs out of time.
    _ = fcntl(pipe[0], F_SETFL, fcntl(pipe[0], F_GETFL) | O_NONBLOCK)
    var output: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    var status: Int32 = 0
    var waited = 0
    while true {
      let count = read(pipe[0], &buffer, buffer.count)
      if count > 0 {
        output += buffer.prefix(count)
        continue
      }
      if waitpid(child, &status, WNOHANG) == child { break }
      if waited >= timeLimitMilliseconds {
        kill(child, SIGKILL)
        waitpid(child, &status, 0)
        close(pipe[0])
        return nil
      }
      usleep(2_000)
      waited += 2
    }
    while true {
      let count = read(pipe[0], &buffer, buffer.count)
      guard count > 0 else { break }
      output += buffer.prefix(count)
    }
    close(pipe[0])
    // Exited normally with status 0; killed by a signal (an abort) or failed: nothing read.
    guard status & 0x7F == 0, (status >> 8) & 0xFF == 0 else { return nil }
    return String(decoding: output, as: UTF8.self)
  }
}
