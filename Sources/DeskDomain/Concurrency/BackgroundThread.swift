import Dispatch

#if canImport(Glibc)
  import Glibc
#endif

/// A thread of its own for long work beside the screen (the desk's background sync), which can
/// run below the screen's priority: when both want the processor, the keystroke goes first. A
/// desk of a million books applying a catch-up of 50,000 changes shares two cores with its
/// central's server and the screen. Not a dispatch queue's worker: a lowered priority cannot be
/// raised again without privileges, and a worker goes back to the pool to run other work. A
/// thread started from such a thread (a sync's fetching thread) starts with its priority.
public enum BackgroundThread {
  /// What the background sync's nice value is above the screen's (0 usually; 19 is the lowest
  /// priority).
  public static let niceness: Int32 = 10

  /// Starts `body` on a new thread, its nice value `lowered` above its starter's.
  public static func start(lowered: Int32 = 0, _ body: @escaping @Sendable () -> Void) {
    let box = Unmanaged.passRetained(Body(body, lowered: lowered)).toOpaque()
    var thread = pthread_t()
    let made = pthread_create(
      &thread, nil,
      { raw in
        guard let raw else { return nil }
        let body = Unmanaged<Body>.fromOpaque(raw).takeRetainedValue()
        // On Linux a nice value is the thread's own: 0 names the calling thread, which starts
        // with its starter's.
        let which = __priority_which_t(PRIO_PROCESS.rawValue)
        if body.lowered > 0 { _ = setpriority(which, 0, min(19, getpriority(which, 0) + body.lowered)) }
        body.run()
        return nil
      }, box)
    guard made == 0 else {
      // No thread to be had (a limit reached): the work still runs, at the screen's priority.
      Unmanaged<Body>.fromOpaque(box).release()
      DispatchQueue.global().async(execute: body)
      return
    }
    pthread_detach(thread)
  }

  private final class Body {
    let run: @Sendable () -> Void
    let lowered: Int32
    init(_ run: @escaping @Sendable () -> Void, lowered: Int32) {
      self.run = run
      self.lowered = lowered
    }
  }
}
