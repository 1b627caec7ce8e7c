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

  private func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
    a >= 0 ? a / b : (a - b + 1) / b
  }
}
