/// A rectangle of the screen, in rows and columns.
public struct Rect: Equatable, Sendable {
  public var row: Int
  public var column: Int
  public var height: Int
  public var width: Int

  public init(row: Int, column: Int, height: Int, width: Int) {
    self.row = row
    self.column = column
    self.height = height
    self.width = width
  }

  public var bottom: Int { row + height }
  public var right: Int { column + width }

  /// A rectangle of `height` × `width` centred in this one, clipped to it.
  public func centered(height: Int, width: Int) -> Rect {
    let h = min(height, self.height)
    let w = min(width, self.width)
    return Rect(row: row + (self.height - h) / 2, column: column + (self.width - w) / 2, height: h, width: w)
  }
}
