@testable import DeskUI

/// The bytes terminals send for keys: what the harness types, so that every scenario goes
/// through the desk's own decoder as a real terminal's keys do.
enum TerminalBytes {
  static let escape: UInt8 = 0x1B

  /// As xterm (and tmux, under any TERM) sends the key in its normal cursor mode.
  static func xterm(_ key: Key) -> [UInt8] {
    switch key {
    case .character(let character): return Array(String(character).utf8)
    case .enter: return [0x0D]
    case .escape: return [escape]
    case .tab: return [0x09]
    case .backTab: return csi("Z")
    case .backspace: return [0x7F]
    case .delete: return csi("3~")
    case .insert: return csi("2~")
    case .up: return csi("A")
    case .down: return csi("B")
    case .right: return csi("C")
    case .left: return csi("D")
    case .home: return csi("H")
    case .end: return csi("F")
    case .pageUp: return csi("5~")
    case .pageDown: return csi("6~")
    case .function(let number) where (1...4).contains(number):
      return [escape] + Array("O".utf8) + [UInt8(ascii: "P") + UInt8(number - 1)]
    case .function(let number):
      let codes = [5: 15, 6: 17, 7: 18, 8: 19, 9: 20, 10: 21, 11: 23, 12: 24]
      return csi("\(codes[number] ?? 15)~")
    case .control(let letter):
      return [UInt8(letter.asciiValue ?? 0x60) - 0x60]
    }
  }

  static func csi(_ rest: String) -> [UInt8] {
    [escape] + Array(("[" + rest).utf8)
  }

  static func ss3(_ rest: String) -> [UInt8] {
    [escape] + Array(("O" + rest).utf8)
  }
}
