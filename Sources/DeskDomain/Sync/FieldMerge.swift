/// What a desk knows of one record when another desk's change of it arrives: read from the desk's
/// file by the storage, for `FieldMerge` to decide with.
public struct KnownRecord: Hashable, Sendable {
  /// The version that set each field's value here. A field not listed has the value the record
  /// came with (made whole by a change, or in the library before the desk joined).
  public var stored: [String: FieldVersion]
  /// This desk's own changes of the record that the central has not taken yet: the latest clock
  /// of each field.
  public var pending: [String: HybridTimestamp]
  /// Set for a record this desk sent whole when it joined: every field stands as of this clock.
  public var sentWhole: HybridTimestamp?
  /// Set for a loan that a settled double issue keeps open: the settlement's clock. A return
  /// made before it gives way (it came from a desk whose own settlement was overruled).
  public var keptOpen: HybridTimestamp?
  /// A hold's state here; nil for other records, or a hold not here yet.
  public var holdState: HoldState?

  public init(
    stored: [String: FieldVersion] = [:], pending: [String: HybridTimestamp] = [:], sentWhole: HybridTimestamp? = nil,
    keptOpen: HybridTimestamp? = nil, holdState: HoldState? = nil
  ) {
    self.stored = stored
    self.pending = pending
    self.sentWhole = sentWhole
    self.keptOpen = keptOpen
    self.holdState = holdState
  }
}

/// Another desk's change of a record, as the merge needs it: its version, the kind of record and
/// the fields it sets (a count's increments are not among them: they add whatever the clocks).
public struct IncomingChange: Hashable, Sendable {
  public var version: FieldVersion
  public var kind: RecordKind
  public var fields: [String]
  /// The state a change of a hold's `state` sets.
  public var holdState: HoldState?

  public init(version: FieldVersion, kind: RecordKind, fields: [String], holdState: HoldState? = nil) {
    self.version = version
    self.kind = kind
    self.fields = fields
    self.holdState = holdState
  }
}

/// Which fields of another desk's change take their value at this desk: the one decision of
/// per-field last-writer-wins, made the same at every desk. A field changed here later (sent or
/// not), or by a third desk later, keeps its value; a hold's state follows `HoldStateMerge`.
public enum FieldMerge {
  /// The fields of `change` whose values replace this desk's, in the change's order.
  public static func winners(of change: IncomingChange, thisDesk: String, known: KnownRecord) -> [String] {
    let incoming = change.version
    // This desk's own unsent changes are versions of its own.
    var mine = known.pending.mapValues { FieldVersion(clock: $0, desk: thisDesk) }
    func holdsAtLeast(_ field: String, _ clock: HybridTimestamp) {
      let floor = FieldVersion(clock: clock, desk: thisDesk)
      if let current = mine[field], current >= floor { return }
      mine[field] = floor
    }
    if let whole = known.sentWhole, !incoming.replaces(FieldVersion(clock: whole, desk: thisDesk)) {
      for field in change.fields { holdsAtLeast(field, whole) }
    }
    if change.kind == .loan, change.fields.contains("returned_at"), let settled = known.keptOpen,
      settled > incoming.clock
    {
      holdsAtLeast("returned_at", settled)
    }
    return change.fields.filter { field in
      if change.kind == .hold, field == "state" {
        guard let current = known.holdState, let next = change.holdState else { return true }
        let version = mine[field] ?? known.stored[field]
        return HoldStateMerge.replaces(
          .init(state: current, clock: version?.clock.rawValue ?? 0, desk: version?.desk ?? ""),
          with: .init(state: next, clock: incoming.clock.rawValue, desk: incoming.desk))
      }
      if let own = mine[field], !incoming.replaces(own) { return false }
      return incoming.replaces(known.stored[field])
    }
  }
}
