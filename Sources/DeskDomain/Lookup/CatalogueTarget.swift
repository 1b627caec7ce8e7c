/// Another library's catalogue that the desk copies records from: a Z39.50 server (`host:port/
/// database`) or an SRU address, the MARC format it sends and, where its records do not say,
/// their character set. A target that asks for a login names the environment variable holding
/// its password: the library file keeps no password.
public struct CatalogueTarget: Equatable, Sendable {
  public enum Endpoint: Equatable, Sendable {
    case z3950(host: String, port: Int, database: String)
    case sru(url: String)
  }

  /// The MARC format of the target's records.
  public enum Syntax: String, CaseIterable, Sendable {
    case rusmarc, unimarc, marc21

    /// Z39.50's name of the record syntax (its preferredRecordSyntax).
    public var z3950Name: String {
      switch self {
      case .rusmarc: "rusmarc"
      case .unimarc: "unimarc"
      case .marc21: "usmarc"
      }
    }
  }

  /// The character set of records that do not say theirs (MARC 21's leader position 9 blank,
  /// UNIMARC without 100 $a): nil reads them as the import does.
  public enum Encoding: String, CaseIterable, Sendable {
    case utf8 = "utf-8"
    case marc8 = "marc-8"
    case windows1251 = "windows-1251"

    public var characterSet: MARCCharacterSet {
      switch self {
      case .utf8: .utf8
      case .marc8: .marc8
      case .windows1251: .windows1251
      }
    }
  }

  public var name: String
  public var endpoint: Endpoint
  public var syntax: Syntax
  public var encoding: Encoding?
  public var user: String?
  /// The environment variable that holds the password.
  public var passwordVariable: String?
  /// The SRU record schema asked for, when the target does not call MARCXML `marcxml` (the DNB
  /// calls it `MARC21-xml`); nil for Z39.50 targets.
  public var schema: String?

  /// The name most SRU servers give MARCXML.
  public static let defaultSchema = "marcxml"

  public init(
    name: String, endpoint: Endpoint, syntax: Syntax, encoding: Encoding? = nil, user: String? = nil,
    passwordVariable: String? = nil, schema: String? = nil
  ) {
    self.name = name
    self.endpoint = endpoint
    self.syntax = syntax
    self.encoding = encoding
    self.user = user
    self.passwordVariable = passwordVariable
    self.schema = schema
  }

  /// The record schema an SRU target is asked for.
  public var recordSchema: String { schema ?? Self.defaultSchema }

  /// An SRU record schema's name: letters, digits and `-_.:/`, as servers name them.
  public static func checkedSchema(_ text: String) throws(TargetError) -> String {
    let schema = text.trimmingWhitespace()
    guard !schema.isEmpty, schema.count <= 100,
      schema.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.:/".contains($0)) })
    else { throw .badSchema(text) }
    return schema
  }

  /// The names of the look-up's web catalogues, which a target may not take.
  public static let reservedNames: Set<String> = ["google", "openlibrary"]

  /// A target's name: letters, digits, `-` and `_`, as it is written in the look-up's order.
  public static func checkedName(_ text: String) throws(TargetError) -> String {
    let name = text.trimmingWhitespace()
    guard !name.isEmpty, name.count <= 40,
      name.unicodeScalars.allSatisfy({
        $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_"
      })
    else { throw .badName(text) }
    guard !reservedNames.contains(name.lowercased()) else { throw .reservedName(name) }
    return name
  }

  /// `host:port/database`, as Z39.50 targets are listed (`z3950.loc.gov:7090/Voyager`).
  public static func z3950(_ text: String) throws(TargetError) -> Endpoint {
    let trimmed = text.trimmingWhitespace()
    guard let slash = trimmed.firstIndex(of: "/") else { throw .badZ3950Address(text) }
    let database = String(trimmed[trimmed.index(after: slash)...])
    let hostAndPort = trimmed[..<slash]
    guard let colon = hostAndPort.lastIndex(of: ":"),
      let port = Int(hostAndPort[hostAndPort.index(after: colon)...]), (1...65535).contains(port)
    else { throw .badZ3950Address(text) }
    let host = String(hostAndPort[..<colon])
    guard !host.isEmpty, !database.isEmpty, host.allSatisfy(Self.isAddressCharacter),
      database.allSatisfy(Self.isAddressCharacter)
    else { throw .badZ3950Address(text) }
    return .z3950(host: host, port: port, database: database)
  }

  /// An SRU base address: `http://` or `https://`, a host, a path.
  public static func sru(_ text: String) throws(TargetError) -> Endpoint {
    let url = text.trimmingWhitespace()
    let lower = url.lowercased()
    guard lower.hasPrefix("http://") || lower.hasPrefix("https://"), !url.contains("?"),
      url.split(separator: "/").count >= 2, url.allSatisfy(Self.isAddressCharacter)
    else { throw .badSRUAddress(text) }
    return .sru(url: url)
  }

  private static func isAddressCharacter(_ character: Character) -> Bool {
    character.isASCII && !character.isWhitespace && character != "\"" && character != "'"
      && (character.asciiValue ?? 0) >= 0x21
  }

  /// The address as the target is listed and YAZ connects to it.
  public var address: String {
    switch endpoint {
    case .z3950(let host, let port, let database): "\(host):\(port)/\(database)"
    case .sru(let url): url
    }
  }

  public var isSRU: Bool {
    if case .sru = endpoint { return true }
    return false
  }
}

/// Why a target cannot be added or used.
public enum TargetError: Error, Equatable, Sendable, CustomStringConvertible {
  case badName(String)
  case reservedName(String)
  case badZ3950Address(String)
  case badSRUAddress(String)
  case badSchema(String)
  case schemaWithoutSRU
  case exists(String)
  case unknown(String)
  /// The target's password variable is not set in the environment.
  case noPassword(target: String, variable: String)

  public var description: String {
    switch self {
    case .badName(let name):
      "«\(name)» cannot name a target: use letters, digits, - and _ (at most 40)"
    case .reservedName(let name):
      "«\(name)» is the name of a web catalogue of the look-up: choose another name for the target"
    case .badZ3950Address(let text):
      "«\(text)» is not a Z39.50 address: write host:port/database (z3950.loc.gov:7090/Voyager)"
    case .badSRUAddress(let text):
      "«\(text)» is not an SRU address: write http:// or https://, the host and the path, without ?"
    case .badSchema(let text):
      "«\(text)» is not a record schema's name: write it as the server lists it (marcxml, MARC21-xml)"
    case .schemaWithoutSRU: "a record schema is asked of SRU targets only: leave --schema out for Z39.50"
    case .exists(let name): "a target named «\(name)» exists: remove it first, or choose another name"
    case .unknown(let name): "no target is named «\(name)» (see 'circdesk target list')"
    case .noPassword(let target, let variable):
      "the target «\(target)» logs in with the password in \(variable), which is not set"
    }
  }
}
