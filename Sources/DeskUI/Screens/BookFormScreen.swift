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
    /// Searching other libraries' catalogues by the title, author and year typed.
    case searching
    case searchedNothing
    case searchWaiting([LookupFailure])
    /// Filled from the record the librarian chose: its target, the fields filled.
    case copied(target: String, filled: Int, isbnProblem: ISBNError?)
  }

  private(set) var lookupState = LookupState.idle
  /// Values the catalogue gave for fields the librarian had already typed differently.
  private(set) var offered: [Field: String] = [:]
  private var lookupGeneration = 0
  private var lookedUp: String?
  private var lookUpWhenShown: Bool
  /// The record the form was filled from, kept with the book when it is saved.
  private(set) var copied: CopiedRecord?
  private var searchGeneration = 0
  /// The search that waits for the network: its answer, when a retry brings it, is shown.
  private var waitingQuery: CopyQuery?
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

  /// F5 takes what a look-up found, while it offers something; on a new book's form otherwise,
  /// it searches other libraries' catalogues by the title, author and year typed.
  override func actions(_ context: UIContext) -> [ScreenAction] {
    var actions = super.actions(context)
    if offered.isEmpty, original == nil {
      // After Esc in the key bar: a narrow window keeps the way out first.
      let cancel = actions.firstIndex { $0.declared == FormScreen.Keys.cancel } ?? 0
      actions.insert(
        ScreenAction(BookFormScreen.searchLibraries, hint: context.strings.keySearchLibraries) {
          self.startSearch(context: context)
        }, at: min(actions.count, cancel + 1))
    }
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

  private func startSearch(context: UIContext) -> [Effect] {
    let value = { (field: Field) in self.editors[field]?.text ?? "" }
    let author = [value(.authorSurname), value(.authorInitials)].map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
      .joined(separator: " ")
    guard let query = CopyQuery.words(title: value(.title), author: author, year: value(.year)) else {
      return [.notify(context.strings.copySearchNeedsWords)]
    }
    guard !((try? context.store.copyCataloguing.targets()) ?? []).isEmpty else {
      return [.notify(context.strings.copySearchNoTargets)]
    }
    BookFormScreen.generations += 1
    searchGeneration = BookFormScreen.generations
    waitingQuery = nil
    lookupState = .searching
    return [.searchCopies(query, generation: searchGeneration)]
  }

  /// The records found, to choose one from: it fills the form, and is kept with the book.
  override func receive(_ answer: CopySearchAnswer, context: UIContext) -> [Effect] {
    // A retry's answer counts only while no newer search is under way: that one's answer comes.
    let retried =
      answer.generation == CopySearchAnswer.retriedGeneration && answer.query == waitingQuery && searchGeneration == 0
    guard answer.generation == searchGeneration || retried else { return [] }
    searchGeneration = 0
    let result = answer.result
    if retried && result.isUnavailable { return [] }
    waitingQuery = result.isUnavailable ? answer.query : nil
    guard !result.records.isEmpty else {
      lookupState = result.isUnavailable ? .searchWaiting(result.failures) : .searchedNothing
      return []
    }
    lookupState = .idle
    let shown = Array(result.records.prefix(BookFormScreen.choicesShown))
    let s = context.strings
    var lines = [s.copyChoiceLines(found: result.records.count, shown: shown.count, holdsMore: result.holdsMore)]
    lines += result.failures.map { s.reason($0) } + result.unreadable
    return [
      .dialog(
        Dialog(
          title: s.copyChoiceTitle, lines: lines,
          kind: .choice(
            options: shown.map { "[\($0.target)] \($0.cardLine)".visibleForTerminal }, codes: shown.map { _ in "" },
            selected: 0)
        ) { choice in
          guard case .chosen(let index) = choice, shown.indices.contains(index) else { return [] }
          self.fill(from: shown[index])
          return []
        })
    ]
  }

  /// Records a list shows at most: the dialog's rows on a terminal of 24 lines.
  static let choicesShown = 12

  /// Fills the form from a copied record: every field the record has, over what was typed to
  /// search it (the librarian chose this record); the copy's own fields stay.
  func fill(from record: CopiedRecord) {
    var filled = 0
    for field in fields where !BookFormScreen.copyFields.contains(field) {
      let value = record.draft[field].trimmingWhitespace()
      guard !value.isEmpty else { continue }
      if editors[field]?.text.trimmingWhitespace() != value { editors[field]?.replace(with: value) }
      filled += 1
    }
    copied = record
    offered = [:]
    // Another library's ISBN is read as the form will check it: a wrong one is said now.
    var isbnProblem: ISBNError?
    if let text = editors[.isbn]?.text.trimmingWhitespace(), !text.isEmpty {
      do throws(ISBNError) { _ = try ISBN(text) } catch { isbnProblem = error }
    }
    lookupState = .copied(target: record.target, filled: filled, isbnProblem: isbnProblem)
    // The inventory number is what is left to type.
    if editors[.inventoryNumber]?.text.trimmingWhitespace().isEmpty ?? false,
      let index = fields.firstIndex(of: .inventoryNumber)
    {
      focus = index
    }
  }

  /// The fields of the library's own copy, which no other library's record fills.
  static let copyFields: Set<Field> = [.inventoryNumber, .place, .received, .status, .price, .authorMark]

  /// Fills the fields that are still empty; a value that differs from what the librarian typed
  /// is offered (F5), never forced.
  override func receive(_ result: LookupResult, context: UIContext) {
    guard result.generation == lookupGeneration else { return }
    switch result.outcome {
    case .found(let facts, _):
      // A library's record comes whole: kept with the book.
      if let record = facts.record, original == nil { copied = record }
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
    case .searching: text = s.copySearching
    case .searchedNothing: text = s.copySearchNothing
    case .searchWaiting(let reason): text = s.copySearchWaiting(reason)
    case .copied(let target, let filled, let problem): text = s.copyFilled(target, filled, isbnProblem: problem)
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
    } else if let copied {
      book = try context.store.books.add(draft, copiedFrom: copied)
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
  /// F5 on a new book's form with nothing found to take: other libraries' catalogues searched.
  static let searchLibraries = KeyDeclaration(.function(5), means: .searchLibraries)
}
