/// Turns the bytes a terminal sends into keys, whatever the terminal: UTF-8 text, control
/// characters, and the escape sequences of xterm, tmux and screen, the Linux console, rxvt and
/// PuTTY for the same key (`ESC [1~`, `ESC [H` and `ESC OH` are all Home). An unknown sequence is
/// dropped whole, never read as Esc followed by letters; Alt and a letter (`ESC x`) is not Esc.
/// A lone Esc is known only when nothing follows it for `escapeDelayMilliseconds`.
///
/// The driver feeds it the bytes it reads and the tests feed it the same bytes, with the same
/// timings, so the desk is tested on what terminals and scanners really send.
public struct KeyDecoder {
  /// How long an Esc waits for the rest of a sequence. Terminals send a sequence in one write;
  /// over a slow link the pieces may arrive a few milliseconds apart.
  public var escapeDelayMilliseconds: Int64 = 25

  private var pending: [UInt8] = []
  private var pendingSince: Int64 = 0
  /// A CR just decoded: an LF right after it is the same Enter (scanners that end with CR LF).
  private var lastCarriageReturn: Int64?

  public init() {}

  /// True while bytes are held back (an Esc that may start a sequence, half a UTF-8 character).
  public var isHolding: Bool { !pending.isEmpty }

  public mutating func feed(_ bytes: [UInt8], at time: Int64) -> [Key] {
    var keys: [Key] = []
    if !pending.isEmpty, time - pendingSince > escapeDelayMilliseconds {
      keys += flush()
    }
    if pending.isEmpty { pendingSince = time }
    pending += bytes
    keys += decode(at: time, final: false)
    return keys
  }

  /// Called when no byte came for a while: an Esc on its own is the Esc key.
  public mutating func tick(at time: Int64) -> [Key] {
    guard !pending.isEmpty, time - pendingSince > escapeDelayMilliseconds else { return [] }
    return flush()
  }

  private mutating func flush() -> [Key] {
    decode(at: pendingSince, final: true)
  }

  /// Decodes what `pending` holds; an incomplete sequence stays unless `final`.
  private mutating func decode(at time: Int64, final: Bool) -> [Key] {
    var keys: [Key] = []
    var index = 0
    let bytes = pending
    while index < bytes.count {
      let byte = bytes[index]
      if byte != 0x0A { lastCarriageReturn = nil }
      switch byte {
      case 0x1B:
        switch Self.escapeSequence(bytes, from: index) {
        case .incomplete:
          if !final {
            pending = Array(bytes[index...])
            return keys
          }
          // Nothing more came. Esc alone is the Esc key; Esc with one more byte (Alt-O, Alt-[, a
          // sequence cut short) is nothing.
          if index + 1 < bytes.count {
            index += 1 + max(1, Self.utf8Length(bytes[index + 1]))
          } else {
            keys.append(.escape)
            index += 1
          }
        case .key(let key, let length):
          if let key { keys.append(key) }
          index += length
        }
      case 0x0D:
        keys.append(.enter)
        lastCarriageReturn = time
        index += 1
      case 0x0A:
        if let carriageReturn = lastCarriageReturn, time - carriageReturn <= escapeDelayMilliseconds {
          lastCarriageReturn = nil
        } else {
          keys.append(.enter)
        }
        index += 1
      case 0x09:
        keys.append(.tab)
        index += 1
      case 0x08, 0x7F:
        keys.append(.backspace)
        index += 1
      case 0x00:
        index += 1  // Ctrl-Space or a line's padding: nothing
      case 0x01...0x1A:
        keys.append(.control(Character(Unicode.Scalar(byte + 0x60))))
        index += 1
      case 0x1C...0x1F:
        index += 1  // Ctrl-\ and the like: nothing the desk uses
      default:
        let length = Self.utf8Length(byte)
        guard length > 0 else {
          index += 1  // a stray continuation byte
          continue
        }
        guard index + length <= bytes.count else {
          if !final {
            pending = Array(bytes[index...])
            return keys
          }
          keys.append(.character("\u{FFFD}"))
          index = bytes.count
          continue
        }
        let scalar = String(decoding: bytes[index..<(index + length)], as: UTF8.self)
        keys += scalar.map { Key.character($0) }
        index += length
      }
    }
    pending = []
    return keys
  }

  private enum Sequence {
    case incomplete
    /// The key the sequence means (nil for one the desk does not know, dropped whole) and how
    /// many bytes it took.
    case key(Key?, length: Int)
  }

