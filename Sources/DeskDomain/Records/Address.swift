/// A postal address, keyed by its home phone number as in the original desk app: readers of
/// one household share one address.
public struct Address: Hashable, Sendable {
  public var id: RecordID
  public var phone: String
  public var postcode: String
  public var city: String
  public var street: String
  public var house: String
  public var flat: String

  public init(
    id: RecordID = .random(), phone: String, postcode: String = "", city: String = "",
    street: String = "", house: String = "", flat: String = ""
  ) {
    self.id = id
    self.phone = phone
    self.postcode = postcode
    self.city = city
    self.street = street
    self.house = house
    self.flat = flat
  }

  /// The digits of a phone number: the key that finds the address whatever the spacing.
  public static func phoneKey(_ phone: String) -> String {
    String(phone.filter(\.isASCIIDigit))
  }

  public var phoneKey: String { Address.phoneKey(phone) }

  /// True when the two describe the same place (the phone aside).
  public func sameLocation(as other: Address) -> Bool {
    let fields = { (a: Address) in [a.postcode, a.city, a.street, a.house, a.flat].map(TextFolding.fold) }
    return fields(self) == fields(other)
  }

  public var hasLocation: Bool {
    ![postcode, city, street, house, flat].allSatisfy(\.isEmpty)
  }

  /// `620014, Екатеринбург, ул. Ленина, 5-12`: house and flat in the short form used on
  /// Russian envelopes and library cards.
  public var singleLine: String {
    let houseAndFlat = [house, flat].filter { !$0.isEmpty }.joined(separator: "-")
    return [postcode, city, street, houseAndFlat].filter { !$0.isEmpty }.joined(separator: ", ")
  }
}
