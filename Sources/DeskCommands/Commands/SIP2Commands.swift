import DeskDomain
import DeskKiosks
import DeskStorage

#if canImport(Glibc)
  import Glibc
#endif

/// `circdesk sip2 serve`: the SIP2 server self-check kiosks and book drops talk to.
struct SIP2Serve: DeskCommand {
  static let listen = CommandOption<String>(
    "--listen", value: "<address:port>", help: "Where kiosks connect (default 127.0.0.1:6001; 0.0.0.0:6001 for all).")
  static let idle = CommandOption<Int>.integer(
    "--idle-timeout", value: "<seconds>", help: "Close a kiosk's connection silent this long (default 600).",
    in: 10...86_400, unit: "seconds")

  static let certificate = CommandOption<String>(
    "--tls-cert", value: "<file>", help: "Speak TLS with this certificate chain (PEM); needs --tls-key.")
  static let key = CommandOption<String>(
    "--tls-key", value: "<file>", help: "The certificate's private key (PEM).")

  static let spec = CommandSpec(
    path: "sip2 serve", abstract: "Serve self-check kiosks over SIP2 on this library.",
    options: [listen, idle, certificate, key, CommandSpec.databaseOption],
    discussion: """
      Each kiosk logs in (93) with an account made by circdesk sip2 account add, then checks out,
      checks in, renews and asks about readers and copies by the same rules as the desk; its loans
      record the kiosk's name as their desk. On a desk joined to a central, kiosk loans sync like
      any other. One line a connection event goes to standard error. Runs until stopped.
      A kiosk silent longer than --idle-timeout is disconnected (kiosks send a status request every
      5 to 7 minutes). After a wrong password, the answer to the next login from that address waits
      longer each time (up to 16 s).
      """)

  static func run(_ arguments: ParsedArguments, in context: CommandContext) throws(CommandError) {
    let given = try arguments.value(listen) ?? "127.0.0.1:6001"
    guard let colon = given.lastIndex(of: ":"), let port = Int(given[given.index(after: colon)...]),
      (0...65535).contains(port), case let named = String(given[..<colon]), !named.isEmpty
    else { throw .usage("--listen is an address and a port, like 127.0.0.1:6001, not «\(given)»", command: spec.path) }
    let host = named == "localhost" ? "127.0.0.1" : named
    guard SIP2Server.isAddress(host) else {
      throw .usage(
        "--listen takes an IPv4 address (127.0.0.1, 0.0.0.0 for every one) and a port, not «\(given)»",
        command: spec.path)
    }
    let path = try context.databasePath(arguments)
    // Opened here once: a file that is missing, newer or not a library is said before listening.
    let store = try context.openStore(arguments, creating: false)
    if try perform({ () throws(StoreError) in try store.kiosks.list() }).isEmpty {
      context.errors.line("No kiosk account yet: add one with circdesk sip2 account add NAME --location CODE.")
    }
    var tls: SIP2TLS?
    switch (try arguments.value(certificate), try arguments.value(key)) {
    case (nil, nil): break
    case (let certificate?, let key?):
      for file in [certificate, key] where access(file, R_OK) != 0 {
        throw .failed(["\(file): \(String(cString: strerror(errno))); --tls-cert and --tls-key name PEM files"])
      }
      do {
        tls = try SIP2TLS(certificate: certificate, key: key)
      } catch {
        throw .failed([error.message.visibleForTerminal])
      }
    default: throw .usage("--tls-cert and --tls-key go together", command: spec.path)
    }
    let errors = context.errors
    let settings = SIP2Server.Settings(
      path: path, idleSeconds: try arguments.value(idle) ?? 600, tls: tls,
      log: { line in errors.line(line.visibleForTerminal) })
    let server: SIP2Server
    do {
      server = try SIP2Server(host: host, port: port, settings: settings)
    } catch {
      throw .failed([error.message])
    }
    context.output.line("Serving kiosks on \(server.address)\(tls != nil ? " (TLS)" : "")")
    // Said at once: a script (or a test) waits for this line to learn the port.
    (context.output as? FileSink)?.flush()
    server.run()
  }
}

/// `circdesk sip2 account add`: a kiosk's login, with how it speaks.
struct SIP2AccountAdd: DeskCommand {
  static let location = CommandOption<String>(
    "--location", value: "<code>", help: "The kiosk's place: its institution id in the replies.", required: true)
  static let encoding = CommandOption<SIP2Encoding>.choice(
    "--encoding", ["utf8": .utf8, "cp1251": .cp1251, "cp850": .cp850], help: "The kiosk's characters (default utf8).")
  static let terminator = CommandOption<SIP2Terminator>.choice(
    "--terminator", ["cr": .cr, "crlf": .crlf], help: "What ends the replies (default cr).")
  static let checksums = CommandOption<SIP2Checksums>.choice(
    "--checksums", ["required": .required, "optional": .optional],
    help: "Whether the kiosk must send checksums (default optional).")
  static let language = CommandOption<OverdueNotice.Language>.choice(
    "--language", ["en": .english, "ru": .russian], help: "The language of the kiosk's screen messages (default en).")
  static let passwordVariable = CommandOption<String>(
    "--password-env", value: "<variable>", help: "Read the password from this environment variable (for scripts).")

