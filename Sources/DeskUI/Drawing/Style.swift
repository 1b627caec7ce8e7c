/// The eight basic terminal colours; `nil` in a style means the terminal's default.
public enum TerminalColor: Int, CaseIterable, Sendable {
  case black, red, green, yellow, blue, magenta, cyan, white
}

/// How a cell looks: colours where the terminal has them, and attributes that also show on a
/// monochrome terminal or with `NO_COLOR` set.
public struct Style: Hashable, Sendable {
  public var foreground: TerminalColor?
  public var background: TerminalColor?
  public var bold = false
  public var reverse = false
  public var underline = false
  public var dim = false

  public init(
    foreground: TerminalColor? = nil, background: TerminalColor? = nil, bold: Bool = false, reverse: Bool = false,
    underline: Bool = false, dim: Bool = false
  ) {
    self.foreground = foreground
    self.background = background
    self.bold = bold
    self.reverse = reverse
    self.underline = underline
    self.dim = dim
  }

  public static let plain = Style()

  /// The same attributes without colour, for terminals that have none or `NO_COLOR`.
  public var monochrome: Style {
    Style(bold: bold, reverse: reverse, underline: underline, dim: dim)
  }
}

/// The roles text plays on screen, each with one style: screens say what a thing is, the theme
/// says how it looks.
public enum Role: Sendable {
  case normal, title, header, statusBar, keyBar, keyName, selected, issued, overdue, selectedIssued
  case selectedOverdue, label, field, activeField, dialog, dialogTitle, error, notification, muted, warning
}

public struct Theme: Sendable {
  public var colors: Bool

  public init(colors: Bool) {
    self.colors = colors
  }

  public func style(_ role: Role) -> Style {
    let styled = colored(role)
    return colors ? styled : styled.monochrome
  }

  // Issued and overdue rows carry an attribute besides their colour (and a marker in the row
  // itself), so that they stand out on a monochrome terminal too.
  private func colored(_ role: Role) -> Style {
    switch role {
    case .normal: return .plain
    case .title: return Style(foreground: .cyan, bold: true)
    case .header: return Style(bold: true, underline: true)
    case .statusBar: return Style(foreground: .black, background: .cyan, reverse: !colors)
    case .keyBar: return Style(foreground: .black, background: .white, reverse: !colors)
    case .keyName: return Style(foreground: .white, background: .blue, bold: true)
    case .selected: return Style(reverse: true)
    case .issued: return Style(foreground: .yellow, bold: true)
    case .overdue: return Style(foreground: .red, bold: true, underline: true)
    case .selectedIssued: return Style(foreground: .yellow, bold: true, reverse: true)
    case .selectedOverdue: return Style(foreground: .red, bold: true, reverse: true, underline: true)
    case .label: return Style(foreground: .cyan)
    case .field: return Style(underline: true)
    case .activeField: return Style(foreground: .black, background: .cyan, reverse: !colors)
    case .dialog: return Style(foreground: .white, background: .blue, reverse: !colors)
    case .dialogTitle: return Style(foreground: .yellow, background: .blue, bold: true, reverse: !colors)
    case .error: return Style(foreground: .white, background: .red, bold: true, reverse: !colors)
    case .notification: return Style(foreground: .black, background: .green, bold: true, reverse: !colors)
    case .muted: return Style(dim: true)
    case .warning: return Style(foreground: .red, bold: true)
    }
  }
}
