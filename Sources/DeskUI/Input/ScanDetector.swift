import DeskDomain

/// Settings of the keyboard-wedge scanner detector: a scan is a burst of characters with short
/// gaps, ended by Enter, Tab or a pause.
public struct WedgeSettings: Equatable, Sendable {
  /// The longest gap between two keys of one scan (scanners send them 1 to 15 ms apart; people
  /// type 100 ms and more apart).
  public var maximumGapMilliseconds: Int64 = 50
  /// The shortest code a scan can be.
  public var minimumLength = 4
  /// The longest a whole scan may take.
  public var maximumDurationMilliseconds: Int64 = 10_000
  /// Characters the scanner is programmed to send before and after each code; when set, their
  /// presence alone marks a scan.
  public var prefix = ""
  public var suffix = ""

  public init() {}

  /// The settings the library keeps in its policy.
  public init(policy: CirculationPolicy) {
    maximumGapMilliseconds = Int64(policy.scannerMaximumGapMilliseconds)
    minimumLength = policy.scannerMinimumLength
    prefix = policy.scannerPrefix
    suffix = policy.scannerSuffix
  }
}

/// A code a wedge scanner typed, and the key that ended it: Enter or Tab as the scanner sends
/// them, nil when a pause did. A form moves on to its next field after a scan its terminator
/// ended, as after the same key typed.
public struct Scan: Equatable, Sendable {
  public var code: String
  public var endedBy: Key?

  public init(_ code: String, endedBy: Key? = nil) {
    self.code = code
    self.endedBy = endedBy
  }
}

/// Tells a scanner's burst of keystrokes from typing, by timing and by content together: keys
/// typed while the desk was busy also arrive as a burst, so a burst counts as a scan only when
/// it carries the configured prefix and suffix or reads as a code (a valid ISBN, a known
/// inventory number or ticket, a QR book record). Characters are held back for at most one
/// key gap while a burst may be starting, and handed on as ordinary keys when it is not a scan.
/// A burst ends with Tab, or with a pause, an Enter before the pause being its terminator (CR, LF
/// and CR LF arrive as one Enter) and Enters inside it the line breaks of a multi-line code.
public struct ScanDetector {
  public enum Output: Equatable {
    case key(Key)
    case scan(Scan)
  }

  public var settings: WedgeSettings
  private let looksLikeCode: (String) -> Bool
  private var pending: [(character: Character, time: Int64)] = []

  public init(settings: WedgeSettings = WedgeSettings(), looksLikeCode: @escaping (String) -> Bool) {
    self.settings = settings
    self.looksLikeCode = looksLikeCode
  }

  /// True while characters are held back: the caller should tick again soon.
  public var isHolding: Bool { !pending.isEmpty }

  public mutating func feed(_ key: Key, at time: Int64) -> [Output] {
    let inBurst = pending.last.map { time - $0.time <= settings.maximumGapMilliseconds } ?? false
    switch key {
    case .character(let character):
      if !pending.isEmpty,
        !inBurst || time - pending[0].time > settings.maximumDurationMilliseconds
      {
        let output = flush()
        pending = [(character, time)]
        return output
      }
      pending.append((character, time))
      return []
    case .enter where inBurst:
      // A QR record typed by a scanner is several lines: an Enter followed within the burst's gap
      // by more characters is a line break of the same code. Only a pause tells it is the end.
      pending.append(("\n", time))
      return []
    case .tab where inBurst:
      if let code = scanCode() {
        pending = []
        return [.scan(Scan(code, endedBy: .tab))]
      }
      return releasePending() + [.key(key)]
    default:
      return flush() + [.key(key)]
    }
  }

  /// Called when no key came for a while: a burst that stopped, with or without Enter, ends here.
  public mutating func tick(at time: Int64) -> [Output] {
    guard let last = pending.last, time - last.time > settings.maximumGapMilliseconds else { return [] }
    return flush()
  }

  /// Ends the held burst: a scan when it reads as one, else the keys as they came.
  private mutating func flush() -> [Output] {
    guard !pending.isEmpty else { return [] }
    if let code = scanCode() {
      let terminator: Key? = pending.last?.character == "\n" ? .enter : nil
      pending = []
      return [.scan(Scan(code, endedBy: terminator))]
    }
    return releasePending()
  }

  private mutating func releasePending() -> [Output] {
    defer { pending = [] }
    return pending.map { $0.character == "\n" ? .key(.enter) : .key(.character($0.character)) }
  }

  /// The code of the held burst, when it is one. The Enter that ended it is not part of it; the
  /// Enters between its lines are.
  private func scanCode() -> String? {
    var text = String(pending.map(\.character))
    while text.last == "\n" { text.removeLast() }
    guard text.count >= settings.minimumLength else { return nil }
    if !settings.prefix.isEmpty || !settings.suffix.isEmpty {
      guard text.hasPrefix(settings.prefix), text.hasSuffix(settings.suffix),
        text.count >= settings.prefix.count + settings.suffix.count + 1
      else { return nil }
      text = String(text.dropFirst(settings.prefix.count).dropLast(settings.suffix.count))
      return text
    }
    return looksLikeCode(text) ? text : nil
  }
}
