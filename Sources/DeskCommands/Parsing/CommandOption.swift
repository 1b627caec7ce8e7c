import DeskDomain

/// What a command's spec lists: an option as `--help` shows it.
public protocol OptionDeclaration: Sendable {
  var spec: CommandSpec.Option { get }
}

extension CommandSpec.Option: OptionDeclaration {
  public var spec: CommandSpec.Option { self }
}

/// An option that takes a value, declared once: its name, placeholder and help (for `--help`),
/// and how its text is read — a whole number, a date, one of some words. A command reads it by
/// this declaration (`arguments.value(Self.until)`), never by its name again, and a value that
/// does not read is refused with a usage error that names the option.
public struct CommandOption<Value>: OptionDeclaration {
  public let spec: CommandSpec.Option
  /// The value from its text, or what is wrong with the text (said after the option's name).
  let read: @Sendable (String) -> Result<Value, OptionRefusal>

  public var name: String { spec.name }

  init(
    _ name: String, value: String, help: String, repeats: Bool = false, required: Bool = false,
    choices: [String]? = nil, read: @escaping @Sendable (String) -> Result<Value, OptionRefusal>
  ) {
    spec = CommandSpec.Option(
      name, value: value, help: help, repeats: repeats, required: required, choices: choices)
    self.read = read
  }
}

/// What is wrong with an option's value, as the words after its name: "takes a whole number,
/// not «x»".
public struct OptionRefusal: Error, Sendable {
  let words: String
}

extension CommandOption where Value == String {
  /// Text, taken as given.
  init(_ name: String, value: String, help: String, repeats: Bool = false, required: Bool = false) {
    self.init(name, value: value, help: help, repeats: repeats, required: required) { .success($0) }
  }
}

extension CommandOption where Value == String {
  /// A record's date field: a date the library takes, or empty (which clears the field).
  static func fieldDate(_ name: String, help: String) -> Self {
    let date = CommandOption<LocalDate>.date(name, help: help)
    return Self(name, value: "<date>", help: help) { text in
      text.trimmingWhitespace().isEmpty ? .success(text) : date.read(text).map { _ in text }
    }
  }
}

extension CommandOption {
  /// The same option, shown in the usage line as one the command cannot do without (or not).
  func required(_ isRequired: Bool) -> Self {
    Self(
      spec.name, value: spec.value ?? "", help: spec.help, repeats: spec.repeats, required: isRequired,
      choices: spec.choices, read: read)
  }
}

extension CommandOption where Value == Int {
  /// A whole number, within `range` when one is given (`unit` names what it counts).
  static func integer(
    _ name: String, value: String, help: String, in range: ClosedRange<Int>? = nil, unit: String = ""
  ) -> Self {
    Self(name, value: value, help: help) { text in
      guard let number = Int(text) else { return .failure(OptionRefusal(words: "takes a whole number, not «\(text)»")) }
      guard let range, !range.contains(number) else { return .success(number) }
      let counted = unit.isEmpty ? "" : " " + unit
      return .failure(OptionRefusal(words: "takes \(range.lowerBound) to \(range.upperBound)\(counted), not \(number)"))
    }
  }
}

extension CommandOption where Value == LocalDate {
  /// A date the library takes (the domain's check).
  static func date(_ name: String, value: String = "<date>", help: String, repeats: Bool = false) -> Self {
    Self(name, value: value, help: help, repeats: repeats) { text in
      switch LocalDate.parse(text.trimmingWhitespace()) {
      case .success(let date): .success(date)
      case .failure(.notADate): .failure(OptionRefusal(words: "takes a date like 2026-11-30, not «\(text)»"))
      case .failure(.outOfRange):
        .failure(
          OptionRefusal(
            words: "takes a date from \(LocalDate.accepted.lowerBound) to \(LocalDate.accepted.upperBound), "
              + "not «\(text)»"))
      }
    }
  }
}

extension CommandOption {
  /// One of some words, each standing for a value: `--bell yes|no`, `--due-mode days|…`.
  static func choice(_ name: String, _ words: KeyValuePairs<String, Value>, value: String? = nil, help: String) -> Self
  where Value: Sendable {
    choosing(name, among: words.map { ($0.key, $0.value) }, value: value, help: help)
  }

  /// Reads one of `table`'s words as its value; any other word is refused with the list.
  private static func choosing(_ name: String, among table: [(String, Value)], value: String?, help: String) -> Self
  where Value: Sendable {
    let names = table.map(\.0)
    let listed =
      names.count == 1 ? names[0] : names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "")
    return Self(name, value: value ?? "<\(names.joined(separator: "|"))>", help: help, choices: names) { text in
      table.first { $0.0 == text }.map { .success($0.1) }
        ?? .failure(OptionRefusal(words: "is \(listed), not «\(text)»"))
    }
  }
}

extension CommandOption where Value: CaseIterable & RawRepresentable & Sendable, Value.RawValue == String {
  /// One of an enumeration's cases, by its raw value (`--lang en|ru`).
  static func choice(_ name: String, value: String? = nil, help: String) -> Self {
    choosing(name, among: Value.allCases.map { ($0.rawValue, $0) }, value: value, help: help)
  }
}

/// An option without a value: there or not.
public struct CommandFlag: OptionDeclaration {
  public let spec: CommandSpec.Option

  public var name: String { spec.name }

  init(_ name: String, help: String) {
    spec = CommandSpec.Option(name, help: help)
  }

  /// The same flag, its help worded for one command (`--all`: every book, not every reader).
  func withHelp(_ help: String) -> Self {
    CommandFlag(name, help: help)
  }
}

extension ParsedArguments {
  /// The option's value (the last given), read; nil when not given.
  public func value<Value>(_ option: CommandOption<Value>) throws(CommandError) -> Value? {
    guard let text = value(option.name) else { return nil }
    return try read(text, option)
  }

  /// Every value the option was given, read, in order.
  public func all<Value>(_ option: CommandOption<Value>) throws(CommandError) -> [Value] {
    var values: [Value] = []
    for text in all(option.name) { values.append(try read(text, option)) }
    return values
  }

  /// The option's value, which the command cannot do without.
  public func required<Value>(_ option: CommandOption<Value>) throws(CommandError) -> Value {
    guard let value = try value(option) else { throw .usage("\(option.name) is required", command: spec.path) }
    return value
  }

  /// True when the option was given, whatever its value.
  public func isGiven(_ option: any OptionDeclaration) -> Bool {
    !all(option.spec.name).isEmpty || has(option.spec.name)
  }

  public func has(_ flag: CommandFlag) -> Bool {
    has(flag.name)
  }

  private func read<Value>(_ text: String, _ option: CommandOption<Value>) throws(CommandError) -> Value {
    switch option.read(text) {
    case .success(let value): return value
    case .failure(let refusal): throw .usage("\(option.name) \(refusal.words)", command: spec.path)
    }
  }
}
