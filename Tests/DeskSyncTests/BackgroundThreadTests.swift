import DeskDomain
import DeskSync
import Dispatch
import Synchronization
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The desk's background sync runs below the screen's priority, its fetching thread too, and the
/// thread that started it keeps its own.
@Suite struct BackgroundThreadTests {
  private static func niceness() -> Int32 { getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) }

  @Test func theWorkRunsBelowItsStartersPriorityAndWhatItStartsToo() {
    let before = BackgroundThreadTests.niceness()
    let seen = Mutex<(sync: Int32, fetch: Int32, own: Bool)?>(nil)
    let done = DispatchSemaphore(value: 0)
    let starter = pthread_self()
    BackgroundThread.start(lowered: BackgroundThread.niceness) {
      let sync = BackgroundThreadTests.niceness()
      let own = pthread_equal(pthread_self(), starter) == 0
      BackgroundThread.start {
        seen.withLock { $0 = (sync, BackgroundThreadTests.niceness(), own) }
        done.signal()
      }
    }
    #expect(done.wait(timeout: .now() + .seconds(10)) == .success)
    let result = seen.withLock { $0 }
    #expect(result?.sync == min(19, before + BackgroundThread.niceness))
    #expect(result?.fetch == result?.sync, "a thread it starts runs at its priority")
    #expect(result?.own == true, "a thread of its own")
    #expect(BackgroundThreadTests.niceness() == before, "the starter's own is unchanged")
  }
}
