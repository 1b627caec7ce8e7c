extension String {
  /// The form an inventory number or a ticket is stored and looked up in: trimmed, and in
  /// Unicode canonical composition (NFC), so that «й» typed as one character and as «и» with
  /// a combining breve are one number.
  ///
  /// The standard library's own canonical-equivalence comparison normalises through
  /// `_nfcCodeUnits`; it is the only normaliser the toolchain offers without Foundation, which
  /// the domain does not import.
  public var identifierForm: String {
    let trimmed = trimmingWhitespace()
    // ASCII is already composed, and scanners type nothing else.
    if trimmed.utf8.allSatisfy({ $0 < 0x80 }) { return trimmed }
    return String(decoding: trimmed._nfcCodeUnits, as: UTF8.self)
  }
}
