import DeskBenchmark
import DeskTestSupport
import Testing

/// Five desks through a seeded week against a real PostgreSQL server, syncs cut by SIGKILL and by
/// stopping the server, desks leaving for days and joining again, renewals made apart, a hostile
/// desk pushing forged changes every day, desks whose clocks are a day ahead, an hour and a half
/// behind and 40 seconds ahead, a desk synced by two processes at once; at the end every desk and the central hold the same library, count every renewal, the
/// later edit stands whatever the clocks, and the central holds nothing forged.
@Suite(.serialized) struct SimulationTests {
  @Test(arguments: [1 as UInt64, 2, 4])
  func fiveDesksThroughAWeekEndAlike(seed: UInt64) throws {
    let server = try PostgresServer()
    let folder = TemporaryFolder()
    try server.createDatabase("library")
    var simulation = SyncSimulation(
      seed: seed, folder: folder.path, centralURL: server.url(database: "library"), program: circdeskPath,
      stopServer: { try server.stop() }, startServer: { try server.start() })
    simulation.actionsPerDay = 40
    let outcome = try simulation.run()
    #expect(outcome.problems.isEmpty, "\(outcome.problems)")
    #expect(outcome.issues > 20 && outcome.returns > 10 && outcome.renewals > 5)
    #expect(outcome.killedSyncs > 0 && outcome.serverStops > 0, "the week cut syncs both ways")
    #expect(outcome.rejoins > 0, "desks left and joined again")
    #expect(outcome.records > 100)
    #expect(outcome.doubleIssues > 0 && outcome.clashes > 0, "these weeks issue books twice and give numbers twice")
    #expect(outcome.renewalConflicts > 0, "renewals made apart meet past a limit, or after a return")
    #expect(outcome.hostileRefused > 50, "a hostile desk pushed forged changes every day")
    #expect(outcome.skewedDesks == 2, "a desk a day ahead and one behind, each knowing it")
    #expect(outcome.laterEditsStanding == 5, "the later edit stands at every desk, whatever the clocks say")
    #expect(outcome.concurrentSyncs > 0, "a desk synced in two processes at once")
  }
}
