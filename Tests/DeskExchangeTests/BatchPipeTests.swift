import DeskDomain
import DeskTestSupport
import Dispatch
import Testing

/// The pipe between an import's reading and writing threads.
@Suite struct BatchPipeTests {
  struct Broken: Error {}

  @Test func carriesBatchesInOrderThenTheEndOrTheFailure() throws {
    let pipe = BatchPipe<Int>(capacity: 2)
    let done = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      for start in stride(from: 0, to: 100, by: 10) { _ = pipe.send(Array(start..<(start + 10))) }
      pipe.finish(throwing: Broken())
      done.signal()
    }
    var received: [Int] = []
    #expect(throws: Broken.self) {
      while let batch = try pipe.receive() { received += batch }
    }
    done.wait()
    #expect(received == Array(0..<100), "every batch before the failure, in order")
  }

  @Test func aReceiverThatStopsReleasesAWaitingSender() {
    var pipe: BatchPipe<Int>? = BatchPipe<Int>(capacity: 1)
    let sent = Locked(0)
    let done = DispatchSemaphore(value: 0)
    DispatchQueue.global().async { [pipe] in
      // The second batch waits for room that never comes: the receiver stops instead.
      while let pipe, pipe.send([1]) { sent.update { $0 += 1 } }
      done.signal()
    }
    // Once the first batch is in, the sender waits.
    for _ in 0..<1000 where sent.value == 0 { _ = done.wait(timeout: .now() + 0.01) }
    #expect(sent.value == 1)
    #expect(done.wait(timeout: .now() + 0.2) == .timedOut, "the sender waits for room")
    pipe?.cancel()
    #expect(done.wait(timeout: .now() + 10) == .success, "and learns that nobody listens")
    #expect(sent.value == 1)
    // Freed with a batch never taken: libdispatch would stop the program if a semaphore were
    // left below its starting value.
    pipe = nil
  }
}
