/// Comma-separated values as RFC 4180 writes them: a field with a comma, a quote or a line break
/// is quoted, its quotes doubled; lines end with CRLF, as spreadsheets and mail merges expect.
enum CSV {
  static func line(_ fields: [String]) -> String {
    fields.map(field).joined(separator: ",") + "\r\n"
  }

  static func field(_ text: String) -> String {
    guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
    return "\"" + text.replacingAll("\"", with: "\"\"") + "\""
  }
}

extension String {
  func replacingAll(_ target: Character, with replacement: String) -> String {
    var result = ""
    for character in self { if character == target { result += replacement } else { result.append(character) } }
    return result
  }
}
