/// The Russian ЙЦУКЕН and the English QWERTY layouts key by key: text typed with the wrong one
/// switched on («Ljcnjtdcrbq» is «Достоевский», «ghtj,hf;tycrfz» is «преображенская»).
public enum KeyboardLayout {
  private static let english = Array("`qwertyuiop[]asdfghjkl;'zxcvbnm,.~QWERTYUIOP{}ASDFGHJKL:\"ZXCVBNM<>")
  private static let russian = Array("ёйцукенгшщзхъфывапролджэячсмитьбюЁЙЦУКЕНГШЩЗХЪФЫВАПРОЛДЖЭЯЧСМИТЬБЮ")
  private static let toRussian = Dictionary(uniqueKeysWithValues: zip(english, russian))
  private static let toEnglish = Dictionary(uniqueKeysWithValues: zip(russian, english))

  /// The same key on the other layout: `у` for `e`, `e` for `у`; nil for a key that is a letter
  /// on neither.
  public static func twin(of key: Character) -> Character? {
    toRussian[key] ?? toEnglish[key]
  }

  /// The same keys on the other layout: Latin text as Russian, Cyrillic as English; nil for text
  /// of neither script, of both, or that comes out the same.
  public static func switched(_ text: String) -> String? {
    let latin = text.contains { $0.isASCII && $0.isLetter }
    let cyrillic = text.unicodeScalars.contains { (0x400...0x4FF).contains($0.value) }
    guard latin != cyrillic else { return nil }
    let table = latin ? toRussian : toEnglish
    let result = String(text.map { table[$0] ?? $0 })
    return result == text ? nil : result
  }
}

extension Character {
  /// A letter of the Cyrillic script: typed with the Russian layout on.
  public var isCyrillicLetter: Bool {
    isLetter && unicodeScalars.allSatisfy { (0x400...0x4FF).contains($0.value) }
  }
}
