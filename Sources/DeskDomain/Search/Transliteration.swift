/// Russian names and titles in Latin letters and back, under the schemes readers and catalogues
/// use: ГОСТ 7.79 (`x`, `cz`, `shh`, `j`), the ICAO passport spelling (`kh`, `ts`, `shch`, `iu`,
/// `ia`) and the usual English spellings (`Tolstoy`, `Yuri`). A word may be spelt several ways;
/// the spellings come most likely first, a few of them, for a search to try.
public enum Transliteration {
  /// Latin spellings of a folded Cyrillic word (`щербаков` → `shcherbakov`, `scherbakov`, …).
  public static func latin(_ word: String, limit: Int = 8) -> [String] {
    spellings(Array(word), limit: limit) { characters, index in
      let letter = characters[index]
      guard let options = cyrillicToLatin[letter] else { return [(String(letter), 1)] }
      return options.map { ($0, 1) }
    }
  }

  /// Cyrillic spellings of a folded Latin word (`tolstoy` → `толстой`, …).
  public static func cyrillic(_ word: String, limit: Int = 8) -> [String] {
    spellings(Array(word), limit: limit) { characters, index in
      for length in [4, 3, 2] where index + length <= characters.count {
        if let options = latinToCyrillic[String(characters[index..<(index + length)])] {
          return options.map { ($0, length) }
        }
      }
      let letter = characters[index]
      let vowelBefore = index > 0 && "aeiouy".contains(characters[index - 1])
      let last = index == characters.count - 1
      // A final y or i after a vowel is й (Tolstoy, Tolstoi); e at the start may be э (Erenburg).
      if (letter == "y" || letter == "i") && vowelBefore && last { return [("й", 1), (letter == "y" ? "ы" : "и", 1)] }
      if letter == "e" && index == 0 { return [("е", 1), ("э", 1)] }
      guard let options = latinLetters[letter] else { return [(String(letter), 1)] }
      return options.map { ($0, 1) }
    }
  }

  /// Every way of spelling the word, as the rule gives each position's options, best first,
  /// at most `limit`: built position by position, keeping the best so far.
  private static func spellings(
    _ characters: [Character], limit: Int, rule: ([Character], Int) -> [(String, Int)]
  ) -> [String] {
    // Partial spellings and where each stands in the word.
    var partial: [(text: String, index: Int)] = [("", 0)]
    var done: [String] = []
    while !partial.isEmpty, done.count < limit {
      var next: [(String, Int)] = []
      for (text, index) in partial {
        guard index < characters.count else {
          if !done.contains(text) { done.append(text) }
          continue
        }
        for (piece, length) in rule(characters, index) { next.append((text + piece, index + length)) }
      }
      partial = Array(next.prefix(limit * 2))
    }
    return Array(done.prefix(limit))
  }

  private static let cyrillicToLatin: [Character: [String]] = [
    "а": ["a"], "б": ["b"], "в": ["v"], "г": ["g"], "д": ["d"], "е": ["e", "ye"], "ж": ["zh"], "з": ["z"],
    "и": ["i"], "й": ["y", "i", "j"], "к": ["k"], "л": ["l"], "м": ["m"], "н": ["n"], "о": ["o"], "п": ["p"],
    "р": ["r"], "с": ["s"], "т": ["t"], "у": ["u"], "ф": ["f"], "х": ["kh", "h", "x"], "ц": ["ts", "c", "cz"],
    "ч": ["ch"], "ш": ["sh"], "щ": ["shch", "sch", "shh"], "ъ": [""], "ы": ["y"], "ь": [""], "э": ["e"],
    "ю": ["yu", "iu", "ju"], "я": ["ya", "ia", "ja"],
  ]

  private static let latinToCyrillic: [String: [String]] = [
    "shch": ["щ"], "sch": ["щ"], "shh": ["щ"], "zh": ["ж"], "kh": ["х"], "ch": ["ч"], "sh": ["ш"],
    // After a consonant, y and j also stand for a soft sign: Solovyov, Solovjov (Соловьёв), Ilyin.
    "ts": ["ц", "тс"], "tz": ["ц"], "cz": ["ц"], "yu": ["ю", "ью"], "iu": ["ю"], "ju": ["ю", "ью"],
    "ya": ["я", "ья"], "ia": ["я", "иа"], "ja": ["я", "ья"], "yo": ["е", "ье"], "jo": ["е", "ье"],
    "ye": ["е", "ье"], "je": ["е", "ье"], "ie": ["ие", "ье"], "yi": ["ьи", "ы"],
  ]

  private static let latinLetters: [Character: [String]] = [
    "a": ["а"], "b": ["б"], "v": ["в"], "w": ["в"], "g": ["г"], "d": ["д"], "e": ["е", "э"], "z": ["з"],
    "i": ["и", "й"], "y": ["ы", "й", "и"], "j": ["й"], "k": ["к"], "l": ["л"], "m": ["м"], "n": ["н"],
    "o": ["о"], "p": ["п"], "r": ["р"], "s": ["с"], "t": ["т"], "u": ["у"], "f": ["ф"], "h": ["х"],
    "c": ["к", "ц"], "x": ["кс", "х"], "q": ["к"],
  ]
}
