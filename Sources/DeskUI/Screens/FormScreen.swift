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
    actions(context).hints
  }

  /// The form's keys: the hint bar and the handler both come from here. No letter is one: a
  /// form's letters are typed.
  func actions(_ context: UIContext) -> [ScreenAction] {
    let s = context.strings
    return [
      ScreenAction(Keys.save, hint: s.keySave) { self.trySave(context: context) },
      ScreenAction(Keys.nextField, hint: s.keyNextField) {
        self.focus = min(self.fields.count - 1, self.focus + 1)
        return []
      },
      ScreenAction(Keys.cancel, hint: s.keyCancel) {
        guard self.hasUnsavedInput else { return [.pop] }
        return [
          .dialog(
            Dialog(title: s.discardTitle, lines: [s.discardQuestion], kind: .confirm) { answer in
              if case .yes = answer { return [.pop] }
              return []
            })
        ]
      },
      ScreenAction(Keys.previousField, hint: nil) {
        self.focus = max(0, self.focus - 1)
        return []
      },
    ]
  }

  var acceptsText: Bool { true }
  var expectsCode: Bool { FormScreen.codeFields.contains(focusedField) }

  // Declared here so that subclasses can override them (a protocol extension's default would be
  // chosen for every form otherwise).
  func reload(context: UIContext) -> [Effect] { [] }
  /// A form keeps what was typed: a change from another desk meets it when it is saved.
  func showArrivals(context: UIContext) -> [Effect] { [] }
  func receive(_ result: LookupResult, context: UIContext) {}
  func receive(_ answer: CopySearchAnswer, context: UIContext) -> [Effect] { [] }

  /// Fields a scan fills when the cursor is in them.
  static let codeFields: Set<Field> = [.inventoryNumber, .isbn, .ticket]

  /// A scan into a code field fills that field (and never saves); in another field the app
  /// opens what the code names, over the form.
  func handleScan(_ scan: Scan, context: UIContext) -> [Effect]? {
    guard FormScreen.codeFields.contains(focusedField) else { return nil }
    editors[focusedField]?.replace(with: scan.code)
    // The scanner's Enter or Tab moves on, as typed: the next scan fills the next field.
    guard let terminator = scan.endedBy else { return [] }
    return handle(terminator, context: context)
  }

  /// In a form, Ctrl-Z and F8 take back the typing in the field: never a loan made elsewhere.
  func undoTyping(_ key: Key, context: UIContext) -> [Effect]? {
    guard editors[focusedField]?.undo() == true else { return [.notify(context.strings.nothingTypedToUndo)] }
    return []
  }

  /// Saves the values; returns the notice to show, or throws why not.
  func save(_ values: [Field: String], context: UIContext) throws(StoreError) -> String {
    fatalError("subclasses save their records")
  }

  func handle(_ key: Key, context: UIContext) -> [Effect] {
    if let effects = actions(context).run(key) { return effects }
    editors[focusedField]?.handle(key)
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

  /// Lines under the fields (a look-up's news): their rows are kept from the fields, so that a
  /// message never covers the field being typed in.
  func footer(width: Int, context: UIContext) -> [String] { [] }

  func render(into buffer: inout ScreenBuffer, area: Rect, context: UIContext) {
    let s = context.strings
    let labelWidth = min(24, (fields.map { s.label($0).displayWidth }.max() ?? 10) + 3)
    let fieldColumn = area.column + 2 + labelWidth
    let fieldWidth = max(10, min(64, area.width - labelWidth - 6))
    // At most three lines, and a blank above them; the fields scroll in the rows left.
    let footer = Array(self.footer(width: area.width - 4, context: context).prefix(3))
    let height = max(1, area.height - 2 - (footer.isEmpty ? 0 : footer.count + 1))
    for (index, line) in footer.enumerated() {
      buffer.write(
        line, row: area.bottom - footer.count + index, column: area.column + 2, width: area.width - 4,
        style: context.style(.label))
    }
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
      // The field being typed in shows around its cursor; the others from their start, cut.
      let (text, cursor) = offset == focus ? editor.visible(width: fieldWidth) : (editor.text, 0)
      buffer.writePadded(
        text, row: y, column: fieldColumn, width: fieldWidth,
        style: context.style(offset == focus ? .activeField : .field))
      if offset == focus { buffer.cursor = (y, fieldColumn + cursor) }
    }
  }
}

extension FormScreen {
  /// A form's keys, in the help's order; a field's own editing keys are its line editor's.
  enum Keys {
    static let nextField = KeyDeclaration(.tab, .down, .enter, means: .nextField)
    static let previousField = KeyDeclaration(.backTab, .up, means: .previousField)
    static let all = [
      nextField, previousField, .legend("← → Home End", .moveInField), .legend("Backspace, Delete", .erase),
      .legend("Ctrl-U, Ctrl-K", .eraseToEnds), .legend("Ctrl-Z, F8", .undoTyping), save, BookFormScreen.takeFound,
      BookFormScreen.searchLibraries,
      cancel,
    ]
    static let save = KeyDeclaration(.function(2), means: .save)
    static let cancel = KeyDeclaration(.escape, means: .cancelForm)
  }
}
