import DeskDomain
import DeskLookup
import DeskStorage

/// `circdesk target add`: a catalogue of another library that the look-up copies records from.
struct TargetAdd: DeskCommand {
  static let z3950 = CommandOption<String>(
    "--z3950", value: "<host:port/database>", help: "A Z39.50 server (aleph.rsl.ru:9909/rsl01).")
  static let sru = CommandOption<String>("--sru", value: "<url>", help: "An SRU server's address (http://…).")
  static let syntax = CommandOption<CatalogueTarget.Syntax>.choice(
    "--syntax", help: "The MARC format of its records."
  ).required(true)
  static let encoding = CommandOption<CatalogueTarget.Encoding>.choice(
    "--encoding", help: "The characters of records that do not say theirs (default: as the import reads them).")
  static let schema = CommandOption<String>(
    "--schema", value: "<name>", help: "The SRU record schema of MARCXML, when not marcxml (the DNB: MARC21-xml).")
  static let user = CommandOption<String>("--user", value: "<name>", help: "Log in with this user name.")
  static let passwordVariable = CommandOption<String>(
    "--password-env", value: "<variable>",
    help: "The environment variable holding the password (the library file keeps none).")

  static let spec = CommandSpec(
    path: "target add", abstract: "Add another library's catalogue (Z39.50 or SRU) to copy records from.",
    arguments: [.init("<name>", "The target's name, as the look-up order (policy set --lookup-order) writes it.")],
    options: [z3950, sru, syntax, encoding, schema, user, passwordVariable, CommandSpec.databaseOption],
    discussion: """
      A scanned ISBN the library lacks is looked up in the catalogues of the look-up order, in
      turn: google, openlibrary and the targets' names (circdesk policy set --lookup-order
      rsl,google,openlibrary). A search by title and author (F5 on the New Book form, circdesk
      lookup --title) asks every target at once. Each target is given --lookup-timeout seconds
      (default 5) to answer. Its answers are kept: a query asks a target once.
      """)

  static func run(_ arguments: ParsedArguments, in context: CommandContext) throws(CommandError) {
    let endpoint: CatalogueTarget.Endpoint
    switch (try arguments.value(z3950), try arguments.value(sru)) {
    case (let address?, nil): endpoint = try checked { () throws(TargetError) in try CatalogueTarget.z3950(address) }
    case (nil, let url?): endpoint = try checked { () throws(TargetError) in try CatalogueTarget.sru(url) }
    default:
      throw .usage(
        "give the target's address: --z3950 host:port/database or --sru URL, one of them", command: spec.path)
    }
    let name = try checked { () throws(TargetError) in try CatalogueTarget.checkedName(arguments.positionals[0]) }
    let variable = try arguments.value(passwordVariable)
    let userName = try arguments.value(user)
    guard (userName == nil) == (variable == nil) else {
      throw .usage(
        "a login needs both: --user NAME and --password-env VARIABLE (the variable that holds the password)",
        command: spec.path)
    }
    if let variable, context.environment[variable] == nil {
      context.errors.line("Note: \(variable) is not set here; the look-up reads it when it asks the target.")
    }
    guard let syntax = try arguments.value(syntax) else {
      throw .usage("say the MARC format of its records: --syntax rusmarc, unimarc or marc21", command: spec.path)
    }
    let recordSchema = try arguments.value(schema).map { text throws(CommandError) in
      try checked { () throws(TargetError) in
        guard case .sru = endpoint else { throw .schemaWithoutSRU }
        return try CatalogueTarget.checkedSchema(text)
      }
    }
    let target = CatalogueTarget(
      name: name, endpoint: endpoint, syntax: syntax,
      encoding: try arguments.value(encoding), user: userName, passwordVariable: variable,
      schema: recordSchema == CatalogueTarget.defaultSchema ? nil : recordSchema)
    let store = try context.openStore(arguments)
    guard try perform({ () throws(StoreError) in try store.copyCataloguing.add(target) }) else {
      throw .failed([TargetError.exists(name).description.visibleForTerminal])
    }
    context.output.line("Target «\(name)» added: \(target.address), \(target.syntax.rawValue).".visibleForTerminal)
    let order = ISBNLookup.order(in: store)
    if !order.contains(where: { $0.lowercased() == name.lowercased() }) {
      context.output.line(
        "Searches by title and author ask it now; for ISBNs add it to the order: circdesk policy set --lookup-order \((order + [name]).joined(separator: ","))"
          .visibleForTerminal)
    }
  }
}

