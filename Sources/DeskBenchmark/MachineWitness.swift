/// A fixed computation timed beside the desk's own runs, to tell the desk's slow run from the
/// machine's slow moment. It makes no system call and touches no file: 5,000 dependent reads
/// over 16 MB, about 1 ms. On a shared two-core virtual machine a loop like it (in C, 1.17 ms on
/// average), timed 102,849 times in a row over two minutes, took over 2 ms in 7% of its runs and
/// up to 13.8 ms, in stretches of a few seconds; a keystroke timed in such a stretch is slow
/// for the same reason, not for its own work.
public final class MachineWitness {
  private var cells: [UInt32]
  /// Kept so that the reads are not optimised away.
  private var sum: UInt32 = 0

  public init() {
    cells = (0..<(1 << 22)).map { UInt32(truncatingIfNeeded: $0 &* 2_654_435_761) }
  }

  /// One run of the computation, in milliseconds.
  public func sample() -> Double {
    let start = monotonicMilliseconds()
    let mask = UInt32(cells.count - 1)
    var index = sum
    cells.withUnsafeBufferPointer { cells in
      for step in 0..<UInt32(5_000) {
        index = cells[Int(index & mask)] ^ step
        sum &+= index
      }
    }
    return monotonicMilliseconds() - start
  }

  /// Runs `body` `count` times, as `time` does, and the computation after each: the runs of
  /// `body`, each beside the computation timed just after it.
  public func time(_ count: Int, _ body: () throws -> Void) rethrows -> (runs: [Double], witness: [Double]) {
    var runs: [Double] = []
    var witness: [Double] = []
    for _ in 0..<count {
      runs += try DeskBenchmark.time(1, body)
      witness.append(sample())
    }
    return (runs, witness)
  }
}
