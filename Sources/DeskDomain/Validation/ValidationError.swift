/// Why a record cannot be saved, in words a librarian understands. Each error names the field
/// to fix, so that a form can put the cursor there.
public enum ValidationError: Error, Hashable, Sendable {
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

  /// `U+200B`'s digits: four at least, upper case.
  public static func hex(_ value: UInt32) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }
}

/// Several validation errors at once: a form shows them all, the command line prints one
/// line for each.
public struct ValidationErrors: Error, Sendable {
  public let errors: [ValidationError]

  public init(_ errors: [ValidationError]) {
    self.errors = errors
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
