import CSQLite

#if canImport(Glibc)
  import Glibc
#endif

/// An FTS5 tokenizer of this connection's SQLite, outside any index: it splits a text into the
/// very words a full-text index made with the same `tokenize` option stores, so that a list of
/// words kept beside the index agrees with it letter for letter.
final class FullTextTokenizer {
  private let tokenizer: UnsafeMutablePointer<csqlite_tokenizer>

  /// The tokenizer `tokenize='name arguments…'` names, as `Migrations` gives it to the indexes.
  init(_ database: Database, tokenize: String) throws(DatabaseError) {
    let parts = tokenize.split(separator: " ").compactMap { strdup(String($0)) }
    defer { for part in parts { free(part) } }
    var arguments: [UnsafePointer<CChar>?] = parts.dropFirst().map { UnsafePointer($0) }
    let opened = arguments.withUnsafeMutableBufferPointer { arguments in
      parts.first.flatMap { csqlite_tokenizer_open(database.handle, $0, arguments.baseAddress, Int32(arguments.count)) }
    }
    guard let tokenizer = opened else {
      throw DatabaseError(extendedCode: SQLITE_ERROR, message: "no FTS5 tokenizer \(tokenize)")
    }
    self.tokenizer = tokenizer
  }

  deinit { csqlite_tokenizer_close(tokenizer) }

  /// Calls `found` with each word of `text`, in order, repeats included.
  func forEachWord(in text: String, _ found: (String) -> Void) {
    withoutActuallyEscaping(found) { found in
      var sink = found
      var text = text
      text.withUTF8 { bytes in
        _ = withUnsafeMutablePointer(to: &sink) { sink in
          csqlite_tokenize(tokenizer, bytes.baseAddress, Int32(bytes.count), sink) { context, word, length in
            guard let context, let word else { return }
            let found = context.assumingMemoryBound(to: ((String) -> Void).self).pointee
            found(String(decoding: UnsafeRawBufferPointer(start: word, count: Int(length)), as: UTF8.self))
          }
        }
      }
    }
  }
}
