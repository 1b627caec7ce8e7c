import DeskDomain

#if canImport(Glibc)
  import Glibc
#endif

/// The machine's clock and time zone.
public struct SystemClock: Clock {
  public init() {}

  public func now() -> LocalMoment {
    var spec = timespec()
    clock_gettime(CLOCK_REALTIME, &spec)
    let milliseconds = Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec / 1_000_000)
    return local(Timestamp(millisecondsSinceEpoch: milliseconds))
  }

  public func local(_ instant: Timestamp) -> LocalMoment {
    var seconds = time_t(floorDivide(instant.millisecondsSinceEpoch, 1000))
    var parts = tm()
    localtime_r(&seconds, &parts)
    return LocalMoment(instant: instant, utcOffsetSeconds: Int(parts.tm_gmtoff))
  }

  /// The machine's uptime (which counts a suspend too) and its boot's id: what carries the
  /// central's time from one sync to the next (`ClockAnchor`). Read from the kernel's own files,
  /// which no setting of the clock moves (a process run under `faketime` has its clock calls
  /// answered from another time, `CLOCK_BOOTTIME` included, but not these). A reading costs
  /// 5.8 µs (measured), read a few times a key on a desk whose clock is off. Nil where the system
  /// tells neither.
  public static let uptime: @Sendable () -> UptimeReading? = {
    guard let boot = bootID, let text = firstLine(of: "/proc/uptime"),
      let seconds = text.split(separator: " ").first
    else { return nil }
    // "13926.16": seconds, to the hundredth.
    let parts = seconds.split(separator: ".", omittingEmptySubsequences: false)
    guard let whole = Int64(parts[0]) else { return nil }
    let digits = parts.count > 1 ? String(parts[1].prefix(3)) : ""
    let fraction = Int64(digits + String(repeating: "0", count: 3 - digits.count)) ?? 0
    return UptimeReading(boot: boot, milliseconds: whole * 1000 + fraction)
  }

  /// This boot's id, as Linux gives it; read once.
  private static let bootID: String? = {
    let id = firstLine(of: "/proc/sys/kernel/random/boot_id")?.filter { $0.isHexDigit || $0 == "-" } ?? ""
    return id.isEmpty ? nil : id
  }()

  private static func firstLine(of path: String) -> String? {
    let file = open(path, O_RDONLY | O_CLOEXEC)
    guard file >= 0 else { return nil }
    defer { close(file) }
    var buffer = [UInt8](repeating: 0, count: 128)
    let count = read(file, &buffer, buffer.count)
    guard count > 0 else { return nil }
    return String(decoding: buffer.prefix(count).prefix { $0 != 10 }, as: UTF8.self)
  }

  private func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
    a >= 0 ? a / b : (a - b + 1) / b
  }
}
