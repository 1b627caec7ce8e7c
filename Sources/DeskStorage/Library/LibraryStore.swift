import CSQLite
import DeskDomain

#if canImport(Glibc)
  import Glibc
#endif

/// The library in one SQLite file: books, readers, addresses, loans and the circulation
/// policy. The store opens the file and keeps its one connection; what it keeps is reached
/// through its parts, one for each kind of thing (`books`, `readers`, `circulation`, `holds`,
/// `policy`, `vocabulary`, `sync`, `conflicts`: `StoreParts.swift`). Every method that writes
/// runs in one transaction, all of it or nothing; `transaction` makes calls to several parts one.
public final class LibraryStore {
  /// The connection, the store's own: screens and commands go through the store's methods. The
  /// benchmark and the tests that inspect it read it directly (`@_spi(Connection) import DeskStorage`).
  @_spi(Connection) public let database: Database
  public let clock: any Clock
  /// The vocabularies of books and readers, with the state of the tables they were read at.
  var vocabularies: [String: VocabularyStore.LoadedVocabulary] = [:]
  /// Inside `addingBooksInBulk`: the first book id not yet indexed and counted, and how many
  /// books one statement indexes.
  var bulkBooksFrom: Int?
  var bulkIndexSlice = LibraryStore.bulkIndexSlice
  /// Inside `addingBooksInBulk` into a library with no books: the vocabulary is read from the
  /// index at the end (`VocabularyStore.addIndexWords`), not split from every new text.
  var bulkWordsFromIndex = false
  /// The desk this connection's loans, returns, renewals and visits record instead of the file's
  /// own desk name: a kiosk's name, for the SIP2 server's connection of that kiosk.
  public var actingDesk: String?
  /// While a pulled batch is applied: whether changes made here wait in the outbox.
  var hasPending = false
  /// Opened by a command that only reads, on a file this user cannot write: every write is
  /// refused by SQLite, and nothing is made beside the file.
  public let isReadOnly: Bool
  /// The library file, as it was given (the connection of a read-only one names it by a URI).
  public let path: String

  /// True inside a transaction of this store (what it wrote there is not yet seen by others).
  public var isInTransaction: Bool { !database.isAutocommit }

  /// A handle that stops the statement running on this store's connection, from any thread.
  public var interruption: StoreInterruption { StoreInterruption(database: database) }

