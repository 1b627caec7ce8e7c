/// Who a library file is to centrals when it joins one.
public enum DeskStanding: Hashable, Sendable {
  /// Never joined a central, or forgot it (`central leave --forget`).
  case alone
  /// Tied to a library's central already: joining again finishes what a cut join left.
  case tied(library: String, desk: String)
  /// Left a library's central: it kept its id, its clocks and the changes it made since.
  case left(library: String, desk: String)
  /// A join of it was cut after it noted its id, before it was tied.
  case joining(library: String, desk: String)
}

/// Why a desk cannot join a central.
public enum JoinRefusal: Error, Hashable, Sendable {
  /// The file is tied to another library's central.
  case otherLibrary(desk: String, central: String)
}

/// What joining a central does, decided from who the desk is to it: the one place where a new
/// desk, a desk joining again after days alone and a join cut half-way are told apart.
public struct JoinPlan: Hashable, Sendable {
  /// The desk's id at the central: its own again when it was known there.
  public var deskID: String
  /// The id is noted in the file before the central hears of it, so that a join cut from then
  /// on is taken up by the next under the same id (and name).
  public var notesIdentityFirst: Bool
  /// Every record of the file goes to the central as it stands: a new desk bringing a library.
  public var sendsRecords: Bool
  /// The circulation rules go too: the first desk's become the library's.
  public var sendsPolicy: Bool
  /// The others' work is taken before the desk sends its own: a desk that was away sends only
  /// what it changed, each field with its own clock, after hearing what is newer.
  public var pullsFirst: Bool

  public init(deskID: String, notesIdentityFirst: Bool, sendsRecords: Bool, sendsPolicy: Bool, pullsFirst: Bool) {
    self.deskID = deskID
    self.notesIdentityFirst = notesIdentityFirst
    self.sendsRecords = sendsRecords
    self.sendsPolicy = sendsPolicy
    self.pullsFirst = pullsFirst
  }

  /// The plan for a desk of `standing` joining the central of library `library`.
  /// - Parameters:
  ///   - fileHasRecords: the file holds books, readers or loans of its own.
  ///   - centralHasPolicy: some desk already gave the library its circulation rules.
  ///   - newDeskID: the id a desk new to this library takes.
  public static func joining(
    _ library: String, standing: DeskStanding, fileHasRecords: Bool, centralHasPolicy: Bool, newDeskID: String
  ) throws(JoinRefusal) -> JoinPlan {
    switch standing {
    case .tied(let tiedLibrary, let desk):
      guard tiedLibrary == library else { throw .otherLibrary(desk: tiedLibrary, central: library) }
      // What the first attempt queued waits in the outbox; nothing is queued twice.
      return JoinPlan(
        deskID: desk, notesIdentityFirst: false, sendsRecords: false, sendsPolicy: false, pullsFirst: false)
    case .left(library, let desk):
      return JoinPlan(
        deskID: desk, notesIdentityFirst: true, sendsRecords: false, sendsPolicy: false, pullsFirst: true)
    case .joining(library, let desk):
      return JoinPlan(
        deskID: desk, notesIdentityFirst: true, sendsRecords: fileHasRecords, sendsPolicy: !centralHasPolicy,
        pullsFirst: false)
    case .alone, .left, .joining:
      // Who it was to another library is forgotten: to this one it is a new desk.
      return JoinPlan(
        deskID: newDeskID, notesIdentityFirst: true, sendsRecords: fileHasRecords, sendsPolicy: !centralHasPolicy,
        pullsFirst: false)
    }
  }
}
