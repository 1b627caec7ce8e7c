#if canImport(Glibc)
  import Glibc
#endif

/// A nudge from one thread to another that waits on file descriptors (the background sync waits
/// on the central's connection for its notifications): a pipe whose read end becomes readable.
final class Wakeup: @unchecked Sendable {
  /// The end to wait on; -1 when the system gave no pipe (then `wait` sleeps its time out).
  let readEnd: Int32
  private let writeEnd: Int32

  init() {
    var ends: [Int32] = [-1, -1]
    if pipe(&ends) == 0 {
      for end in ends {
        _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        _ = fcntl(end, F_SETFD, FD_CLOEXEC)
      }
    }
    (readEnd, writeEnd) = (ends[0], ends[1])
  }

  deinit {
    if readEnd >= 0 { close(readEnd) }
    if writeEnd >= 0 { close(writeEnd) }
  }

  /// Wakes the waiting thread (or its next wait). A full pipe is already a wake.
  func signal() {
    var byte: UInt8 = 1
    if writeEnd >= 0 { _ = write(writeEnd, &byte, 1) }
  }

  /// Waits up to `milliseconds` for a signal; true when one came.
  @discardableResult
  func wait(milliseconds: Int32) -> Bool {
    guard readEnd >= 0 else {
      usleep(UInt32(max(0, milliseconds)) * 1000)
      return false
    }
    var watched = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
    _ = poll(&watched, 1, milliseconds)
    return drain()
  }

  /// Takes the signals given so far; true when there were any.
  @discardableResult
  func drain() -> Bool {
    guard readEnd >= 0 else { return false }
    var buffer = [UInt8](repeating: 0, count: 64)
    var any = false
    while read(readEnd, &buffer, buffer.count) > 0 { any = true }
    return any
  }
}
