import DeskDomain

/// The arguments of one command, checked against its spec: options by name, flags, and the
/// positional arguments in order.
public struct ParsedArguments: Sendable {
  public private(set) var values: [String: [String]] = [:]
  public private(set) var flags: Set<String> = []
  public private(set) var positionals: [String] = []
  public let spec: CommandSpec

  /// `--name value`, `--name=value`, flags, and `--` before positionals that start with `-`.
  public init(_ arguments: [String], spec: CommandSpec) throws(CommandError) {
    self.spec = spec
    var index = 0
    var onlyPositionals = false
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if onlyPositionals || !argument.hasPrefix("-") || argument == "-" {
        positionals.append(argument)
        continue
      }
      if argument == "--" {
        onlyPositionals = true
        continue
      }
      var name = argument
      var inlineValue: String?
      if let equals = argument.firstIndex(of: "=") {
        name = String(argument[..<equals])
        inlineValue = String(argument[argument.index(after: equals)...])
      }
      guard let option = spec.options.first(where: { $0.name == name }) else {
        throw .usage("unknown option \(name)", command: spec.path)
      }
      if option.value == nil {
        guard inlineValue == nil else { throw .usage("\(name) takes no value", command: spec.path) }
        flags.insert(name)
        continue
      }
      let value: String
      if let inlineValue {
        value = inlineValue
      } else {
        guard index < arguments.count else {
          throw .usage("\(name) needs a value \(option.value ?? "")", command: spec.path)
        }
        value = arguments[index]
        index += 1
      }
      if !option.repeats && values[name] != nil {
        throw .usage("\(name) is given twice", command: spec.path)
      }
      values[name, default: []].append(value)
    }
    // Every command refuses what it does not take: a stray word is a mistake to say, not to ignore.
    let (minimum, maximum) = spec.positionalBounds
    if let maximum, positionals.count > maximum {
      throw .usage(
        maximum == 0
          ? "takes no arguments, but «\(positionals[0])» was given"
          : "too many arguments: «\(positionals[maximum])» is one more than it takes",
        command: spec.path)
    }
    if positionals.count < minimum, let missing = spec.arguments.dropFirst(positionals.count).first {
      throw .usage("missing \(missing.name)", command: spec.path)
    }
  }

  /// Sets an option's value when the command line did not give one.
  public mutating func setDefault(_ option: any OptionDeclaration, _ value: String) {
    if values[option.spec.name] == nil { values[option.spec.name] = [value] }
  }

  // By name, for the reading of declared options (`CommandOption`, `CommandFlag`): a command
  // reads its options by their declarations.
  func value(_ name: String) -> String? {
    values[name]?.last
  }

  func all(_ name: String) -> [String] {
    values[name] ?? []
  }

  func has(_ name: String) -> Bool {
    flags.contains(name)
  }

  /// The one positional argument, a record's number (a conflict's, a hold's): a whole number
  /// above 0, else a usage error saying where numbers are listed.
  public func recordNumber(of what: String, listedBy list: String) throws(CommandError) -> Int {
    let text = positionals.first ?? ""
    guard let number = Int(text), number > 0 else {
      throw .usage("\(what)'s number is a whole number, like 3 (see \(list))", command: spec.path)
    }
    return number
  }
}
