import DeskDomain
import DeskStorage

/// The desk drawn: the title bar, the screen on top, the status line (a notification, or where the
/// library stands), the key bar, and a dialog over them.
extension DeskApp {
  /// Draws the whole desk at the given size.
  public func render(rows: Int, columns: Int) -> ScreenBuffer {
    var buffer = ScreenBuffer(rows: rows, columns: columns)
    guard rows >= DeskApp.minimumRows, columns >= DeskApp.minimumColumns else {
      var lines = context.strings.tooSmall(columns, rows, DeskApp.minimumColumns, DeskApp.minimumRows)
      if !heldScans.isEmpty { lines = context.strings.scansHeld(heldScans.count) + " " + lines }
      for (index, line) in wrap(lines, width: max(1, columns)).prefix(rows).enumerated() {
        buffer.write(line, row: index, column: 0)
      }
      return buffer
    }
    let strings = context.strings
    // Title bar: the desk and the screen. The file is named in the status line.
    let titleStyle = context.style(.statusBar)
    buffer.fill(row: 0, column: 0, height: 1, width: columns, style: titleStyle)
    let heading = "\(strings.appName) — \(top.title(context))"
    buffer.write(" " + heading, row: 0, column: 0, width: columns, style: titleStyle)
    let body = Rect(row: 1, column: 0, height: rows - 3, width: columns)
    top.render(into: &buffer, area: body, context: context)
    let cursor = buffer.cursor
    // Status line: a notification, or today's date.
    let statusRow = rows - 2
    // A notification too long for the status line takes the key bar's row too, for its seconds:
    // what a change did is said whole.
    let noticeLines = notification.map { wrap($0.text, width: columns - 1).map { " " + $0 } } ?? []
    if let first = noticeLines.first {
      buffer.writePadded(first, row: statusRow, column: 0, width: columns, style: context.style(.notification))
    } else {
      drawnStatus = statusText()
      // Conflicts are highlighted at the right. A line too long loses its last parts whole: a
      // count cut in the middle ("3…" of 33) would mislead.
      let badge =
        context.sync.conflicts > 0 ? " " + strings.conflictsBadge(context.sync.conflicts, key: "F9") + " " : ""
      let room = max(0, columns - badge.displayWidth)
      buffer.writePadded(
        DeskApp.fitting(drawnStatus, width: room), row: statusRow, column: 0, width: room,
        style: context.style(.muted))
      if !badge.isEmpty {
        buffer.write(badge, row: statusRow, column: room, style: context.style(.warning))
      }
    }
    renderKeyBar(into: &buffer, row: rows - 1, columns: columns)
    if noticeLines.count > 1 {
      buffer.writePadded(
        noticeLines.dropFirst().joined(separator: " "), row: rows - 1, column: 0, width: columns,
        style: context.style(.notification))
    }
    buffer.cursor = cursor
    if let dialog {
      dialog.render(into: &buffer, area: Rect(row: 0, column: 0, height: rows, width: columns), context: context)
    }
    return buffer
  }

  /// A status line cut to `width` by whole items from its end (parts apart by " · ", items within
  /// them by ", "): a number cut in the middle would mislead.
  static func fitting(_ text: String, width: Int) -> String {
    // Most lines fit: splitting them on every paint was 6% of a page down.
    guard text.displayWidth > width else { return text }
    var parts = text.split(separator: " · ", omittingEmptySubsequences: false).map {
      $0.split(separator: ", ", omittingEmptySubsequences: false).map(String.init)
    }
    func joined() -> String { parts.map { $0.joined(separator: ", ") }.joined(separator: " · ") }
    while joined().displayWidth > width, parts.count > 1 || (parts.first?.count ?? 0) > 1 {
      parts[parts.count - 1].removeLast()
      if parts[parts.count - 1].isEmpty { parts.removeLast() }
    }
    return joined()
  }

  /// The screen's keys, then the desk's own: F9 while conflicts wait, F1 and F10 always. A narrow
  /// window keeps the desk's keys and as many of the screen's as fit, in the screen's order of
  /// importance; help (F1) lists them all.
  func renderKeyBar(into buffer: inout ScreenBuffer, row: Int, columns: Int) {
    let strings = context.strings
    var always = [KeyHint("F1", strings.keyHelp), KeyHint("F10", strings.keyQuit)]
    if context.sync.conflicts > 0, !(top is ConflictListScreen), !(top is ConflictScreen) {
      always.insert(KeyHint("F9", strings.keyConflicts), at: 0)
    }
    func needed(_ hint: KeyHint) -> Int { hint.key.displayWidth + hint.label.displayWidth + 2 }
    var room = columns - always.map(needed).reduce(0, +)
    var hints: [KeyHint] = []
    for hint in top.keyHints(context) where needed(hint) <= room {
      hints.append(hint)
      room -= needed(hint)
    }
    buffer.fill(row: row, column: 0, height: 1, width: columns, style: context.style(.keyBar))
    var x = 0
    for hint in hints + always where x + needed(hint) <= columns {
      x += buffer.write(hint.key, row: row, column: x, style: context.style(.keyName))
      x += buffer.write(" " + hint.label + " ", row: row, column: x, style: context.style(.keyBar))
    }
  }

  /// The status line's words when no notification covers it.
  func statusText() -> String {
    // Joined, where the desk stands with the central comes first and the date last: a line too
    // long for the window loses its end.
    var parts = [" \(context.databaseName)"]
    if context.isJoined {
      parts.append(context.strings.syncStatus(context.sync, now: context.clock.now().instant, clock: context.clock))
    } else {
      parts.append(context.today.iso)
    }
    if let counts {
      parts.append(context.strings.statusCounts(counts.books, counts.out, counts.overdue, counts.readers))
    }
    if let holdShelf, holdShelf.waiting > 0 {
      parts.append(context.strings.holdShelfCounts(holdShelf.waiting, holdShelf.tooLong))
    }
    if context.isJoined { parts.append(context.today.iso) }
    return parts.joined(separator: " · ")
  }
}
