import DeskDomain
import DeskStorage

/// A form of labelled one-line fields. Tab, Shift-Tab, Up, Down and Enter move between fields
/// (Enter never saves: a scanner's Enter must not submit a form); F2 saves; Esc cancels and asks
/// first when something was typed. A refused save keeps everything typed and puts the cursor on
/// the field to fix.
class FormScreen: DeskScreen {
  let fields: [Field]
  let required: Set<Field>
  var editors: [Field: LineEditor]
  /// The values the form opened with. An edit saves only the fields typed over: another desk's
  /// change of another field, arrived while the form was open, stands.
  let initial: [Field: String]
  var focus = 0
  private var scroll = 0
  private let formTitle: String

  init(title: String, fields: [Field], required: Set<Field>, values: [Field: String]) {
    formTitle = title
    self.fields = fields
    self.required = required
    editors = Dictionary(uniqueKeysWithValues: fields.map { ($0, LineEditor(values[$0] ?? "", maximumLength: 1000)) })
    initial = Dictionary(uniqueKeysWithValues: fields.map { ($0, values[$0] ?? "") })
  }

  var helpTopic: HelpTopic { .form }

  func title(_ context: UIContext) -> String { formTitle }

  var hasUnsavedInput: Bool {
    fields.contains { editors[$0]?.text != initial[$0] }
  }

  var focusedField: Field { fields[focus] }

  func keyHints(_ context: UIContext) -> [KeyHint] {
    let s = context.strings
    return [KeyHint("F2", s.keySave), KeyHint("Tab", s.keyNextField), KeyHint("Esc", s.keyCancel)]
  }

  var acceptsText: Bool { true }
  var expectsCode: Bool { FormScreen.codeFields.contains(focusedField) }

  // Declared here so that subclasses can override them (a protocol extension's default would be
  // chosen for every form otherwise).
  func reload(context: UIContext) -> [Effect] { [] }
  /// A form keeps what was typed: a change from another desk meets it when it is saved.
  func showArrivals(context: UIContext) -> [Effect] { [] }
  func receive(_ result: LookupResult, context: UIContext) {}

  /// Fields a scan fills when the cursor is in them.
  static let codeFields: Set<Field> = [.inventoryNumber, .isbn, .ticket]

  /// A scan into a code field fills that field (and never saves); in another field the app
  /// opens what the code names, over the form.
  func handleScan(_ code: String, context: UIContext) -> [Effect]? {
    guard FormScreen.codeFields.contains(focusedField) else { return nil }
    editors[focusedField] = LineEditor(code, maximumLength: 1000)
    return []
  }

  /// Saves the values; returns the notice to show, or throws why not.
  func save(_ values: [Field: String], context: UIContext) throws(StoreError) -> String {
    fatalError("subclasses save their records")
  }

  func handle(_ key: Key, context: UIContext) -> [Effect] {
    let s = context.strings
    switch key {
    case .function(2):
      return trySave(context: context)
    case .tab, .down, .enter:
      focus = min(fields.count - 1, focus + 1)
    case .backTab, .up:
      focus = max(0, focus - 1)
    case .escape:
      guard hasUnsavedInput else { return [.pop] }
      return [
        .dialog(
          Dialog(title: s.discardTitle, lines: [s.discardQuestion], kind: .confirm) { answer in
            if case .yes = answer { return [.pop] }
            return []
          })
      ]
    default:
      editors[focusedField]?.handle(key)
    }
    return []
  }

  private func trySave(context: UIContext) -> [Effect] {
    let values = editors.mapValues(\.text)
    do {
      let notice = try save(values, context: context)
      return [.notify(notice), .pop]
    } catch {
      if case .invalid(let errors) = error, let field = errors.errors.first?.field,
        let index = fields.firstIndex(of: field)
      {
        focus = index
      }
      return [.dialog(.error(context.strings.cannotSaveTitle, context.messages(error)))]
    }
  }

  func render(into buffer: inout ScreenBuffer, area: Rect, context: UIContext) {
    let s = context.strings
    let labelWidth = min(24, (fields.map { s.label($0).displayWidth }.max() ?? 10) + 3)
    let fieldColumn = area.column + 2 + labelWidth
    let fieldWidth = max(10, min(64, area.width - labelWidth - 6))
    let height = area.height - 2
    if focus < scroll { scroll = focus }
    if focus >= scroll + height { scroll = focus - height + 1 }
    // A window that grew shows every field that now fits.
    scroll = max(0, min(scroll, fields.count - height))
    buffer.write(s.requiredNote, row: area.row, column: area.column + 2, style: context.style(.muted))
    for (offset, field) in fields.enumerated().dropFirst(scroll).prefix(height) {
      let y = area.row + 2 + offset - scroll
      let marker = required.contains(field) ? "*" : " "
      buffer.write(
        "\(marker) \(s.label(field))", row: y, column: area.column + 1, width: labelWidth,
        style: context.style(offset == focus ? .title : .label))
      let editor = editors[field] ?? LineEditor()
      let (text, cursor) = editor.visible(width: fieldWidth)
      buffer.writePadded(
        text, row: y, column: fieldColumn, width: fieldWidth,
        style: context.style(offset == focus ? .activeField : .field))
      if offset == focus { buffer.cursor = (y, fieldColumn + cursor) }
    }
  }
}

final class BookFormScreen: FormScreen {
  private let original: Book?
  private let onSaved: (Book) -> Void
  /// Where the ISBN look-up stands, for the line under the form.
  enum LookupState: Equatable {
    case idle
    case lookingUp(String)
    case found(provider: String, filled: Int, differing: [Field])
    case notFound
    case waiting(String)
  }

