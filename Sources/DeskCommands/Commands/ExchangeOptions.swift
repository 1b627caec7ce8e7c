import DeskDomain
import DeskExchange
import DeskStorage

/// Options every file-writing exchange command takes.
enum ExchangeOptions {
  static let output = CommandOption<String>(
    "-o", value: "<file>", help: "The file to write (its folder made when missing).")
  static let standardOutput = CommandFlag("--stdout", help: "Write to standard output instead of a file.")
  static let encoding = CommandOption<FileEncoding>(
    "--encoding", value: "<cp1251|utf8>",
    help: "cp1251 (the default, with CRLF line ends, as IRBIS's own files) or utf8 (LF).", read: readEncoding)
  /// An import's: the file says its encoding, or its bytes do, unless the librarian knows better.
  static let importEncoding = CommandOption<FileEncoding>(
    "--encoding", value: "<cp1251|utf8>",
    help: "Read the file as cp1251 or utf8, where what it says or its bytes show is wrong (default: told "
      + "from the file).", read: readEncoding)

  private static func readEncoding(_ text: String) -> Result<FileEncoding, OptionRefusal> {
    FileEncoding(rawValue: text.lowercased().replacingDashes()).map { .success($0) }
      ?? .failure(OptionRefusal(words: "is cp1251 or utf8, not «\(text)»"))
  }
  static let dryRun = CommandFlag("--dry-run", help: "Report what would happen and change nothing.")
  static let assignInventory = CommandOption<String>(
    "--assign-inventory", value: "<start>",
    help: "Number the copies a record lists without a number (a Koha item with no barcode, «б/н»), and give "
      + "a record with no copy one new copy, numbered from <start> up (skipping numbers in use), like 2026-0001."
  ) { start in
    InventoryNumbers.isValidStart(start)
      ? .success(start)
      : .failure(OptionRefusal(words: "takes a number that ends in digits, like 2026-0001, not «\(start)»"))
  }
  /// The books an export writes, when no inventory numbers are named.
  static let all = CommandFlag("--all", help: "Every book or reader.")
  static let newSince = CommandOption<LocalDate>.date(
    "--new-since", help: "Books received since this date (YYYY-MM-DD).")
  static let issued = CommandFlag("--issued", help: "Books that are out.")

  static func writer(_ arguments: ParsedArguments, command: String) throws(CommandError) -> (TextWriter, String) {
    let encoding = try arguments.value(encoding) ?? .cp1251
    if arguments.has(standardOutput) { return (TextWriter(standardOutputWith: encoding), "standard output") }
    guard let path = try arguments.value(output) else {
      throw .usage("name the file with -o, or give --stdout", command: command)
    }
    do throws(FileError) {
      // The file's folder is made when missing, as every -o does.
      if let slash = path.lastIndex(of: "/"), slash != path.startIndex { try makeFolder(String(path[..<slash])) }
      return (try TextWriter(path: path, encoding: encoding), path)
    } catch {
      throw .file(error)
    }
  }

  /// The books an export names: inventory numbers, or one of --new-since, --issued and --all.
  static func bookSelection(_ arguments: ParsedArguments, names: [String], command: String) throws(CommandError)
    -> IRBISExport.BookSelection
  {
    if !names.isEmpty { return .inventories(names) }
    if let since = try arguments.value(newSince) { return .newSince(since) }
    if arguments.has(issued) { return .issued }
    if arguments.has(all) { return .all }
    throw .usage("name inventory numbers, or --all, --new-since or --issued", command: command)
  }

  /// Says how many letters Windows-1251 lacked, when there were any.
  static func reportReplaced(_ count: Int, context: CommandContext) {
    guard count > 0 else { return }
    context.output.line(context.words.replacedCharacters(count))
  }

  static func close(_ writer: TextWriter) throws(CommandError) {
    do throws(FileError) { try writer.close() } catch { throw .file(error) }
  }
}

extension String {
  func replacingDashes() -> String { String(filter { $0 != "-" }) }
}
