import Testing

@testable import DeskDomain

/// The rules by which desks merge what they did apart, each on its own and over every case: the
/// same values must stand at every desk, whatever order the changes arrive in (a desk's own
/// changes always arrive in its order).
struct SyncRulesTests {
  private let desks = ["1c9e…", "7a02…"]
  private let clocks: [Int64] = [1 << 16, 1 << 16 + 1, 2 << 16]

  private var versions: [FieldVersion] {
    desks.flatMap { desk in clocks.map { FieldVersion(rawClock: $0, desk: desk) } }
  }

  @Test func theLaterClockStandsAndATieGoesToTheGreaterDesk() {
    let early = FieldVersion(rawClock: 1 << 16, desk: "b")
    #expect(FieldVersion(rawClock: 2 << 16, desk: "a").replaces(early))
    #expect(FieldVersion(rawClock: 1 << 16 + 1, desk: "a").replaces(early), "the counter orders within a millisecond")
    #expect(FieldVersion(rawClock: 1 << 16, desk: "c").replaces(early))
    #expect(!FieldVersion(rawClock: 1 << 16, desk: "a").replaces(early))
    #expect(!early.replaces(early), "the same change twice changes nothing")
    #expect(early.replaces(nil), "a value with no version known here takes any change")
  }

  /// Per-field last-writer-wins is a total order: for any two changes exactly one stands, the
  /// same whichever came first.
  @Test func anyTwoChangesOfAFieldEndTheSameInEitherOrder() {
    func merge(_ current: FieldVersion?, _ incoming: FieldVersion) -> FieldVersion? {
      incoming.replaces(current) ? incoming : current
    }
    for a in versions {
      for b in versions {
        for start in [nil] + versions {
          #expect(merge(merge(start, a), b) == merge(merge(start, b), a), "\(a) \(b) from \(String(describing: start))")
        }
      }
    }
  }

  /// A hold's state: every pair of changes, from every starting state, at one desk or two, ends
  /// the same in any order the central may deliver them (one desk's changes in its own order).
  @Test func anyTwoChangesOfAHoldsStateEndTheSameInAnyOrderTheCentralCanGive() {
    typealias Side = HoldStateMerge.Side
    func merge(_ current: Side, _ incoming: Side) -> Side {
      HoldStateMerge.replaces(current, with: incoming) ? incoming : current
    }
    let sides = HoldState.allCases.flatMap { state in
      versions.map { Side(state: state, clock: $0.clock.rawValue, desk: $0.desk) }
    }
    // The state every desk started from: known before either change (clock 0: a hold made whole).
    let starts = HoldState.allCases.filter(\.isActive).map { Side(state: $0, clock: 0, desk: "") }
    var checked = 0
    for start in starts {
      for a in sides {
        for b in sides where !(a.desk == b.desk && a.clock == b.clock) {
          // A desk's own changes reach the others in the order it made them.
          if a.desk == b.desk { guard a.clock < b.clock else { continue } }
          let inOrder = merge(merge(start, a), b)
          if a.desk == b.desk {
            // Only one order exists; an end at a desk is taken back only by that desk, later.
            if !a.state.isActive, b.state.isActive { #expect(inOrder.state == b.state) }
            continue
          }
          let reversed = merge(merge(start, b), a)
          #expect(
            inOrder.state == reversed.state && inOrder.clock == reversed.clock,
            "from \(start.state): \(a.state)@\(a.clock)/\(a.desk) and \(b.state)@\(b.clock)/\(b.desk)")
          // An end stands against what another desk did without knowing of it.
          if a.state.isActive != b.state.isActive {
            #expect(!inOrder.state.isActive, "\(a.state) and \(b.state)")
          }
          checked += 1
        }
      }
    }
    #expect(checked == 2 * 2 * 15 * 15, "every pair of two desks' changes, from both active states")
  }
}