  /// Opens the file at `path`, creating it (and its folder) when missing, and brings its
  /// schema up to date. A file that cannot be used is left exactly as it was.
  /// `busyTimeoutMilliseconds` is how long a write waits for another desk's write to finish.
  /// `upgrading` hears of a library written by an older version, before its schema is brought up
  /// to date (which, for a large catalogue, may rebuild an index for some seconds).
  public init(
    path: String, clock: any Clock = SystemClock(), create: Bool = true, readingOnly: Bool = false,
    busyTimeoutMilliseconds: Int32 = 5000, upgrading: (_ from: Int, _ to: Int) -> Void = { _, _ in }
  ) throws(StoreError) {
    self.clock = clock
    self.path = path
    if create { try LibraryStore.createParentFolder(of: path) }
    // A file (or folder) this user cannot write is never opened for writing: SQLite would open
    // it read-only without a word, and its first read would leave -wal and -shm files owned by
    // this user beside it, which can stop the owner's desk from writing.
    let writable = access(path, F_OK) != 0 || LibraryStore.canWrite(path)
    if !writable && !readingOnly { throw .readOnly(path: path) }
    isReadOnly = !writable
    do {
      database =
        isReadOnly
        ? try LibraryStore.openForReading(path, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        : try Database(
          path: path, flags: create ? [.readWrite, .create] : [.readWrite],
          busyTimeoutMilliseconds: busyTimeoutMilliseconds, clockOffMachine: clock.millisecondsOffMachine)
      try defineDiaryFunctions()
    } catch {
      throw .cannotOpen(path: path, reason: error.message)
    }
    // Read before anything is written: a file that is not ours, or is newer, stays untouched.
    let version: Int
    do {
      version = try database.scalarInt("PRAGMA user_version")
    } catch let error as DatabaseError {
      throw LibraryStore.openError(error, path: path)
    } catch {
      throw .cannotOpen(path: path, reason: "\(error)")
    }
    guard version <= Migrations.latestVersion else {
      throw .newerSchema(path: path, found: version, supported: Migrations.latestVersion)
    }
    // Only an absent or empty file becomes a library: a file of another program (its tables,
    // or a version number this program never wrote on a file without a library's tables) is
    // refused before a byte of it changes.
    let tables: [String]
    do {
      tables = try database.query(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
      ) { $0.string(0) }
    } catch let error as DatabaseError {
      throw LibraryStore.openError(error, path: path)
    } catch {
      throw .cannotOpen(path: path, reason: "\(error)")
    }
    let isLibrary = version > 0 && Set(tables).isSuperset(of: ["book", "reader", "loan", "setting"])
    guard isLibrary || (version == 0 && tables.isEmpty) else {
      throw .notALibrary(path: path, tables: tables, version: version)
    }
    if isReadOnly {
      guard version == Migrations.latestVersion else {
        throw .cannotUpgradeReadOnly(path: path, found: version, latest: Migrations.latestVersion)
      }
      try? sync.adoptClockCorrection()
      return
    }
    if database.isReadOnly { throw .readOnly(path: path) }
    do {
      // WAL lets readers go on while a desk writes; FULL makes a commit survive power loss.
      // Temporary tables and statement journals in memory, set once before any statement is
      // prepared (changed later, it empties the connection's schemas: every statement prepared
      // again). On file, a desk among fifty syncing wrote 50 MB in 10 s to them (the statement
      // journal of each pulled change that writes through triggers, the pull's temporary tables),
      // and took 19.4 ms of processor time a round against 14.4 in memory (16.7 with statement
      // journals spilling at 4 MiB instead of SQLite's 64 KiB). Indexes made again after a bulk
      // write sort on disk (`restoreIndexesPutOff`).
      try database.executeScript(
        "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON; PRAGMA temp_store = MEMORY")
      // Only a file that needs migrating takes the write lock here; others open while a desk writes.
      if version < Migrations.latestVersion { try migrate(upgrading: upgrading) }
      try sync.adoptClockCorrection()
      // A bulk write cut before it made its indexes again. One still under way in another
      // program holds the write lock, and makes them itself at its end: not waited for (a
      // `book list` during an import waited the whole busy timeout, 5 s, before it answered).
      if try hasIndexesPutOff() { database.withoutWaitingForLocks { try? restoreIndexesPutOff() } }
      // A row of `bulk_write` lives only inside a bulk write's transaction, never seen by another
      // connection: one seen here was committed from outside the program, and would keep the
      // books' index and count from every change after it.
      if try database.scalarInt("SELECT EXISTS (SELECT 1 FROM bulk_write)") == 1 {
        database.withoutWaitingForLocks { try? database.executeScript("DELETE FROM bulk_write") }
      }
    } catch let error as DatabaseError {
      throw LibraryStore.openError(error, path: path)
    } catch let error as StoreError {
      throw error
    } catch {
      throw .cannotOpen(path: path, reason: "\(error)")
    }
  }

  /// The schema version this program writes.
  public static var schemaVersion: Int { Migrations.latestVersion }

  private func migrate(upgrading: (Int, Int) -> Void) throws {
    // A migration may read whole tables several times (the work diary's sums read every loan once
    // a figure): through a memory map SQLite reads the file's pages where the system keeps them,
    // instead of copying each into its own small cache again.
    try database.executeScript("PRAGMA mmap_size = 2147418112")
    defer { try? database.executeScript("PRAGMA mmap_size = 0") }
    try database.inTransaction {
      // Read again inside the write lock: another desk may have migrated meanwhile.
      let version = try database.scalarInt("PRAGMA user_version")
      guard version < Migrations.latestVersion else { return }
      if version > 0 { upgrading(version, Migrations.latestVersion) }
      for migration in Migrations.all[version...] {
        try database.executeScript(migration)
      }
      if (1..<9).contains(version) { try respaceCJK() }
      if (1..<25).contains(version) { try indexAllOtherISBNs() }
      // A migration may add a field that travels: the capture triggers follow the schema.
      try sync.settleCaptureTriggers()
      if version == 0 { try policy.seedPolicy() }
      // PRAGMA takes no bound parameters; the value is our own integer.
      try database.executeScript("PRAGMA user_version = \(Migrations.latestVersion)")
    }
  }

  /// Writes again the search text of the books and readers holding Chinese or Japanese text, now
  /// indexed a character a word (migration 9); the full-text triggers follow.
  private func respaceCJK() throws {
    let pattern = "*[\u{3040}-\u{9FFF}]*"
    let books = try database.query(
      "SELECT \(LibraryStore.bookColumns) FROM book b WHERE b.search_text GLOB ? OR b.title GLOB ?", pattern, pattern
    ) { try LibraryStore.decodeBook($0) }
    for book in books {
      try database.execute("UPDATE book SET search_text = ? WHERE uuid = ?", book.searchText, book.id.text)
    }
    let readers = try database.query(
      "SELECT \(ReaderStore.readerColumns) FROM \(ReaderStore.readerFrom) WHERE r.search_text GLOB ?", pattern
    ) { try ReaderStore.decodeReader($0) }
    for reader in readers {
      try database.execute("UPDATE reader SET search_text = ? WHERE uuid = ?", reader.searchText, reader.id.text)
    }
  }

  private static func openError(_ error: DatabaseError, path: String) -> StoreError {
    if error.isNotADatabase { return .notADatabase(path: path) }
    if error.isReadOnly { return .readOnly(path: path) }
    if error.isBusy { return .busy(path: path) }
    if error.code == SQLITE_CANTOPEN { return .cannotOpen(path: path, reason: error.message) }
    return .database(error)
  }

  /// Whether this user may write the file and its folder (where SQLite makes its -wal file).
  private static func canWrite(_ path: String) -> Bool {
    let folder = path.lastIndex(of: "/").map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
    return access(path, W_OK) == 0 && access(folder, W_OK) == 0
  }

  /// Opens a file this user may read but not write, making nothing beside it. With no -wal file,
  /// no desk has the file open and it holds every committed change: it is read as immutable,
  /// which needs no -shm. With a -wal (a desk is writing), it is read through that desk's
  /// -shm, which sees its latest commits.
  private static func openForReading(_ path: String, busyTimeoutMilliseconds: Int32) throws(DatabaseError)
    -> Database
  {
    var uri = "file:"
    // A URI path escapes what would end it or start an escape: ?, # and %.
    for scalar in path.unicodeScalars {
      switch scalar {
      case "?", "#", "%": uri += "%" + String(scalar.value, radix: 16, uppercase: true)
      default: uri.unicodeScalars.append(scalar)
      }
    }
    let hasLog = access(path + "-wal", F_OK) == 0
    return try Database(
      path: uri + (hasLog ? "?mode=ro" : "?immutable=1"), flags: [.readOnly, .uri],
      busyTimeoutMilliseconds: busyTimeoutMilliseconds)
  }

  private static func createParentFolder(of path: String) throws(StoreError) {
    guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return }
    let folder = String(path[..<slash])
    var components: [String] = []
    for part in folder.split(separator: "/", omittingEmptySubsequences: false) {
      components.append(String(part))
      let prefix = components.joined(separator: "/")
      guard !prefix.isEmpty else { continue }
      if mkdir(prefix, 0o755) != 0 && errno != EEXIST {
        throw .cannotOpen(path: path, reason: "cannot create folder \(prefix): \(String(cString: strerror(errno)))")
      }
    }
  }

