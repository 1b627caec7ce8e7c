import DeskDomain
import DeskLookup
import DeskStorage

/// The New Book and Edit Book form: its fields, and the ISBN look-up that offers to fill them.
final class BookFormScreen: FormScreen {
  private let original: Book?
  private let onSaved: (Book) -> Void
  /// Where the ISBN look-up stands, for the line under the form.
  enum LookupState: Equatable {
    case idle
    case lookingUp(String)
    case found(provider: String, filled: Int, differing: [Field])
    case notFound
    case waiting(LookupFailure?)
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

  /// F5 takes what a look-up found, while it offers something.
  override func actions(_ context: UIContext) -> [ScreenAction] {
    var actions = super.actions(context)
    if !offered.isEmpty {
      actions.insert(
        ScreenAction(BookFormScreen.takeFound, hint: context.strings.keyTakeFound) {
          for (field, value) in self.offered { self.editors[field]?.replace(with: value) }
          self.offered = [:]
          if case .found(let provider, let filled, _) = self.lookupState {
            self.lookupState = .found(provider: provider, filled: filled, differing: [])
          }
          return []
        }, at: 1)
    }
    return actions
  }

  override func reload(context: UIContext) -> [Effect] {
    guard lookUpWhenShown else { return [] }
    lookUpWhenShown = false
    return startLookup(context: context)
  }

  /// Looks the ISBN up in the background when the cursor leaves the ISBN field with a new, valid
  /// ISBN in it. The form stays usable meanwhile.
  override func handle(_ key: Key, context: UIContext) -> [Effect] {
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
          editors[field]?.replace(with: value)
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
      lookupState = .waiting(failures.first)
    }
  }

  /// Where the look-up stands, under the fields, wrapped: the fields make room for it.
  override func footer(width: Int, context: UIContext) -> [String] {
    let s = context.strings
    let text: String
    switch lookupState {
    case .idle: return []
    case .lookingUp(let isbn): text = s.lookingUp(isbn)
    case .found(let provider, let filled, let differing):
      text = s.lookupFound(provider, filled, differing.map { s.label($0) })
    case .notFound: text = s.lookupNotFound
    case .waiting(let reason): text = s.lookupWaiting(reason)
    }
    return wrap(text, width: width)
  }

  override func save(_ values: [Field: String], context: UIContext) throws(StoreError) -> String {
    var draft = BookDraft()
    for field in BookDraft.fields { draft[field] = values[field] ?? "" }
    let book: Book
    if let original {
      book = try context.store.books.update(inventory: original.inventoryNumber) { current in
        for field in BookDraft.fields where draft[field] != initial[field] ?? "" { current[field] = draft[field] }
      }
    } else {
      book = try context.store.books.add(draft)
    }
    onSaved(book)
    return context.strings.savedNotice("\(book.inventoryNumber) \(book.shortDescription)")
  }
}

extension BookFormScreen {
  /// F5 on a book's form: what an ISBN look-up found, over what was typed.
  static let takeFound = KeyDeclaration(.function(5), means: .takeFound)
}
