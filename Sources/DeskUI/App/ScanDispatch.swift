import DeskDomain
import DeskStorage

/// What a scanned code opens when the screen has no use of its own for it: the book or reader
/// it names, a New Book form for a QR record or an ISBN the library lacks, and a loud error for
/// anything else. Nothing is ever created by a scan alone.
enum ScanDispatch {
  static func effects(for code: String, context: UIContext) -> [Effect] {
    let s = context.strings
    let resolution: CodeResolution
    do {
      resolution = try context.store.resolve(code)
    } catch {
      return [.dialog(.error(s.errorTitle, context.messages(error)))]
    }
    switch resolution {
    case .newBook(let draft):
      var values: [Field: String] = [:]
      for field in BookDraft.fields { values[field] = draft[field] }
      // What the label said that fills nothing is told, never dropped in silence.
      let remarks = BookRecordLabel.remarks(code)
      // A remark is told in an alert, which wraps: on the status line it would be cut at the width.
      return [
        .push(BookFormScreen(editing: nil, values: values, onSaved: { _ in })), .notify(s.scannedRecord),
      ]
        + (remarks.isEmpty
          ? [] : [.dialog(Dialog(title: s.scannedRecordRemarksTitle, lines: s.scannedRecordRemarks(remarks)))])
    case .recordOfExistingBook(_, let book):
      // The label of a book the library has: its record, as its inventory number would open it.
      return [
        .push(BookDetailScreen(inventory: book.inventoryNumber)), .notify(s.scannedLabelOfBook(book.inventoryNumber)),
      ]
        + conflictFirst(.book, book.id, context)
    case .isbn(let isbn, let copies):
      guard let first = copies.first else {
        return [
          .push(BookFormScreen(editing: nil, values: [.isbn: isbn.hyphenated], lookUpISBN: true, onSaved: { _ in })),
          .notify(s.scannedNewISBN(isbn.hyphenated)),
        ]
      }
      return [.push(BookDetailScreen(inventory: first.inventoryNumber))]
        + (copies.count > 1 ? [.notify(s.scannedCopies(copies.count))] : conflictFirst(.book, first.id, context))
    case .book(let book):
      return [.push(BookDetailScreen(inventory: book.inventoryNumber))] + conflictFirst(.book, book.id, context)
    case .reader(let reader):
      return [.push(ReaderDetailScreen(ticket: reader.ticket))] + conflictFirst(.reader, reader.id, context)
    case .unknown(let unknown):
      return [.dialog(.error(s.unknownCodeTitle, [s.unknownCodeMessage(unknown)]))]
    }
  }

  /// A scanned record with an open conflict between desks shows the conflict over the record.
  private static func conflictFirst(_ entity: RecordKind, _ id: RecordID, _ context: UIContext) -> [Effect] {
    guard let conflict = try? context.store.conflicts.openConflicts(entity: entity, recordID: id).first else {
      return []
    }
    return [.push(ConflictScreen(number: conflict.number)), .notify(context.strings.conflictScanned)]
  }
}
