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