/// Which fields of another desk's change take their value here (`FieldMerge`).
struct FieldMergeTests {
  private let here = "5d31…"
  private let others = ["1c9e…", "7a02…"]
  private let clocks: [Int64] = [1 << 16, 1 << 16 + 1, 2 << 16]

  private func change(_ version: FieldVersion, _ fields: [String] = ["title"], kind: RecordKind = .book)
    -> IncomingChange
  {
    IncomingChange(version: version, kind: kind, fields: fields)
  }

  /// Two other desks' changes of a field, and perhaps one made here and not yet sent: whatever
  /// order the two arrive in, the field ends with the latest of the three, as it does at the
  /// desks that hear of this desk's change later.
  @Test func aFieldEndsWithTheLatestChangeOfAnyDeskInEitherOrder() {
    let theirs = others.flatMap { desk in clocks.map { FieldVersion(rawClock: $0, desk: desk) } }
    let mine = [nil] + clocks.map { FieldVersion(rawClock: $0, desk: here) }
    var checked = 0
    for own in mine {
      for a in theirs {
        for b in theirs where a != b {
          var ends: [FieldVersion?] = []
          for order in [[a, b], [b, a]] {
            var known = KnownRecord(pending: own.map { ["title": $0.clock] } ?? [:])
            var value = own
            for version in order
            where FieldMerge.winners(of: change(version), thisDesk: here, known: known) == ["title"] {
              known.stored["title"] = version
              value = version
            }
            ends.append(value)
          }
          let latest = ([own, a, b].compactMap { $0 }).max()
          #expect(ends == [latest, latest], "own \(String(describing: own)), \(a), \(b)")
          checked += 1
        }
      }
    }
    #expect(checked == 4 * 6 * 5)
  }

  @Test func onlyTheFieldsChangedLaterHereKeepTheirValues() {
    let incoming = FieldVersion(rawClock: 2 << 16, desk: others[0])
    let known = KnownRecord(
      stored: ["title": FieldVersion(rawClock: 3 << 16, desk: others[1])],
      pending: ["publisher": HybridTimestamp(rawValue: 3 << 16)])
    #expect(
      FieldMerge.winners(of: change(incoming, ["title", "publisher", "year"]), thisDesk: here, known: known) == [
        "year"
      ])
  }

  /// A record this desk sent whole when it joined holds every field as of that reading: an
  /// older change of another desk gives way even for fields with no version here.
  @Test func aRecordSentWholeOnJoiningStandsAgainstOlderChanges() {
    let known = KnownRecord(sentWhole: HybridTimestamp(rawValue: 2 << 16))
    let older = FieldVersion(rawClock: 1 << 16, desk: others[1])
    let newer = FieldVersion(rawClock: 3 << 16, desk: others[0])
    #expect(FieldMerge.winners(of: change(older, ["title", "year"]), thisDesk: here, known: known).isEmpty)
    #expect(
      FieldMerge.winners(of: change(newer, ["title", "year"]), thisDesk: here, known: known) == ["title", "year"])
    // A pending change later than the reading still counts.
    var edited = known
    edited.pending["title"] = HybridTimestamp(rawValue: 4 << 16)
    #expect(FieldMerge.winners(of: change(newer, ["title", "year"]), thisDesk: here, known: edited) == ["year"])
  }

  /// A settled double issue keeps its loan open against a return made before the settlement;
  /// a later return closes it, and the loan's other fields merge as usual.
  @Test func aLoanKeptOpenBySettlementStandsAgainstAnOlderReturn() {
    let known = KnownRecord(keptOpen: HybridTimestamp(rawValue: 2 << 16))
    let fields = ["returned_at", "due_date"]
    let older = FieldVersion(rawClock: 1 << 16, desk: others[0])
    let newer = FieldVersion(rawClock: 3 << 16, desk: others[0])
    #expect(FieldMerge.winners(of: change(older, fields, kind: .loan), thisDesk: here, known: known) == ["due_date"])
    #expect(FieldMerge.winners(of: change(newer, fields, kind: .loan), thisDesk: here, known: known) == fields)
    #expect(
      FieldMerge.winners(of: change(older, fields, kind: .book), thisDesk: here, known: known) == fields,
      "only a loan is kept open")
  }

  /// A hold's state goes by `HoldStateMerge` through the field merge too, against this desk's
  /// pending change or the stored version: for every pair of states and versions.
  @Test func aHoldsStateMergesByTheHoldRuleWhereverItsVersionIsKept() {
    var checked = 0
    for current in HoldState.allCases {
      for next in HoldState.allCases {
        for clock in clocks {
          for (desk, pending) in [(others[1], false), (here, true)] {
            for incoming in others.flatMap({ desk in clocks.map { FieldVersion(rawClock: $0, desk: desk) } }) {
              let version = FieldVersion(rawClock: clock, desk: desk)
              let known = KnownRecord(
                stored: pending ? [:] : ["state": version], pending: pending ? ["state": version.clock] : [:],
                holdState: current)
              let expected = HoldStateMerge.replaces(
                .init(state: current, clock: clock, desk: desk),
                with: .init(state: next, clock: incoming.clock.rawValue, desk: incoming.desk))
              let change = IncomingChange(version: incoming, kind: .hold, fields: ["state"], holdState: next)
              #expect((FieldMerge.winners(of: change, thisDesk: here, known: known) == ["state"]) == expected)
              checked += 1
            }
          }
        }
      }
    }
    #expect(checked == 5 * 5 * 3 * 2 * 6)
  }
}

