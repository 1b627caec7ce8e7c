/// Collects the errors of one record while its fields are read, so that every problem is
/// reported at once rather than the first only.
struct FieldReader {
  private(set) var errors: [ValidationError] = []

  /// The trimmed text; an error when required and empty or when longer than `maximum`.
  mutating func text(_ value: String, _ field: Field, required: Bool = false, maximum: Int = 500) -> String {
    let trimmed = value.trimmingWhitespace()
    if required && trimmed.isEmpty {
      errors.append(.required(field))
    } else if trimmed.count > maximum {
      errors.append(.tooLong(field, maximum: maximum))
    }
    return trimmed
  }

  /// An inventory number or a ticket: what scanners and people type and other systems match on.
  /// Trimmed and composed (NFC, `identifierForm`); refused when it holds a control character (tab, line break, ESC, NUL…), an
  /// invisible one (a zero-width space, a bidi override) or begins with `-` (it would read as an
  /// option on a command line).
  mutating func identifier(_ value: String, _ field: Field) -> String {
    let trimmed = text(value, field, required: true, maximum: 40).identifierForm
    if let bad = trimmed.unicodeScalars.first(where: { scalar in
      switch scalar.properties.generalCategory {
      case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned: return true
      default: return false
      }
    }) {
      errors.append(.invisibleCharacter(field, trimmed, scalar: bad.value))
    } else if trimmed.hasPrefix("-") {
      errors.append(.leadingDash(field, trimmed))
    }
    return trimmed
  }

  mutating func integer(_ value: String, _ field: Field, in range: ClosedRange<Int>) -> Int? {
    let trimmed = value.trimmingWhitespace()
    guard !trimmed.isEmpty else { return nil }
    guard trimmed.allSatisfy(\.isASCIIDigit), let number = Int(trimmed) else {
      errors.append(.notANumber(field, trimmed))
      return nil
    }
    guard range.contains(number) else {
      errors.append(.outOfRange(field, trimmed, range))
      return nil
    }
    return number
  }

  mutating func date(_ value: String, _ field: Field) -> LocalDate? {
    let trimmed = value.trimmingWhitespace()
    guard !trimmed.isEmpty else { return nil }
    switch LocalDate.parse(trimmed) {
    case .success(let date): return date
    case .failure(.notADate): errors.append(.invalidDate(field, trimmed))
    case .failure(.outOfRange): errors.append(.dateOutOfRange(field, trimmed))
    }
    return nil
  }

  mutating func isbn(_ value: String) -> ISBN? {
    let trimmed = value.trimmingWhitespace()
    guard !trimmed.isEmpty else { return nil }
    do {
      return try ISBN(trimmed)
    } catch {
      errors.append(.invalidISBN(error))
      return nil
    }
  }

  mutating func status(_ value: String) -> CopyStatus? {
    let trimmed = value.trimmingWhitespace()
    guard !trimmed.isEmpty else { return nil }
    guard let status = CopyStatus(word: trimmed) else {
      errors.append(.unknownStatus(trimmed))
      return nil
    }
    return status
  }

  mutating func money(_ value: String) -> Money? {
    let trimmed = value.trimmingWhitespace()
    guard !trimmed.isEmpty else { return nil }
    guard let money = Money(trimmed) else {
      errors.append(.invalidPrice(trimmed))
      return nil
    }
    return money
  }

  mutating func add(_ error: ValidationError) {
    errors.append(error)
  }
}

extension Field {
  /// The longest inventory number or ticket the forms take.
  public static let numberMaximum = 40

  /// An inventory number or ticket given on its own (a conflict renumbered), by the forms' rule:
  /// trimmed, control characters dropped, required, at most `numberMaximum` characters.
  public func validatedNumber(_ text: String) throws(ValidationErrors) -> String {
    var reader = FieldReader()
    let printable = String(
      String.UnicodeScalarView(text.unicodeScalars.filter { $0.properties.generalCategory != .control }))
    let number = reader.text(printable, self, required: true, maximum: Field.numberMaximum)
    guard reader.errors.isEmpty else { throw ValidationErrors(reader.errors) }
    return number
  }
}
