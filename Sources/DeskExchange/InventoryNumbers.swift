import DeskDomain

/// Inventory numbers given in sequence: `--assign-inventory START`.
public enum InventoryNumbers {
  /// The number after `number`: its last run of digits counted up, its width kept while it fits
  /// («A-0099» → «A-0100», «99» → «100»); a number without digits gets «1» added.
  public static func next(after number: String) -> String {
    var characters = Array(number)
    guard var index = characters.lastIndex(where: { $0.isASCII && $0.isNumber }) else { return number + "1" }
    while let digit = characters[index].wholeNumberValue {
      if digit < 9 {
        characters[index] = Character(String(digit + 1))
        return String(characters)
      }
      characters[index] = "0"
      guard index > 0, characters[index - 1].isASCII, characters[index - 1].isNumber else {
        characters.insert("1", at: index)
        return String(characters)
      }
      index -= 1
    }
    return String(characters)
  }

  /// True for a start `--assign-inventory` can count up from: ends with a digit, no spaces.
  public static func isValidStart(_ text: String) -> Bool {
    !text.isEmpty && text.count <= 40 && text.last.map { $0.isASCII && $0.isNumber } == true
      && text.allSatisfy { !$0.isWhitespace && !($0.asciiValue.map { $0 < 0x20 || $0 == 0x7F } ?? false) }
  }
}
