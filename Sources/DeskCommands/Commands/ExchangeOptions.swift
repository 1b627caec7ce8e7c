import DeskDomain
import DeskExchange
import DeskStorage

/// Options every file-writing exchange command takes.
enum ExchangeOptions {
  static let output = CommandSpec.Option(
    "-o", value: "<file>", help: "The file to write (its folder made when missing).")
  static let standardOutput = CommandSpec.Option("--stdout", help: "Write to standard output instead of a file.")
  static let encoding = CommandSpec.Option(
    "--encoding", value: "<cp1251|utf8>",
    help: "cp1251 (the default, with CRLF line ends, as IRBIS's own files) or utf8 (LF).")

  static func encoding(_ arguments: ParsedArguments, command: String) throws(CommandError) -> FileEncoding? {
    guard let text = arguments.value("--encoding") else { return nil }
    guard let encoding = FileEncoding(rawValue: text.lowercased().replacingDashes()) else {
      throw .usage("--encoding is cp1251 or utf8, not «\(text)»", command: command)
    }
    return encoding
  }

  static func writer(_ arguments: ParsedArguments, command: String) throws(CommandError) -> (TextWriter, String) {
    let encoding = try encoding(arguments, command: command) ?? .cp1251
    if arguments.has("--stdout") { return (TextWriter(standardOutputWith: encoding), "standard output") }
    guard let path = arguments.value("-o") else {
      throw .usage("name the file with -o, or give --stdout", command: command)
    }
    do throws(FileError) {
      // The file's folder is made when missing, as every -o does.
      if let slash = path.lastIndex(of: "/"), slash != path.startIndex { try makeFolder(String(path[..<slash])) }
      return (try TextWriter(path: path, encoding: encoding), path)
    } catch {
      throw .failed([error.description])
    }
  }

  static let assignInventory = CommandSpec.Option(
    "--assign-inventory", value: "<start>",
    help: "Give each book record without a numbered copy one new copy, numbered from <start> up "
      + "(skipping numbers in use), like 2026-0001.")

  static func assignInventory(_ arguments: ParsedArguments, command: String) throws(CommandError) -> String? {
    guard let start = arguments.value("--assign-inventory") else { return nil }
    guard InventoryNumbers.isValidStart(start) else {
      throw .usage(
        "--assign-inventory takes a number that ends in digits, like 2026-0001, not «\(start)»", command: command)
    }
    return start
  }

  /// The books an export names: inventory numbers, or one of --new-since, --issued and --all.
  static func bookSelection(_ arguments: ParsedArguments, names: [String], command: String) throws(CommandError)
    -> IRBISExport.BookSelection
  {
    if !names.isEmpty { return .inventories(names) }
    if let since = try arguments.date("--new-since") { return .newSince(since) }
    if arguments.has("--issued") { return .issued }
    if arguments.has("--all") { return .all }
    throw .usage("name inventory numbers, or --all, --new-since or --issued", command: command)
  }

  /// Says how many letters Windows-1251 lacked, when there were any.
  static func reportReplaced(_ count: Int, context: CommandContext) {
    guard count > 0 else { return }
    context.output.line(
      "\(count) characters have no place in Windows-1251 and were written as plain letters or ?; "
        + "--encoding utf8 keeps them")
  }

  static func close(_ writer: TextWriter) throws(CommandError) {
    do throws(FileError) { try writer.close() } catch { throw .failed([error.description]) }
  }
}

extension String {
  func replacingDashes() -> String { String(filter { $0 != "-" }) }
}