  private static func escapeSequence(_ bytes: [UInt8], from start: Int) -> Sequence {
    guard start + 1 < bytes.count else { return .incomplete }
    let introducer = bytes[start + 1]
    switch introducer {
    case UInt8(ascii: "["):
      // CSI: parameters and intermediates (0x20–0x3F), then one final byte (0x40–0x7E). The Linux
      // console's F1–F5 are `ESC [ [ A` … `ESC [ [ E`.
      var index = start + 2
      if index < bytes.count, bytes[index] == UInt8(ascii: "[") {
        guard index + 1 < bytes.count else { return .incomplete }
        let key = linuxFunctionKeys[bytes[index + 1]]
        return .key(key, length: index + 2 - start)
      }
      while index < bytes.count, (0x20...0x3F).contains(bytes[index]) { index += 1 }
      guard index < bytes.count else { return .incomplete }
      let final = bytes[index]
      guard (0x40...0x7E).contains(final) else {
        return .key(nil, length: index - start)  // broken: drop what was read
      }
      let parameters = String(decoding: bytes[(start + 2)..<index], as: UTF8.self)
      return .key(csiKey(parameters: parameters, final: final), length: index + 1 - start)
    case UInt8(ascii: "O"):
      // SS3: one more byte, perhaps after a modifier digit (`ESC O 5 H`).
      var index = start + 2
      while index < bytes.count, (0x30...0x39).contains(bytes[index]) || bytes[index] == UInt8(ascii: ";") {
        index += 1
      }
      guard index < bytes.count else { return .incomplete }
      return .key(ss3Keys[bytes[index]], length: index + 1 - start)
    case 0x1B:
      // Esc pressed twice, or Alt with a sequence: the first is Esc.
      return .key(.escape, length: 1)
    case 0x09:
      return .key(.backTab, length: 2)  // the Linux console's Shift-Tab
    default:
      // Alt and a key: not Esc, and not the key either (a slip of the thumb must do nothing).
      let length = max(1, utf8Length(introducer))
      guard start + 1 + length <= bytes.count else { return .incomplete }
      return .key(nil, length: 1 + length)
    }
  }

  private static func csiKey(parameters: String, final: UInt8) -> Key? {
    // Modifiers (`1;5H`, Ctrl-Home) change nothing here: the key is the same key.
    let first = parameters.split(separator: ";").first.map(String.init) ?? ""
    switch final {
    case UInt8(ascii: "A"): return .up
    case UInt8(ascii: "B"): return .down
    case UInt8(ascii: "C"): return .right
    case UInt8(ascii: "D"): return .left
    case UInt8(ascii: "H"): return .home
    case UInt8(ascii: "F"): return .end
    case UInt8(ascii: "Z"): return .backTab
    case UInt8(ascii: "P"): return .function(1)
    case UInt8(ascii: "Q"): return .function(2)
    case UInt8(ascii: "R"): return .function(3)
    case UInt8(ascii: "S"): return .function(4)
    case UInt8(ascii: "~"):
      switch Int(first) {
      case 1, 7: return .home
      case 2: return .insert
      case 3: return .delete
      case 4, 8: return .end
      case 5: return .pageUp
      case 6: return .pageDown
      case 11: return .function(1)
      case 12: return .function(2)
      case 13: return .function(3)
      case 14: return .function(4)
      case 15: return .function(5)
      case 17: return .function(6)
      case 18: return .function(7)
      case 19: return .function(8)
      case 20: return .function(9)
      case 21: return .function(10)
      case 23: return .function(11)
      case 24: return .function(12)
      default: return nil  // bracketed paste marks and others: nothing
      }
    default:
      return nil
    }
  }

  private static let ss3Keys: [UInt8: Key] = [
    UInt8(ascii: "A"): .up, UInt8(ascii: "B"): .down, UInt8(ascii: "C"): .right, UInt8(ascii: "D"): .left,
    UInt8(ascii: "H"): .home, UInt8(ascii: "F"): .end, UInt8(ascii: "M"): .enter,
    UInt8(ascii: "P"): .function(1), UInt8(ascii: "Q"): .function(2), UInt8(ascii: "R"): .function(3),
    UInt8(ascii: "S"): .function(4),
  ]

  private static let linuxFunctionKeys: [UInt8: Key] = [
    UInt8(ascii: "A"): .function(1), UInt8(ascii: "B"): .function(2), UInt8(ascii: "C"): .function(3),
    UInt8(ascii: "D"): .function(4), UInt8(ascii: "E"): .function(5),
  ]

  /// The length of the UTF-8 sequence a byte starts; 0 for a byte that starts none.
  private static func utf8Length(_ byte: UInt8) -> Int {
    switch byte {
    case 0x00...0x7F: return 1
    case 0xC2...0xDF: return 2
    case 0xE0...0xEF: return 3
    case 0xF0...0xF4: return 4
    default: return 0
    }
  }
}
