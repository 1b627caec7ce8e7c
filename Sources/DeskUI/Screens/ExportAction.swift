import DeskDomain
import DeskExchange
import DeskStorage

/// Export from the desk: what is on the screen (a record, the list as filtered, or everything)
/// to an IRBIS file the librarian names, in Windows-1251 as IRBIS reads it.
enum ExportAction {
  enum What {
    case book(String)
    case reader(String)
    case books(BookFilter, search: String)
    case readers
    case everything
  }

  static func prompt(_ what: What, context: UIContext) -> [Effect] {
    let s = context.strings
    let name = "circdesk-\(context.today.compact).txt"
    return [
      .dialog(
        Dialog(title: s.sectionExport, lines: [s.exportPrompt], kind: .prompt(LineEditor(name, maximumLength: 4096))) {
          answer in
          guard case .text(let path) = answer, !path.isEmpty else { return [] }
          return write(what, to: path, context: context)
        })
    ]
  }

  static func write(_ what: What, to path: String, context: UIContext) -> [Effect] {
    let s = context.strings
    do {
      let writer = try TextWriter(path: path, encoding: .cp1251)
      var count = 0
      let store = context.store
      switch what {
      case .book(let inventory): count = try IRBISExport.books(.inventories([inventory]), from: store, to: writer)
      case .reader(let ticket): count = try IRBISExport.readers(.tickets([ticket]), from: store, to: writer)
      case .books(let filter, let search):
        count = try IRBISExport.books(.all, from: store, to: writer, filter: filter, search: search)
      case .readers: count = try IRBISExport.readers(.all, from: store, to: writer)
      case .everything:
        count = try IRBISExport.books(.all, from: store, to: writer)
        count += try IRBISExport.readers(.all, from: store, to: writer)
      }
      try writer.close()
      return [.notify(s.exported(count, path))]
    } catch let error as StoreError {
      return [.dialog(.error(s.sectionExport, context.messages(error)))]
    } catch let error as FileError {
      return [.dialog(.error(s.sectionExport, [s.words.message(error)]))]
    } catch {
      return [.dialog(.error(s.sectionExport, ["\(error)"]))]
    }
  }
}
