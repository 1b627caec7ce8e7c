import DeskDomain

/// The accounts of the self-check kiosks this file's SIP2 server lets in. The password hash is
/// made and checked by the server (Argon2); the store keeps it as given.
public struct KioskStore: StorePart {
  let store: LibraryStore

  /// Adds an account; false when one of that name is there already (nothing is changed then).
  @discardableResult
  public func add(_ account: KioskAccount, passwordHash: String) throws(StoreError) -> Bool {
    try write {
      let taken = try database.queryFirst("SELECT 1 FROM kiosk_account WHERE name = ?", account.name) { _ in true }
      guard taken == nil else { return false }
      try database.execute(
        """
        INSERT INTO kiosk_account(name, password_hash, location, encoding, terminator, checksums, language, created_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
        """, account.name, passwordHash, account.location, account.encoding.rawValue, account.terminator.rawValue,
        account.checksums.rawValue, account.language.rawValue, clock.now().instant.iso)
      return true
    }
  }

  /// Removes the account `name`; false when there is none.
  @discardableResult
  public func remove(name: String) throws(StoreError) -> Bool {
    try write {
      try database.execute("DELETE FROM kiosk_account WHERE name = ?", name) > 0
    }
  }

  /// The account `name` and its password hash, if there is one.
  public func account(name: String) throws(StoreError) -> (account: KioskAccount, passwordHash: String)? {
    try read {
      try database.queryFirst(
        "SELECT \(KioskStore.columns), password_hash FROM kiosk_account WHERE name = ?", name
      ) { (KioskStore.account($0), $0.string(6)) }
    }
  }

  public func list() throws(StoreError) -> [KioskAccount] {
    try read {
      try database.query("SELECT \(KioskStore.columns) FROM kiosk_account ORDER BY name") { KioskStore.account($0) }
    }
  }

  private static let columns = "name, location, encoding, terminator, checksums, language"

  /// A value this program did not write (the file edited by hand) is read as the default.
  private static func account(_ row: Row) -> KioskAccount {
    KioskAccount(
      name: row.string(0), location: row.string(1), encoding: SIP2Encoding(rawValue: row.string(2)) ?? .utf8,
      terminator: SIP2Terminator(rawValue: row.string(3)) ?? .cr,
      checksums: SIP2Checksums(rawValue: row.string(4)) ?? .optional,
      language: OverdueNotice.Language(rawValue: row.string(5)) ?? .english)
  }
}

extension LibraryStore {
  public var kiosks: KioskStore { KioskStore(store: self) }
}
