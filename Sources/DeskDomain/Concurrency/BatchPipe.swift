import Dispatch
import Synchronization

/// Carries batches from one thread that makes them to one that uses them, in order, with at most
/// `capacity` batches waiting: the maker waits when the user falls behind, so memory stays flat.
public final class BatchPipe<Element: Sendable>: Sendable {
  private struct State {
    var batches: [[Element]] = []
    var failure: (any Error)?
    var cancelled = false
  }

  private let state = Mutex(State())
  /// Signalled once per batch sent and once at the end.
  private let ready = DispatchSemaphore(value: 0)
  /// Free places for batches.
  private let room: DispatchSemaphore

  public init(capacity: Int) {
    // Made empty and then filled: libdispatch stops the program when a semaphore is freed below
    // its starting value, as `room` is when the receiver stops with batches still waiting.
    room = DispatchSemaphore(value: 0)
    for _ in 0..<capacity { room.signal() }
  }

  /// Sends a batch, waiting for room; false when the receiver has stopped listening.
  public func send(_ batch: [Element]) -> Bool {
    room.wait()
    let taken = state.withLock { state in
      guard !state.cancelled else { return false }
      state.batches.append(batch)
      return true
    }
    if taken { ready.signal() }
    return taken
  }

  /// Ends the stream; the receiver gets `failure` thrown once the batches before it are taken.
  public func finish(throwing failure: (any Error)? = nil) {
    state.withLock { $0.failure = failure }
    ready.signal()
  }

  /// The next batch, nil at the end of the stream, or the maker's failure.
  public func receive() throws -> [Element]? {
    ready.wait()
    let next = try state.withLock { state throws -> [Element]? in
      if !state.batches.isEmpty { return state.batches.removeFirst() }
      if let failure = state.failure { throw failure }
      return nil
    }
    if next != nil { room.signal() }
    return next
  }

  /// The receiver stops: a maker waiting for room wakes and learns that nobody listens.
  public func cancel() {
    state.withLock { $0.cancelled = true }
    room.signal()
  }
}

extension BatchPipe {
  /// Runs `make` on a thread of its own, sending batches into a new pipe, while `use` receives
  /// them on this one. The pipe ends when `make` returns, or with its error; when `use` ends
  /// first (done, or failed), `make`'s next send learns that nobody listens. Returns `use`'s
  /// result once both have stopped.
  public static func streaming<T>(
    capacity: Int, making make: @escaping @Sendable (BatchPipe) throws -> Void, using use: (BatchPipe) throws -> T
  ) throws -> T {
    let pipe = BatchPipe(capacity: capacity)
    let made = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      do {
        try make(pipe)
        pipe.finish()
      } catch {
        pipe.finish(throwing: error)
      }
      made.signal()
    }
    defer {
      pipe.cancel()
      made.wait()
    }
    return try use(pipe)
  }
}
