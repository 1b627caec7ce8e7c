import DeskDomain
import DeskStorage
import Synchronization

/// A count of batches moved, read from another thread.
public final class SyncProgress: Sendable {
  private let batches = Atomic<Int>(0)

  public var count: Int { batches.load(ordering: .relaxed) }

  func advance() {
    batches.add(1, ordering: .relaxed)
  }
}

/// What one sync did.
public struct SyncReport: Hashable, Sendable {
  /// Changes made here that the central took.
  public var pushed = 0
  /// Changes the central did not take: refused (a clash of numbers, a rule of a field), or held
  /// back with such a change.
  public var refused = 0
  /// Changes pulled from the central (this desk's own included: they come back in its order).
  public var pulled = 0
  public var applied = 0
  public var conflictsRaised = 0
  /// Copies on this desk's hold shelf whose holds another desk ended: where each goes now.
  public var holdShelfMoves: [HoldMove] = []
  /// How far the desk's clock was from the central's.
  public var clockOffset: ClockOffset = .zero
}
