import DeskDomain
import DeskExchange
import DeskStorage

/// What an import says, in English.
extension EnglishWords {
  public var skipped: String { "skipped: " }
  public var note: String { "note: " }

  public func place(_ place: ImportPlace) -> String {
    switch place {
    case .line(let record, let line): "record \(record) (line \(line))"
    case .byte(let record, let byte): "record \(record) (byte \(byte))"
    }
  }

  /// A copy by its number; one with none is the copy `--assign-inventory` numbers.
  func copyName(_ number: String) -> String {
    number.isEmpty ? "the copy to be numbered" : "copy \(number)"
  }

  public func line(_ problem: ImportProblem) -> String {
    switch problem {
    case .unreadableRecord(let problem):
      return "record \(problem.record), line \(problem.line): \(reason(problem.flaw))"
    case .unendingLine(let line, let flaw): return "line \(line): \(reason(flaw))"
    case .unreadableMARC(let record, let byte, let flaw): return "record \(record) (byte \(byte)): \(reason(flaw))"
    case .refused(let at, let refusal): return "\(place(at)): \(reason(refusal))"
    case .copyWithoutNumber(let at, let written):
      let shown = written.isEmpty ? "" : " («\(written)»)"
      return "\(place(at)): a copy without an inventory number\(shown)"
    case .numberTwice(let at, let copy, let earlier):
      return "\(place(at)): copy \(copy): the same number is also in record \(earlier) of this file"
    case .bookThere(let at, let inventory):
      return "\(place(at)): book \(inventory) is already in the library (skipped; --update replaces it)"
    case .readerThere(let at, let ticket):
      return "\(place(at)): reader \(ticket) is already in the library (skipped; --update replaces it)"
    case .copyRefused(let at, let copy, let error):
      return "\(place(at)): \(copy.isEmpty ? "a new copy" : "copy \(copy)"): \(messages(error).joined(separator: "; "))"
    case .readerRefused(let at, let ticket, let error):
      return "\(place(at)): reader \(ticket): \(messages(error).joined(separator: "; "))"
    case .loanRefused(let at, let inventory, let ticket, let error):
      return "\(place(at)): loan of \(inventory) to \(ticket): \(messages(error).joined(separator: "; "))"
    case .pendingLoanRefused(let inventory, let ticket, let error):
      return "loan of \(inventory) to \(ticket), kept until the book came: \(messages(error).joined(separator: "; "))"
    }
  }

  public func line(_ note: ImportNote) -> String {
    switch note {
    case .numberAssigned(let at, let number): return "\(place(at)): a copy numbered \(number) (--assign-inventory)"
    case .summaryEntry(let at, let number, let copies):
      let count = copies.isEmpty ? "" : " of \(copies) copies"
      return "\(place(at)): summary entry «\(number)»\(count) (910 ^A U): kept with the record, "
        + "not a copy that circulates"
    case .unknownCopyStatus(let at, let copy, let code):
      return "\(place(at)): \(copyName(copy)): status «\(code)» is not an IRBIS copy status; imported as available"
    case .numberReplaced(let at, let copy, let earlier):
      return
        "\(place(at)): copy \(copy): the same number is also in record \(earlier) of this file; this one replaces it"
    case .isbnDropped(let at, let copy, let isbn):
      return "\(place(at)): \(copyName(copy)): ISBN «\(isbn)» is not valid; imported without it"
    case .priceDropped(let at, let copy, let price):
      return "\(place(at)): \(copyName(copy)): price «\(price)» is not an amount; imported without it"
    case .unknownCategory(let at, let category, let given):
      return "\(place(at)): category «\(category)» is not known here; the reader is «\(given)» "
        + "(give it a category with: circdesk policy category CODE --written-as \"\(category)\")"
    case .addressNotTaken(let at, let ticket, let reason):
      let what: String
      if case .addressConflict = reason { what = "the address and phone were" } else { what = "the address was" }
      return "\(place(at)): reader \(ticket): \(what) not taken (\(message(reason))); "
        + "their record keeps them for the export"
    case .copiesMarkedOut(let count):
      return "\(count) \(count == 1 ? "copy is" : "copies are") marked out (910 ^A 1) with no loan in this file: "
        + "on the shelf until the readers' records (RDR, field 40) bring their loans"
    case .loansWaitingForBooks(let count):
      return "\(count) \(count == 1 ? "loan is" : "loans are") of books not in the library: kept with "
        + "\(count == 1 ? "its reader" : "their readers"), each becomes a loan when its book is imported or added"
    }
  }