/// How a desk joins a central (`JoinPlan`): every standing, with records or none, a library with
/// rules or without.
struct JoinPlanTests {
  private let library = "lib-A"
  private let other = "lib-B"

  private func plan(_ standing: DeskStanding, records: Bool = true, policy: Bool = false) throws(JoinRefusal)
    -> JoinPlan
  {
    try JoinPlan.joining(
      library, standing: standing, fileHasRecords: records, centralHasPolicy: policy, newDeskID: "new")
  }

  @Test func everyStandingJoinsAsItShould() throws {
    for records in [false, true] {
      for policy in [false, true] {
        // A new desk brings what it has, and the rules when the library has none yet.
        let new = try plan(.alone, records: records, policy: policy)
        #expect(
          new
            == JoinPlan(
              deskID: "new", notesIdentityFirst: true, sendsRecords: records, sendsPolicy: !policy, pullsFirst: false))
        // A desk that left joins again as itself, takes the others' work first, sends no copy.
        #expect(
          try plan(.left(library: library, desk: "d"), records: records, policy: policy)
            == JoinPlan(
              deskID: "d", notesIdentityFirst: true, sendsRecords: false, sendsPolicy: false, pullsFirst: true))
        // A join cut before the tie is done again under the same id.
        #expect(
          try plan(.joining(library: library, desk: "d"), records: records, policy: policy)
            == JoinPlan(
              deskID: "d", notesIdentityFirst: true, sendsRecords: records, sendsPolicy: !policy, pullsFirst: false))
        // A join cut after the tie: what it queued waits in the outbox, nothing is queued twice.
        #expect(
          try plan(.tied(library: library, desk: "d"), records: records, policy: policy)
            == JoinPlan(
              deskID: "d", notesIdentityFirst: false, sendsRecords: false, sendsPolicy: false, pullsFirst: false))
        // Who it was to another library's central is no standing at this one.
        for away in [DeskStanding.left(library: other, desk: "d"), .joining(library: other, desk: "d")] {
          #expect(try plan(away, records: records, policy: policy) == new)
        }
      }
    }
  }

  @Test func aDeskTiedToAnotherLibraryIsRefused() {
    #expect(throws: JoinRefusal.otherLibrary(desk: other, central: library)) {
      try plan(.tied(library: other, desk: "d"))
    }
  }
}
