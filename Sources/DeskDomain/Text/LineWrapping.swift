/// Breaks text into lines of at most `width` columns (`displayWidth`), at spaces where it can; a
/// word longer than a line is cut. The screens and printed texts wrap alike.
public func wrap(_ text: String, width: Int) -> [String] {
  guard width > 0 else { return [text] }
  var lines: [String] = []
  for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
    var line = ""
    for word in paragraph.split(separator: " ", omittingEmptySubsequences: false) {
      let candidate = line.isEmpty ? String(word) : line + " " + word
      if candidate.displayWidth <= width {
        line = candidate
      } else {
        if !line.isEmpty { lines.append(line) }
        var rest = String(word)
        while rest.displayWidth > width {
          let head = rest.truncated(toWidth: width + 1).dropLast()
          lines.append(String(head))
          rest = String(rest.dropFirst(head.count))
        }
        line = rest
      }
    }
    lines.append(line)
  }
  return lines
}