  /// Runs `body` in one write transaction, turning database failures into `StoreError`.
  @discardableResult
  func write<T>(_ body: () throws -> T) throws(StoreError) -> T {
    try transaction(.immediate, body)
  }

  /// Runs `body` inside the transaction already open, as part of it (without a savepoint of its
  /// own: the caller's rollback undoes it), or in a transaction of its own when none is. For
  /// large writes inside a large transaction: under a savepoint SQLite keeps a copy of every page
  /// the savepoint touched, and every statement that writes through triggers walks that copy when
  /// it ends (measured: 72% of a 100,000-book join, growing with the batch and the file).
  func writeWithin<T>(_ body: () throws -> T) throws(StoreError) -> T {
    guard !database.isAutocommit else { return try write(body) }
    return try LibraryStore.storeErrors(body)
  }

  /// Runs `body` with commits that do not wait for the disk (`synchronous = NORMAL` in WAL):
  /// what it writes may be lost by a power cut, never half written. For what another copy keeps
  /// (the central) or a note of the desk's state.
  func notWaitingForTheDisk<T, Failure: Error>(_ body: () throws(Failure) -> T) throws(Failure) -> T {
    try? database.executeScript("PRAGMA synchronous = NORMAL")
    defer { try? database.executeScript("PRAGMA synchronous = FULL") }
    return try body()
  }