/// A target's setting read, or the command line refused (status 64) with what is wrong.
private func checked<T>(_ body: () throws(TargetError) -> T) throws(CommandError) -> T {
  do {
    return try body()
  } catch {
    throw .usage(error.description.visibleForTerminal, command: TargetAdd.spec.path)
  }
}

/// `circdesk target list`.
struct TargetList: DeskCommand {
  static let spec = CommandSpec(
    path: "target list", abstract: "List the catalogues records are copied from.",
    options: [CommandSpec.jsonOption, CommandSpec.databaseOption])

  static func run(_ arguments: ParsedArguments, in context: CommandContext) throws(CommandError) {
    let store = try context.openStore(arguments, creating: false)
    let targets = try perform { () throws(StoreError) in try store.copyCataloguing.targets() }
    let order = ISBNLookup.order(in: store).map { $0.lowercased() }
    if arguments.has(CommandSpec.jsonOption) {
      for target in targets {
        context.output.line(
          JSON.object([
            ("name", .string(target.name)), ("protocol", .string(target.isSRU ? "sru" : "z3950")),
            ("address", .string(target.address)), ("syntax", .string(target.syntax.rawValue)),
            ("encoding", target.encoding.map { .string($0.rawValue) } ?? .null),
            ("schema", target.isSRU ? .string(target.recordSchema) : .null),
            ("user", target.user.map(JSON.string) ?? .null),
            ("password_env", target.passwordVariable.map(JSON.string) ?? .null),
            ("isbn_order", order.firstIndex(of: target.name.lowercased()).map { .number(Double($0 + 1)) } ?? .null),
          ]).rendered().replacingNewlines())
      }
      return
    }
    if targets.isEmpty {
      context.output.line(
        "No target: add one with circdesk target add NAME --z3950 host:port/database --syntax rusmarc.")
    }
    for target in targets {
      var line = "\(target.name)  \(target.isSRU ? "SRU" : "Z39.50") \(target.address)  \(target.syntax.rawValue)"
      if let encoding = target.encoding { line += "  \(encoding.rawValue)" }
      if let schema = target.schema { line += "  schema \(schema)" }
      if let user = target.user { line += "  user \(user)" }
      if let variable = target.passwordVariable { line += "  password from \(variable)" }
      line += order.contains(target.name.lowercased()) ? "  (ISBNs: in the order)" : "  (ISBNs: not in the order)"
      context.output.line(line.visibleForTerminal)
    }
  }
}

/// `circdesk target remove`.
struct TargetRemove: DeskCommand {
  static let spec = CommandSpec(
    path: "target remove", abstract: "Remove a catalogue and the answers it gave.",
    arguments: [.init("<name>", "The target's name.")], options: [CommandSpec.databaseOption])

  static func run(_ arguments: ParsedArguments, in context: CommandContext) throws(CommandError) {
    let store = try context.openExistingStore(arguments)
    guard
      let target = try perform({ () throws(StoreError) in
        try store.copyCataloguing.target(named: arguments.positionals[0])
      })
    else {
      throw .failed([TargetError.unknown(arguments.positionals[0]).description.visibleForTerminal])
    }
    let answers = try perform { () throws(StoreError) in try store.copyCataloguing.answerCount(of: target.name) }
    let order = ISBNLookup.order(in: store)
    // An order of this target alone goes back to the web catalogues.
    let remaining = order.filter { $0.lowercased() != target.name.lowercased() }
    let newOrder = remaining.isEmpty ? ["google", "openlibrary"] : remaining
    try perform { () throws(StoreError) in
      _ = try store.copyCataloguing.remove(name: target.name)
      if remaining != order { try store.policy.setSetting(ISBNLookup.orderKey, newOrder.joined(separator: ",")) }
    }
    var said = "Target «\(target.name)» removed, with the \(englishPlural(answers, "answer")) it gave"
    if remaining != order { said += "; the ISBN look-up order is now \(newOrder.joined(separator: ", "))" }
    context.output.line((said + ".").visibleForTerminal)
  }
}
