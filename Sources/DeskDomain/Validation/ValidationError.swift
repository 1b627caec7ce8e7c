/// Why a record cannot be saved, in words a librarian understands. Each error names the field
/// to fix, so that a form can put the cursor there.
public enum ValidationError: Error, Hashable, Sendable, CustomStringConvertible {
  case required(Field)
  case invalidISBN(ISBNError)
  case notANumber(Field, String)
  case outOfRange(Field, String, ClosedRange<Int>)
  case invalidPrice(String)
  case invalidDate(Field, String)
  /// A real day outside `LocalDate.accepted`.
  case dateOutOfRange(Field, String)
  case invalidEmail(String)
  case tooLong(Field, maximum: Int)
  case duplicateInventoryNumber(String, title: String)
  case duplicateTicket(String, reader: String)
  case unknownCategory(String, known: [String])
  case addressConflict(phone: String, existing: String)
  case phoneNeededForAddress
  case unknownStatus(String)
  /// An identifier with a control or invisible character (its code point).
  case invisibleCharacter(Field, String, scalar: UInt32)
  case leadingDash(Field, String)

  public var field: Field {
    switch self {
    case .required(let field), .notANumber(let field, _), .outOfRange(let field, _, _),
      .invalidDate(let field, _), .dateOutOfRange(let field, _), .tooLong(let field, _):
      return field
    case .invalidISBN: return .isbn
    case .invalidPrice: return .price
    case .invalidEmail: return .email
    case .duplicateInventoryNumber: return .inventoryNumber
    case .duplicateTicket: return .ticket
    case .unknownCategory: return .category
    case .addressConflict, .phoneNeededForAddress: return .phone
    case .unknownStatus: return .status
    case .invisibleCharacter(let field, _, _), .leadingDash(let field, _): return field
    }
  }

  public var description: String {
    switch self {
    case .required(let field):
      return "\(field.label) is required"
    case .invalidISBN(let error):
      return error.description
    case .notANumber(let field, let text):
      return "\(field.label) must be a whole number, not «\(text)»"
    case .outOfRange(let field, let text, let range):
      return "\(field.label) \(text) is out of range (\(range.lowerBound)–\(range.upperBound))"
    case .invalidPrice(let text):
      return "Price «\(text)» is not an amount like 254 or 254.50"
    case .invalidDate(let field, let text):
      return "\(field.label) «\(text)» is not a date like 2026-11-30"
    case .dateOutOfRange(let field, let text):
      return "\(field.label) \(text) is outside the dates the library takes "
        + "(\(LocalDate.accepted.lowerBound) to \(LocalDate.accepted.upperBound))"
    case .invalidEmail(let text):
      return "E-mail «\(text)» is not an address like name@example.org"
    case .tooLong(let field, let maximum):
      return "\(field.label) is longer than \(maximum) characters"
    case .duplicateInventoryNumber(let number, let title):
      return "Inventory number \(number) is already used by «\(title)»"
    case .duplicateTicket(let ticket, let reader):
      return "Reader ticket \(ticket) is already used by \(reader)"
    case .unknownCategory(let code, let known):
      return "Category «\(code)» is not known; the categories are: \(known.joined(separator: ", "))"
    case .addressConflict(let phone, let existing):
      return "Phone \(phone) already has another address (\(existing)); "
        + "leave the address empty to use it, or correct it there first"
    case .phoneNeededForAddress:
      return "An address needs a phone number: addresses are kept by home phone"
    case .unknownStatus(let text):
      return "Status «\(text)» is not known; the statuses are: \(CopyStatus.words)"
    case .invisibleCharacter(let field, let text, let scalar):
      return "\(field.label) «\(text.visibleCharacters)» holds an invisible or control character "
        + "(U+\(ValidationError.hex(scalar))): type or scan it again"
    case .leadingDash(let field, let text):
      return "\(field.label) «\(text)» begins with «-»: numbers and tickets may not"
    }
  }

  /// `U+200B`'s digits: four at least, upper case.
  public static func hex(_ value: UInt32) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }
}

/// Several validation errors at once: a form shows them all, the command line prints one
/// line for each.
public struct ValidationErrors: Error, Sendable, CustomStringConvertible {
  public let errors: [ValidationError]

  public init(_ errors: [ValidationError]) {
    self.errors = errors
  }

  public var description: String {
    errors.map(\.description).joined(separator: "\n")
  }
}

extension String {
  /// The text with each control or invisible character shown as `·`, for a message about it.
  public var visibleCharacters: String {
    String(
      String.UnicodeScalarView(
        unicodeScalars.map { scalar in
          switch scalar.properties.generalCategory {
          case .control, .format, .lineSeparator, .paragraphSeparator: return "·"
          default: return scalar
          }
        }))
  }
}
