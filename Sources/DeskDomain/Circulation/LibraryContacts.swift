/// How readers reach the library: printed on receipts and reminder letters.
public struct LibraryContacts: Hashable, Sendable {
  public var name: String
  public var address: String
  public var phone: String
  public var email: String

  public init(name: String = "", address: String = "", phone: String = "", email: String = "") {
    self.name = name
    self.address = address
    self.phone = phone
    self.email = email
  }

  /// The contact lines that are filled in: address, then phone and e-mail on one line.
  public var lines: [String] {
    [address, [phone, email].filter { !$0.isEmpty }.joined(separator: " · ")].filter { !$0.isEmpty }
  }
}
