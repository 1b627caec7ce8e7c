/// How desks merge the state of a hold that two of them changed: an end (fulfilled, cancelled,
/// expired) stands against anything another desk did to the hold while it did not know of the
/// end, whatever the clocks say. A hold cancelled at one desk while another put a copy aside for
/// it stays cancelled, and the copy goes on (the desk that put it aside gives it to the next
/// hold). Only the desk that ended a hold takes the end back (an undone issue). Otherwise, as for
/// any field, the later change wins. The same at every desk, in whatever order changes arrive.
public enum HoldStateMerge {
  /// One side: the state, and the clock reading and desk of the change that set it (0 and ""
  /// when not known: a hold made whole by a change, or sent whole by a desk that joined).
  public struct Side: Sendable {
    public var state: HoldState
    public var clock: Int64
    public var desk: String

    public init(state: HoldState, clock: Int64, desk: String) {
      self.state = state
      self.clock = clock
      self.desk = desk
    }

    var version: FieldVersion { FieldVersion(rawClock: clock, desk: desk) }
  }

  /// Whether `incoming` replaces `current`.
  public static func replaces(_ current: Side, with incoming: Side) -> Bool {
    switch (current.state.isActive, incoming.state.isActive) {
    case (true, false):
      return true
    case (false, true):
      return incoming.desk == current.desk && incoming.clock > current.clock
    default:
      return incoming.version.replaces(current.version)
    }
  }
}