  public func summary(_ report: ImportReport, dryRun: Bool) -> String {
    "\(dryRun ? "Would import" : "Imported") from \(englishPlural(report.records, "record")): "
      + "\(englishPlural(report.booksAdded, "book")) added, \(report.booksUpdated) updated; "
      + "\(englishPlural(report.readersAdded, "reader")) added, \(report.readersUpdated) updated; "
      + "\(englishPlural(report.loansAdded, "loan")); \(report.problems.count) skipped"
      + (dryRun ? " (dry run: nothing changed)" : "")
  }

  public func line(_ problem: KOC.Problem) -> String {
    let what =
      switch problem.kind {
      case .unreadable(let flaw): reason(flaw)
      case .otherVersion(let version):
        "the header says «\(version)», not Version=1.0: this is not a Koha offline circulation file this desk "
          + "reads; nothing of it was taken"
      case .notATransaction: "not a transaction line"
      case .noBarcode(let kind): "\(kind == "issue" ? "an issue" : "a return") without the book's barcode"
      case .payment: "a payment (fines), which this desk does not keep; not taken"
      case .unknownTransaction(let name): "unknown transaction «\(name)»"
      }
    return "\(problem.path):\(problem.line): \(what)"
  }

  public func line(_ outcome: KOC.Outcome, source: String) -> String {
    let what =
      switch outcome {
      case .unknownItem(let inventory): "unknown item \(inventory)"
      case .unknownReader(let ticket): "unknown reader \(ticket)"
      case .newerLoan(let inventory): "skipped: \(inventory) has a newer loan"
      case .notOnLoan(let inventory): "skipped: \(inventory) is not on loan"
      case .renewed(let inventory, let ticket): "applied: renewed \(inventory) for \(ticket)"
      case .moved(let inventory, let from, let to): "applied: \(inventory) returned from \(from), issued to \(to)"
      case .issued(let inventory, let ticket): "applied: issued \(inventory) to \(ticket)"
      case .returned(let inventory): "applied: returned \(inventory)"
      case .replayedBefore: "skipped: replayed here before"
      }
    return "\(source): \(what)"
  }

  public func kocSummary(applied: Int, of transactions: Int, notTaken: Int) -> String {
    "\(applied) of \(englishPlural(transactions, "transaction")) applied; \(englishPlural(notTaken, "line")) not taken"
  }

  private func reason(_ flaw: IRBISReader.Flaw) -> String {
    switch flaw {
    case .empty: "an empty record"
    case .endsInside: "the file ends inside the record (no ***** line)"
    case .blankLine: "a blank line inside the record"
    case .noTag: "the line does not start with # and a tag"
    case .noColon: "no : after the tag"
    case .notATag(let text): "«\(text)» is not a field tag (digits)"
    case .noSpace(let tag): "no space after #\(tag):"
    case .line(let flaw): reason(flaw)
    }
  }

  private func reason(_ flaw: LineFlaw) -> String {
    switch flaw {
    case .invalidBytes: return "bytes that are not valid in the file's encoding"
    case .nul: return "a NUL byte in a value"
    case .tooLong(let length, let limit): return "a line of \(length) bytes, over the limit of \(limit)"
    case .unending(let bytes):
      let size = bytes >= 1_048_576 ? "\(bytes / 1_048_576) MiB" : "\(bytes) bytes"
      return "no line break within \(size): not a text file; the rest was not read"
    }
  }

