import Foundation

/// Runs `body(0)` … `body(count - 1)` each on a thread of its own, all at once, and returns when
/// every one has: fifty kiosks at once are fifty threads, where `concurrentPerform` would run as
/// many at a time as the machine has cores.
public func runAtOnce(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
  let group = DispatchGroup()
  for index in 0..<count {
    group.enter()
    let thread = Thread {
      body(index)
      group.leave()
    }
    thread.stackSize = 1 << 20
    thread.start()
  }
  group.wait()
}
