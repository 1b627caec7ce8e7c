import DeskDomain
import DeskStorage

/// The New Reader and Edit Reader form.
final class ReaderFormScreen: FormScreen {
  private let original: Reader?
  private let onSaved: (Reader) -> Void

  init(editing reader: Reader?, values: [Field: String] = [:], onSaved: @escaping (Reader) -> Void) {
    original = reader
    self.onSaved = onSaved
    var start = values
    if let reader {
      let draft = ReaderDraft(reader)
      for field in ReaderDraft.fields { start[field] = draft[field] }
    }
    super.init(title: "", fields: ReaderDraft.fields, required: [.ticket, .surname], values: start)
  }

  override func title(_ context: UIContext) -> String {
    original.map { context.strings.editReaderTitle($0.fullName) } ?? context.strings.newReaderTitle
  }

  /// Leaving the phone field with a phone whose household already has an address, and no
  /// address typed, fills the address in: the librarian sees it and may keep or change it.
  override func handle(_ key: Key, context: UIContext) -> [Effect] {
    let leavingPhone = focusedField == .phone
    let effects = super.handle(key, context: context)
    guard leavingPhone, focusedField != .phone else { return effects }
    let addressFields: [Field] = [.postcode, .addressCity, .street, .house, .flat]
    guard addressFields.allSatisfy({ editors[$0]?.text.trimmingWhitespace().isEmpty ?? true }),
      let phone = editors[.phone]?.text, !Address.phoneKey(phone).isEmpty,
      let address = try? context.store.readers.address(phone: phone)
    else { return effects }
    let values = [address.postcode, address.city, address.street, address.house, address.flat]
    for (field, value) in zip(addressFields, values) { editors[field] = LineEditor(value, maximumLength: 1000) }
    return effects + [.notify(context.strings.addressFilled(address.singleLine))]
  }

  override func save(_ values: [Field: String], context: UIContext) throws(StoreError) -> String {
    var draft = ReaderDraft()
    for field in ReaderDraft.fields { draft[field] = values[field] ?? "" }
    let reader: Reader
    if let original {
      reader = try context.store.readers.update(ticket: original.ticket) { current in
        for field in ReaderDraft.fields where draft[field] != initial[field] ?? "" { current[field] = draft[field] }
      }
    } else {
      reader = try context.store.readers.add(draft)
    }
    onSaved(reader)
    return context.strings.savedNotice("\(reader.ticket) \(reader.fullName)")
  }
}
