/// A self-check kiosk's account on the library's SIP2 server: what it logs in as, and how it
/// speaks. Its password is kept as a hash, apart from this.
public struct KioskAccount: Equatable, Sendable {
  /// What the kiosk logs in as (CN), and what its loans record as their desk.
  public var name: String
  /// The kiosk's place, its institution id (AO) in the replies.
  public var location: String
  public var encoding: SIP2Encoding
  public var terminator: SIP2Terminator
  public var checksums: SIP2Checksums
  /// The language of what the kiosk shows its reader (AF, the screen message).
  public var language: OverdueNotice.Language

  public init(
    name: String, location: String = "", encoding: SIP2Encoding = .utf8, terminator: SIP2Terminator = .cr,
    checksums: SIP2Checksums = .optional, language: OverdueNotice.Language = .english
  ) {
    self.name = name
    self.location = location
    self.encoding = encoding
    self.terminator = terminator
    self.checksums = checksums
    self.language = language
  }
}

/// What ends the messages the server sends a kiosk. A message it receives may end with either.
public enum SIP2Terminator: String, CaseIterable, Sendable {
  case cr, crlf

  public var bytes: [UInt8] { self == .cr ? [0x0D] : [0x0D, 0x0A] }
}

/// Whether a kiosk must send checksums. With `optional`, a message without one is taken; one
/// with a wrong checksum never is. The replies carry one when the kiosk's messages do.
public enum SIP2Checksums: String, CaseIterable, Sendable {
  case required, optional
}