  /// Runs several store calls as one transaction: all of them or none.
  @discardableResult
  public func transaction<T>(_ body: () throws -> T) throws(StoreError) -> T {
    try write(body)
  }

  /// Runs several store calls as one transaction and then undoes them all: what they would do,
  /// without doing it (`--dry-run`).
  @discardableResult
  public func dryRun<T>(_ body: () throws -> T) throws(StoreError) -> T {
    try transaction(.immediate, commit: false, body)
  }

  /// Runs `body` as one read, on one snapshot of the file.
  func read<T>(_ body: () throws -> T) throws(StoreError) -> T {
    try transaction(.deferred, body)
  }

  private func transaction<T>(_ kind: Database.TransactionKind, commit: Bool = true, _ body: () throws -> T)
    throws(StoreError) -> T
  {
    try LibraryStore.storeErrors { try database.inTransaction(kind, commit: commit, body) }
  }

  /// Runs `body`, its errors told as the store's.
  private static func storeErrors<T>(_ body: () throws -> T) throws(StoreError) -> T {
    do {
      return try body()
    } catch let error as StoreError {
      throw error
    } catch let error as DatabaseError {
      throw .database(error)
    } catch {
      throw .database(DatabaseError(extendedCode: SQLITE_ERROR, message: "\(error)"))
    }
  }

  /// A mark of the library's state: equal marks mean nothing was committed in between, by this
  /// connection or any other. What only changes with the data (counts) is read again when it moves.
  public struct ChangeStamp: Hashable, Sendable {
    /// Moves with every commit of another connection (another program on the file, the sync).
    public let committedElsewhere: Int
    /// Rows this connection changed, ever: moves only with changes made here.
    public let changedHere: Int64
  }

  public func changeStamp() throws(StoreError) -> ChangeStamp {
    try read {
      ChangeStamp(
        committedElsewhere: try database.scalarInt("PRAGMA data_version"), changedHere: database.totalChanges)
    }
  }

  /// True when the database passes SQLite's own consistency check.
  public func integrityCheck() throws(StoreError) -> [String] {
    try read { try database.query("PRAGMA integrity_check") { $0.string(0) } }
  }

  var today: LocalDate { clock.now().date }

  /// True when the library has no books, readers or loans, deleted ones included.
  public func isEmpty() throws(StoreError) -> Bool {
    try read {
      try database.scalarInt(
        "SELECT (SELECT count(*) FROM book) + (SELECT count(*) FROM reader) + (SELECT count(*) FROM loan)") == 0
    }
  }
}

/// Stops what a store's connection is running, at its next step (it fails as interrupted): the
/// one thing safe to do to a store from another thread.
public struct StoreInterruption: @unchecked Sendable {
  let database: Database

  public func interrupt() {
    database.interrupt()
  }
}
