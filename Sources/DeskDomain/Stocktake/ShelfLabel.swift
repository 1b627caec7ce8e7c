/// A shelf's label during a check: `PLACE:` and the storage place's name. Scanned (or typed as a
/// line of `stocktake scan`), it says where the copies scanned next stand.
public enum ShelfLabel {
  public static let prefix = "PLACE:"

  /// The place a scanned code names, or nil for a code that is no shelf label.
  public static func place(in code: String) -> String? {
    // The prefix in any case: a scanner set to lower case, or a label typed by hand.
    guard code.count >= prefix.count, code.prefix(prefix.count).uppercased() == prefix else { return nil }
    return String(code.dropFirst(prefix.count)).trimmingWhitespace()
  }

  /// The text of the label for `place`, as a label printer or QR code would carry it.
  public static func code(for place: String) -> String { prefix + place.trimmingWhitespace() }
}