  private func reason(_ flaw: ISO2709Flaw) -> String {
    switch flaw {
    case .noRecordLength: "no record length in the leader"
    case .lengthMismatch(let said, let found):
      "the leader says the record takes \(said) bytes, but it takes \(found) up to its end mark: the record was "
        + "not read; the records after it were"
    case .invalidUTF8(let byte, let value):
      "the leader says UTF-8, but byte \(byte) of the file (0x\(String(value, radix: 16, uppercase: true))) is "
        + "not UTF-8: the record was not read; if the file is in another encoding, say so (--encoding cp1251)"
    case .endsInside: "the file ends inside the record"
    case .damagedDirectory: "a damaged directory"
    case .nul(let tag): "field \(tag) holds a NUL byte"
    case .notMARC8(let tag):
      "field \(tag) is MARC-8 text in a character set this import does not read (Greek, Hebrew, Arabic, CJK…): "
        + "convert the file to UTF-8 first (yaz-marcdump -f MARC-8 -t UTF-8 -o marc -l 9=97), "
        + "or say its encoding with --encoding if it is not MARC-8"
    }
  }

  /// Where a record of `format` keeps its copies' numbers.
  private func numberFields(_ format: RecordFormat) -> String {
    switch format {
    case .irbis: "910 ^B"
    case .unimarc: "910 $b or 899 $p"
    case .marc21: "952 $p, 876 $p or 852 $p"
    }
  }

  private func reason(_ refusal: ImportRefusal) -> String {
    switch refusal {
    case .notABook(let worksheet): "not a book (worksheet \(worksheet))"
    case .noInventoryNumber(let format):
      "no copy with an inventory number (\(numberFields(format))): --assign-inventory START gives it one"
    case .notAReader: "not a reader record"
    case .noTicket: "no reader ticket (field 30)"
    }
  }

  public func message(_ error: FileError) -> String {
    switch error {
    case .cannotOpen(let path, let reason): return "Cannot read \(path): \(reason)"
    case .cannotWrite(let path, let reason): return "Cannot write \(path): \(reason)"
    case .mixedEncoding(let path, let line, let byte):
      let hex = String(byte, radix: 16, uppercase: true)
      return "\(path) is UTF-8 but for line \(line), whose byte 0x\(hex.count < 2 ? "0" + hex : hex) is not: "
        + "nothing was imported; fix the line, or say --encoding utf8 (that line's record is then refused) "
        + "or --encoding cp1251"
    }
  }

  public func line(_ problem: ISO2709Record.Problem, books: [String]) -> String {
    let why =
      switch problem {
      case .tooLong(let bytes): "the record takes \(bytes) bytes, over ISO 2709's 99999"
      case .fieldTooLong(let tag, let bytes): "field \(tag) takes \(bytes) bytes, over ISO 2709's 9999"
      }
    return "book \(books.joined(separator: ", ")): \(why)"
  }

  public func written(_ count: Int, transactions: Bool, to destination: String) -> String {
    transactions
      ? "Wrote \(count) transactions to \(destination)"
      : "Wrote \(count) \(count == 1 ? "record" : "records") to \(destination)"
  }

  public func fieldsLeftOut(_ count: Int) -> String {
    "\(count) fields tagged over 999 do not fit ISO 2709 and were left out"
  }

  public func trialOnEmptyLibrary(path: String) -> String {
    "There is no library at \(path) yet: the import is tried on an empty one, and none is made"
  }

  public var itemsWithoutBranch: String {
    "The items name no branch (952 $a, $b): give --branch CODE for Koha to take them"
  }

  public func replacedCharacters(_ count: Int) -> String {
    "\(count) characters have no place in Windows-1251 and were written as plain letters or ?; "
      + "--encoding utf8 keeps them"
  }
}
