import DeskDomain
import DeskExchange
import DeskScanning
import DeskStorage

/// `circdesk label`: a QR label (PNG) per book, carrying its record.
struct LabelCommand: DeskCommand {
  static let outputFolder = CommandOption<String>(
    "-o", value: "<folder>", help: "The folder for the labels, one <inventory>.png each (made when missing).",
    required: true)

  static let spec = CommandSpec(
    path: "label", abstract: "Write QR labels for books.",
    arguments: [.init("<inventory>", "Inventory numbers of the books.", .oneOrMore)],
    options: [
      outputFolder,
      CommandSpec.databaseOption,
    ],
    discussion:
      "Each label's QR code carries the book's record in `Label: value` lines, with its inventory number; scanning it gives the record back."
  )

  static func run(_ arguments: ParsedArguments, in context: CommandContext) throws(CommandError) {
    let inventories = arguments.positionals
    let folder = try arguments.required(outputFolder)
    let store = try context.openStore(arguments)
    do throws(FileError) { try makeFolder(folder) } catch { throw .file(error) }
    var problems: [String] = []
    var written: [String] = []
    for inventory in inventories {
      guard let book = try perform({ () throws(StoreError) in try store.books.book(inventory: inventory) }) else {
        problems += context.words.messages(.bookNotFound(inventory))
        continue
      }
      let path = folder + "/" + fileName(for: book.inventoryNumber) + ".png"
      do throws(LabelError) {
        try LabelWriter.write(book, to: path)
        written.append(path)
      } catch {
        problems.append(error.description)
      }
    }
    for path in written { context.output.line("Wrote \(path)".visibleForTerminal) }
    guard problems.isEmpty else { throw .failed(problems) }
  }
}
