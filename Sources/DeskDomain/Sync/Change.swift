/// A hybrid logical clock reading: milliseconds of wall-clock time in the high 48 bits, a counter
/// in the low 16. A desk's readings only grow, and a desk that hears of a later reading from
/// another desk moves past it, so a desk whose clock is behind still orders its changes after
/// those it has seen. Equal readings of two desks are ordered by desk id.
public struct HybridTimestamp: Hashable, Comparable, Sendable, CustomStringConvertible {
  public let rawValue: Int64

  public init(rawValue: Int64) {
    self.rawValue = rawValue
  }

  public var milliseconds: Int64 { rawValue >> 16 }
  public var counter: Int { Int(rawValue & 0xFFFF) }
  public var timestamp: Timestamp { Timestamp(millisecondsSinceEpoch: milliseconds) }

  public static func < (lhs: HybridTimestamp, rhs: HybridTimestamp) -> Bool {
    lhs.rawValue < rhs.rawValue
  }

  public var description: String {
    counter == 0 ? timestamp.iso : "\(timestamp.iso)+\(counter)"
  }
}

/// The kinds of records that travel between desks, as changes name them (`Change.entity`).
public enum RecordKind: String, Hashable, Sendable, CaseIterable {
  case category, holiday, setting, address, book, reader, loan, hold
  /// The work diary's events: a reader at a counter, a loan renewed.
  case visit, renewal
  /// A check of the stock: the check, its expected list in parts, and each scan.
  case stocktake
  case stocktakePart = "stocktake_part"
  case stocktakeScan = "stocktake_scan"
  /// A settled conflict travels as a record of its own.
  case conflict
}

/// One change of one record, as desks and the central pass it on: which record, which fields
/// now hold which values (a JSON object), when (by the desk's hybrid clock) and at which desk.
public struct Change: Hashable, Sendable {
  /// The change's own UUID: sent twice, it is applied once.
  public var id: String
  public var entity: String
  public var recordID: String
  public var clock: HybridTimestamp
  public var deskID: String
  /// A JSON object: field name → value.
  public var payload: String

  /// The kind of record it changes; nil for a kind this program does not know.
  public var kind: RecordKind? { RecordKind(rawValue: entity) }

  public init(id: String, entity: String, recordID: String, clock: HybridTimestamp, deskID: String, payload: String) {
    self.id = id
    self.entity = entity
    self.recordID = recordID
    self.clock = clock
    self.deskID = deskID
    self.payload = payload
  }
}

/// A change as the central numbered it, with the name of the desk it came from.
public struct PulledChange: Hashable, Sendable {
  public var sequence: Int64
  public var change: Change
  public var deskName: String

  public init(sequence: Int64, change: Change, deskName: String) {
    self.sequence = sequence
    self.change = change
    self.deskName = deskName
  }
}
