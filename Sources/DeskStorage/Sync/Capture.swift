/// The switch that tells the capture triggers whether what is written now is this desk's own act
/// (captured, sent to the central) or another desk's change being applied (not sent again):
/// `sync_desk.applying`, turned only here, and always put back as it was.
extension LibraryStore {
  /// Runs `body` as another desk's change, or as a move nobody else must hear of: nothing it
  /// writes is captured.
  func withoutCapture<T>(_ body: () throws -> T) throws -> T {
    try settingApplying(1, body)
  }

  /// Runs `body` as this desk's own act, even inside a batch being applied: what it writes is
  /// captured and sent on.
  func asThisDesk<T>(_ body: () throws -> T) throws -> T {
    try settingApplying(0, body)
  }

  private func settingApplying<T>(_ value: Int, _ body: () throws -> T) throws -> T {
    let before = try database.scalarInt("SELECT applying FROM sync_desk WHERE id = 1")
    try database.execute("UPDATE sync_desk SET applying = ? WHERE id = 1", value)
    defer { _ = try? database.execute("UPDATE sync_desk SET applying = ? WHERE id = 1", before) }
    return try body()
  }
}
