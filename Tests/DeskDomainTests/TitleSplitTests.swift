import Testing

@testable import DeskDomain

/// "Title : other title information", split where ISBD puts its space, colon, space.
@Suite struct TitleSplitTests {
  @Test func splitsAtTheFirstSpaceColonSpace() {
    #expect(IRBISBooks.splitTitle("Война и мир : роман") == ("Война и мир", "роман"))
    #expect(IRBISBooks.splitTitle("A : B : C") == ("A", "B : C"))
    #expect(IRBISBooks.splitTitle("A: B") == ("A: B", ""))
    #expect(IRBISBooks.splitTitle("A : ") == ("A", ""))
    #expect(IRBISBooks.splitTitle(" : B") == ("", "B"))
    #expect(IRBISBooks.splitTitle("") == ("", ""))
  }

  /// The split is told from the bytes; it agrees with a split over whole characters on every
  /// title made from pieces around it, combining marks and other scripts among them (a space
  /// carrying a combining mark is not a space).
  @Test func agreesWithTheSplitOverWholeCharacters() {
    func byCharacters(_ title: String) -> (String, String) {
      let characters = Array(title)
      for index in characters.indices.dropLast(2)
      where characters[index] == " " && characters[index + 1] == ":" && characters[index + 2] == " " {
        return (String(characters[..<index]), String(characters[(index + 3)...]))
      }
      return (title, "")
    }
    let pieces = [" ", ":", " : ", "а", "Ж", "\u{301}", "e\u{301}", "漢", "👩‍👩‍👧", "\u{200D}", " :", ": ", "x"]
    var checked = 0
    for a in pieces {
      for b in pieces {
        for c in pieces {
          for d in pieces {
            let title = a + b + c + d
            let (bytes, characters) = (IRBISBooks.splitTitle(title), byCharacters(title))
            #expect(bytes == characters, "«\(title.unicodeScalars.map { String($0.value, radix: 16) })»")
            checked += 1
          }
        }
      }
    }
    #expect(checked == 13 * 13 * 13 * 13)
  }
}
