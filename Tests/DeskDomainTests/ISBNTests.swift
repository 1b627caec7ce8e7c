import Testing

@testable import DeskDomain

@Suite struct ISBNTests {
  @Test func convertsBetweenTenAndThirteenDigits() throws {
    let thirteen = try ISBN("978-5-17-079585-7")
    #expect(thirteen.digits == "9785170795857")
    #expect(thirteen.isbn10 == "5170795858")
    let ten = try ISBN("5-17-079585-8")
    #expect(ten.digits == "5170795858")
    #expect(ten.isbn13 == "9785170795857")
  }

  @Test func reportsTheExpectedCheckDigit() {
    #expect(throws: ISBNError.wrongCheckDigit(text: "978-5-17-079585-0", expected: "7")) {
      try ISBN("978-5-17-079585-0")
    }
    #expect(
      ISBNError.wrongCheckDigit(text: "978-5-17-079585-0", expected: "7").description
        == "ISBN 978-5-17-079585-0 has a wrong check digit (expected 7)")
    #expect(throws: ISBNError.wrongCheckDigit(text: "5-17-079585-1", expected: "8")) {
      try ISBN("5-17-079585-1")
    }
  }

  @Test func acceptsXAsTheTenthCheckDigit() throws {
    let isbn = try ISBN("0-8044-2957-x")
    #expect(isbn.digits == "080442957X")
    #expect(isbn.isbn13 == "9780804429573")
    #expect(try ISBN("9780804429573").isbn10 == "080442957X")
    #expect(throws: ISBNError.invalidCharacter(text: "08044X9573", character: "X")) { try ISBN("08044X9573") }
  }

  @Test func refusesWhatIsNotAnISBN() {
    #expect(throws: ISBNError.wrongLength(text: "12345", count: 5)) { try ISBN("12345") }
    #expect(throws: ISBNError.notBookland(text: "4006381333931")) { try ISBN("4006381333931") }
    #expect(throws: ISBNError.invalidCharacter(text: "978-5-17-07958А-7", character: "А")) {
      try ISBN("978-5-17-07958А-7")
    }
  }

  @Test func acceptsPrefixesAndSpaces() throws {
    #expect(try ISBN("ISBN 978-5-17-079585-7").digits == "9785170795857")
    #expect(try ISBN(" ISBN-13: 978 5 17 079585 7\n").digits == "9785170795857")
  }

  @Test func numbersThatStartWith979HaveNoTenDigitForm() throws {
    let isbn = try ISBN("979-10-90636-07-1")
    #expect(isbn.isbn10 == nil)
    #expect(isbn.hyphenated == "979-10-90636-07-1")
  }

  @Test(arguments: [
    ("9785170795857", "978-5-17-079585-7"),
    ("5170795858", "5-17-079585-8"),
    ("9780141439518", "978-0-14-143951-8"),
    ("9781451673319", "978-1-4516-7331-9"),
    ("9780060934347", "978-0-06-093434-7"),
    ("9785389016866", "978-5-389-01686-6"),
    ("9789996012341", "9789996012341"),
  ])
  func hyphenatesByRegistrationGroup(digits: String, expected: String) throws {
    // The last case is a valid number in a group the table does not list: left unhyphenated.
    let isbn = try? ISBN(digits)
    if let isbn {
      #expect(isbn.hyphenated == expected)
    } else {
      Issue.record("\(digits) should be a valid ISBN")
    }
  }
}