  private(set) var lookupState = LookupState.idle
  /// Values the catalogue gave for fields the librarian had already typed differently.
  private(set) var offered: [Field: String] = [:]
  private var lookupGeneration = 0
  private var lookedUp: String?
  private var lookUpWhenShown: Bool
  private nonisolated(unsafe) static var generations = 0

  init(
    editing book: Book?, values: [Field: String] = [:], lookUpISBN: Bool = false, onSaved: @escaping (Book) -> Void
  ) {
    original = book
    self.onSaved = onSaved
    lookUpWhenShown = lookUpISBN
    var start = values
    if let book {
      let draft = BookDraft(book)
      for field in BookDraft.fields { start[field] = draft[field] }
    }
    super.init(
      title: book == nil ? "" : book?.inventoryNumber ?? "", fields: BookDraft.fields,
      required: [.inventoryNumber, .title], values: start)
  }

  override func title(_ context: UIContext) -> String {
    original.map { context.strings.editBookTitle($0.inventoryNumber) } ?? context.strings.newBookTitle
  }

  override func keyHints(_ context: UIContext) -> [KeyHint] {
    var hints = super.keyHints(context)
    if !offered.isEmpty { hints.insert(KeyHint("F5", context.strings.keyTakeFound), at: 1) }
    return hints
  }

  override func reload(context: UIContext) -> [Effect] {
    guard lookUpWhenShown else { return [] }
    lookUpWhenShown = false
    return startLookup(context: context)
  }

  /// Looks the ISBN up in the background when the cursor leaves the ISBN field with a new, valid
  /// ISBN in it. The form stays usable meanwhile.
  override func handle(_ key: Key, context: UIContext) -> [Effect] {
    if key == .function(5), !offered.isEmpty {
      for (field, value) in offered { editors[field] = LineEditor(value, maximumLength: 1000) }
      offered = [:]
      if case .found(let provider, let filled, _) = lookupState {
        lookupState = .found(provider: provider, filled: filled, differing: [])
      }
      return []
    }
    let leavingISBN = focusedField == .isbn
    let effects = super.handle(key, context: context)
    guard leavingISBN, focusedField != .isbn else { return effects }
    return effects + startLookup(context: context)
  }

  private func startLookup(context: UIContext) -> [Effect] {
    guard let text = editors[.isbn]?.text.trimmingWhitespace(), !text.isEmpty, let isbn = try? ISBN(text),
      lookedUp != isbn.isbn13
    else { return [] }
    lookedUp = isbn.isbn13
    BookFormScreen.generations += 1
    lookupGeneration = BookFormScreen.generations
    lookupState = .lookingUp(isbn.hyphenated)
    return [.lookUp(isbn, generation: lookupGeneration)]
  }

  /// Fills the fields that are still empty; a value that differs from what the librarian typed
  /// is offered (F5), never forced.
  override func receive(_ result: LookupResult, context: UIContext) {
    guard result.generation == lookupGeneration else { return }
    switch result.outcome {
    case .found(let facts, _):
      var filled = 0
      var differing: [Field] = []
      for field in fields {
        guard let value = facts.fieldValues[field] else { continue }
        let current = editors[field]?.text.trimmingWhitespace() ?? ""
        if current.isEmpty {
          editors[field] = LineEditor(value, maximumLength: 1000)
          filled += 1
        } else if current != value {
          offered[field] = value
          differing.append(field)
        }
      }
      lookupState = .found(provider: facts.provider, filled: filled, differing: differing)
    case .notFound:
      lookupState = .notFound
    case .unavailable(let failures):
      lookupState = .waiting(failures.first?.description ?? "")
    }
  }

  override func render(into buffer: inout ScreenBuffer, area: Rect, context: UIContext) {
    super.render(into: &buffer, area: area, context: context)
    let s = context.strings
    let text: String
    switch lookupState {
    case .idle: return
    case .lookingUp(let isbn): text = s.lookingUp(isbn)
    case .found(let provider, let filled, let differing):
      text = s.lookupFound(provider, filled, differing.map { s.label($0) })
    case .notFound: text = s.lookupNotFound
    case .waiting(let reason): text = s.lookupWaiting(reason)
    }
    let cursor = buffer.cursor
    buffer.write(
      text, row: area.bottom - 1, column: area.column + 2, width: area.width - 4, style: context.style(.label))
    buffer.cursor = cursor
  }

  override func save(_ values: [Field: String], context: UIContext) throws(StoreError) -> String {
    var draft = BookDraft()
    for field in BookDraft.fields { draft[field] = values[field] ?? "" }
    let book: Book
    if let original {
      book = try context.store.updateBook(inventory: original.inventoryNumber) { current in
        for field in BookDraft.fields where draft[field] != initial[field] ?? "" { current[field] = draft[field] }
      }
    } else {
      book = try context.store.addBook(draft)
    }
    onSaved(book)
    return context.strings.savedNotice("\(book.inventoryNumber) \(book.shortDescription)")
  }
}

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
      let address = try? context.store.address(phone: phone)
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
      reader = try context.store.updateReader(ticket: original.ticket) { current in
        for field in ReaderDraft.fields where draft[field] != initial[field] ?? "" { current[field] = draft[field] }
      }
    } else {
      reader = try context.store.addReader(draft)
    }
    onSaved(reader)
    return context.strings.savedNotice("\(reader.ticket) \(reader.fullName)")
  }
}