  static let spec = CommandSpec(
    path: "sip2 account add", abstract: "Add a kiosk's account to the SIP2 server.",
    arguments: [.init("<name>", "What the kiosk logs in as (CN); its loans record it as their desk.")],
    options: [location, encoding, terminator, checksums, language, passwordVariable, CommandSpec.databaseOption],
    discussion: """
      The password is asked twice on the terminal, or read from the variable --password-env names.
      It is kept as an Argon2id hash, never as text.
      """)

  static func run(_ arguments: ParsedArguments, in context: CommandContext) throws(CommandError) {
    let name = arguments.positionals[0].trimmingWhitespace()
    guard !name.isEmpty, !name.contains("|") else {
      throw .usage("a kiosk's name is not empty and has no «|»", command: spec.path)
    }
    guard let place = try arguments.value(location), !place.trimmingWhitespace().isEmpty else {
      throw .usage("--location gives the kiosk's place (its institution id in the replies)", command: spec.path)
    }
    // The library is there before the password is asked for.
    let store = try context.openExistingStore(arguments)
    let password: String
    if let variable = try arguments.value(passwordVariable) {
      guard let value = context.environment[variable], !value.isEmpty else {
        throw .usage("the variable \(variable) is not set or empty", command: spec.path)
      }
      password = value
    } else {
      password = try askPasswordTwice()
    }
    let account = KioskAccount(
      name: name, location: place.trimmingWhitespace(), encoding: try arguments.value(encoding) ?? .utf8,
      terminator: try arguments.value(terminator) ?? .cr, checksums: try arguments.value(checksums) ?? .optional,
      language: try arguments.value(language) ?? .english)
    let hash: String
    switch KioskPassword.hash(password) {
    case .success(let made): hash = made
    case .failure(let error): throw .failed([error.message])
    }
    guard try perform({ () throws(StoreError) in try store.kiosks.add(account, passwordHash: hash) }) else {
      throw .failed(["A kiosk account «\(name)» exists already: remove it first (circdesk sip2 account remove)"])
    }
    context.output.line("Kiosk account «\(name)» added.".visibleForTerminal)
  }

  /// The password typed twice without echo.
  private static func askPasswordTwice() throws(CommandError) -> String {
    guard isatty(0) == 1 else {
      throw .usage("no terminal to ask the password on: give it with --password-env", command: spec.path)
    }
    guard let first = readWithoutEcho("Password: "), !first.isEmpty else {
      throw .failed(["No password was typed: nothing is added"])
    }
    guard readWithoutEcho("Again: ") == first else { throw .failed(["The two passwords differ: nothing is added"]) }
    return first
  }

  private static func readWithoutEcho(_ prompt: String) -> String? {
    fputs(prompt, stderr)
    var saved = termios()
    tcgetattr(0, &saved)
    var quiet = saved
    quiet.c_lflag &= ~tcflag_t(ECHO)
    tcsetattr(0, TCSANOW, &quiet)
    defer {
      tcsetattr(0, TCSANOW, &saved)
      fputs("\n", stderr)
    }
    return readLine(strippingNewline: true)
  }
}

/// `circdesk sip2 account list`.
struct SIP2AccountList: DeskCommand {
  static let spec = CommandSpec(
    path: "sip2 account list", abstract: "List the kiosks' accounts.", options: [CommandSpec.databaseOption])

  static func run(_ arguments: ParsedArguments, in context: CommandContext) throws(CommandError) {
    let store = try context.openStore(arguments, creating: false)
    let accounts = try perform { () throws(StoreError) in try store.kiosks.list() }
    if accounts.isEmpty { context.output.line("No kiosk account.") }
    for account in accounts {
      context.output.line(
        "\(account.name)  location \(account.location)  \(account.encoding.rawValue)  \(account.terminator.rawValue)  checksums \(account.checksums.rawValue)  \(account.language.rawValue)"
          .visibleForTerminal)
    }
  }
}

/// `circdesk sip2 account remove`.
struct SIP2AccountRemove: DeskCommand {
  static let spec = CommandSpec(
    path: "sip2 account remove", abstract: "Remove a kiosk's account: it can no longer log in.",
    arguments: [.init("<name>", "The kiosk's login name.")], options: [CommandSpec.databaseOption])

  static func run(_ arguments: ParsedArguments, in context: CommandContext) throws(CommandError) {
    let name = arguments.positionals[0]
    let store = try context.openExistingStore(arguments)
    guard try perform({ () throws(StoreError) in try store.kiosks.remove(name: name) }) else {
      throw .failed(["No kiosk account «\(name)»".visibleForTerminal])
    }
    context.output.line("Kiosk account «\(name)» removed.".visibleForTerminal)
  }
}
