import DeskDomain

/// A part of the library's store, by what it keeps. Every part works on the store's one
/// connection and through its transactions: calls to several parts inside one
/// `LibraryStore.transaction` are one transaction, all of them or none.
protocol StorePart {
  var store: LibraryStore { get }
}

extension StorePart {
  var database: Database { store.database }
  var clock: any Clock { store.clock }
  var today: LocalDate { store.today }

  @discardableResult
  func write<T>(_ body: () throws -> T) throws(StoreError) -> T { try store.write(body) }

  func writeWithin<T>(_ body: () throws -> T) throws(StoreError) -> T { try store.writeWithin(body) }

  func read<T>(_ body: () throws -> T) throws(StoreError) -> T { try store.read(body) }
}

/// The books: found, listed, searched, added, changed and deleted, with what an ISBN look-up
/// offers and what an IRBIS import kept of each record.
public struct BookStore: StorePart {
  let store: LibraryStore
}

/// The readers and their addresses: found, listed, searched, added, changed and deleted.
public struct ReaderStore: StorePart {
  let store: LibraryStore
}

/// The loans: issued, taken back and renewed at the counter or by command, undone, recorded
/// from elsewhere, and overdue.
public struct CirculationStore: StorePart {
  let store: LibraryStore
}

/// Readers' holds on titles and copies, and the hold shelf.
public struct HoldStore: StorePart {
  let store: LibraryStore
}

/// The library's rules and settings: the circulation policy, reader categories, holidays, the
/// library's contacts and its other settings.
public struct PolicyStore: StorePart {
  let store: LibraryStore
}

/// The words of the catalogue and the readers, which the search corrects typing against.
public struct VocabularyStore: StorePart {
  let store: LibraryStore
}

/// This desk's tie to a central library: the changes it sends and those it takes in, and its
/// clock against the central's.
public struct SyncStore: StorePart {
  let store: LibraryStore
}

/// What two desks did that could not both stand: listed, described and settled.
public struct ConflictStore: StorePart {
  let store: LibraryStore
}

extension LibraryStore {
  public var books: BookStore { BookStore(store: self) }
  public var readers: ReaderStore { ReaderStore(store: self) }
  public var circulation: CirculationStore { CirculationStore(store: self) }
  public var holds: HoldStore { HoldStore(store: self) }
  public var policy: PolicyStore { PolicyStore(store: self) }
  public var vocabulary: VocabularyStore { VocabularyStore(store: self) }
  public var sync: SyncStore { SyncStore(store: self) }
  public var conflicts: ConflictStore { ConflictStore(store: self) }
}
