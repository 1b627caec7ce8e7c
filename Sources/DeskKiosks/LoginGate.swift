import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// The turns of logins from one address (its IP, whatever the connection). While it has no
/// failed login, its logins go at once (kiosks behind one router all log in when the server
/// restarts). After a failure, each attempt waits its turn: 0.25 s after the one before, doubled
/// with each failure up to 16 s, and attempts made at once queue one behind the other; a success
/// clears the address. Guessing a password over new connections, or many at once, goes no
/// faster than over one, after the first burst.
final class LoginGate: Sendable {
  private struct Entry {
    var failures = 0
    /// When the next attempt may be checked, in seconds of the monotonic clock.
    var next: Double = 0

    var delay: Double { failures == 0 ? 0 : min(16, 0.25 * Double(1 << min(failures - 1, 6))) }
  }

  private let entries = Mutex<[String: Entry]>([:])

  /// How many seconds this attempt from `host` waits before its password is checked.
  func wait(for host: String) -> Double {
    entries.withLock { all in
      guard var entry = all[host], entry.failures > 0 else { return 0 }
      let now = LoginGate.now()
      let slot = max(now, entry.next)
      entry.next = slot + entry.delay
      all[host] = entry
      return slot - now
    }
  }

  /// A login from `host` failed: the next waits longer.
  func failed(_ host: String) {
    entries.withLock { all in
      let now = LoginGate.now()
      // Addresses that have not tried for an hour are forgotten: the table stays small.
      if all.count > 10_000 { all = all.filter { $0.value.next > now - 3600 } }
      var entry = all[host, default: Entry()]
      entry.failures += 1
      entry.next = max(entry.next, now + entry.delay)
      all[host] = entry
    }
  }

  /// A login from `host` succeeded: its logins go at once again.
  func succeeded(_ host: String) {
    _ = entries.withLock { $0.removeValue(forKey: host) }
  }

  static func now() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }
}
